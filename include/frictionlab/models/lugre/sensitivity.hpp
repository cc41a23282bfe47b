// frictionlab: forward sensitivities of the LuGre model's linear-input step (bristle.hpp,
// LuGre::step_linear) and of its force, along N directions in parameter space and with respect
// to the state, in plain arithmetic. A fit's Jacobian needs d(prediction)/d(parameters) along
// the whole record; carrying ceres::Jet derivatives through every operation of the step costs
// about ten times the step itself, these closed-form derivatives of the closed-form step a few
// times (docs/identification.md, "Jacobian"). Same equations, same units as model.hpp and
// bristle.hpp; tested against the Jet derivatives (tests/test_segmented_jacobian.cpp).
//
// Fields q (LuGreField): sigma0, sigma1, sigma2, Fc_pos, Fc_neg, Fs_pos, Fs_neg, vs, alpha.
// Directions d = 0..N-1: LuGreSeeds holds dq/dd, an N-vector per field (a fit's free parameter
// theta_j is a direction with seeds dq/dtheta_j; seeding direction q with field q alone gives
// dz/dq per field). A direction whose seeds are all 0 carries the derivative with respect to
// the state the simulation started from (a fit's segment start state z_s: dz/dz_s = 1 at the
// start). The cost is a few multiply-adds per direction and operation: a fit carries only the
// directions that move z. Velocity-dependent damping (vd > 0) is not covered: callers check vd ==
// 0.
//
// Stribeck curve, side sgn(v) (stribeck_curve.hpp), e_q = dq/dd:
//   g = Fc + (Fs - Fc) s(ra),  ra = r^alpha,  r = |v| / vs,
//   s = exp(-ra) (s' = ds/dra = -s)   or   s = 1 / (1 + ra) (s' = -s^2)
//   dg = (1 - s) e_Fc + s e_Fs - (Fs - Fc) s' alpha ra / vs e_vs + (Fs - Fc) s' ra ln r e_alpha
//   (the vs and alpha terms 0 at r = 0)
// One part of the arc-length step (bristle.hpp; sg = sgn(v), ds = hh (|va| + |vb|) / 2 [m]):
//   gh = g / sigma0 [m],  x = sigma0 ds / g(v_mid),  phi = phi1(x),  E = exp(-x) = 1 - x phi
//   z+  = sg gh1 + E (z - sg gh0) - sg (gh1 - gh0) phi
//   dz+ = sg dgh1 + E (dz - sg dgh0) - (z - sg gh0) E dx - sg ((dgh1 - dgh0) phi + (gh1 - gh0)
//   phi'(x) dx) dgh = (dg - gh e_sigma0) / sigma0,  dx = x (e_sigma0 / sigma0 - dg_mid / g_mid),
//   phi'(x) = (E - phi) / x  (series -1/2 + x/3 - x^2/8 + x^3/30 below x = 1e-3)
// Force: F = sigma0 z + sigma1 (v - a z) + sigma2 v,  a = sigma0 |v| / g(v)  [N]
//   dF = (sigma0 - sigma1 a) dz + e_sigma0 (z - sigma1 z |v| / g) + sigma1 z a dg / g
//        + e_sigma1 (v - a z) + e_sigma2 v
#pragma once

#include <array>
#include <cmath>
#include <type_traits>

#include "frictionlab/models/bristle.hpp"
#include "frictionlab/models/lugre/model.hpp"

namespace frictionlab {

enum LuGreField : int { kQs0, kQs1, kQs2, kQFcPos, kQFcNeg, kQFsPos, kQFsNeg, kQvs, kQalpha };
inline constexpr int kLuGreFields = 9;

template <class S, int N>
using LuGreSens = std::array<S, N>;

/// The seeds dq/dd of the N directions: e[q][d] for field q (LuGreField) and direction d.
/// Zero-initialised: every direction a state direction until seeded.
template <class S, int N>
struct LuGreSeeds {
  std::array<LuGreSens<S, N>, kLuGreFields> e{};
  /// Whether some direction moves alpha: dg/dalpha costs a log per g, and is left out otherwise.
  bool alpha = false;

