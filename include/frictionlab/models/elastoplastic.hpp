// frictionlab: the single-state elasto-plastic friction model.
//
// P. Dupont, V. Hayward, B. Armstrong, F. Altpeter, "Single state elastoplastic friction models",
// IEEE TAC 47(5), 787-792, 2002. Parameter names and units: docs/models.md, section
// "Elasto-plastic".
//
//   dz/dt = v * (1 - alpha(z, v) * z / z_ss(v))                  [m/s]  (bristle deflection z [m])
//   z_ss(v) = sgn(v) * g(v) / sigma0                             [m]    (g: stribeck.hpp)
//   F = sigma0 * z + sigma1 * dz/dt + sigma2 * v                 [N]
//   alpha(z, v) = 0                                   if |z| <= z_ba or sgn(z) != sgn(v)
//               = 1/2 + 1/2 sin(pi (|z| - (zm + z_ba)/2) / (zm - z_ba))
//                                                     if z_ba < |z| < zm,    zm = |z_ss(v)|
//               = 1                                   if |z| >= zm
// with the breakaway displacement 0 < z_ba < min g / sigma0. For |z| <= z_ba the model is purely
// elastic (dz/dt = v, exactly reversible: no drift under small oscillations, the defining
// property of the model).
//
// Default step (v held over h). With s = sgn(v), w = s z (deflection in the direction of motion)
// and the arc length xi = |v| h [m], the ODE is autonomous in displacement:
//   dw/dxi = f(w),  f(w) = 1 - alpha(w) w / zm,  zm = g(v)/sigma0,
// f = 1 for w <= z_ba (elastic: exact, linear), f = 1 - w/zm for w >= zm (alpha = 1: exact,
// w = zm + (w0 - zm) exp(-xi/zm)), and f decreasing from 1 to 0 on the blend (z_ba, zm). On the
// blend the step uses kBlendSubsteps implicit (backward) Euler substeps in xi; each solves
// w+ = w + dxi f(w+), whose left side minus right side is increasing in w+ and changes sign on
// [w, zm], by kIterations safeguarded Newton iterations (bisection when Newton leaves the
// bracket) plus one final Newton step (exact first derivatives for ceres::Jet). The solve stays
// in [w, zm]: it never overshoots z_ss, |z| <= max g / sigma0 for any h, and the elastic part is
// exactly reversible. Accuracy: exact in the elastic and alpha = 1 regions; first order in xi on
// the blend (error <= C * xi / kBlendSubsteps per step of a blend traversal). For a smooth input
// the global error is therefore O(h) while the blend is being crossed and O(h^2) (exponential
// midpoint rule, Hold::linear) elsewhere.
#pragma once

#include <numbers>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab {

template <class S>
struct ElastoPlastic {
  using Scalar = S;
  struct Params {
    S sigma0{1e5};            ///< bristle stiffness [N/m], > 0
    S sigma1{S(316.227766)};  ///< bristle damping [N s/m], >= 0
    S sigma2{S(0.4)};         ///< viscous coefficient [N s/m], >= 0
    StribeckCurve<S> curve{S(1), S(1), S(1.5), S(1.5), S(0.001), S(2),
                           StribeckShape::exponential};
    S z_ba{S(5e-6)};  ///< breakaway displacement [m], 0 < z_ba < min g / sigma0
  };
  struct State {
    S z{0};  ///< bristle deflection [m]
  };
  static constexpr int kNumStates = 1;
  static constexpr int kBlendSubsteps = 8;
  static constexpr int kIterations = 12;

  static S g(const Params& p, const S& v) noexcept { return stribeck_g(p.curve, v); }

  /// Smallest g over all velocities [N]: min(Fc, Fs) on either side.
  static S gmin(const Params& p) noexcept {
    auto mn = [](const S& a, const S& b) { return a < b ? a : b; };
    const auto& c = p.curve;
    return mn(mn(c.Fc_pos, c.Fs_pos), mn(c.Fc_neg, c.Fs_neg));
  }

  /// Whether 0 < z_ba < min g / sigma0 (required: otherwise z_ss could fall inside the elastic
  /// region and the model has no steady sliding state).
  static bool z_ba_valid(const Params& p) noexcept {
    return p.z_ba > S(0) && p.z_ba < gmin(p) / p.sigma0;
  }

  /// alpha for the deflection w = sgn(v) z along the motion and zm = |z_ss(v)|.
  static S alpha_w(const S& w, const S& zm, const S& zba) noexcept {
    using std::sin;
    if (!(w > zba)) return S(0);
    if (!(w < zm)) return S(1);
    const S pi = S(std::numbers::pi);
    return S(0.5) + S(0.5) * sin(pi * (w - (zm + zba) / S(2)) / (zm - zba));
  }

