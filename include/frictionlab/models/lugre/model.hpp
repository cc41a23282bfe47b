// frictionlab: the LuGre dynamic friction model.
//
// Canudas de Wit, Olsson, Astrom, Lischinsky, "A new model for control of systems with
// friction", IEEE TAC 40(3), 1995; Astrom & Canudas de Wit, "Revisiting the LuGre friction
// model", IEEE CSM 28(6), 2008. Units and parameter names: docs/models.md, section "LuGre".
//
//   dz/dt = v - sigma0 * |v| / g(v) * z                        [m/s]   (bristle deflection z [m])
//   F     = sigma0 * z + sigma1(v) * dz/dt + sigma2 * v        [N]
//   g(v)  = stribeck_g(curve, v)                               [N]     (see stribeck_curve.hpp)
//   sigma1(v) = sigma1 * exp(-(v/vd)^2) if vd > 0, else sigma1  (velocity-dependent damping,
//                                                               Astrom & Canudas de Wit 2008)
//
// Exact step for a velocity v held over a step of length h (the ODE is linear in z then):
//   a = sigma0 * |v| / g(v)  [1/s],  z_ss = v / a = sgn(v) * g(v) / sigma0  [m]
//   z(t+h) = z_ss + (z - z_ss) * exp(-a*h) = z + (1 - exp(-a*h)) * (z_ss - z)   [m]
// (= z + h * phi1(a*h) * (v - a*z) with phi1(x) = (1 - exp(-x))/x, the same solution without the
// division inside phi1; 1 - exp(-a*h) is evaluated without cancellation (common.hpp
// one_minus_exp_neg), and v = 0 gives a = 0, z_ss = 0, z+ = z; a Jet keeps the phi1 form, see
// step). It never overshoots z_ss and keeps |z| <= max g / sigma0 for any h.
// The velocity-dependent terms a, z_ss, sigma1(v) (one g(v), one exp) are computed once by
// `at(p, v)` and shared by step and force when both are wanted at the same velocity.
// Linearly interpolated input: the arc-length step of bristle.hpp (step_linear).
#pragma once

#include "frictionlab/models/bristle.hpp"
#include "frictionlab/models/common.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

template <class S>
struct LuGre {
  using Scalar = S;
  struct Params {
    using Model = LuGre;      ///< the model these parameters belong to
    S sigma0{1e5};            ///< bristle stiffness [N/m], > 0
    S sigma1{S(316.227766)};  ///< bristle damping [N s/m], >= 0
    S sigma2{S(0.4)};         ///< viscous coefficient [N s/m], >= 0
    StribeckCurve<S> curve{S(1), S(1), S(1.5), S(1.5), S(0.001), S(2), StribeckShape::exponential};
    S vd{0};  ///< damping decay velocity [m/s]; 0 = constant sigma1
  };
  struct State {
    S z{0};  ///< mean bristle deflection [m]
  };
  static constexpr int kNumStates = 1;

  static S g(const Params& p, const S& v) noexcept { return stribeck_g(p.curve, v); }

  /// The terms of the model that depend only on the velocity v [m/s] (g(v) evaluated once): what
  /// step and force share when both are wanted at the same v (a ZOH step and the force at
  /// either end of it).
  struct AtVelocity {
    S v;       ///< velocity [m/s]
    S a;       ///< relaxation rate sigma0 |v| / g(v) [1/s]
    S z_ss;    ///< steady deflection sgn(v) g(v) / sigma0 [m]
    S sigma1;  ///< damping sigma1(v) [N s/m]
    S g;       ///< g(v) [N] on the side of v (v = 0: the positive side, as stribeck_g)
  };
  static AtVelocity at(const Params& p, const S& v) noexcept {
    const S gv = g(p, v);
    return AtVelocity{v, p.sigma0 * absval(v) / gv, sgn(v) * gv / p.sigma0, damping(p, v), gv};
  }
  /// at(p2, w.v) from w = at(p, w.v) when p2 differs from p in sigma1 and sigma2 only (the
  /// parameters the force alone depends on): g and the rate are p's, the damping p2's. The same
  /// numbers as at(p2, w.v), without evaluating g again.
  static AtVelocity at_force_only(const Params& p2, const AtVelocity& w) noexcept {
    AtVelocity out = w;
    out.sigma1 = damping(p2, w.v);
    return out;
  }

  /// sigma1 at velocity v (constant unless vd > 0).
  static S damping(const Params& p, const S& v) noexcept {
    using std::exp;
    if (p.vd > S(0)) {
      const S r = v / p.vd;
      return p.sigma1 * exp(-r * r);
    }
    return p.sigma1;
  }

