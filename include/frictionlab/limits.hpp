// frictionlab: the one magnitude policy of every number read from a file or an option
// (docs/file-formats.md, "Limits"). Part of the base target frictionlab::models
// (header-only, std only), so that every layer uses the same limits and the same messages.
//
// Every number is finite and |x| <= kMaxMagnitude. A number with a physical meaning also lies in
// its plausible range (a Limit: [lo, hi] in SI units, generous but finite); a quantity that must
// be > 0 (it divides, or its logarithm is taken) has lo >= kMinPositive, never a denormal.
//
//   limit_problem(1e300, {0.1, 1000, "V"})  "1e+300 V is outside the plausible range [0.1, 1000] V"
//   limit_problem(NAN, ...)                  "not a finite number (nan)"
//   limit_problem(1e300)                     "|1e+300| is beyond the limit 1e+15 of any number
//                                             (SI units)"
//   limit_problem(0.5, {0.1, 1000, "V"})     "" (no problem)
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "frictionlab/format.hpp"

namespace frictionlab {

/// The largest magnitude accepted for any recorded value, option or parameter in SI units (s,
/// m, rad, N, N m, A, V and their ratios): 1e15. No physical record or parameter comes near it
/// (1e15 s is 3e7 years, 1e15 m/s is 3e6 times the speed of light), and beyond it the products a
/// simulation forms (sigma0 * z, kt^2 * qd, v^2 / vs^2) leave the range where double results stay
/// finite and meaningful.
inline constexpr double kMaxMagnitude = 1e15;

/// The smallest value of a quantity that must be > 0 [SI units]: 1e-15. A positive parameter is
/// divided by or logged; 5e-324 (a denormal) passes "> 0" and then overflows the simulation.
inline constexpr double kMinPositive = 1e-15;

/// The plausible range [lo, hi] of a quantity and its unit (SI; "-" for a pure number).
struct Limit {
  double lo = -kMaxMagnitude;
  double hi = kMaxMagnitude;
  std::string_view unit = "";
};

/// Only the magnitude policy: finite, |x| <= kMaxMagnitude.
inline constexpr Limit kAnyNumber{};

// (The texts are appended, not joined with operator+ on a literal: that trips a g++ 12
// -Wrestrict false positive.)

/// " unit", or nothing for a pure number.
inline std::string unit_suffix(const Limit& r) {
  std::string s;
  if (!r.unit.empty() && r.unit != "-") s.append(" ").append(r.unit);
  return s;
}

/// "[lo, hi] unit" of a limit, e.g. "[0.1, 1000] V".
inline std::string limit_text(const Limit& r) {
  std::string s(1, '[');
  s.append(format_exact(r.lo)).append(", ").append(format_exact(r.hi)).append("]");
  return s.append(unit_suffix(r));
}

/// What is wrong with x under the policy and the limit `r`; empty when nothing is.
inline std::string limit_problem(double x, const Limit& r = kAnyNumber) {
  std::string s;
  if (!std::isfinite(x))
    return s.append("not a finite number (").append(format_exact(x)).append(")");
  if (!(std::abs(x) <= kMaxMagnitude))
    return s.append(1, '|')
        .append(format_exact(x))
        .append("| is beyond the limit ")
        .append(format_exact(kMaxMagnitude))
        .append(" of any number (SI units)");
  if (x >= r.lo && x <= r.hi) return s;
  return s.append(format_exact(x))
      .append(unit_suffix(r))
      .append(" is outside the plausible range ")
      .append(limit_text(r));
}

}  // namespace frictionlab
