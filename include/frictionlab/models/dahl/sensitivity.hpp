// frictionlab: forward sensitivities of the Dahl model's linear-input step (Dahl::step_linear:
// the exact update of each monotone part of the path) and of its force, along N directions in
// parameter space and with respect to the state, in plain arithmetic: the fit's fast path
// (models/fit_form.hpp, "Sensitivity"; docs/identification.md, "Jacobian"). Same equations and
// units as model.hpp; tested against the Jet derivatives and central differences
// (tests/test_model_properties.cpp, tests/test_segmented_jacobian.cpp).
//
// Fields q (DahlField): sigma0 [N/m], Fc [N], n [-]. Directions d = 0..N-1: DahlSeeds holds
// e_q = dq/dd; a direction whose seeds are all 0 carries the derivative with respect to the
// state the simulation started from (dz/dz_s = 1 at the start).
//
// One monotone part of displacement dx [m] (s = sgn(dx), xi = |dx|; dx does not depend on the
// parameters), c = sigma0 / Fc [1/m], a = c xi [-]:
//   dc  = c (e_sigma0 / sigma0 - e_Fc / Fc)
//   u0  = 1 - s c z,                     du0 = -s (z dc + c dz)
//   n = 1:  u = u0 exp(-a),              du = exp(-a) du0 - u xi dc - u (a ln u0 - a^2 / 2) e_n
//           (the last term: model.hpp's first-order expansion in n - 1 at n = 1)
//   n != 1: e = n - 1, P = u0^e, arg = e a P, L = log1p(arg), u = u0 exp(-L / e)
//           du = u [du0 / (u0 (1 + arg)) - P xi dc / (1 + arg)
//                   + (L / e^2 - arg (1 + e ln u0) / (e^2 (1 + arg))) e_n]
//           (arg <= -1, n < 1: u = 0 and du = 0; u0 < 0 by the symmetry u(-u0) = -u(u0);
//            u0 = 0: an equilibrium, du = 0)
//   z+  = s (1 - u) Fc / sigma0 = s (1 - u) / c,  dz+ = -s (du + (1 - u) dc / c) / c
// Force: F = sigma0 z [N],  dF = sigma0 dz + z e_sigma0.
// The step is not affine in z for n != 1 (kAffineStep = false): a fit's segments start from the
// states of the value simulation.
#pragma once

#include <array>
#include <cmath>

#include "frictionlab/models/dahl/model.hpp"

namespace frictionlab {

enum DahlField : int { kDahlSigma0, kDahlFc, kDahlN };
inline constexpr int kDahlFields = 3;

template <class S, int N>
using DahlSens = std::array<S, N>;

/// The seeds dq/dd of the N directions: e[q][d] for field q (DahlField) and direction d.
template <class S, int N>
struct DahlSeeds {
  std::array<DahlSens<S, N>, kDahlFields> e{};
  /// Whether some direction moves n: du/dn costs a log per step, and is left out otherwise.
  bool n = false;