  void set(int field, int direction, const S& value) noexcept {
    e[static_cast<std::size_t>(field)][static_cast<std::size_t>(direction)] = value;
    if (field == kQalpha && value != S(0)) alpha = true;
  }
};

/// g on side `pos` at the speed ratio r = |v| / vs >= 0, and its derivatives dg along the
/// seeded directions (every entry set).
template <class S, int N>
S lugre_g_grad(const StribeckCurve<S>& c, const S& r, bool pos, const LuGreSeeds<S, N>& seeds,
               LuGreSens<S, N>& dg) noexcept {
  using std::exp;
  using std::log;
  const S Fc = pos ? c.Fc_pos : c.Fc_neg;
  const S dF = (pos ? c.Fs_pos : c.Fs_neg) - Fc;
  S s(1), g_vs(0), g_alpha(0);
  if (r > S(0)) {
    const S ra = pow_exponent(r, c.alpha);
    S sp(0);
    if (c.shape == StribeckShape::exponential) {
      s = ra > S(exp_neg_zero_beyond<S>()) ? S(0) : S(exp(-ra));
      sp = -s;
    } else {
      s = S(1) / (S(1) + ra);
      sp = -s * s;
    }
    g_vs = -dF * sp * c.alpha * ra / c.vs;
    if (seeds.alpha) g_alpha = dF * sp * ra * log(r);
  }
  const S g_fc = S(1) - s;
  const auto& e_fc = seeds.e[pos ? kQFcPos : kQFcNeg];
  const auto& e_fs = seeds.e[pos ? kQFsPos : kQFsNeg];
  const auto& e_vs = seeds.e[kQvs];
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i)
    dg[i] = g_fc * e_fc[i] + s * e_fs[i] + g_vs * e_vs[i];
  if (seeds.alpha)
    for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i)
      dg[i] += g_alpha * seeds.e[kQalpha][i];
  return Fc + dF * s;
}

/// phi1'(x) for x >= 0, given E = exp(-x) and phi = phi1(x) (common.hpp phi1_neg).
template <class S>
S phi1_neg_derivative(const S& x, const S& E, const S& phi) noexcept {
  if (x < S(1e-3)) return S(-0.5) + x * (S(1) / S(3) + x * (S(-0.125) + x / S(30)));
  return (E - phi) / x;
}

/// g(v)/sigma0 [m] and its derivatives dgh along the directions (bristle.hpp's Gh with
/// derivatives). Left uninitialised by default: every one is written whole (gh_grad, arc)
/// before it is read.
template <class S, int N>
struct LuGreGh {
  S gh;
  LuGreSens<S, N> dgh;
};

namespace detail_lugre_sens {

/// gh = g/sigma0 and dgh = (dg - gh e_sigma0) / sigma0 from g and dg (dg and dgh may be the
/// same array).
template <class S, int N>
S gh_of(const S& g, const LuGreSens<S, N>& dg, const S& inv_sigma0, const LuGreSeeds<S, N>& seeds,
        LuGreSens<S, N>& dgh) noexcept {
  const S gh = g * inv_sigma0;
  const S gh_s0 = gh * inv_sigma0;
  const auto& e_s0 = seeds.e[kQs0];
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i)
    dgh[i] = dg[i] * inv_sigma0 - gh_s0 * e_s0[i];
  return gh;
}

template <class S, int N>
S gh_grad(const typename LuGre<S>::Params& p, const S& v, bool pos, const S& inv_vs,
          const S& inv_sigma0, const LuGreSeeds<S, N>& seeds, LuGreSens<S, N>& dgh) noexcept {
  const S g = lugre_g_grad<S, N>(p.curve, S(absval(v) * inv_vs), pos, seeds, dgh);
  return gh_of<S, N>(g, dgh, inv_sigma0, seeds, dgh);
}

