// frictionlab: the joint LuGre model of Mahmoudkhani, Gorenstein & Ahmadi (reference 004,
// "A new iterative identification algorithm for estimating the LuGre friction model
// parameters", 2023): LuGre with a power-series viscous term and a Stribeck function made of
// several exponentials, the library the paper's SINDy-SR3 identification selects from.
// Units (rotary joint): torque [N m], angle [rad], velocity qd [rad/s]; docs/models.md,
// section "Joint LuGre".
//
//   tau_f = sigma0*z + sigma1*zdot + tau_v(qd)                            (04_* eq. 2)  [N m]
//   zdot  = qd - sigma0 * qd / (sg(qd) * g(qd)) * z                        (04_* eq. 3)  [rad/s]
//   g(qd) = Fc + sum_i Fs[i] * exp(-|qd / Omega_s|^delta[i])   (04_* eq. 5, 15)  [N m]
//   tau_v(qd) = sum_{i=1..n_viscous} cv[i-1] * qd^i                        (04_* eq. 14) [N m]
//   sg(qd) = sgn(qd)           if K == 0   (the paper's "model A")
//          = tanh(K * qd)      if K > 0    (the paper's "model B", sec. 7.1)
//
// Eliminating z gives the paper's second form (04_* eq. 6), which the identification uses:
//   tau_f = sg(qd) * (1 - zdot/qd) * g(qd) + sigma1*zdot + tau_v(qd).
// With sg = sgn, eq. 3 is the usual bristle ODE zdot = qd - sigma0*|qd|/g * z. With sg = tanh
// (model B) the paper replaces sgn by tanh in the friction law; frictionlab applies the same
// replacement inside eq. 3 so that eq. 2 and eq. 6 stay equivalent. The relaxation rate is then
//   a(qd) = sigma0 * qd / (tanh(K qd) * g(qd)) = (sigma0 / (K g)) * x / tanh(x),  x = K*qd,
// which is positive and finite at rest (a(0) = sigma0 / (K g(0))): the bristles relax towards
// z_ss = tanh(K qd) * g(qd) / sigma0 even at qd = 0 (a frictionlab choice, stated in
// docs/models.md; the paper does not say how it integrates eq. 3 for model B).
//
// Steady state (zdot = 0, 04_* eq. 4):  tau_ss(qd) = sg(qd) * g(qd) + tau_v(qd).
//
// Exact step for qd held over h (the ODE is linear in z, as for LuGre in lugre.hpp):
//   z+ = z + h * phi1(a*h) * (qd - a*z),   phi1(x) = (1 - exp(-x)) / x   (expm1, no overshoot).
// z+ is a convex combination of z and z_ss, so |z| <= g_max / sigma0 (state_bound) holds for
// any h, with g_max = Fc + sum_i max(Fs[i], 0). Linearly interpolated input: step_linear.
//
// Validity (models/validation.hpp, check): sigma0 > 0, sigma1 >= 0, Omega_s > 0, delta[i] > 0,
// K >= 0, 0 <= n_viscous <= kMaxViscous, 0 <= n_stribeck <= kMaxStribeck, and g > 0 for every
// velocity (Fc + sum_i min(Fs[i], 0) > 0). Individual Fs[i] may be negative (the paper's
// two-break curves); g itself may not.
#pragma once

#include <array>
#include <cstddef>

#include "frictionlab/models/bristle.hpp"
#include "frictionlab/models/common.hpp"

namespace frictionlab {

template <class S>
struct JointLuGre {
  using Scalar = S;
  static constexpr int kMaxViscous = 8;    ///< largest power of the viscous series
  static constexpr int kMaxStribeck = 16;  ///< most exponential Stribeck terms

