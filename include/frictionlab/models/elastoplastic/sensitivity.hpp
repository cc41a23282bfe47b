// frictionlab: forward sensitivities of the elasto-plastic model's step (ElastoPlastic::step at
// the held velocity: v0, or (v0 + v1) / 2 for a linearly interpolated input, as
// integrate/stepper.hpp's advance takes it) and of its force, along N directions in parameter
// space and with respect to the state, in plain arithmetic: the fit's fast path
// (models/fit_form.hpp, "Sensitivity"; docs/identification.md, "Jacobian"). Same equations and
// units as model.hpp; tested against the Jet derivatives and central differences
// (tests/test_model_properties.cpp, tests/test_segmented_jacobian.cpp).
//
// Fields q: LuGre's (LuGreField, lugre/sensitivity.hpp: sigma0, sigma1, sigma2, the curve), then
// z_ba [m] (kQzba). g(v) and dg come from lugre_g_grad (the same Stribeck curve). Directions as
// in LuGre: seeds e_q = dq/dd; a direction with all seeds 0 carries d/dz_s.
//
// With s = sgn(v), w = s z, zm = g(v) / sigma0 [m], dzm = (dg - zm e_sigma0) / sigma0, and the
// arc length xi = |v| h [m] (no derivative):
//   elastic (w <= z_ba): w+ = w + xi (dw+ = dw); or, past z_ba, w = z_ba, dw = e_zba and the
//     arc left xi - (z_ba - w) with dxi = dw - e_zba;
//   alpha = 1 (w >= zm): w+ = zm + (w - zm) E, E = exp(-xi / zm),
//     dw+ = dzm + (dw - dzm) E + (w - zm) E (-dxi / zm + xi dzm / zm^2);
//   blend: nsub substeps of d = xi / nsub (ElastoPlastic::blend_substeps: a count, no
//     derivative), each w+ = w + d phi1(lambda d) f(w) capped at zm (blend_substep) with
//       width = zm - z_ba, arg = pi (w - (zm + z_ba) / 2) / width,
//       a = (1 + sin arg) / 2, a' = pi cos(arg) / (2 width), f = 1 - a w / zm,
//       lambda = (a' w + a) / zm (0 where negative), x = lambda d,
//       darg = pi (dw - (dzm + de_zba) / 2) / width - arg (dzm - e_zba) / width,
//       da = cos(arg) darg / 2, da' = -pi sin(arg) darg / (2 width) - a' (dzm - e_zba) / width,
//       df = -(da w + a dw) / zm + a w dzm / zm^2,
//       dlambda = (da' w + a' dw + da - lambda dzm) / zm,  dx = dlambda d + lambda dd,
//       dw+ = dw + dd phi f + d phi'(x) dx f + d phi df   (the cap: dw+ = dzm).
//   z+ = s w+, dz+ = s dw+.
// Force: F = sigma0 z + sigma1 zdot + sigma2 v [N], zdot = v (1 - alpha w / zm) (0 at v = 0):
//   dF = sigma0 dz + z e_sigma0 + zdot e_sigma1 + v e_sigma2 + sigma1 dzdot,
//   dzdot = -v (dalpha w / zm + alpha dw / zm - alpha w dzm / zm^2), dalpha = cos(arg) darg / 2
//   on the blend, 0 elsewhere.
// The step is not affine in z (kAffineStep = false): a fit's segments start from the states of
// the value simulation.
#pragma once

#include <array>
#include <cmath>
#include <numbers>

#include "frictionlab/models/elastoplastic/model.hpp"
#include "frictionlab/models/lugre/sensitivity.hpp"

namespace frictionlab {

/// The elasto-plastic fields: LuGreField, then the breakaway displacement z_ba.
inline constexpr int kQzba = kLuGreFields;
inline constexpr int kElastoPlasticFields = kLuGreFields + 1;

/// The seeds dq/dd: LuGre's fields (their seeds, as lugre_g_grad reads them) and z_ba's.
template <class S, int N>
struct ElastoPlasticSeeds {
  LuGreSeeds<S, N> lugre;
  LuGreSens<S, N> e_zba{};

