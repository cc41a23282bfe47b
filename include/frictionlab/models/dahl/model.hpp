// frictionlab: the Dahl friction model.
//
// P. R. Dahl, "A solid friction model", Aerospace Corp. TOR-0158(3107-18)-1, 1968;
// P. R. Dahl, "Solid friction damping of mechanical vibrations", AIAA J. 14(12), 1976.
// Parameter names and units: docs/models.md, section "Dahl".
//
//   dF/dx = sigma0 * (1 - F/Fc * sgn(v))^n                      [N/m]   (x position [m])
//   F     = sigma0 * z                                          [N]     (z deflection [m])
//   dz/dt = v * (1 - sigma0*z/Fc * sgn(v))^n                     [m/s]
//
// The power is taken sign-preserving, u^n := sgn(u)|u|^n, which is the plain power on the invariant
// set |F| <= Fc (there u = 1 - sgn(v) F/Fc lies in [0, 2]) and extends the model to initial states
// outside it.
//
// Exact step (v held over h, displacement dx = v*h, arc length xi = |dx| [m]). With
// u = 1 - sgn(v) F/Fc and c = sigma0/Fc [1/m] the model reads du/dxi = -c u^n, whose solution is
//   n = 1:   u(xi) = u0 * exp(-c xi)
//   n != 1:  u(xi) = u0 * exp(-log1p((n-1) c xi u0^(n-1)) / (n-1))          (u0 > 0)
//            = (u0^(1-n) + (n-1) c xi)^(1/(1-n)); for n < 1 u reaches 0 at finite xi and stays
//            there (the log1p argument <= 0 means u = 0). u0 = 0 is an equilibrium.
// Then F = sgn(v) Fc (1 - u). The form with log1p is accurate for n close to 1. The update is
// exact for any h (no step-size limit), rate independent (depends on dx only), and keeps
// |F| <= Fc, i.e. |z| <= Fc/sigma0.
#pragma once

#include "frictionlab/models/common.hpp"

namespace frictionlab {

template <class S>
struct Dahl {
  using Scalar = S;
  struct Params {
    using Model = Dahl;  ///< the model these parameters belong to
    S sigma0{1e5};       ///< rest stiffness dF/dx at F = 0 [N/m], > 0
    S Fc{1};             ///< Coulomb friction level [N], > 0
    S n{1};              ///< shape exponent [-], > 0 (1: the usual "rope" model; Dahl used 0..2)
  };
  struct State {
    S z{0};  ///< deflection [m], F = sigma0 * z
  };
  static constexpr int kNumStates = 1;

  /// Sign-preserving power sgn(u)|u|^n.
  static S spow(const S& u, const S& n) noexcept {
    using std::pow;
    // (n = 1 with a derivative part, a fit estimating n: pow below gives d/dn = u ln|u|.)
    if (is_exactly(n, 1.0)) return u;
    if (u > S(0)) return pow(u, n);
    if (u < S(0)) return -pow(-u, n);
    return S(0);
  }

  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    const S u = S(1) - p.sigma0 * x.z / p.Fc * sgn(v);
    return State{v * spow(u, p.n)};
  }

  static S force(const Params& p, const State& x, const S& /*v*/) noexcept {
    return p.sigma0 * x.z;
  }

  /// Steady state at constant v != 0: F = sgn(v) Fc (0 at v = 0).
  static S steady_force(const Params& p, const S& v) noexcept { return sgn(v) * p.Fc; }

  /// Exact solution of du/dxi = -c sgn(u)|u|^n over the arc length xi >= 0 (see header).
  static S relax(const S& u0, const S& c, const S& xi, const S& n) noexcept {
    using std::exp;
    using std::log1p;
    using std::pow;
    if (u0 < S(0)) return -relax(-u0, c, xi, n);
    if (!(u0 > S(0))) return S(0);
    if (n == S(1)) {
      if (is_exactly(n, 1.0)) return u0 * exp(-c * xi);
      // n = 1 in value with a derivative part (a fit estimating n from its initial guess n = 1):
      // the general formula below is 0/0 there. With a = c xi and e = n - 1,
      //   log1p(e a u0^e) / e = a + e (a ln u0 - a^2 / 2) + O(e^2),
      // whose first-order term gives the exact first derivatives at e = 0.
      using std::log;
      const S a = c * xi, e = n - S(1);
      return u0 * exp(-(a + e * (a * log(u0) - a * a / S(2))));
    }
    const S e = n - S(1);
    const S arg = e * c * xi * pow(u0, e);
    if (!(arg > S(-1))) return S(0);  // n < 1: u reached 0 within the step
    return u0 * exp(-log1p(arg) / e);
  }

  /// Exact update for a monotone displacement increment dx [m] (the model is rate independent).
  static State step_dx(const Params& p, const State& x, const S& dx) noexcept {
    if (dx == S(0)) return x;
    const S s = sgn(dx);
    const S xi = absval(dx);
    const S c = p.sigma0 / p.Fc;
    const S u0 = S(1) - s * p.sigma0 * x.z / p.Fc;
    const S u = relax(u0, c, xi, p.n);
    return State{s * (S(1) - u) * p.Fc / p.sigma0};
  }

  /// Exact update over a step h with v held constant (default discretisation): dx = v h.
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    return step_dx(p, x, v * h);
  }

  /// Exact update for a velocity linear from v0 to v1 over h: the path is split at the
  /// reversal (split_at_reversal in common.hpp), each monotone part is exact.
  static State step_linear(const Params& p, const State& x, const S& v0, const S& v1,
                           const S& h) noexcept {
    S dx1, dx2;
    if (!split_at_reversal(v0, v1, h, dx1, dx2)) return step_dx(p, x, dx1);
    return step_dx(p, step_dx(p, x, dx1), dx2);
  }

  /// Invariant bound on |z| [m]: Fc / sigma0.
  static S state_bound(const Params& p) noexcept { return p.Fc / p.sigma0; }

  static constexpr void to_array(const State& x, S* out) noexcept { out[0] = x.z; }
  static constexpr State from_array(const S* in) noexcept { return State{in[0]}; }
};

/// The same parameters in another scalar type T (e.g. a Jet for an integrator's Newton Jacobian).
template <class T>
typename Dahl<T>::Params cast_params(const Dahl<double>::Params& p) {
  typename Dahl<T>::Params q;
  q.sigma0 = T(p.sigma0);
  q.Fc = T(p.Fc);
  q.n = T(p.n);
  return q;
}

}  // namespace frictionlab