/// bristle_arc_step with sensitivities: dz in, dz+ out (g at vb from known1 when given); the
/// arc's dx added to dx_sum when given (lugre_step_linear_sens).
template <class S, int N>
S arc(const typename LuGre<S>::Params& p, const S& z, LuGreSens<S, N>& dz, const S& va, const S& vb,
      const S& hh, bool pos, const S& inv_vs, const S& inv_sigma0, const LuGreSeeds<S, N>& seeds,
      const S& gh0, const LuGreSens<S, N>& dgh0, S& gh1, LuGreSens<S, N>& dgh1,
      const LuGreGh<S, N>* known1 = nullptr, LuGreSens<S, N>* dx_sum = nullptr) noexcept {
  const S sg = pos ? S(1) : S(-1);
  const S ds = hh * (absval(va) + absval(vb)) / S(2);
  if (known1 != nullptr) {
    gh1 = known1->gh;
    dgh1 = known1->dgh;
  } else {
    gh1 = gh_grad<S, N>(p, vb, pos, inv_vs, inv_sigma0, seeds, dgh1);
  }
  LuGreSens<S, N> dgm;
  const S gm = lugre_g_grad<S, N>(p.curve, S(absval((va + vb) / S(2)) * inv_vs), pos, seeds, dgm);
  const S c = p.sigma0 / gm;
  const S xs_gm = -c * ds / gm;  // dx = xs_gm dg_mid + xs_s0 e_sigma0
  const S xs_s0 = ds * c * inv_sigma0;
  const S xs = c * ds;
  const S ph = phi1_neg(xs);
  const S E = S(1) - xs * ph;
  const S php = phi1_neg_derivative(xs, E, ph);
  const S base = z - sg * gh0;
  const S dgh = gh1 - gh0;
  const auto& e_s0 = seeds.e[kQs0];
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
    const S dx = xs_gm * dgm[i] + xs_s0 * e_s0[i];
    if (dx_sum != nullptr) (*dx_sum)[i] += dx;
    dz[i] = sg * dgh1[i] + E * (dz[i] - sg * dgh0[i]) - base * E * dx -
            sg * ((dgh1[i] - dgh0[i]) * ph + dgh * php * dx);
  }
  return sg * gh1 + E * base - sg * dgh * ph;
}

/// The arcs of bristle.hpp's splitting (bristle_split_step) with the sensitivities: dz is
/// carried through every arc in place.
template <class S, int N>
struct SensOps {
  using Gh = LuGreGh<S, N>;
  const typename LuGre<S>::Params& p;
  const LuGreSeeds<S, N>& seeds;
  LuGreSens<S, N>& dz;
  S inv_vs;
  S inv_sigma0;
  LuGreSens<S, N>* dx_sum = nullptr;      ///< every arc's dx added here when set
  static constexpr bool monotone = true;  // the Stribeck curves (bristle.hpp)
  Gh gh(const S& v, bool pos) const noexcept {
    Gh g;
    g.gh = gh_grad<S, N>(p, v, pos, inv_vs, inv_sigma0, seeds, g.dgh);
    return g;
  }
  static const S& value(const Gh& g) noexcept { return g.gh; }
  S arc(const S& z, const S& va, const S& vb, const S& hh, bool pos, const Gh& g0, Gh& g1,
        const Gh* g1_known) const noexcept {
    return detail_lugre_sens::arc<S, N>(p, z, dz, va, vb, hh, pos, inv_vs, inv_sigma0, seeds, g0.gh,
                                        g0.dgh, g1.gh, g1.dgh, g1_known, dx_sum);
  }
};

}  // namespace detail_lugre_sens

/// g(v) on the side of v (v = 0: the positive side) with its derivatives: what the force at a
/// sample and the two linear steps that share the sample all need (lugre_force_sens,
/// lugre_step_linear_sens), evaluated once.
template <class S, int N>
struct LuGreAt {
  S v;
  S g;
  LuGreSens<S, N> dg;
};

template <class S, int N>
LuGreAt<S, N> lugre_at(const typename LuGre<S>::Params& p, const S& v,
                       const LuGreSeeds<S, N>& seeds) noexcept {
  LuGreAt<S, N> w;
  w.v = v;
  w.g = lugre_g_grad<S, N>(p.curve, S(absval(v) / p.curve.vs), !(v < S(0)), seeds, w.dg);
  return w;
}

