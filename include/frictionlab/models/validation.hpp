// frictionlab: parameter validation for every model (host side: allocates, never used by the
// models themselves, which stay noexcept and check nothing).
//
// check(params) returns the list of problems of a parameter set in double precision: errors (the
// set is rejected by the model-file reader, io/model_json) and warnings (accepted, reported).
// The rules and the parameter names are those of docs/models.md ("valid" columns); element
// parameters of the multi-element models are named "k[i]", "Delta[i]", "nu[i]" with the 0-based
// index i of the JSON array / C++ std::array. Messages are written to follow "parameter 'NAME': ".
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/models/actuator_budgets.hpp"
#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/joint_lugre.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab {

struct ParamIssue {
  std::string param;     ///< parameter name as in docs/models.md, e.g. "sigma0", "Fs_neg", "k[2]"
  std::string message;   ///< what is wrong, e.g. "must be > 0, got -1"
  bool warning = false;  ///< false: error (rejected); true: accepted with a warning
};

/// Whether a list contains an error (not only warnings).
inline bool has_errors(const std::vector<ParamIssue>& issues) {
  for (const auto& i : issues)
    if (!i.warning) return true;
  return false;
}

namespace validation_detail {

class Checker {
 public:
  explicit Checker(std::vector<ParamIssue>& out) : out_(out) {}

  void error(const std::string& p, const std::string& m) { out_.push_back({p, m, false}); }
  void warn(const std::string& p, const std::string& m) { out_.push_back({p, m, true}); }

  /// Finite and > 0; returns whether it is.
  bool positive(const std::string& p, double x) {
    if (!finite(p, x)) return false;
    if (x > 0) return true;
    error(p, "must be > 0, got " + format_exact(x));
    return false;
  }
  /// Finite and >= 0; returns whether it is.
  bool nonnegative(const std::string& p, double x) {
    if (!finite(p, x)) return false;
    if (x >= 0) return true;
    error(p, "must be >= 0, got " + format_exact(x));
    return false;
  }
  bool finite(const std::string& p, double x) {
    if (std::isfinite(x)) return true;
    error(p, "must be a finite number, got " + format_exact(x));
    return false;
  }

 private:
  std::vector<ParamIssue>& out_;
};

/// Stribeck curve rules. `g_divides`: the model divides by g (LuGre, elasto-plastic, modified
/// Stribeck, GMS), so Fc and Fs must be > 0; static models allow 0. Returns whether the curve
/// has no error.
inline bool check_curve(Checker& c, const StribeckCurve<double>& s, bool g_divides) {
  bool ok = true;
  auto level = [&](const char* name, double x) {
    ok = (g_divides ? c.positive(name, x) : c.nonnegative(name, x)) && ok;
  };
  level("Fc_pos", s.Fc_pos);
  level("Fc_neg", s.Fc_neg);
  level("Fs_pos", s.Fs_pos);
  level("Fs_neg", s.Fs_neg);
  ok = c.positive("vs", s.vs) && ok;
  const bool alpha_ok = c.positive("alpha", s.alpha);
  ok = alpha_ok && ok;
  if (alpha_ok && (s.alpha < 0.5 || s.alpha > 2))
    c.warn("alpha", "alpha = " + format_exact(s.alpha) + " is outside the usual range [0.5, 2]");
  if (s.shape != StribeckShape::exponential && s.shape != StribeckShape::rational)
    c.error("shape", "must be exponential or rational");
  if (std::isfinite(s.Fs_pos) && std::isfinite(s.Fc_pos) && s.Fs_pos < s.Fc_pos)
    c.warn("Fs_pos", "Fs_pos = " + format_exact(s.Fs_pos) + " < Fc_pos = " + format_exact(s.Fc_pos) +
                         ": inverted Stribeck effect (friction rises with speed)");
  if (std::isfinite(s.Fs_neg) && std::isfinite(s.Fc_neg) && s.Fs_neg < s.Fc_neg)
    c.warn("Fs_neg", "Fs_neg = " + format_exact(s.Fs_neg) + " < Fc_neg = " + format_exact(s.Fc_neg) +
                         ": inverted Stribeck effect (friction rises with speed)");
  return ok;
}

/// The LuGre passivity condition sigma2 > sigma1 (Fs - Fc)/Fc on both sides (LuGre::is_passive;
/// Astrom & Canudas de Wit 2008, with sigma1 at its largest). Warns once per failing side (once
/// for a symmetric curve).
inline void check_passivity(Checker& c, double sigma1, double sigma2, double Fc_pos, double Fs_pos,
                            double Fc_neg, double Fs_neg) {
  const double lim_pos = sigma1 * (Fs_pos - Fc_pos) / Fc_pos;
  const double lim_neg = sigma1 * (Fs_neg - Fc_neg) / Fc_neg;
  const bool fail_pos = !(sigma2 > lim_pos), fail_neg = !(sigma2 > lim_neg);
  const bool symmetric = Fc_pos == Fc_neg && Fs_pos == Fs_neg;
  auto msg = [&](double lim, const char* side) {
    return std::string("the map v -> F is not passive") + side +
           ": sigma1*(Fs - Fc)/Fc = " + format_number(lim) + " >= sigma2 = " + format_exact(sigma2) +
           " (passivity needs sigma2 > sigma1*(Fs - Fc)/Fc; Astrom & Canudas de Wit 2008)";
  };
  if (symmetric) {
    if (fail_pos) c.warn("sigma1", msg(lim_pos, ""));
    return;
  }
  if (fail_pos) c.warn("sigma1", msg(lim_pos, " for v > 0"));
  if (fail_neg) c.warn("sigma1", msg(lim_neg, " for v < 0"));
}

/// Element count 1 <= n <= N of the multi-element models.
inline bool check_count(Checker& c, int n, int N) {
  if (n >= 1 && n <= N) return true;
  c.error("n", "must be between 1 and " + std::to_string(N) + " (the template size N), got " +
                   std::to_string(n));
  return false;
}

inline std::string element(const char* name, int i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

}  // namespace validation_detail

/// Static friction (Coulomb, viscous, Coulomb+viscous, Stribeck).
inline std::vector<ParamIssue> check(const StaticFriction<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/false);
  c.nonnegative("sigma2", p.sigma2);
  c.nonnegative("v_smooth", p.v_smooth);
  return out;
}