  /// Relaxation rate a(v) = sigma0 |v| / g(v) [1/s] of the bristle ODE at velocity v.
  static S rate(const Params& p, const S& v) noexcept { return p.sigma0 * absval(v) / g(p, v); }

  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    return State{v - rate(p, v) * x.z};
  }

  static S force(const Params& p, const State& x, const AtVelocity& w) noexcept {
    const S zdot = w.v - w.a * x.z;  // derivative(p, x, v)
    return p.sigma0 * x.z + w.sigma1 * zdot + p.sigma2 * w.v;
  }
  static S force(const Params& p, const State& x, const S& v) noexcept {
    const S zdot = derivative(p, x, v).z;
    return p.sigma0 * x.z + damping(p, v) * zdot + p.sigma2 * v;
  }

  /// Steady-state (static) curve: F_ss(v) = sgn(v) g(v) + sigma2 v.
  static S steady_force(const Params& p, const S& v) noexcept {
    return sgn(v) * g(p, v) + p.sigma2 * v;
  }

  /// Exact update of z over a step h with v held constant (default discretisation).
  /// A Jet keeps the form z + h phi1(a h) (v - a z): z_ss = sgn(v) g/sigma0 jumps at v = 0, so
  /// the (z_ss - z) form would lose the derivative d z+/dv = h (1 - a'(v) z) there (a sample at
  /// rest in a fit), while v - a z is smooth through 0.
  static State step(const Params& /*p*/, const State& x, const AtVelocity& w, const S& h) noexcept {
    if constexpr (requires { h.a; }) {
      const S ah = w.a * h;
      return State{x.z + h * phi1_neg(ah) * (w.v - w.a * x.z)};
    } else {
      return State{x.z + one_minus_exp_neg(w.a * h) * (w.z_ss - x.z)};
    }
  }
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    return step(p, x, at(p, v), h);
  }

  /// Update over a step h with the velocity linearly interpolated from v0 to v1 (Hold::linear):
  /// the arc-length step of bristle.hpp (second order, bounded, split at reversals and where
  /// the velocity sweeps through the Stribeck region by more than vs/8 per step).
  /// Its ends' g(v) are at()'s, as in a simulation (which computes at() once per sample), so a
  /// loop of force and step_linear reproduces a simulation bit for bit.
  static State step_linear(const Params& p, const State& x, const S& v0, const S& v1,
                           const S& h) noexcept {
    return step_linear(p, x, at(p, v0), at(p, v1), h);
  }
  /// step_linear with the velocity terms at both ends known (at(p, v0), at(p, v1)): g(v0) and
  /// g(v1) are taken from them instead of being evaluated again. A simulation that needs the
  /// force at every sample computes at() there once for the force and both steps it ends; the
  /// same update up to rounding (g/sigma0 = g * (1/sigma0) from at()'s g).
  static State step_linear(const Params& p, const State& x, const AtVelocity& w0,
                           const AtVelocity& w1, const S& h) noexcept {
    const S inv_sigma0 = S(1) / p.sigma0;
    return step_linear_known(p, x, w0.v, w1.v, h, {w0.g * inv_sigma0, !(w0.v < S(0)), true},
                             {w1.g * inv_sigma0, !(w1.v < S(0)), true});
  }
  /// The bristle step of both step_linear forms; known0, known1: g/sigma0 at v0, v1 if known.
  static State step_linear_known(const Params& p, const State& x, const S& v0, const S& v1,
                                 const S& h, const BristleEnd<S>& known0,
                                 const BristleEnd<S>& known1) noexcept {
    const S inv_vs = S(1) / p.curve.vs;  // g is evaluated at up to 2 kMaxBristleParts + 1 points
    const auto g_side = [&p, &inv_vs](const S& v, bool pos) {
      return stribeck_g_side_inv_vs(p.curve, v, pos, inv_vs);
    };
    return State{bristle_step_linear(x.z, v0, v1, h, p.sigma0, p.curve.vs / S(8), g_side, true,
                                     known0, known1)};
  }

  /// Exact update over a displacement dx [m] travelled at the velocity v [m/s], g(v) held (the
  /// arc-length form of the bristle ODE, s = integral |v| dt):
  ///   dz/ds = sgn(dx) - sigma0 / g(v) * z   =>   z+ = z + phi1(k) * (dx + e - k*z),
  ///   k = sigma0 |dx| / g(v)  (dimensionless decay over the step)
  /// The decay depends on the distance travelled, not on the time step: a sampled velocity whose
  /// noise averages out over the step does not drive the bristle state. With v = dx/h and e = 0
  /// this is step(p, x, v, h) (same equation, k = a h); e [m] adds an external deflection drive
  /// (an observer correction u*h, dz/dt = v - a z + u) under the same exact relaxation. For e = 0,
  /// |z| <= max g / sigma0 is kept for any dx.
  static State step_displacement(const Params& p, const State& x, const S& dx, const S& v,
                                 const S& e = S(0)) noexcept {
    const S k = p.sigma0 * absval(dx) / g(p, v);
    return State{x.z + phi1_neg(k) * (dx + e - k * x.z)};
  }

  /// Closed-form implicit (backward) Euler: z+ = (z + h v) / (1 + h a). Unconditionally
  /// stable and monotone, first order.
  static State step_implicit_euler(const Params& p, const State& x, const S& v,
                                   const S& h) noexcept {
    return State{(x.z + h * v) / (S(1) + h * rate(p, v))};
  }

  /// Invariant bound on |z| [m]: max g / sigma0.
  static S state_bound(const Params& p) noexcept { return stribeck_gmax(p.curve) / p.sigma0; }

  /// Passivity of the map v -> F (Astrom & Canudas de Wit 2008, with sigma1 at its largest):
  /// sigma2 > sigma1 * (Fs - Fc) / Fc on each side of the curve.
  static bool is_passive(const Params& p) noexcept {
    const auto& c = p.curve;
    return p.sigma2 > p.sigma1 * (c.Fs_pos - c.Fc_pos) / c.Fc_pos &&
           p.sigma2 > p.sigma1 * (c.Fs_neg - c.Fc_neg) / c.Fc_neg;
  }

  static constexpr void to_array(const State& x, S* out) noexcept { out[0] = x.z; }
  static constexpr State from_array(const S* in) noexcept { return State{in[0]}; }
};

