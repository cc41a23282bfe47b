// frictionlab: a robot joint for identification from one trajectory (reference 004; issue #4):
// the data the methods consume and the model they return. Methods: identify/joint_sr3.hpp
// (the paper's SINDy-SR3 + iterative LuGre algorithm), identify/joint_idim.hpp (inverse
// dynamic model, linear least squares), identify/joint_oe.hpp (output-error refinement).
// Equations, conventions and measured accuracy: docs/joint-identification.md.
//
// The equation of motion of one revolute joint with the others locked (04_* eq. 1), plus a
// constant torque offset (sensor or amplifier bias):
//
//   I*qdd + mgCx*cos(q) - mgCy*sin(q) + tau_f(qd, z) + offset = tau              [N m]
//
// q [rad] is measured from the joint's zero; the gravity terms are those of a link whose centre
// of mass has coordinates (Cx, Cy) in a frame at the joint whose x axis lies along the link
// (04_* sec. 2). A pendulum with q = 0 hanging down has tau_g = m g c sin(q), i.e. mgCx = 0,
// mgCy = -m g c. A horizontal axis has no gravity terms (JointStructure::gravity = false).
//
// Host side: plain data, no file I/O.
#pragma once

#include <cmath>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab::identify {

/// One joint trajectory, preprocessed: every channel has the length of t, finite, t strictly
/// increasing. qd and qdd are estimates (differentiated / filtered by the caller).
struct JointData {
  std::string source;        ///< where it came from (file name), for messages and reports
  std::vector<double> t;     ///< time [s]
  std::vector<double> q;     ///< joint angle [rad]
  std::vector<double> qd;    ///< joint velocity [rad/s]
  std::vector<double> qdd;   ///< joint acceleration [rad/s^2]
  std::vector<double> tau;   ///< applied torque [N m] (measured, or gain * command)

  std::size_t size() const noexcept { return t.size(); }
};

/// Which terms of eq. 1 besides inertia and friction the model has.
struct JointStructure {
  bool gravity = true;  ///< mgCx*cos(q) - mgCy*sin(q)
  bool offset = true;   ///< constant torque offset
};

/// An identified joint (eq. 1 above).
struct JointModel {
  JointStructure structure{};
  double I = 0;       ///< inertia about the axis, rotor included [kg m^2]
  double mgCx = 0;    ///< gravity term [N m]
  double mgCy = 0;    ///< gravity term [N m]
  double offset = 0;  ///< torque offset [N m]
  /// Friction: the paper's LuGre (sr3, oe), or a static model (idim: Coulomb + viscous,
  /// asymmetric Coulomb levels allowed; Fs = Fc).
  std::variant<JointLuGre<double>::Params, StaticFriction<double>::Params> friction =
      JointLuGre<double>::Params{};
};

/// The rigid-body part of eq. 1: I*qdd + mgCx*cos(q) - mgCy*sin(q) + offset [N m] (terms the
/// structure leaves out count as 0).
inline double rigid_body_torque(const JointModel& m, double q, double qdd) noexcept {
  double out = m.I * qdd;
  if (m.structure.gravity) out += m.mgCx * std::cos(q) - m.mgCy * std::sin(q);
  if (m.structure.offset) out += m.offset;
  return out;
}

/// The model's steady-state friction curve tau_ss(qd) [N m] (zdot = 0 for LuGre).
inline double steady_friction(const JointModel& m, double qd) noexcept {
  return std::visit(
      [qd](const auto& p) { return model_of_t<std::decay_t<decltype(p)>>::steady_force(p, qd); },
      m.friction);
}

}  // namespace frictionlab::identify
