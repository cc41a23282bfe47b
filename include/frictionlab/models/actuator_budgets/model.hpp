// frictionlab: the actuator friction budgets M1..M6 of the BAM actuator-modelling package
// (reference 002: BAM documentation "Friction Models (M1-M6)"; implementation bam/model.py,
// Model.compute_frictions, in github.com/Rhoban/bam). Units and parameter names: docs/models.md,
// section "Actuator friction budgets M1..M6".
//
// Inputs: joint velocity v = theta_dot [rad/s], motor torque tau_m [Nm], external (load) torque
// tau_e [Nm]. Output: the friction budget tau_fm >= 0 [Nm], the largest resistive torque; a
// simulator applies friction by clipping the stopping torque into [-tau_fm, tau_fm]
// (clip_friction below).
//
//   s(v) = exp(-|v / vs|^alpha)                                                (Stribeck factor)
//   M1: tau_fm = Kv |v| + Kc
//   M2: tau_fm = Kv |v| + Kc + s(v) Kcs
//   M3: tau_fm = Kv |v| + Kc + Kl |tau_m - tau_e|
//   M4: tau_fm = Kv |v| + Kc + Kl |tau_m - tau_e| + s(v) (Kcs + Kls |tau_m - tau_e|)
//   M5: tau_fm = Kv |v| + Kc + |Km tau_m - Ke tau_e| + s(v) (Kcs + |Kms tau_m - Kes tau_e|)
//   M6: tau_fm = M5 + s(v) Q
//       documentation:           Q = Keq tau_e^2 if |tau_m| > |tau_e|, else Kmq tau_m^2
//       reference implementation (bam/model.py, quadratic_sign_gate = true):
//                                Q = [sgn(tau_e) != sgn(tau_m)] * ( Keq tau_e^2 if |tau_e| <
//                                |tau_m|
//                                                                  Kmq tau_m^2 if |tau_e| > |tau_m|
//                                                                  0           if |tau_e| = |tau_m|
//                                                                  )
//       i.e. the quadratic term acts only when the motor and the load torque have opposite signs
//       (numpy sign: sgn(0) = 0, so a zero torque against a non-zero one counts as opposite), and
//       vanishes at the tie. Parameters fitted with BAM assume the gated form (the default).
//
// Temperature (optional; models/temperature_dependence.hpp, docs/models.md "Temperature-dependent
// friction"): at the joint's temperature T the viscous term Kv |v| is multiplied by
// viscous_scale(T) and every other term (Kc, Kcs, the load and quadratic terms) by
// level_scale(T): friction_budget_given_factor's `level` and `viscous`.
//
// The stopping-torque rule (stopping_torque, stopping_friction) applies a budget in a fixed-step
// simulation; the servo simulator that uses it (pendulum bench, DC motor, firmware) is
// sim/servo.hpp, its semantics docs/actuators.md.
#pragma once

#include "frictionlab/models/common.hpp"