  struct Params {
    using Model = JointLuGre;  ///< the model these parameters belong to
    S sigma0{1e4};             ///< bristle stiffness [N m/rad], > 0
    S sigma1{0};               ///< bristle damping [N m s/rad], >= 0
    S Fc{1};                   ///< Coulomb level [N m], the constant part of g
    /// Viscous series tau_v = sum cv[i-1] qd^i, i = 1..n_viscous; cv[i-1] in [N m (s/rad)^i].
    int n_viscous{1};
    std::array<S, kMaxViscous> cv{};
    /// Stribeck terms Fs[i] exp(-|qd/Omega_s|^delta[i]), i < n_stribeck; Fs in [N m],
    /// delta [-] > 0 (fixed by the identification, 0.5..4 in the paper).
    int n_stribeck{0};
    std::array<S, kMaxStribeck> Fs{};
    std::array<S, kMaxStribeck> delta{};
    S Omega_s{S(0.01)};  ///< Stribeck velocity [rad/s], > 0
    S K{0};              ///< tanh gain [s/rad]; 0: exact sign (model A), > 0: tanh(K qd) (model B)
  };
  struct State {
    S z{0};  ///< mean bristle deflection [rad]
  };
  static constexpr int kNumStates = 1;

  /// sg(qd): sgn(qd), or tanh(K qd) for K > 0.
  static S sign_fn(const Params& p, const S& qd) noexcept {
    using std::tanh;
    if (p.K > S(0)) return tanh(p.K * qd);
    return sgn(qd);
  }

  /// exp(-|qd/Omega_s|^delta): the i-th Stribeck shape, 1 at rest.
  static S stribeck_term(const Params& p, int i, const S& qd) noexcept {
    using std::exp;
    using std::pow;
    const S r = absval(qd) / p.Omega_s;
    if (!(r > S(0))) return S(1);  // exact at rest; pow's derivative is singular there
    const S& d = p.delta[static_cast<std::size_t>(i)];
    // The paper's common exponents without pow (r^1 is exact; r*r is correctly rounded).
    if (d == S(1)) return exp(-r);
    if (d == S(2)) return exp(-(r * r));
    return exp(-pow(r, d));
  }

  /// g(qd) [N m] (04_* eq. 5 with several exponentials).
  static S g(const Params& p, const S& qd) noexcept {
    S out = p.Fc;
    for (int i = 0; i < p.n_stribeck; ++i)
      out += p.Fs[static_cast<std::size_t>(i)] * stribeck_term(p, i, qd);
    return out;
  }

  /// tau_v(qd) [N m]: the viscous power series.
  static S viscous(const Params& p, const S& qd) noexcept {
    S out{0};
    S pw = qd;
    for (int i = 0; i < p.n_viscous; ++i) {
      out += p.cv[static_cast<std::size_t>(i)] * pw;
      pw = pw * qd;
    }
    return out;
  }

  /// Relaxation rate a(qd) = sigma0 * qd / (sg(qd) g(qd)) [1/s] (see the header).
  static S rate(const Params& p, const S& qd) noexcept {
    using std::abs;
    using std::tanh;
    if (p.K > S(0)) {
      const S x = p.K * qd;
      // x / tanh(x) = 1 + x^2/3 - x^4/45 + ... ; the series avoids 0/0 at rest.
      const S x_over_tanh = abs(x) < S(1e-4) ? S(1) + x * x / S(3) : x / tanh(x);
      return p.sigma0 / (p.K * g(p, qd)) * x_over_tanh;
    }
    return p.sigma0 * absval(qd) / g(p, qd);
  }

  static State derivative(const Params& p, const State& x, const S& qd) noexcept {
    return State{qd - rate(p, qd) * x.z};
  }

  /// tau_f (04_* eq. 2) [N m].
  static S force(const Params& p, const State& x, const S& qd) noexcept {
    const S zdot = derivative(p, x, qd).z;
    return p.sigma0 * x.z + p.sigma1 * zdot + viscous(p, qd);
  }

  /// Steady-state curve tau_ss(qd) = sg(qd) g(qd) + tau_v(qd) (04_* eq. 4) [N m].
  static S steady_force(const Params& p, const S& qd) noexcept {
    return sign_fn(p, qd) * g(p, qd) + viscous(p, qd);
  }

  /// Exact update of z over a step h with qd held constant.
  static State step(const Params& p, const State& x, const S& qd, const S& h) noexcept {
    const S a = rate(p, qd);
    return State{x.z + h * phi1_neg(a * h) * (qd - a * x.z)};
  }