inline std::vector<ParamIssue> check(const LuGre<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  bool ok = c.positive("sigma0", p.sigma0);
  ok = c.nonnegative("sigma1", p.sigma1) && ok;
  ok = c.nonnegative("sigma2", p.sigma2) && ok;
  ok = validation_detail::check_curve(c, p.curve, /*g_divides=*/true) && ok;
  c.nonnegative("vd", p.vd);
  if (ok)
    validation_detail::check_passivity(c, p.sigma1, p.sigma2, p.curve.Fc_pos, p.curve.Fs_pos,
                                       p.curve.Fc_neg, p.curve.Fs_neg);
  return out;
}

/// The displacement-unit form of LuGre (Fortran library): Fc = sigma0 a1 > 0 needs a1 > 0,
/// Fs = sigma0 (a1 + a2) > 0 needs a1 + a2 > 0; a2 < 0 is the inverted Stribeck effect (warning).
inline std::vector<ParamIssue> check(const LuGreDisplacementForm<double>& d) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  bool ok = c.positive("sigma0", d.sigma0);
  ok = c.nonnegative("sigma1", d.sigma1) && ok;
  ok = c.nonnegative("sigma2", d.sigma2) && ok;
  const bool a1_ok = c.positive("a1", d.a1);
  ok = a1_ok && ok;
  if (c.finite("a2", d.a2) && a1_ok) {
    if (!(d.a1 + d.a2 > 0)) {
      c.error("a2",
              "a1 + a2 must be > 0 (Fs = sigma0 (a1 + a2)), got a1 + a2 = " + format_exact(d.a1 + d.a2));
      ok = false;
    } else if (d.a2 < 0) {
      c.warn("a2", "a2 = " + format_exact(d.a2) + " < 0: inverted Stribeck effect (Fs < Fc)");
    }
  } else {
    ok = false;
  }
  ok = c.positive("vs", d.vs) && ok;
  const bool alpha_ok = c.positive("alpha", d.alpha);
  if (alpha_ok && (d.alpha < 0.5 || d.alpha > 2))
    c.warn("alpha", "alpha = " + format_exact(d.alpha) + " is outside the usual range [0.5, 2]");
  if (ok && alpha_ok) {
    const double Fc = d.sigma0 * d.a1, Fs = d.sigma0 * (d.a1 + d.a2);
    validation_detail::check_passivity(c, d.sigma1, d.sigma2, Fc, Fs, Fc, Fs);
  }
  return out;
}

inline std::vector<ParamIssue> check(const Dahl<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.positive("sigma0", p.sigma0);
  c.positive("Fc", p.Fc);
  if (c.positive("n", p.n) && p.n > 2)
    c.warn("n", "n = " + format_exact(p.n) + " is outside (0, 2] (Dahl used 0 < n <= 2)");
  return out;
}

inline std::vector<ParamIssue> check(const ElastoPlastic<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  const bool s0 = c.positive("sigma0", p.sigma0);
  c.nonnegative("sigma1", p.sigma1);
  c.nonnegative("sigma2", p.sigma2);
  const bool curve_ok = validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  if (c.finite("z_ba", p.z_ba) && s0 && curve_ok && !ElastoPlastic<double>::z_ba_valid(p)) {
    const double zmax = ElastoPlastic<double>::gmin(p) / p.sigma0;
    c.error("z_ba", "must satisfy 0 < z_ba < min(Fc, Fs)/sigma0 = " +
                        format_number(zmax) + " m, got " + format_exact(p.z_ba));
  }
  return out;
}

