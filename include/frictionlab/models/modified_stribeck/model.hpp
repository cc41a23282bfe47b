// frictionlab: the "modified Stribeck" model of the Fortran friction library (reference 001).
// Parameter names and units: docs/models.md, section "Modified Stribeck".
//
// Modified Stribeck (reference 001, README "Modified Stribeck Model"): one element whose slip
// deflection follows the Stribeck curve g(v) (stribeck_curve.hpp):
//   z <- clip(clip(z, g(v)/k) + dx, g(v)/k),  clip(y, c) = sgn(y) min(|y|, c)   [m]
//   F = k z + sigma2 v                                                [N]
// Steady state: F = sgn(v) g(v) + sigma2 v. Exact for v held over the step; |z| <= max g / k.
#pragma once

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/maxwell_slip/model.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

template <class S>
struct ModifiedStribeck {
  using Scalar = S;
  struct Params {
    using Model = ModifiedStribeck;  ///< the model these parameters belong to
    S k{1e5};                        ///< element stiffness [N/m], > 0
    S sigma2{S(0.4)};                ///< viscous coefficient [N s/m], >= 0
    StribeckCurve<S> curve{S(1), S(1), S(1.5), S(1.5), S(0.001), S(2), StribeckShape::exponential};
  };
  struct State {
    S z{0};  ///< element deflection [m], |z| <= g(v)/k after every step
  };
  static constexpr int kNumStates = 1;

  static S g(const Params& p, const S& v) noexcept { return stribeck_g(p.curve, v); }

  static S force(const Params& p, const State& x, const S& v) noexcept {
    return p.k * x.z + p.sigma2 * v;
  }

  static S steady_force(const Params& p, const S& v) noexcept {
    return sgn(v) * g(p, v) + p.sigma2 * v;
  }

  /// Exact update over a step h with v held constant: dx = v h, slip deflection g(v)/k.
  /// A state left outside the new cap by a change of v (|z| > g(v)/k) slips back to the cap at
  /// once (the constraint |z| <= g(v)/k holds at every instant), then moves by dx.
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    const S cap = g(p, v) / p.k;
    return State{elastoslide(elastoslide(x.z, S(0), cap), v * h, cap)};
  }

  /// Piecewise rate: v while sticking, 0 while slipping at |z| = g(v)/k.
  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    const S cap = g(p, v) / p.k;
    const bool slipping = (x.z >= cap && v > S(0)) || (x.z <= -cap && v < S(0));
    return State{slipping ? S(0) : v};
  }

  /// Invariant bound on |z| [m]: max g / k.
  static S state_bound(const Params& p) noexcept { return stribeck_gmax(p.curve) / p.k; }
};

}  // namespace frictionlab
