// Shared inputs of the estimator tests: a recorded input (the DFKI pendulum's gravity-compensation
// record: 30 s at ~1 kHz with its real timing jitter) and parameter sets.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/estimator/torque_estimator.hpp"
#include "frictionlab/io/csv.hpp"

namespace frictionlab::test {

/// A recorded input: time [s], position [rad], velocity [rad/s], motor current [A].
struct RecordedInput {
  std::vector<double> t, x, v, i;
};

/// ../shared/data/pendulum_dfki/gravcomp_data_measured.csv; the current is its measured torque
/// divided by the torque constant `Km` (the record's driver reports torque).
inline RecordedInput pendulum_record(double Km) {
  const auto table = io::read_csv(std::string(FRICTIONLAB_SOURCE_DIR) +
                                  "/../shared/data/pendulum_dfki/gravcomp_data_measured.csv");
  RecordedInput r;
  r.t = table.column("time");
  r.x = table.column("position");
  r.v = table.column("velocity");
  for (double tau : table.column("torque")) r.i.push_back(tau / Km);
  return r;
}

/// A joint-scale LuGre set with realistic (stiff) bristles: sigma0 = 1e4 Nm/rad, asymmetric
/// levels, Stribeck exponent 1 (reference 000), passive (sigma2 > sigma1 (Fs - Fc)/Fc).
inline estimator::EstimatorParams<double> joint_params(Hold hold = Hold::linear) {
  estimator::EstimatorParams<double> p;
  p.Km = 0.5;
  p.friction.sigma0 = 1e4;
  p.friction.sigma1 = 0.05;
  p.friction.sigma2 = 0.05;
  p.friction.curve =
      StribeckCurve<double>{0.18, 0.15, 0.25, 0.21, 0.05, 1.0, StribeckShape::exponential};
  p.friction.vd = 0;
  p.hold = hold;
  return p;
}

/// The same with velocity-dependent damping and the rational Stribeck shape (alpha = 2).
inline estimator::EstimatorParams<double> joint_params_vd(Hold hold = Hold::linear) {
  auto p = joint_params(hold);
  p.friction.sigma1 = 0.5;
  p.friction.vd = 0.02;
  p.friction.curve.shape = StribeckShape::rational;
  p.friction.curve.alpha = 2.0;
  return p;
}

}  // namespace frictionlab::test
