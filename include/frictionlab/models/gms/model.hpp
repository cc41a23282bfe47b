// frictionlab: the Generalized Maxwell-slip (GMS) friction model.
//
// F. Al-Bender, V. Lampaert, J. Swevers, "The generalized Maxwell-slip model: a novel model for
// friction simulation and compensation", IEEE TAC 50(11), 1883-1887, 2005; V. Lampaert,
// F. Al-Bender, J. Swevers, "A generalized Maxwell-slip friction model appropriate for control
// purposes", PhysCon 2003. Parameter names and units: docs/models.md, section "GMS".
//
// n elements in parallel, element i with stiffness k_i [N/m], deflection z_i [m], force
// F_i = k_i z_i [N] and weight nu_i [-] (sum nu_i = 1):
//   stick:  dF_i/dt = k_i v                                        [N/s]
//           until |F_i| reaches nu_i g(v) with v driving |F_i| up; the element then slips
//   slip:   dF_i/dt = C (sgn(v) nu_i - F_i / g(v))                  [N/s]   (C [N/s])
//           until the velocity reverses (sgn(v) != sgn(F_i)); the element then sticks again
//   F = sum_i F_i + sigma2 v                                        [N]
// g(v) is the Stribeck curve of stribeck_curve.hpp.
//
// Two deliberate departures from published/reference formulas (see docs/models.md):
//  - the stick threshold is nu_i g(v), not g(v) (the Fortran library of reference 001 uses g(v),
//    which makes every element carry the full friction and the total n times too large);
//  - sgn(v) multiplies nu_i only. The form dF_i/dt = sgn(v) C (nu_i - F_i/g) printed in the 2005
//    paper has, for v < 0, the repelling equilibrium F_i = +nu_i g: after a reversal an element
//    that reaches -nu_i g slips away exponentially (tests/test_maxwell_gms.cpp shows it leaving the
//    bound). With sgn(v) on nu_i only, every slipping element is attracted to sgn(v) nu_i g(v).
//
// Exact step for v held over h (default discretisation): per element,
//   slip:   F_i(h) = sgn(v) nu_i g + (F_i - sgn(v) nu_i g) exp(-a h),  a = C / g(v)  [1/s]
//           (written F_i + h phi1(a h) (C sgn(v) nu_i - a F_i), cancellation-free);
//   stick:  F_i(h) = F_i + k_i v h if the threshold is not reached; otherwise it is reached at
//           t_c = (nu_i g - sgn(v) F_i) / (k_i |v|), where F_i = sgn(v) nu_i g is already the
//           equilibrium of the slip law, so F_i stays there for the rest of the step.
// This is exact for any h, keeps |F_i| <= nu_i max g (the slip law moves F_i along a convex
// combination of its value and sgn(v) nu_i g), and at constant v every element ends at
// sgn(v) nu_i g(v): F -> sgn(v) g(v) + sigma2 v, the Stribeck curve. For |v| << vs (g ~ Fs) the
// model is rate independent with the non-local memory of the Maxwell-slip model.
// At v = 0 the state is held (no motion, no change of regime).
#pragma once

#include <array>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

template <class S, int N = 64>
struct GMS {
  using Scalar = S;
  static constexpr int kMaxElements = N;
  struct Params {
    using Model = GMS;           ///< the model these parameters belong to
    int n{1};                    ///< number of elements used, 1..N
    std::array<S, N> k{S(1e5)};  ///< element stiffnesses [N/m], > 0 (first n used)
    std::array<S, N> nu{S(1)};   ///< element weights [-], > 0, sum over the first n = 1
    S C{20};                     ///< attraction parameter of the slip law [N/s], > 0
    S sigma2{S(0.4)};            ///< viscous coefficient [N s/m], >= 0
    StribeckCurve<S> curve{S(1), S(1), S(1.5), S(1.5), S(0.001), S(2), StribeckShape::exponential};
  };
  struct State {
    std::array<S, N> z{};            ///< element deflections [m], F_i = k_i z_i
    std::array<bool, N> slipping{};  ///< element regime: false = stick, true = slip
  };
  static constexpr int kNumStates = N;

  static S g(const Params& p, const S& v) noexcept { return stribeck_g(p.curve, v); }

  static S force(const Params& p, const State& x, const S& v) noexcept {
    S f = p.sigma2 * v;
    for (int i = 0; i < p.n; ++i) f += p.k[i] * x.z[i];
    return f;
  }

  static S steady_force(const Params& p, const S& v) noexcept {
    return sgn(v) * g(p, v) + p.sigma2 * v;
  }

  /// Whether element i sticks at velocity v (regime after applying the reversal rule).
  static bool sticks(const State& x, int i, const S& v) noexcept {
    if (!x.slipping[i]) return true;
    return (v > S(0) && x.z[i] < S(0)) || (v < S(0) && x.z[i] > S(0));
  }

  /// Rates dz_i/dt for the current regime (the stick-to-slip switch is an event, see step).
  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    State d{};
    d.slipping = x.slipping;
    if (v == S(0)) return d;
    const S gv = g(p, v);
    const S s = sgn(v);
    for (int i = 0; i < p.n; ++i) {
      const S Fi = p.k[i] * x.z[i];
      const bool at_threshold = !(s * Fi < p.nu[i] * gv);
      if (sticks(x, i, v) && !at_threshold) {
        d.z[i] = v;
      } else {
        d.z[i] = p.C * (s * p.nu[i] - Fi / gv) / p.k[i];
      }
    }
    return d;
  }

  /// Exact update over a step h with v held constant (default discretisation).
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    if (v == S(0)) return x;
    State y = x;
    const S gv = g(p, v);
    const S s = sgn(v);
    const S a = p.C / gv;
    const S ph = h * phi1_neg(a * h);
    for (int i = 0; i < p.n; ++i) {
      const S Fi = p.k[i] * x.z[i];
      const S target = s * p.nu[i] * gv;  // slip equilibrium (and stick threshold with sign)
      if (sticks(x, i, v)) {
        const S Fn = Fi + p.k[i] * v * h;
        if (s * Fn < p.nu[i] * gv) {
          y.z[i] = x.z[i] + v * h;  // stuck for the whole step
          y.slipping[i] = false;
          continue;
        }
        if (s * Fi < p.nu[i] * gv) {
          // Threshold reached within the step at the slip equilibrium: stays there.
          y.z[i] = target / p.k[i];
          y.slipping[i] = true;
          continue;
        }
        // Otherwise already beyond the threshold (g dropped): slips for the whole step.
      }
      y.z[i] = (Fi + ph * (p.C * s * p.nu[i] - a * Fi)) / p.k[i];
      y.slipping[i] = true;
    }
    return y;
  }

  /// Invariant bound on each |F_i| = k_i |z_i|: nu_i max g [N].
  static S element_force_bound(const Params& p, int i) noexcept {
    return p.nu[i] * stribeck_gmax(p.curve);
  }

  /// Invariant bound on every |z_i| [m]: max_i nu_i max g / k_i.
  static S state_bound(const Params& p) noexcept {
    S b(0);
    for (int i = 0; i < p.n; ++i) {
      const S bi = element_force_bound(p, i) / p.k[i];
      if (bi > b) b = bi;
    }
    return b;
  }
};

}  // namespace frictionlab