/// The displacement-unit parameterisation of g used by the Fortran "friction" library
/// (reference 001): dz/dt = v - |v| z / gd(v), gd(v) = a1 + a2 / (1 + (|v|/vs)^alpha) [m], with
/// a1 = mu_c N / sigma0 and a2 = (mu_s - mu_c) N / sigma0. It equals LuGre with the rational
/// shape, Fc = sigma0 a1, Fs = sigma0 (a1 + a2).
template <class S>
struct LuGreDisplacementForm {
  S sigma0{}, sigma1{}, sigma2{};
  S a1{};     ///< [m]
  S a2{};     ///< [m]
  S vs{};     ///< [m/s]
  S alpha{};  ///< [-]
};

template <class S>
typename LuGre<S>::Params lugre_from_displacement_form(const LuGreDisplacementForm<S>& d) {
  typename LuGre<S>::Params p;
  p.sigma0 = d.sigma0;
  p.sigma1 = d.sigma1;
  p.sigma2 = d.sigma2;
  p.curve = StribeckCurve<S>::symmetric(d.sigma0 * d.a1, d.sigma0 * (d.a1 + d.a2), d.vs, d.alpha,
                                        StribeckShape::rational);
  p.vd = S(0);
  return p;
}

/// Inverse of lugre_from_displacement_form; only meaningful for a symmetric curve (the
/// positive-velocity side is used).
template <class S>
LuGreDisplacementForm<S> lugre_to_displacement_form(const typename LuGre<S>::Params& p) {
  return LuGreDisplacementForm<S>{p.sigma0,
                                  p.sigma1,
                                  p.sigma2,
                                  p.curve.Fc_pos / p.sigma0,
                                  (p.curve.Fs_pos - p.curve.Fc_pos) / p.sigma0,
                                  p.curve.vs,
                                  p.curve.alpha};
}

/// Friction-coefficient form: Fc = mu_c * N, Fs = mu_s * N (N normal load [N]).
template <class S>
StribeckCurve<S> stribeck_from_mu(S mu_c, S mu_s, S normal_load, S vs, S alpha,
                                  StribeckShape shape) {
  return StribeckCurve<S>::symmetric(mu_c * normal_load, mu_s * normal_load, vs, alpha, shape);
}

/// The same parameters in another scalar type T (e.g. a Jet for an integrator's Newton Jacobian).
template <class T>
typename LuGre<T>::Params cast_params(const LuGre<double>::Params& p) {
  typename LuGre<T>::Params q;
  q.sigma0 = T(p.sigma0);
  q.sigma1 = T(p.sigma1);
  q.sigma2 = T(p.sigma2);
  q.curve = cast_curve<T>(p.curve);
  q.vd = T(p.vd);
  return q;
}

}  // namespace frictionlab
