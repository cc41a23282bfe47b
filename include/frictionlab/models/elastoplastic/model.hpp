// frictionlab: the single-state elasto-plastic friction model.
//
// P. Dupont, V. Hayward, B. Armstrong, F. Altpeter, "Single state elastoplastic friction models",
// IEEE TAC 47(5), 787-792, 2002. Parameter names and units: docs/models.md, section
// "Elasto-plastic".
//
//   dz/dt = v * (1 - alpha(z, v) * z / z_ss(v))                  [m/s]  (bristle deflection z [m])
//   z_ss(v) = sgn(v) * g(v) / sigma0                             [m]    (g: stribeck_curve.hpp)
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
// blend the step uses exponential Rosenbrock-Euler substeps in xi (blend_substep), between
// kBlendSubsteps and kMaxBlendSubsteps of them, each at most a quarter of the blend width long.
// Each substep is second order in its length and exact where f is linear; it never overshoots
// zm, so |z| <= max g / sigma0 for any h, and the elastic part is exactly reversible.
#pragma once

#include <cmath>
#include <numbers>

#include "frictionlab/models/common.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

template <class S>
struct ElastoPlastic {
  using Scalar = S;
  struct Params {
    using Model = ElastoPlastic;  ///< the model these parameters belong to
    S sigma0{1e5};                ///< bristle stiffness [N/m], > 0
    S sigma1{S(316.227766)};      ///< bristle damping [N s/m], >= 0
    S sigma2{S(0.4)};             ///< viscous coefficient [N s/m], >= 0
    StribeckCurve<S> curve{S(1), S(1), S(1.5), S(1.5), S(0.001), S(2), StribeckShape::exponential};
    S z_ba{S(5e-6)};  ///< breakaway displacement [m], 0 < z_ba < min g / sigma0
  };
  struct State {
    S z{0};  ///< bristle deflection [m]
  };
  static constexpr int kNumStates = 1;
  static constexpr int kBlendSubsteps = 4;      ///< fewest exponential-Euler substeps on the blend
  static constexpr int kMaxBlendSubsteps = 64;  ///< most substeps (bounded cost per step)

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

  /// One exponential Rosenbrock-Euler substep of length d [m] on the blend (z_ba <= w < zm):
  ///   w+ = w + d phi1(lambda d) f(w),  lambda = -f'(w) >= 0,
  /// exact when f is linear (as it is near zm, where f ~ (zm - w)/zm) and second order in d
  /// otherwise (Hochbruck & Ostermann, "Exponential integrators", Acta Numerica 2010, sec. 2.4).
  /// f >= 0 and phi1 in (0, 1], so w+ >= w; the result is capped at the equilibrium zm, so
  /// the substep never overshoots z_ss for any d. Smooth in all arguments except at the cap,
  /// so ceres::Jet derivatives are exact first derivatives of the scheme.
  static S blend_substep(const S& w, const S& d, const S& zm, const S& zba) noexcept {
    using std::cos;
    using std::sin;
    const S pi = S(std::numbers::pi);
    const S width = zm - zba;
    const S arg = pi * (w - (zm + zba) / S(2)) / width;
    const S a = S(0.5) + S(0.5) * sin(arg);
    const S da = S(0.5) * cos(arg) * pi / width;
    const S f = S(1) - a * w / zm;
    S lambda = (da * w + a) / zm;  // -f'(w)
    if (lambda < S(0)) lambda = S(0);
    const S y = w + d * phi1_neg(lambda * d) * f;
    return y < zm ? y : zm;
  }

  /// The number of blend substeps over the arc length xi [m]: each at most a quarter of the
  /// blend width (zm - z_ba) long, within [kBlendSubsteps, kMaxBlendSubsteps] (a count: no
  /// derivative).
  static int blend_substeps(const S& xi, const S& zm, const S& zba) noexcept {
    const double ratio = double_value(xi / ((zm - zba) / S(4)));
    return ratio < double(kBlendSubsteps)      ? kBlendSubsteps
           : ratio > double(kMaxBlendSubsteps) ? kMaxBlendSubsteps
                                               : static_cast<int>(std::ceil(ratio));
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
    // Blend region: exponential Euler substeps.
    const int nsub = blend_substeps(xi, zm, p.z_ba);
    const S d = xi / S(nsub);
    if (!(d > S(0))) return State{s * w};
    for (int j = 0; j < nsub; ++j) w = blend_substep(w, d, zm, p.z_ba);
    return State{s * w};
  }

  /// Invariant bound on |z| [m]: max g / sigma0.
  static S state_bound(const Params& p) noexcept { return stribeck_gmax(p.curve) / p.sigma0; }

  static constexpr void to_array(const State& x, S* out) noexcept { out[0] = x.z; }
  static constexpr State from_array(const S* in) noexcept { return State{in[0]}; }
};

/// The same parameters in another scalar type T (e.g. a Jet for an integrator's Newton Jacobian).
template <class T>
typename ElastoPlastic<T>::Params cast_params(const ElastoPlastic<double>::Params& p) {
  typename ElastoPlastic<T>::Params q;
  q.sigma0 = T(p.sigma0);
  q.sigma1 = T(p.sigma1);
  q.sigma2 = T(p.sigma2);
  q.curve = cast_curve<T>(p.curve);
  q.z_ba = T(p.z_ba);
  return q;
}

}  // namespace frictionlab
