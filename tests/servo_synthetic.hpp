// Synthetic servo logs for the servo tests: pendulum logs (400 entries at 5 ms) whose positions
// and speeds are frictionlab's own closed-loop simulation (identify::servo_simulate_log) of known
// XL330 parameters, so that the truth is known exactly (its loss is 0).
#pragma once

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/sim/servo_actuators.hpp"

namespace frictionlab::servo_test {

inline const sim::ServoActuator& xl330() {
  static const sim::ServoActuator a = *io::builtin_actuator("xl330");
  return a;
}

inline sim::ServoParams truth_m3() {
  sim::ServoParams p;
  p.model = ActuatorModel::M3;
  p.kt = 0.42;
  p.R = 3.6;
  p.armature = 0.0021;
  p.q_offset = 0.02;
  p.friction.Kc = 0.012;
  p.friction.Kv = 0.006;
  p.friction.Kl = 0.08;
  return p;
}

// Goals like BAM's trajectories (2 s at 5 ms): two sines; a lift, then the torque released.
inline data::ServoLog synthetic(int shape, double kp, const sim::ServoParams& p) {
  data::ServoLog l;
  l.file =
      "synthetic_" + std::to_string(shape) + "_" + std::to_string(static_cast<int>(kp)) + ".json";
  l.mass = 0.49;
  l.length = 0.1;
  l.kp = kp;
  l.vin = 7.4;
  l.dt = 0.005;
  l.trajectory = shape == 0 ? "sin_sin" : "lift_and_drop";
  const int n = 400;
  for (int k = 0; k < n; ++k) {
    const double t = 0.005 * k;
    double goal = 0;
    bool enable = true;
    if (shape == 0) {
      goal = 0.9 * std::sin(2 * std::numbers::pi * 0.7 * t) +
             0.4 * std::sin(2 * std::numbers::pi * 2.1 * t);
    } else {
      goal = std::min(1.4, 1.4 * t / 1.0);
      enable = t < 1.3;
    }
    l.timestamp.push_back(t);
    l.goal_position.push_back(goal);
    l.torque_enable.push_back(enable ? 1 : 0);
  }
  l.position.assign(n, 0.0);
  l.speed.assign(n, 0.0);
  std::vector<double> q, qd;
  identify::servo_simulate_log(xl330().constants, p, l, q, qd);
  l.position = q;
  l.speed = qd;
  return l;
}

// The log `l` with a temperature running linearly from T0 to T1 [degC] over its entries, and its
// positions and speeds simulated again with p (whose temperature law, if any, then acts).
inline data::ServoLog warming(data::ServoLog l, double T0, double T1, const sim::ServoParams& p) {
  const std::size_t n = l.size();
  l.temp.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    l.temp[k] = T0 + (T1 - T0) * static_cast<double>(k) / static_cast<double>(n - 1);
  std::vector<double> q, qd;
  identify::servo_simulate_log(xl330().constants, p, l, q, qd);
  l.position = q;
  l.speed = qd;
  return l;
}

/// The options of the fits that recover a truth from these logs: CMA-ES (seed 5, two threads),
/// `max_evals` evaluations, and tolerances (tol_f 1e-14, tol_x 1e-10) so tight that the run goes
/// on to the truth's loss of 0 rather than stopping near it.
inline identify::ServoFitOptions converging_fit(long max_evals) {
  identify::ServoFitOptions o;
  o.cmaes.max_evals = max_evals;
  o.cmaes.seed = 5;
  o.cmaes.threads = 2;
  o.cmaes.tol_f = 1e-14;
  o.cmaes.tol_x = 1e-10;
  return o;
}

}  // namespace frictionlab::servo_test