/// LuGre::step_linear (the same z+, up to rounding) and its sensitivities, from w0.v to w1.v
/// with g and its derivatives at both ends given (lugre_at, same seeds): dz holds dz/dd before
/// the step and dz+/dd after it.
///
/// The step is affine in z (z+ = E z + c, E = exp(-sum of the arcs' x), E and c independent of
/// z), and so are the sensitivities: dz+ = E dz - E (z - ...) dx + ..., whence d(dz+)/dz0 for
/// the state z0 a simulation started from is -Phi X, with Phi = dz/dz0 (a direction with zero
/// seeds) and X the sum of every arc's dx since z0. `dx_sum`, when given, accumulates that sum
/// per direction (the fit's segments from a guessed start state, identify/families.cpp).
template <class S, int N>
S lugre_step_linear_sens(const typename LuGre<S>::Params& p, const LuGreSeeds<S, N>& seeds,
                         const S& z, LuGreSens<S, N>& dz, const LuGreAt<S, N>& w0,
                         const LuGreAt<S, N>& w1, const S& h,
                         LuGreSens<S, N>* dx_sum = nullptr) noexcept {
  const detail_lugre_sens::SensOps<S, N> ops{p,     seeds, dz, S(1) / p.curve.vs, S(1) / p.sigma0,
                                             dx_sum};
  BristleEnd<LuGreGh<S, N>> e0, e1;
  e0.gh.gh = detail_lugre_sens::gh_of<S, N>(w0.g, w0.dg, ops.inv_sigma0, seeds, e0.gh.dgh);
  e0.pos = !(w0.v < S(0));
  e0.known = true;
  e1.gh.gh = detail_lugre_sens::gh_of<S, N>(w1.g, w1.dg, ops.inv_sigma0, seeds, e1.gh.dgh);
  e1.pos = !(w1.v < S(0));
  e1.known = true;
  return bristle_split_step(z, w0.v, w1.v, h, p.curve.vs / S(8), ops, e0, e1);
}

/// LuGre::force (vd = 0) and its derivatives dF along the directions (dz: the state's), g and
/// dg at v given (lugre_at, same seeds); zdot = v - sigma0 |v| z / g into `zdot` (dF/dsigma1).
template <class S, int N>
S lugre_force_sens(const typename LuGre<S>::Params& p, const LuGreSeeds<S, N>& seeds, const S& z,
                   const LuGreSens<S, N>& dz, const LuGreAt<S, N>& w, LuGreSens<S, N>& dF,
                   S& zdot) noexcept {
  const S& v = w.v;
  const S& g = w.g;
  const auto& dg = w.dg;
  const S a = p.sigma0 * absval(v) / g;
  zdot = v - a * z;
  const S kz = p.sigma0 - p.sigma1 * a;
  const S kg = p.sigma1 * z * a / g;
  const S k0 = z - p.sigma1 * z * absval(v) / g;
  const auto& e0 = seeds.e[kQs0];
  const auto& e1 = seeds.e[kQs1];
  const auto& e2 = seeds.e[kQs2];
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i)
    dF[i] = kz * dz[i] + kg * dg[i] + k0 * e0[i] + zdot * e1[i] + v * e2[i];
  return p.sigma0 * z + p.sigma1 * zdot + p.sigma2 * v;
}

/// The fields q of a LuGre parameter set, in LuGreField order (any scalar: a Jet's derivative
/// parts give dq/dtheta).
template <class S>
std::array<S, kLuGreFields> lugre_fields(const typename LuGre<S>::Params& p) {
  return {p.sigma0,       p.sigma1,       p.sigma2,   p.curve.Fc_pos, p.curve.Fc_neg,
          p.curve.Fs_pos, p.curve.Fs_neg, p.curve.vs, p.curve.alpha};
}

/// What the generic fit may use of the LuGre model (models/fit_form.hpp, "Sensitivity"): its
/// closed-form forward sensitivities above, along NL directions in plain double. The fields q are
/// LuGreField; sigma1 and sigma2 enter the force only (dF/dsigma1 = zdot, dF/dsigma2 = v), the
/// others move z. The step is affine in z, so a fit may run its time segments from a guessed
/// start state and correct them once the true one is known.
struct LuGreSensitivity {
  using Params = LuGre<double>::Params;
  static constexpr int kFields = kLuGreFields;
  static constexpr bool kAffineStep = true;
  static constexpr std::array<int, 7> kStateFields{kQs0,    kQFcPos, kQFcNeg, kQFsPos,
                                                   kQFsNeg, kQvs,    kQalpha};
  static constexpr std::array<int, 2> kForceFields{kQs1, kQs2};
  template <int NL>
  using Seeds = LuGreSeeds<double, NL>;
  template <int NL>
  using At = LuGreAt<double, NL>;
  /// What the force's sensitivities leave for the force-only fields: zdot [m/s].
  struct ForceParts {
    double zdot = 0;
  };