  void set(int field, int direction, const S& value) noexcept {
    if (field == kQzba) {
      e_zba[static_cast<std::size_t>(direction)] = value;
    } else {
      lugre.set(field, direction, value);
    }
  }
};

namespace detail_ep_sens {

/// zm = g / sigma0 [m] (as ElastoPlastic::step and derivative divide) and its derivatives.
template <class S, int N>
S zm_of(const S& sigma0, const S& g, const LuGreSens<S, N>& dg, const LuGreSeeds<S, N>& seeds,
        LuGreSens<S, N>& dzm) noexcept {
  const S zm = g / sigma0;
  const S inv_s0 = S(1) / sigma0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i)
    dzm[i] = (dg[i] - zm * seeds.e[kQs0][i]) * inv_s0;
  return zm;
}

/// ElastoPlastic::blend_substep (the same w+) with its sensitivities: dw in, dw+ out.
template <class S, int N>
S blend_substep(const S& w, LuGreSens<S, N>& dw, const S& d, const LuGreSens<S, N>& dd, const S& zm,
                const LuGreSens<S, N>& dzm, const S& zba, const LuGreSens<S, N>& dzba) noexcept {
  using std::cos;
  using std::sin;
  const S pi = S(std::numbers::pi);
  const S width = zm - zba;
  const S arg = pi * (w - (zm + zba) / S(2)) / width;
  const S sn = sin(arg), cs = cos(arg);
  const S a = S(0.5) + S(0.5) * sn;
  const S da = S(0.5) * cs * pi / width;
  const S f = S(1) - a * w / zm;
  S lambda = (da * w + a) / zm;  // -f'(w)
  const bool clamped = lambda < S(0);
  if (clamped) lambda = S(0);
  const S x = lambda * d;
  const S ph = phi1_neg(x);
  const S y = w + d * ph * f;
  if (!(y < zm)) {
    dw = dzm;
    return zm;
  }
  const S php = phi1_neg_derivative(x, S(1) - x * ph, ph);
  const S inv_width = S(1) / width, inv_zm = S(1) / zm;
  const S pi_w = pi * inv_width;
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
    const S dwidth = dzm[i] - dzba[i];
    const S darg = pi_w * (dw[i] - (dzm[i] + dzba[i]) / S(2)) - arg * dwidth * inv_width;
    const S d_a = S(0.5) * cs * darg;
    const S d_da = S(-0.5) * sn * darg * pi_w - da * dwidth * inv_width;
    const S df = -(d_a * w + a * dw[i]) * inv_zm + a * w * dzm[i] * inv_zm * inv_zm;
    const S dl = clamped ? S(0) : (d_da * w + da * dw[i] + d_a - lambda * dzm[i]) * inv_zm;
    const S dx = dl * d + lambda * dd[i];
    dw[i] += dd[i] * ph * f + d * php * dx * f + d * ph * df;
  }
  return y;
}

/// The alpha = 1 region: w+ = zm + (w - zm) exp(-xi / zm) with its sensitivities (dw in, dw+
/// out).
template <class S, int N>
S settle(const S& w, LuGreSens<S, N>& dw, const S& xi, const LuGreSens<S, N>& dxi, const S& zm,
         const LuGreSens<S, N>& dzm) noexcept {
  using std::exp;
  const S E = exp(-xi / zm);
  const S inv_zm = S(1) / zm;
  for (std::size_t i = 0; i < static_cast<std::size_t>(N); ++i) {
    const S dE = E * (-dxi[i] + xi * dzm[i] * inv_zm) * inv_zm;
    dw[i] = dzm[i] + (dw[i] - dzm[i]) * E + (w - zm) * dE;
  }
  return zm + (w - zm) * exp(-xi / zm);
}

}  // namespace detail_ep_sens