namespace frictionlab {

enum class ActuatorModel { M1, M2, M3, M4, M5, M6 };

template <class S>
struct ActuatorFrictionParams {
  S Kv{0};     ///< viscous coefficient [Nm s/rad], >= 0                      (M1..M6)
  S Kc{0};     ///< Coulomb (base) friction [Nm], >= 0                          (M1..M6)
  S Kcs{0};    ///< additional static friction at rest [Nm], >= 0               (M2, M4..M6)
  S vs{1};     ///< Stribeck velocity theta_dot_s [rad/s], > 0                  (M2, M4..M6)
  S alpha{2};  ///< Stribeck exponent [-], > 0                                  (M2, M4..M6)
  S Kl{0};     ///< load-dependent coefficient [-] (Nm per Nm), >= 0            (M3, M4)
  S Kls{0};    ///< load-dependent coefficient at rest [-], >= 0                (M4)
  S Km{0};     ///< motor-side load coefficient [-], >= 0                       (M5, M6)
  S Ke{0};     ///< external-side load coefficient [-], >= 0                    (M5, M6)
  S Kms{0};    ///< motor-side load coefficient at rest [-], >= 0               (M5, M6)
  S Kes{0};    ///< external-side load coefficient at rest [-], >= 0            (M5, M6)
  S Keq{0};    ///< quadratic external-torque coefficient [1/Nm], >= 0          (M6)
  S Kmq{0};    ///< quadratic motor-torque coefficient [1/Nm], >= 0             (M6)
  /// M6 only: true = the reference implementation's gate (quadratic term only for opposite signs
  /// of tau_m and tau_e, zero at |tau_m| = |tau_e|); false = the documentation's formula.
  bool quadratic_sign_gate{true};
};

/// The Stribeck exponent |v/vs|^alpha >= 0 (0 at rest, and where |v|/vs is not a number).
template <class S>
S actuator_stribeck_exponent(const ActuatorFrictionParams<S>& p, const S& v) noexcept {
  using std::pow;
  const S r = absval(v) / p.vs;
  if (!(r > S(0))) return S(0);
  return pow(r, p.alpha);
}

/// Stribeck factor s = exp(-e) in [0, 1] of the exponent e = actuator_stribeck_exponent (1 at
/// rest, without calling exp).
template <class S>
S actuator_stribeck_factor_of(const S& e) noexcept {
  using std::exp;
  if (e == S(0)) return S(1);
  return exp(-e);
}

/// Stribeck factor exp(-|v/vs|^alpha) in [0, 1] (1 at rest).
template <class S>
S actuator_stribeck_factor(const ActuatorFrictionParams<S>& p, const S& v) noexcept {
  return actuator_stribeck_factor_of(actuator_stribeck_exponent(p, v));
}

/// The quadratic term Q of M6 (see header).
template <class S>
S actuator_quadratic_term(const ActuatorFrictionParams<S>& p, const S& tau_m,
                          const S& tau_e) noexcept {
  const S am = absval(tau_m), ae = absval(tau_e);
  if (p.quadratic_sign_gate) {
    if (sgn(tau_m) == sgn(tau_e)) return S(0);
    if (ae < am) return p.Keq * tau_e * tau_e;
    if (ae > am) return p.Kmq * tau_m * tau_m;
    return S(0);
  }
  if (am > ae) return p.Keq * tau_e * tau_e;
  return p.Kmq * tau_m * tau_m;
}

/// Whether model m has the Stribeck factor s(v) (M2, M4, M5, M6).
constexpr bool model_has_stribeck(ActuatorModel m) noexcept {
  return m == ActuatorModel::M2 || m == ActuatorModel::M4 || m == ActuatorModel::M5 ||
         m == ActuatorModel::M6;
}

/// Friction budget tau_fm [Nm] of model m given its Stribeck factor s = s(v) (see header;
/// ignored by M1 and M3). A simulator that steps several joints at once computes the factors
/// (and its other transcendental terms) of all of them first, so that those calls do not wait
/// for one another; the budget is then the same arithmetic as friction_budget, bit for bit.
///
/// `level` and `viscous` [-] scale the dry terms (Kc, Kcs and the load terms) and the viscous
/// term Kv |v|: a temperature law's level_scale and viscous_scale at the joint's temperature
/// (models/temperature_dependence.hpp; docs/models.md, "Temperature-dependent friction"). With
/// both 1 (the default) the budget is the unscaled one, bit for bit (x * 1 is exact).
template <class S>
S friction_budget_given_factor(ActuatorModel m, const ActuatorFrictionParams<S>& p, S v, S tau_m,
                               S tau_e, S s, S level = S(1), S viscous = S(1)) noexcept {
  const S base = viscous * (p.Kv * absval(v)) + level * p.Kc;
  const S load = absval(tau_m - tau_e);
  switch (m) {
    case ActuatorModel::M1:
      return base;
    case ActuatorModel::M2:
      return base + level * (s * p.Kcs);
    case ActuatorModel::M3:
      return base + level * (p.Kl * load);
    case ActuatorModel::M4:
      return base + level * (p.Kl * load) + level * (s * (p.Kcs + p.Kls * load));
    case ActuatorModel::M5:
    case ActuatorModel::M6: {
      const S dir = absval(p.Km * tau_m - p.Ke * tau_e);
      S at_rest = p.Kcs + absval(p.Kms * tau_m - p.Kes * tau_e);
      if (m == ActuatorModel::M6) at_rest += actuator_quadratic_term(p, tau_m, tau_e);
      return base + level * dir + level * (s * at_rest);
    }
  }
  return base;
}

/// Friction budget tau_fm [Nm] (>= 0 for non-negative coefficients) of model m.
template <class S>
S friction_budget(ActuatorModel m, const ActuatorFrictionParams<S>& p, S v, S tau_m,
                  S tau_e) noexcept {
  const S s = model_has_stribeck(m) ? actuator_stribeck_factor(p, v) : S(1);
  return friction_budget_given_factor(m, p, v, tau_m, tau_e, s);
}

/// Friction torque applied by the budget model: the stopping torque (the torque that would bring
/// the joint to rest this step) clipped into [-budget, budget] [Nm].
template <class S>
S clip_friction(const S& stopping_torque, const S& budget) noexcept {
  if (stopping_torque > budget) return budget;
  if (stopping_torque < -budget) return -budget;
  return stopping_torque;
}

/// The stopping torque [Nm] of a joint of inertia I [kg m^2] at velocity v [rad/s] under the
/// net non-friction torque tau_net [Nm] over a step h [s]: the torque that, added to tau_net,
/// gives the joint the acceleration -v/h, i.e. brings it to rest at the end of an explicit step:
///   tau_stop = (I / h) v + tau_net                          (bam/simulate.py, Simulator.step)
/// The `_given_ratio` forms take I / h [kg m^2/s], for a simulator whose inertia and step are
/// constant over a run (the same arithmetic).
template <class S>
S stopping_torque_given_ratio(const S& inertia_over_h, const S& v, const S& tau_net) noexcept {
  return inertia_over_h * v + tau_net;
}

template <class S>
S stopping_torque(const S& inertia, const S& h, const S& v, const S& tau_net) noexcept {
  return stopping_torque_given_ratio(S(inertia / h), v, tau_net);
}

/// The friction torque [Nm] of the stopping-torque rule (reference 002; bam/simulate.py):
///   tau_f = -clip(tau_stop, -budget, budget) = -sgn(tau_stop) min(|tau_stop|, budget)
/// With a budget >= 0 it has two invariants a simulator relies on (tests/test_servo_sim.cpp):
/// if |tau_stop| <= budget the friction cancels tau_stop exactly, so the explicit step
/// v+ = v + h (tau_net + tau_f) / I ends at v+ = 0 (the joint sticks); otherwise v+ has the sign
/// of v + h tau_net / I and |v+| < |v + h tau_net / I|: friction never reverses the motion
/// within a step.
template <class S>
S stopping_friction_given_ratio(const S& inertia_over_h, const S& v, const S& tau_net,
                                const S& budget) noexcept {
  return -clip_friction(stopping_torque_given_ratio(inertia_over_h, v, tau_net), budget);
}

template <class S>
S stopping_friction(const S& inertia, const S& h, const S& v, const S& tau_net,
                    const S& budget) noexcept {
  return stopping_friction_given_ratio(S(inertia / h), v, tau_net, budget);
}

}  // namespace frictionlab
