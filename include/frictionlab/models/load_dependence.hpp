// frictionlab: load-dependent Coulomb friction of a geared joint (docs/models.md, "Load-dependent
// joint friction").
//
// The Coulomb level of a transmission grows linearly with the torque it carries (P. Hamon,
// M. Gautier, P. Garrec, A. Janot, "Dynamic identification of robot with a load-dependent joint
// friction model", IEEE RAM 2010; the actuator models M3-M5 of reference 002), and by a different
// amount whether the motor drives the load or the load drives the motor (a gear's forward and
// backward efficiencies differ). With tau [N m] the applied (motor-side) torque and qd [rad/s]
// the joint velocity, the level on the side of the motion is
//
//   g(qd, tau) = g0(qd) + mu_drive |tau|   when tau * qd > 0 (the motor delivers power),
//   g(qd, tau) = g0(qd) + mu_back  |tau|   when tau * qd < 0 (the joint is back-driven),
//
// g0 the load-free level (Coulomb, or a Stribeck curve), mu_drive and mu_back [-] >= 0. At
// tau = 0 both sides add nothing, so the load-free model is the special case mu = 0. The load is
// the applied torque because a record has it and a simulation knows it before each step (it is
// the input): the level is explicit, and the set-valued stick law stays exact.
//
// Header only, any scalar, no allocation.
#pragma once

namespace frictionlab {

/// The coefficients of the load-dependent Coulomb level (header).
template <class S>
struct LoadDependence {
  S mu_drive{0};  ///< level rise per N m of |tau| while the motor drives the joint [-], in [0, 1)
  S mu_back{0};   ///< level rise per N m of |tau| while the joint is back-driven [-], >= 0
};

/// Whether motion in direction `positive` under the applied torque `tau` is driven by the motor
/// (tau * qd > 0); tau = 0 counts as back-driven (its rise is 0 either way).
template <class S>
bool is_driving(const S& tau, bool positive) noexcept {
  return positive ? tau > S(0) : tau < S(0);
}

/// The rise of the Coulomb level [N m] for motion in direction `positive` under `tau` [N m].
template <class S>
S load_rise(const LoadDependence<S>& p, const S& tau, bool positive) noexcept {
  const S magnitude = tau < S(0) ? S(-tau) : tau;
  return (is_driving(tau, positive) ? p.mu_drive : p.mu_back) * magnitude;
}

/// The applied torque [N m] that moves the joint at velocity qd [rad/s] against the load-free
/// torque r [N m] (inertia, gravity, offset and load-free friction): the solution of
/// tau = r + sgn(qd) rise(tau), which is r / (1 - mu_drive) when r qd > 0 (the motor drives) and
/// r / (1 + mu_back) otherwise; r at qd = 0. Needs mu_drive < 1 (at mu_drive >= 1 no torque
/// drives the joint).
template <class S>
S applied_torque(const LoadDependence<S>& p, const S& r, const S& qd) noexcept {
  if (qd == S(0)) return r;
  return r * qd > S(0) ? S(r / (S(1) - p.mu_drive)) : S(r / (S(1) + p.mu_back));
}

}  // namespace frictionlab
