// frictionlab: the building blocks of parameter validation (host side: allocates, never used by
// the models themselves, which stay noexcept and check nothing). Each model's rules are in its
// folder (models/<model>/validation.hpp, check(params)); models/validation.hpp includes them all.
//
// check(params) returns the list of problems of a parameter set in double precision: errors (the
// set is rejected by the model-file reader, io/model_json) and warnings (accepted, reported).
// The rules and the parameter names are those of docs/models.md ("valid" columns); element
// parameters of the multi-element models are named "k[i]", "Delta[i]", "nu[i]" with the 0-based
// index i of the JSON array / C++ std::array. Messages are written to follow "parameter 'NAME': ".
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {

struct ParamIssue {
  std::string param;     ///< parameter name as in docs/models.md, e.g. "sigma0", "Fs_neg", "k[2]"
  std::string message;   ///< what is wrong, e.g. "must be > 0, got -1"
  bool warning = false;  ///< false: error (rejected); true: accepted with a warning
  /// A warning a model file may accept with its reason ("accepted_warnings", io/model_json.hpp):
  /// its stable name (kNotPassive); empty: it cannot be accepted.
  std::string id;
};

/// The id of the LuGre passivity warning.
inline constexpr const char* kNotPassive = "not_passive";

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

  void error(const std::string& p, const std::string& m) { out_.push_back({p, m, false, {}}); }
  void warn(const std::string& p, const std::string& m, const std::string& id = "") {
    out_.push_back({p, m, true, id});
  }

  /// Finite and > 0, at least kMinPositive (frictionlab/limits.hpp: a denormal such as 5e-324
  /// passes "> 0" and then overflows what the model divides by it); returns whether it is.
  bool positive(const std::string& p, double x) {
    if (!finite(p, x)) return false;
    if (x >= kMinPositive) return true;
    if (x > 0)
      error(p, "must be >= " + format_exact(kMinPositive) +
                   " (a positive parameter, not a vanishing one), got " + format_exact(x));
    else
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
  /// Finite and |x| <= kMaxMagnitude (frictionlab/limits.hpp); returns whether it is.
  bool finite(const std::string& p, double x) {
    if (!std::isfinite(x)) {
      error(p, "must be a finite number, got " + format_exact(x));
      return false;
    }
    if (std::abs(x) <= kMaxMagnitude) return true;
    error(p, limit_problem(x));
    return false;
  }

 private:
  std::vector<ParamIssue>& out_;
};

/// Stribeck curve rules. `g_divides`: the model divides by g (every dynamic model with a curve),
/// so Fc and Fs must be > 0; static models allow 0. Returns whether the curve
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
    c.warn("Fs_pos", "Fs_pos = " + format_exact(s.Fs_pos) +
                         " < Fc_pos = " + format_exact(s.Fc_pos) +
                         ": inverted Stribeck effect (friction rises with speed)");
  if (std::isfinite(s.Fs_neg) && std::isfinite(s.Fc_neg) && s.Fs_neg < s.Fc_neg)
    c.warn("Fs_neg", "Fs_neg = " + format_exact(s.Fs_neg) +
                         " < Fc_neg = " + format_exact(s.Fc_neg) +
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
    std::string fix = "raise sigma2 above " + format_number(lim);
    if (lim > 0) fix += " or lower sigma1 below " + format_number(sigma1 * sigma2 / lim);
    return std::string("the map v -> F is not passive") + side +
           ": sigma1*(Fs - Fc)/Fc = " + format_number(lim) +
           " >= sigma2 = " + format_exact(sigma2) +
           ". Passive (dissipative) means the friction can never give back more energy than it "
           "has taken from the motion; sigma2 > sigma1*(Fs - Fc)/Fc guarantees it (Barabanov & "
           "Ortega 2000; Astrom & Canudas de Wit 2008). A set that is not passive may still "
           "simulate well, but near stick it can sustain oscillations a real contact would damp. "
           "To make it passive, " +
           fix +
           " (many published sets, e.g. Canudas de Wit et al. "
           "1995, are not passive)";
  };
  if (symmetric) {
    if (fail_pos) c.warn("sigma1", msg(lim_pos, ""), kNotPassive);
    return;
  }
  if (fail_pos) c.warn("sigma1", msg(lim_pos, " for v > 0"), kNotPassive);
  if (fail_neg) c.warn("sigma1", msg(lim_neg, " for v < 0"), kNotPassive);
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

}  // namespace frictionlab
