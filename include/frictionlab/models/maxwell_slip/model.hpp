// frictionlab: the Maxwell-slip model. Parameter names and units: docs/models.md, section
// "Maxwell slip".
//
// Maxwell slip (Al-Bender, Lampaert, Swevers, "Modeling of dry sliding friction dynamics: from
// heuristic models to physically motivated models and back", Chaos 14(2), 2004; Lampaert,
// Al-Bender, Swevers, "A generalized Maxwell-slip friction model appropriate for control
// purposes", PhysCon 2003): n elasto-slide elements in parallel, element i a spring k_i [N/m]
// that slips when its deflection reaches Delta_i [m] (slip force k_i Delta_i [N]):
//   z_i <- sgn(dx + z_i) * min(|dx + z_i|, Delta_i)                   [m]   (dx = v h [m])
//   F = sum_i k_i z_i + sigma2 * v                                    [N]
// The update is exact for any step (the model is rate independent: it depends on the position
// increments only), |z_i| <= Delta_i is invariant, and the hysteresis has non-local memory.
// Steady state at constant v: F = sgn(v) sum_i k_i Delta_i + sigma2 v. Virgin curve from z = 0
// (monotone displacement x >= 0): F(x) = sum_i k_i min(x, Delta_i).
#pragma once

#include <array>

#include "frictionlab/models/common.hpp"

namespace frictionlab {

/// Elasto-slide element update: sgn(y) * min(|y|, cap) for y = z + dx.
template <class S>
S elastoslide(const S& z, const S& dx, const S& cap) noexcept {
  S y = z + dx;
  if (y > cap) return cap;
  if (y < -cap) return -cap;
  return y;
}

template <class S, int N = 64>
struct MaxwellSlip {
  using Scalar = S;
  static constexpr int kMaxElements = N;
  struct Params {
    using Model = MaxwellSlip;        ///< the model these parameters belong to
    int n{1};                         ///< number of elements used, 1..N
    std::array<S, N> k{S(1e5)};       ///< element stiffnesses [N/m], > 0 (first n used)
    std::array<S, N> Delta{S(1e-5)};  ///< element slip deflections [m], > 0; slip force k_i Delta_i
    S sigma2{0};                      ///< viscous coefficient [N s/m], >= 0
  };
  struct State {
    std::array<S, N> z{};  ///< element deflections [m], |z_i| <= Delta_i
  };
  static constexpr int kNumStates = N;

  static S force(const Params& p, const State& x, const S& v) noexcept {
    S f = p.sigma2 * v;
    for (int i = 0; i < p.n; ++i) f += p.k[i] * x.z[i];
    return f;
  }

  /// Total slip force sum k_i Delta_i [N] (the Coulomb level of the model).
  static S slip_force(const Params& p) noexcept {
    S f(0);
    for (int i = 0; i < p.n; ++i) f += p.k[i] * p.Delta[i];
    return f;
  }

  static S steady_force(const Params& p, const S& v) noexcept {
    return sgn(v) * slip_force(p) + p.sigma2 * v;
  }

  /// Update from a position increment dx [m] (exact, rate independent).
  static State step_dx(const Params& p, const State& x, const S& dx) noexcept {
    State y = x;
    for (int i = 0; i < p.n; ++i) y.z[i] = elastoslide(x.z[i], dx, p.Delta[i]);
    return y;
  }

  /// Exact update over a step h with v held constant: dx = v h.
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    return step_dx(p, x, v * h);
  }

  /// Exact update for a velocity linear from v0 to v1 over h (split at the reversal).
  static State step_linear(const Params& p, const State& x, const S& v0, const S& v1,
                           const S& h) noexcept {
    S dx1, dx2;
    if (!split_at_reversal(v0, v1, h, dx1, dx2)) return step_dx(p, x, dx1);
    return step_dx(p, step_dx(p, x, dx1), dx2);
  }

  /// Piecewise rate dz_i/dt: v while sticking (|z_i| < Delta_i or moving back), 0 while slipping.
  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    State d{};
    for (int i = 0; i < p.n; ++i) {
      const bool slipping =
          (x.z[i] >= p.Delta[i] && v > S(0)) || (x.z[i] <= -p.Delta[i] && v < S(0));
      d.z[i] = slipping ? S(0) : v;
    }
    return d;
  }

  /// Largest element bound max_i Delta_i [m] (each |z_i| <= Delta_i is invariant).
  static S state_bound(const Params& p) noexcept {
    S b(0);
    for (int i = 0; i < p.n; ++i)
      if (p.Delta[i] > b) b = p.Delta[i];
    return b;
  }
};

}  // namespace frictionlab
