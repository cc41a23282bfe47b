// A short noisy LuGre friction record the workflow tests fit (4 s, noise 0.01 N): the truth
// sigma0 = 1e4, sigma1 = 30, sigma2 = 0.4, Fc = 1, Fs = 1.5, vs = 5e-3, alpha = 2
// (identify::synthetic_friction_record with its default excitation and seed).
#pragma once

#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/models/model_spec.hpp"

namespace frictionlab::testing {

inline data::Record lugre_test_record() {
  identify::SyntheticOptions so;
  so.noise_std = 0.01;
  so.excitation.duration = 4;
  LuGre<double>::Params p;
  p.sigma0 = 1e4;
  p.sigma1 = 30;
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 5e-3, 2.0);
  return identify::synthetic_friction_record(ModelSpec{p}, so);
}

}  // namespace frictionlab::testing