  /// The fields in LuGreField order (a Jet's derivative parts give dq/dtheta).
  template <class S>
  static std::array<S, kFields> fields(const typename LuGre<S>::Params& p) {
    return lugre_fields<S>(p);
  }
  /// Whether the sensitivities cover p: not the velocity-dependent damping (vd, value and
  /// derivatives 0).
  template <class S>
  static bool covers(const typename LuGre<S>::Params& p) {
    if constexpr (std::is_arithmetic_v<S>) {
      return p.vd == S(0);
    } else {
      return p.vd.a == 0.0 && p.vd.v.isZero();
    }
  }
  template <int NL>
  static At<NL> at(const Params& p, double v, const Seeds<NL>& seeds) noexcept {
    return lugre_at<double, NL>(p, v, seeds);
  }
  /// The force at w with its sensitivities dF along the directions (dz: the state's).
  template <int NL>
  static double force(const Params& p, const Seeds<NL>& seeds, double z,
                      const std::array<double, NL>& dz, const At<NL>& w, std::array<double, NL>& dF,
                      ForceParts& parts) noexcept {
    return lugre_force_sens<double, NL>(p, seeds, z, dz, w, dF, parts.zdot);
  }
  /// dF/dq for the force-only field kForceFields[i].
  template <int NL>
  static double force_field(const ForceParts& parts, const At<NL>& w, int i) noexcept {
    return i == 0 ? parts.zdot : w.v;
  }
  /// The step from w0 to w1 over h [s] with its sensitivities (dz in and out); every arc's dx
  /// summed into dx_sum when given (see lugre_step_linear_sens).
  template <int NL>
  static double step(const Params& p, const Seeds<NL>& seeds, double z, std::array<double, NL>& dz,
                     const At<NL>& w0, const At<NL>& w1, double h,
                     std::array<double, NL>* dx_sum) noexcept {
    return lugre_step_linear_sens<double, NL>(p, seeds, z, dz, w0, w1, h, dx_sum);
  }
  /// Guessed start states: the derivatives of dF (every direction) and of the force-only
  /// fields' dF/dq with respect to the start state z_s, given Phi = dz/dz_s and X, the arcs' dx
  /// summed since z_s (lugre_step_linear_sens). The force's derivatives are affine in z and
  /// d(dz/dd)/dz_s = -Phi X, so with a = sigma0 |v| / g
  ///   d(dF)/dz_s = Phi (-(sigma0 - sigma1 a) X + sigma1 a / g dg + (1 - sigma1 |v| / g) e_sigma0
  ///                     - a e_sigma1),
  /// and zdot = v - a z gives d(dF/dsigma1)/dz_s = -a Phi (dF/dsigma2 = v: 0).
  template <int NL>
  static void force_by_start(const Params& p, const Seeds<NL>& seeds, const At<NL>& w, double Phi,
                             const std::array<double, NL>& X, std::array<double, NL>& m,
                             std::array<double, kForceFields.size()>& m_force) noexcept {
    const double inv_g = 1.0 / w.g, av = std::abs(w.v), a = p.sigma0 * av * inv_g;
    const double kz = p.sigma0 - p.sigma1 * a, cg = p.sigma1 * a * inv_g,
                 c0 = 1.0 - p.sigma1 * av * inv_g;
    for (std::size_t l = 0; l < static_cast<std::size_t>(NL); ++l)
      m[l] = Phi * (-kz * X[l] + cg * w.dg[l] + c0 * seeds.e[kQs0][l] - a * seeds.e[kQs1][l]);
    m_force = {-a * Phi, 0.0};
  }
};

}  // namespace frictionlab