template <int N>
std::vector<ParamIssue> check_maxwell_slip(const typename MaxwellSlip<double, N>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  if (validation_detail::check_count(c, p.n, N)) {
    for (int i = 0; i < p.n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      c.positive(validation_detail::element("k", i), p.k[k]);
      c.positive(validation_detail::element("Delta", i), p.Delta[k]);
    }
  }
  c.nonnegative("sigma2", p.sigma2);
  return out;
}

inline std::vector<ParamIssue> check(const MaxwellSlip<double>::Params& p) {
  return check_maxwell_slip<MaxwellSlip<double>::kMaxElements>(p);
}

inline std::vector<ParamIssue> check(const ModifiedStribeck<double>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.positive("k", p.k);
  c.nonnegative("sigma2", p.sigma2);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  return out;
}

/// GMS: the weights must sum to 1 within 1e-6 (docs/models.md).
template <int N>
std::vector<ParamIssue> check_gms(const typename GMS<double, N>::Params& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  if (validation_detail::check_count(c, p.n, N)) {
    bool nu_ok = true;
    double sum = 0;
    for (int i = 0; i < p.n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      c.positive(validation_detail::element("k", i), p.k[k]);
      nu_ok = c.positive(validation_detail::element("nu", i), p.nu[k]) && nu_ok;
      sum += p.nu[k];
    }
    if (nu_ok && std::abs(sum - 1) > 1e-6)
      c.error("nu",
              "the weights must sum to 1 (within 1e-6), got sum = " + format_exact(sum) +
                  " (the steady state would not be the Stribeck curve)");
  }
  c.positive("C", p.C);
  c.nonnegative("sigma2", p.sigma2);
  validation_detail::check_curve(c, p.curve, /*g_divides=*/true);
  return out;
}

inline std::vector<ParamIssue> check(const GMS<double>::Params& p) {
  return check_gms<GMS<double>::kMaxElements>(p);
}

/// The joint LuGre model of reference 004 (joint_lugre.hpp): element parameters "cv[i]",
/// "Fs[i]", "delta[i]" with 0-based i; g must stay > 0 at every velocity.
inline std::vector<ParamIssue> check(const JointLuGre<double>::Params& p) {
  using M = JointLuGre<double>;
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  using validation_detail::element;
  c.positive("sigma0", p.sigma0);
  c.nonnegative("sigma1", p.sigma1);
  c.nonnegative("K", p.K);
  c.positive("Omega_s", p.Omega_s);
  bool levels_ok = c.finite("Fc", p.Fc);
  if (p.n_viscous < 0 || p.n_viscous > M::kMaxViscous) {
    c.error("n_viscous", "must be between 0 and " + std::to_string(M::kMaxViscous) + ", got " +
                             std::to_string(p.n_viscous));
  } else {
    for (int i = 0; i < p.n_viscous; ++i)
      c.finite(element("cv", i), p.cv[static_cast<std::size_t>(i)]);
  }
  if (p.n_stribeck < 0 || p.n_stribeck > M::kMaxStribeck) {
    c.error("n_stribeck", "must be between 0 and " + std::to_string(M::kMaxStribeck) +
                              ", got " + std::to_string(p.n_stribeck));
    levels_ok = false;
  } else {
    for (int i = 0; i < p.n_stribeck; ++i) {
      const auto k = static_cast<std::size_t>(i);
      levels_ok = c.finite(element("Fs", i), p.Fs[k]) && levels_ok;
      c.positive(element("delta", i), p.delta[k]);
    }
  }
  if (levels_ok && !(M::g_min(p) > 0))
    c.error("Fc", "g(qd) = Fc + sum Fs[i] exp(-|qd/Omega_s|^delta[i]) must stay > 0 at every "
                  "velocity: Fc + sum of the negative Fs[i] = " + format_exact(M::g_min(p)));
  return out;
}

/// Actuator friction budgets M1..M6: every coefficient >= 0, vs > 0, alpha > 0.
inline std::vector<ParamIssue> check(const ActuatorFrictionParams<double>& p) {
  std::vector<ParamIssue> out;
  validation_detail::Checker c(out);
  c.nonnegative("Kv", p.Kv);
  c.nonnegative("Kc", p.Kc);
  c.nonnegative("Kcs", p.Kcs);
  c.positive("vs", p.vs);
  c.positive("alpha", p.alpha);
  c.nonnegative("Kl", p.Kl);
  c.nonnegative("Kls", p.Kls);
  c.nonnegative("Km", p.Km);
  c.nonnegative("Ke", p.Ke);
  c.nonnegative("Kms", p.Kms);
  c.nonnegative("Kes", p.Kes);
  c.nonnegative("Keq", p.Keq);
  c.nonnegative("Kmq", p.Kmq);
  return out;
}

}  // namespace frictionlab