  /// The adhesion map alpha(z, v) of Dupont et al. (0 at v = 0).
  static S alpha(const Params& p, const S& z, const S& v) noexcept {
    if (v == S(0)) return S(0);
    return alpha_w(sgn(v) * z, g(p, v) / p.sigma0, p.z_ba);
  }

  static State derivative(const Params& p, const State& x, const S& v) noexcept {
    if (v == S(0)) return State{S(0)};
    const S s = sgn(v);
    const S zm = g(p, v) / p.sigma0;
    const S w = s * x.z;
    return State{v * (S(1) - alpha_w(w, zm, p.z_ba) * w / zm)};
  }

  static S force(const Params& p, const State& x, const S& v) noexcept {
    return p.sigma0 * x.z + p.sigma1 * derivative(p, x, v).z + p.sigma2 * v;
  }

  /// Steady-state (static) curve: F_ss(v) = sgn(v) g(v) + sigma2 v.
  static S steady_force(const Params& p, const S& v) noexcept {
    return sgn(v) * g(p, v) + p.sigma2 * v;
  }

  /// One backward-Euler substep w+ = w + d f(w+) on the blend region (z_ba < w < zm).
  static S blend_substep(const S& w, const S& d, const S& zm, const S& zba) noexcept {
    using std::cos;
    using std::sin;
    const S pi = S(std::numbers::pi);
    const S width = zm - zba;
    // G(y) = y - w - d f(y), increasing; G(w) <= 0, G(zm) = zm - w >= 0.
    auto G = [&](const S& y, S& dG) {
      const S arg = pi * (y - (zm + zba) / S(2)) / width;
      const S a = S(0.5) + S(0.5) * sin(arg);
      const S da = S(0.5) * cos(arg) * pi / width;
      const S f = S(1) - a * y / zm;
      const S df = -(da * y + a) / zm;
      dG = S(1) - d * df;
      return y - w - d * f;
    };
    S lo = w, hi = zm;
    S y = w + d;  // elastic guess
    if (!(y < hi)) y = (lo + hi) / S(2);
    for (int it = 0; it < kIterations; ++it) {
      S dG;
      const S r = G(y, dG);
      if (r > S(0)) {
        hi = y;
      } else if (r < S(0)) {
        lo = y;
      } else {
        break;
      }
      S yn = y - r / dG;
      if (!(yn >= lo && yn <= hi)) yn = (lo + hi) / S(2);  // Newton left the bracket: bisect
      if (yn == y) break;                                   // converged to rounding
      y = yn;
    }
    // Final Newton step: leaves the converged value in place and gives exact first derivatives
    // (implicit function theorem) when S is a ceres::Jet.
    S dG;
    const S r = G(y, dG);
    S yn = y - r / dG;
    if (yn < w) yn = w;
    if (yn > zm) yn = zm;
    return yn;
  }

  /// Default update over a step h with v held constant (see header for the scheme).
  static State step(const Params& p, const State& x, const S& v, const S& h) noexcept {
    using std::exp;
    if (v == S(0)) return x;
    const S s = sgn(v);
    const S zm = g(p, v) / p.sigma0;
    S w = s * x.z;
    S xi = absval(v) * h;
    // Elastic region: f = 1.
    if (!(w > p.z_ba)) {
      const S to_ba = p.z_ba - w;
      if (!(xi > to_ba)) return State{s * (w + xi)};
      w = p.z_ba;
      xi = xi - to_ba;
    }
    // alpha = 1 region (only entered from above: the blend never reaches zm).
    if (!(w < zm)) {
      return State{s * (zm + (w - zm) * exp(-xi / zm))};
    }
    // Blend region: backward Euler substeps.
    const S d = xi / S(kBlendSubsteps);
    if (!(d > S(0))) return State{s * w};
    for (int j = 0; j < kBlendSubsteps; ++j) w = blend_substep(w, d, zm, p.z_ba);
    return State{s * w};
  }

  /// Invariant bound on |z| [m]: max g / sigma0.
  static S state_bound(const Params& p) noexcept { return stribeck_gmax(p.curve) / p.sigma0; }

  static constexpr void to_array(const State& x, S* out) noexcept { out[0] = x.z; }
  static constexpr State from_array(const S* in) noexcept { return State{in[0]}; }
};

}  // namespace frictionlab