  /// Update over a step h with qd linearly interpolated from v0 to v1 (Hold::linear). Exact
  /// sign (K = 0): the arc-length step of bristle.hpp (second order, bounded, split at
  /// reversals and where qd sweeps through the Stribeck region by more than Omega_s/8 per
  /// step). tanh (K > 0): the rate passes smoothly through rest, but g(qd) has a cusp there
  /// for delta < 1; the step is split at a reversal and each part takes the exact step at its
  /// mid velocity (exponential midpoint rule, second order).
  static State step_linear(const Params& p, const State& x, const S& v0, const S& v1,
                           const S& h) noexcept {
    if (p.K > S(0)) {
      if ((v0 > S(0) && v1 < S(0)) || (v0 < S(0) && v1 > S(0))) {
        const S hc = h * v0 / (v0 - v1);  // time of the reversal within the step
        return step(p, step(p, x, v0 / S(2), hc), v1 / S(2), h - hc);
      }
      return step(p, x, (v0 + v1) / S(2), h);
    }
    const auto g_side = [&p](const S& v, bool /*pos*/) { return g(p, v); };
    // g is monotone in |qd| when every Stribeck term (decreasing, delta > 0) has the same sign.
    bool any_pos = false, any_neg = false;
    for (int i = 0; i < p.n_stribeck; ++i) {
      any_pos = any_pos || p.Fs[static_cast<std::size_t>(i)] > S(0);
      any_neg = any_neg || p.Fs[static_cast<std::size_t>(i)] < S(0);
    }
    return State{bristle_step_linear(x.z, v0, v1, h, p.sigma0, p.Omega_s / S(8), g_side,
                                     !(any_pos && any_neg))};
  }

  /// Closed-form implicit Euler: z+ = (z + h qd) / (1 + h a). Stable, monotone, first order.
  static State step_implicit_euler(const Params& p, const State& x, const S& qd,
                                   const S& h) noexcept {
    return State{(x.z + h * qd) / (S(1) + h * rate(p, qd))};
  }

  /// Largest g over all velocities bound: Fc + sum max(Fs[i], 0) [N m].
  static S g_max(const Params& p) noexcept {
    S out = p.Fc;
    for (int i = 0; i < p.n_stribeck; ++i) {
      const S f = p.Fs[static_cast<std::size_t>(i)];
      if (f > S(0)) out += f;
    }
    return out;
  }

  /// Lower bound of g over all velocities: Fc + sum min(Fs[i], 0) [N m] (must be > 0).
  static S g_min(const Params& p) noexcept {
    S out = p.Fc;
    for (int i = 0; i < p.n_stribeck; ++i) {
      const S f = p.Fs[static_cast<std::size_t>(i)];
      if (f < S(0)) out += f;
    }
    return out;
  }

  /// Invariant bound on |z| [rad]: g_max / sigma0.
  static S state_bound(const Params& p) noexcept { return g_max(p) / p.sigma0; }

  static constexpr void to_array(const State& x, S* out) noexcept { out[0] = x.z; }
  static constexpr State from_array(const S* in) noexcept { return State{in[0]}; }
};

/// The same parameters in another scalar type T (e.g. a Jet for an integrator's Newton Jacobian).
template <class T>
typename JointLuGre<T>::Params cast_params(const JointLuGre<double>::Params& p) {
  typename JointLuGre<T>::Params q;
  q.sigma0 = T(p.sigma0);
  q.sigma1 = T(p.sigma1);
  q.Fc = T(p.Fc);
  q.n_viscous = p.n_viscous;
  for (std::size_t i = 0; i < p.cv.size(); ++i) q.cv[i] = T(p.cv[i]);
  q.n_stribeck = p.n_stribeck;
  for (std::size_t i = 0; i < p.Fs.size(); ++i) {
    q.Fs[i] = T(p.Fs[i]);
    q.delta[i] = T(p.delta[i]);
  }
  q.Omega_s = T(p.Omega_s);
  q.K = T(p.K);
  return q;
}

}  // namespace frictionlab