/// ElastoPlastic::step at the held velocity v (the same z+), g(v) and dg given (lugre_g_grad,
/// same seeds), with its sensitivities: dz holds dz/dd before the step and dz+/dd after it.
template <class S, int N>
S elastoplastic_step_sens(const typename ElastoPlastic<S>::Params& p,
                          const ElastoPlasticSeeds<S, N>& seeds, const S& z, LuGreSens<S, N>& dz,
                          const S& v, const S& g, const LuGreSens<S, N>& dg, const S& h) noexcept {
  constexpr auto un = static_cast<std::size_t>(N);
  if (v == S(0)) return z;
  const S s = sgn(v);
  LuGreSens<S, N> dzm, dw, dxi{};
  const S zm = detail_ep_sens::zm_of<S, N>(p.sigma0, g, dg, seeds.lugre, dzm);
  S w = s * z;
  for (std::size_t i = 0; i < un; ++i) dw[i] = s * dz[i];
  S xi = absval(v) * h;
  const auto& dzba = seeds.e_zba;
  if (!(w > p.z_ba)) {  // elastic: dw+ = dw
    const S to_ba = p.z_ba - w;
    if (!(xi > to_ba)) return s * (w + xi);
    for (std::size_t i = 0; i < un; ++i) dxi[i] = dw[i] - dzba[i];
    dw = dzba;
    w = p.z_ba;
    xi = xi - to_ba;
  }
  if (!(w < zm)) {
    w = detail_ep_sens::settle<S, N>(w, dw, xi, dxi, zm, dzm);
  } else {
    const int nsub = ElastoPlastic<S>::blend_substeps(xi, zm, p.z_ba);
    const S d = xi / S(nsub);
    if (d > S(0)) {
      LuGreSens<S, N> dd;
      for (std::size_t i = 0; i < un; ++i) dd[i] = dxi[i] / S(nsub);
      for (int j = 0; j < nsub; ++j)
        w = detail_ep_sens::blend_substep<S, N>(w, dw, d, dd, zm, dzm, p.z_ba, dzba);
    }
  }
  for (std::size_t i = 0; i < un; ++i) dz[i] = s * dw[i];
  return s * w;
}

/// ElastoPlastic::force (the same F) and its derivatives dF along the directions (dz: the
/// state's), g and dg at w.v given; zdot = dz/dt into `zdot` (dF/dsigma1).
template <class S, int N>
S elastoplastic_force_sens(const typename ElastoPlastic<S>::Params& p,
                           const ElastoPlasticSeeds<S, N>& seeds, const S& z,
                           const LuGreSens<S, N>& dz, const LuGreAt<S, N>& w, LuGreSens<S, N>& dF,
                           S& zdot) noexcept {
  using std::cos;
  using std::sin;
  constexpr auto un = static_cast<std::size_t>(N);
  const S& v = w.v;
  const auto& e0 = seeds.lugre.e[kQs0];
  const auto& e1 = seeds.lugre.e[kQs1];
  const auto& e2 = seeds.lugre.e[kQs2];
  // zdot's derivative dzdot = kw dw + kzm dzm + kzba e_zba (dw = s dz).
  S kw(0), kzm(0), kzba(0);
  LuGreSens<S, N> dzm{};
  zdot = S(0);
  if (v != S(0)) {
    const S s = sgn(v);
    const S zm = detail_ep_sens::zm_of<S, N>(p.sigma0, w.g, w.dg, seeds.lugre, dzm);
    const S ws = s * z;
    const S al = ElastoPlastic<S>::alpha_w(ws, zm, p.z_ba);
    zdot = v * (S(1) - al * ws / zm);
    // zdot = v - v alpha ws / zm: alpha's own derivative on the blend only.
    S a_w(0), a_zm(0), a_zba(0);  // dalpha = a_w dws + a_zm dzm + a_zba e_zba
    if (ws > p.z_ba && ws < zm) {
      const S pi = S(std::numbers::pi);
      const S width = zm - p.z_ba;
      const S arg = pi * (ws - (zm + p.z_ba) / S(2)) / width;
      const S c = S(0.5) * cos(arg) * pi / width;  // dalpha / d(ws)
      a_w = c;
      a_zm = c * (S(-0.5) - arg / pi);
      a_zba = c * (S(-0.5) + arg / pi);
    }
    const S r = ws / zm;
    kw = -v * (a_w * r + al / zm);
    kzm = -v * (a_zm * r - al * r / zm);
    kzba = -v * a_zba * r;
    kw *= s;  // (per unit dz)
  }
  for (std::size_t i = 0; i < un; ++i) {
    const S dzdot = kw * dz[i] + kzm * dzm[i] + kzba * seeds.e_zba[i];
    dF[i] = p.sigma0 * dz[i] + z * e0[i] + zdot * e1[i] + v * e2[i] + p.sigma1 * dzdot;
  }
  return p.sigma0 * z + p.sigma1 * zdot + p.sigma2 * v;
}

