// frictionlab: the Stribeck curve g(v), shared by every model with a Stribeck curve (field
// `curve` of its Params).
//
// Units: forces in N (or Nm for rotary joints), velocities in m/s (or rad/s), viscous
// coefficient sigma2 in N s/m (Nm s/rad). Equations and sources: docs/models.md, section
// "Static models".
//
//   g(v) = Fc + (Fs - Fc) * s(|v| / vs)                                   [N]
//     shape exponential: s(r) = exp(-r^alpha)      (Armstrong-Helouvry 1994; LuGre paper 1995)
//     shape rational:    s(r) = 1 / (1 + r^alpha)  (Fortran "friction" library, Al-Bender 2004)
//
// Fc and Fs may differ for positive and negative velocity (Fc_pos/Fc_neg, Fs_pos/Fs_neg, all
// given as positive magnitudes); the symmetric case sets both sides equal.
#pragma once

#include "frictionlab/models/common.hpp"

namespace frictionlab {

enum class StribeckShape { exponential, rational };

template <class S>
struct StribeckCurve {
  S Fc_pos{1};  ///< Coulomb level for v > 0 [N], > 0
  S Fc_neg{1};  ///< Coulomb level for v < 0 [N] (magnitude), > 0
  S Fs_pos{1};  ///< static (breakaway) level for v > 0 [N], >= 0
  S Fs_neg{1};  ///< static level for v < 0 [N] (magnitude), >= 0
  S vs{1};      ///< Stribeck velocity [m/s], > 0
  S alpha{2};   ///< Stribeck exponent [-], > 0
  StribeckShape shape{StribeckShape::exponential};

  /// Symmetric curve from the four usual numbers.
  static constexpr StribeckCurve symmetric(S Fc, S Fs, S vs, S alpha,
                                           StribeckShape shape = StribeckShape::exponential) {
    return StribeckCurve{Fc, Fc, Fs, Fs, vs, alpha, shape};
  }
};

/// The shape function s(r) in [0, 1] of the ratio r = |v|/vs >= 0 [-]; s(0) = 1, decreasing.
template <class S>
S stribeck_shape_of_ratio(const StribeckCurve<S>& c, const S& r) noexcept {
  using std::exp;
  // pow(0, alpha) is 0 for alpha > 0, but its derivative w.r.t. r is singular for alpha < 1;
  // return the exact value at r == 0 without calling pow.
  if (!(r > S(0))) return S(1);
  const S ra = pow_exponent(r, c.alpha);  // r*r for alpha = 2, r for alpha = 1 (common.hpp)
  if (c.shape == StribeckShape::exponential) {
    // exp(-ra) is exactly 0 beyond exp_neg_zero_beyond (common.hpp: ra > 104 in float, 746 in
    // double); return that 0 without exp's underflow path (it sets errno and is several times
    // slower). A Jet's derivative there, -exp(-ra) d(ra), is 0 as well.
    constexpr double kZeroBeyond = exp_neg_zero_beyond<S>();
    if (ra > S(kZeroBeyond)) return S(0);
    return exp(-ra);
  }
  return S(1) / (S(1) + ra);
}

/// The shape function s(|v|/vs) in [0, 1]; s(0) = 1, decreasing.
template <class S>
S stribeck_shape(const StribeckCurve<S>& c, const S& v) noexcept {
  return stribeck_shape_of_ratio(c, S(absval(v) / c.vs));
}

/// g on a chosen side of the curve (positive: the v > 0 branch), so that g(0+) and g(0-) of an
/// asymmetric curve can both be evaluated.
template <class S>
S stribeck_g_side(const StribeckCurve<S>& c, const S& v, bool pos) noexcept {
  S Fc = pos ? c.Fc_pos : c.Fc_neg;  // (not const: returned by move for a Jet)
  const S Fs = pos ? c.Fs_pos : c.Fs_neg;
  const S dF = Fs - Fc;
  // Fs = Fc (Coulomb level only, value and derivatives): Fc + 0 * s = Fc for the finite s in
  // [0, 1], so the shape (an exp) is not evaluated.
  if (is_exactly(dF, 0.0)) return Fc;
  return Fc + dF * stribeck_shape(c, v);
}

/// stribeck_g_side with r = |v| * inv_vs, inv_vs = 1/vs [s/m] computed once by a caller that
/// evaluates g many times (a multiplication instead of a division per call; r differs from
/// |v|/vs by at most an ulp).
template <class S>
S stribeck_g_side_inv_vs(const StribeckCurve<S>& c, const S& v, bool pos,
                         const S& inv_vs) noexcept {
  S Fc = pos ? c.Fc_pos : c.Fc_neg;  // (not const: returned by move for a Jet)
  const S Fs = pos ? c.Fs_pos : c.Fs_neg;
  const S dF = Fs - Fc;
  if (is_exactly(dF, 0.0)) return Fc;
  return Fc + dF * stribeck_shape_of_ratio(c, S(absval(v) * inv_vs));
}

/// g(v) [N]: the magnitude of steady sliding friction without the viscous part.
template <class S>
S stribeck_g(const StribeckCurve<S>& c, const S& v) noexcept {
  return stribeck_g_side(c, v, !(v < S(0)));
}

/// Largest value of g over all velocities [N]: max(Fc, Fs) on either side.
template <class S>
S stribeck_gmax(const StribeckCurve<S>& c) noexcept {
  auto mx = [](const S& a, const S& b) { return a > b ? a : b; };
  return mx(mx(c.Fc_pos, c.Fs_pos), mx(c.Fc_neg, c.Fs_neg));
}

/// The same curve in another scalar type T (e.g. a Jet for an integrator's Newton Jacobian).
template <class T, class S>
StribeckCurve<T> cast_curve(const StribeckCurve<S>& c) {
  return StribeckCurve<T>{T(c.Fc_pos), T(c.Fc_neg), T(c.Fs_pos), T(c.Fs_neg),
                          T(c.vs),     T(c.alpha),  c.shape};
}

}  // namespace frictionlab
