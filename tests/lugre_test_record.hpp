// LuGre records the tests and benchmarks fit, from identify/synthetic.hpp's default excitation:
//  - lugre_test_record: a short noisy friction record the workflow tests fit (4 s, noise
//    0.01 N): sigma0 = 1e4, sigma1 = 30, sigma2 = 0.4, Fc = 1, Fs = 1.5, vs = 5e-3, alpha = 2;
//  - reference_lugre / reference_record: the demo's joint (workflows/demo.cpp) and its records,
//    sensorless (Km = kReferenceKm) or friction, 30 s at 1 kHz by default, noise 0.02 N m: the
//    record of bench_identify and of the segmented-Jacobian tests.
#pragma once

#include "frictionlab/identify/options.hpp"
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

/// The demo's joint: sigma0 = 500 N m/rad, sigma1 = 0.5 N m s/rad, sigma2 = 0.5 N m s/rad,
/// Fc = 1 N m, Fs = 1.5 N m, vs = 0.1 rad/s, alpha = 1.
inline LuGre<double>::Params reference_lugre() {
  return {.sigma0 = 500,
          .sigma1 = 0.5,
          .sigma2 = 0.5,
          .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0)};
}

/// The demo's motor constant [N m/A].
inline constexpr double kReferenceKm = 2.0;

/// A record of the reference joint: sensorless (t, current, velocity, torque) or friction.
inline data::Record reference_record(identify::ProblemKind problem, unsigned seed,
                                     double noise = 0.02, double seconds = 30) {
  identify::SyntheticOptions so;
  so.excitation.duration = seconds;
  so.noise_std = noise;
  so.seed = seed;
  return problem == identify::ProblemKind::sensorless
             ? identify::synthetic_sensorless_record(reference_lugre(), kReferenceKm, so)
             : identify::synthetic_friction_record(ModelSpec{reference_lugre()}, so);
}

}  // namespace frictionlab::testing