  void set(int field, int direction, const S& value) noexcept {
    e[static_cast<std::size_t>(field)][static_cast<std::size_t>(direction)] = value;
    if (field == kDahlN && value != S(0)) n = true;
  }
};

/// What the Dahl model needs at a sample: the velocity alone (rate independent).
template <class S>
struct DahlAt {
  S v;
};

namespace detail_dahl_sens {

/// Dahl::relax (the same u, operation for operation) with its sensitivities: du holds du0 on
/// entry and du on return; dc = dc/dd.
template <class S, int N>
S relax(const S& u0, const S& c, const S& xi, const S& n, const DahlSens<S, N>& dc,
        const DahlSeeds<S, N>& seeds, DahlSens<S, N>& du) noexcept {
  using std::exp;
  using std::log;
  using std::log1p;
  using std::pow;
  constexpr auto un = static_cast<std::size_t>(N);
  if (u0 < S(0)) {
    for (auto& x : du) x = -x;
    const S u = relax<S, N>(-u0, c, xi, n, dc, seeds, du);
    for (auto& x : du) x = -x;
    return -u;
  }
  if (!(u0 > S(0))) {
    du.fill(S(0));
    return S(0);
  }
  const auto& e_n = seeds.e[kDahlN];
  if (n == S(1)) {
    const S a = c * xi;
    const S E = exp(-a);
    const S u = u0 * E;  // (Dahl::relax's u0 exp(-c xi): -(c xi) is (-c) xi)
    const S k_n = seeds.n ? -u * (a * log(u0) - a * a / S(2)) : S(0);
    for (std::size_t i = 0; i < un; ++i) du[i] = E * du[i] - u * xi * dc[i] + k_n * e_n[i];
    return u;
  }
  const S e = n - S(1);
  const S P = pow(u0, e);
  const S arg = e * c * xi * P;
  if (!(arg > S(-1))) {  // n < 1: u reached 0 within the step
    du.fill(S(0));
    return S(0);
  }
  const S L = log1p(arg);
  const S u = u0 * exp(-L / e);
  const S inv1 = S(1) / (S(1) + arg);
  const S k_u0 = u / u0 * inv1;
  const S k_c = -u * P * xi * inv1;
  const S k_n = seeds.n ? u * (L - arg * (S(1) + e * log(u0)) * inv1) / (e * e) : S(0);
  for (std::size_t i = 0; i < un; ++i) du[i] = k_u0 * du[i] + k_c * dc[i] + k_n * e_n[i];
  return u;
}

/// Dahl::step_dx (the same z+) with its sensitivities: dz in, dz+ out.
template <class S, int N>
S step_dx(const typename Dahl<S>::Params& p, const DahlSeeds<S, N>& seeds, const S& z,
          DahlSens<S, N>& dz, const S& dx) noexcept {
  constexpr auto un = static_cast<std::size_t>(N);
  if (dx == S(0)) return z;
  const S s = sgn(dx);
  const S xi = absval(dx);
  const S c = p.sigma0 / p.Fc;
  const S inv_s0 = S(1) / p.sigma0, inv_fc = S(1) / p.Fc;
  DahlSens<S, N> dc, du;
  for (std::size_t i = 0; i < un; ++i) {
    dc[i] = c * (seeds.e[kDahlSigma0][i] * inv_s0 - seeds.e[kDahlFc][i] * inv_fc);
    du[i] = -s * (z * dc[i] + c * dz[i]);
  }
  const S u0 = S(1) - s * p.sigma0 * z / p.Fc;
  const S u = relax<S, N>(u0, c, xi, p.n, dc, seeds, du);
  const S inv_c = S(1) / c, one_u_c = (S(1) - u) * inv_c;
  for (std::size_t i = 0; i < un; ++i) dz[i] = -s * (du[i] + one_u_c * dc[i]) * inv_c;
  return s * (S(1) - u) * p.Fc / p.sigma0;
}

}  // namespace detail_dahl_sens

/// Dahl::step_linear (the same z+) and its sensitivities, v linear from v0 to v1 over h [s]:
/// dz holds dz/dd before the step and dz+/dd after it.
template <class S, int N>
S dahl_step_linear_sens(const typename Dahl<S>::Params& p, const DahlSeeds<S, N>& seeds, const S& z,
                        DahlSens<S, N>& dz, const S& v0, const S& v1, const S& h) noexcept {
  S dx1, dx2;
  const bool split = split_at_reversal(v0, v1, h, dx1, dx2);
  const S z1 = detail_dahl_sens::step_dx<S, N>(p, seeds, z, dz, dx1);
  if (!split) return z1;
  return detail_dahl_sens::step_dx<S, N>(p, seeds, z1, dz, dx2);
}

/// What the generic fit may use of the Dahl model (models/fit_form.hpp, "Sensitivity"): its
/// closed-form forward sensitivities above, along NL directions in plain double. Every field
/// moves z; the force sigma0 z has no field of its own.
struct DahlSensitivity {
  using Params = Dahl<double>::Params;
  static constexpr int kFields = kDahlFields;
  static constexpr bool kAffineStep = false;
  static constexpr std::array<int, 3> kStateFields{kDahlSigma0, kDahlFc, kDahlN};
  static constexpr std::array<int, 0> kForceFields{};
  template <int NL>
  using Seeds = DahlSeeds<double, NL>;
  template <int NL>
  using At = DahlAt<double>;
  struct ForceParts {};

  /// The fields in DahlField order (a Jet's derivative parts give dq/dtheta).
  template <class S>
  static std::array<S, kFields> fields(const typename Dahl<S>::Params& p) {
    return {p.sigma0, p.Fc, p.n};
  }
  template <class S>
  static bool covers(const typename Dahl<S>::Params& /*p*/) {
    return true;
  }
  template <int NL>
  static At<NL> at(const Params& /*p*/, double v, const Seeds<NL>& /*seeds*/) noexcept {
    return {v};
  }
  /// F = sigma0 z with its sensitivities dF along the directions (dz: the state's).
  template <int NL>
  static double force(const Params& p, const Seeds<NL>& seeds, double z,
                      const std::array<double, NL>& dz, const At<NL>& /*w*/,
                      std::array<double, NL>& dF, ForceParts& /*parts*/) noexcept {
    for (std::size_t i = 0; i < static_cast<std::size_t>(NL); ++i)
      dF[i] = p.sigma0 * dz[i] + z * seeds.e[kDahlSigma0][i];
    return p.sigma0 * z;
  }
  /// (no force-only field)
  template <int NL>
  static double force_field(const ForceParts& /*parts*/, const At<NL>& /*w*/, int /*i*/) noexcept {
    return 0.0;
  }
  /// The step from w0 to w1 over h [s] with its sensitivities (dz in and out).
  template <int NL>
  static double step(const Params& p, const Seeds<NL>& seeds, double z, std::array<double, NL>& dz,
                     const At<NL>& w0, const At<NL>& w1, double h,
                     std::array<double, NL>* /*dx_sum*/) noexcept {
    return dahl_step_linear_sens<double, NL>(p, seeds, z, dz, w0.v, w1.v, h);
  }
};

}  // namespace frictionlab