/// What the generic fit may use of the elasto-plastic model (models/fit_form.hpp,
/// "Sensitivity"): its closed-form forward sensitivities above, along NL directions in plain
/// double. sigma1 and sigma2 enter the force only (dF/dsigma1 = zdot, dF/dsigma2 = v).
struct ElastoPlasticSensitivity {
  using Params = ElastoPlastic<double>::Params;
  static constexpr int kFields = kElastoPlasticFields;
  static constexpr bool kAffineStep = false;
  static constexpr std::array<int, 8> kStateFields{kQs0,    kQFcPos, kQFcNeg, kQFsPos,
                                                   kQFsNeg, kQvs,    kQalpha, kQzba};
  static constexpr std::array<int, 2> kForceFields{kQs1, kQs2};
  template <int NL>
  using Seeds = ElastoPlasticSeeds<double, NL>;
  /// v, g(v) and dg (lugre/sensitivity.hpp).
  template <int NL>
  using At = LuGreAt<double, NL>;
  struct ForceParts {
    double zdot = 0;  ///< [m/s]
  };

  /// The fields: LuGreField order, then z_ba.
  template <class S>
  static std::array<S, kFields> fields(const typename ElastoPlastic<S>::Params& p) {
    const auto& c = p.curve;
    return {p.sigma0, p.sigma1, p.sigma2, c.Fc_pos, c.Fc_neg,
            c.Fs_pos, c.Fs_neg, c.vs,     c.alpha,  p.z_ba};
  }
  template <class S>
  static bool covers(const typename ElastoPlastic<S>::Params& /*p*/) {
    return true;
  }
  template <int NL>
  static At<NL> at(const Params& p, double v, const Seeds<NL>& seeds) noexcept {
    At<NL> w;
    w.v = v;
    w.g = lugre_g_grad<double, NL>(p.curve, absval(v) / p.curve.vs, !(v < 0), seeds.lugre, w.dg);
    return w;
  }
  template <int NL>
  static double force(const Params& p, const Seeds<NL>& seeds, double z,
                      const std::array<double, NL>& dz, const At<NL>& w, std::array<double, NL>& dF,
                      ForceParts& parts) noexcept {
    return elastoplastic_force_sens<double, NL>(p, seeds, z, dz, w, dF, parts.zdot);
  }
  /// dF/dq for the force-only field kForceFields[i].
  template <int NL>
  static double force_field(const ForceParts& parts, const At<NL>& w, int i) noexcept {
    return i == 0 ? parts.zdot : w.v;
  }
  /// The step from w0 to w1 over h [s] at the held velocity (w0.v + w1.v) / 2 (w0.v itself for
  /// a held input, w1 = w0) with its sensitivities (dz in and out).
  template <int NL>
  static double step(const Params& p, const Seeds<NL>& seeds, double z, std::array<double, NL>& dz,
                     const At<NL>& w0, const At<NL>& w1, double h,
                     std::array<double, NL>* /*dx_sum*/) noexcept {
    if (w0.v == w1.v)
      return elastoplastic_step_sens<double, NL>(p, seeds, z, dz, w0.v, w0.g, w0.dg, h);
    const At<NL> wm = at<NL>(p, (w0.v + w1.v) / 2.0, seeds);
    return elastoplastic_step_sens<double, NL>(p, seeds, z, dz, wm.v, wm.g, wm.dg, h);
  }
};

}  // namespace frictionlab
