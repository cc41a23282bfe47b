// frictionlab: a robot joint for identification from one trajectory (reference 004):
// the data the methods consume; the model they return is sim::JointModel
// (sim/joint_model.hpp: I*qdd + mgCx*cos(q) - mgCy*sin(q) + tau_f(qd, z) + offset = tau).
// Methods: identify/joint_sr3.hpp (the paper's SINDy-SR3 + iterative LuGre algorithm),
// identify/joint_idim.hpp (inverse dynamic model, linear least squares),
// identify/joint_oe.hpp (output-error refinement). Equations, conventions and measured
// accuracy: docs/joint-identification.md.
//
// Host side: plain data, no file I/O.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "frictionlab/sim/joint_model.hpp"

namespace frictionlab::identify {

using sim::JointModel;
using sim::JointStructure;
using sim::rigid_body_torque;
using sim::steady_friction;

/// One joint trajectory, preprocessed: every channel has the length of t, finite, t strictly
/// increasing. qd and qdd are estimates (differentiated / filtered by the caller).
struct JointData {
  std::string source;       ///< where it came from (file name), for messages and reports
  std::vector<double> t;    ///< time [s]
  std::vector<double> q;    ///< joint angle [rad]
  std::vector<double> qd;   ///< joint velocity [rad/s]
  std::vector<double> qdd;  ///< joint acceleration [rad/s^2]
  std::vector<double> tau;  ///< applied torque [N m] (measured, or gain * command)
  /// The position controller's desired trajectory and feedforward torque, when the record was
  /// taken in closed loop and they are known (closed-loop output error, identify/joint_oe.hpp):
  /// empty, or one value per sample. [rad], [rad/s], [N m]
  std::vector<double> q_des, qd_des, tau_ff;
  /// The joint's temperature [degC] (temperature-dependent friction,
  /// models/temperature_dependence.hpp): empty, or one value per sample.
  std::vector<double> temperature;

  std::size_t size() const noexcept { return t.size(); }
  bool has_desired() const noexcept { return !q_des.empty(); }
  bool has_temperature() const noexcept { return !temperature.empty(); }
};

/// A record's position controller (a PD law with a scaled feedforward and a bias):
///   tau = kff tau_ff + bias + kp (q_des - q) + kd (qd_des - qd)
/// kp [N m/rad], kd [N m s/rad] >= 0, kff [-], bias [N m].
struct JointController {
  double kp = 0, kd = 0, kff = 1, bias = 0;
};

}  // namespace frictionlab::identify
