// frictionlab: identifiability flags (include/frictionlab/identify/identifiability.hpp).
#include "frictionlab/identify/identifiability.hpp"

#include <cmath>
#include <string>
#include <string_view>

#include "frictionlab/format.hpp"

namespace frictionlab::identify {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

/// Pre-sliding (bristle, hysteresis) parameters, seen only where the velocity changes sign.
bool presliding(const ParameterEstimate& e) {
  const std::string_view f = e.field;
  return starts_with(f, "sigma0") || starts_with(f, "sigma1") || starts_with(f, "k[") ||
         starts_with(f, "Delta[") || starts_with(f, "nu[") || f == "z_ba" || f == "n";
}

/// Stribeck parameters, seen only at low speed.
bool stribeck(const ParameterEstimate& e) {
  const std::string_view f = e.field;
  return starts_with(f, "Fs") || starts_with(f, "vs") || f == "alpha" || f == "alpha_pos" ||
         f == "alpha_neg";
}

IdentifiabilityFlag flag(const ParameterEstimate* e, std::string kind, double value,
                         std::string message, std::string other = {}) {
  IdentifiabilityFlag f;
  f.parameter = e != nullptr ? e->name : std::string();
  f.kind = std::move(kind);
  f.other = std::move(other);
  f.value = value;
  f.message = std::move(message);
  return f;
}

}  // namespace

double low_speed_threshold(const FitResult& r, std::span<const double> v) {
  double vs = 0, vmax = 0;
  for (const auto& e : r.parameters)
    if (starts_with(e.field, "vs") && std::isfinite(e.value)) vs = std::max(vs, std::abs(e.value));
  for (double x : v) vmax = std::max(vmax, std::abs(x));
  return vs > 0 ? std::min(2 * vs, 0.1 * vmax) : 0.0;
}

std::vector<IdentifiabilityFlag> identifiability_flags(const FitResult& r,
                                                       std::span<const double> v) {
  std::vector<IdentifiabilityFlag> out;
  const auto& ps = r.parameters;
  const bool dynamic = r.data.reversals >= 0 && [&] {
    for (const auto& e : ps)
      if (!e.fixed && presliding(e)) return true;
    return false;
  }();

  // Low-speed content: the fitted Stribeck velocity (the largest, for asymmetric models).
  double vs = 0;
  for (const auto& e : ps)
    if (starts_with(e.field, "vs") && std::isfinite(e.value)) vs = std::max(vs, std::abs(e.value));
  const double threshold = low_speed_threshold(r, v);
  long near = 0;
  for (double x : v) near += std::abs(x) < threshold ? 1 : 0;
  const double near_fraction =
      v.empty() ? 0.0 : static_cast<double>(near) / static_cast<double>(v.size());
  const bool low_speed_unseen =
      vs > 0 && (near_fraction < kFlagNearZeroFraction || near < kFlagNearZeroSamples);

  for (std::size_t a = 0; a < ps.size(); ++a) {
    const auto& e = ps[a];
    if (e.fixed) continue;
    if (e.at_bound)
      out.push_back(flag(&e, "bound", e.value,
                         e.name + " is at its bound " + format_number(e.value) +
                             ": the data push it to the edge of what is allowed; its standard "
                             "error does not apply"));
    if (e.at_limit)
      out.push_back(flag(&e, "limit", e.value,
                         e.name + " ended at the edge of the region the solver searches: the "
                                  "record does not determine it"));
    if (e.undetermined)
      out.push_back(flag(&e, "undetermined", e.value,
                         "the fit's objective is flat along " + e.name +
                             ": any value in a wide range fits the record as well"));
    if (!e.at_bound && !e.at_limit && !e.undetermined) {
      if (!std::isfinite(e.std_error)) {
        if (r.method == FitMethod::grid) continue;  // grid reports no standard errors at all
        out.push_back(flag(&e, "no_std_error", std::numeric_limits<double>::quiet_NaN(),
                           "no standard error could be computed for " + e.name +
                               " (the information matrix is singular there): the record does "
                               "not determine it"));
      } else if (e.value != 0 && e.std_error / std::abs(e.value) > kFlagRelativeError) {
        const double rel = e.std_error / std::abs(e.value);
        out.push_back(flag(&e, "relative_error", rel,
                           "the standard error of " + e.name + " is " + format_fixed(100 * rel, 0) +
                               " % of its value: the record does "
                               "not pin it down"));
      }
    }
    for (std::size_t b = a + 1; b < ps.size(); ++b) {
      if (ps[b].fixed || a >= r.correlation.size() || b >= r.correlation[a].size()) continue;
      const double c = r.correlation[a][b];
      if (std::isfinite(c) && std::abs(c) > kFlagCorrelation)
        out.push_back(flag(&e, "correlation", c,
                           e.name + " and " + ps[b].name +
                               " are correlated (r = " + format_fixed(c, 3) +
                               "): the record cannot tell them apart; "
                               "their sum or ratio is determined, each alone is not",
                           ps[b].name));
    }
    if (dynamic && presliding(e) && r.data.reversals < 2)
      out.push_back(flag(&e, "reversals", static_cast<double>(r.data.reversals),
                         e.name +
                             " describes pre-sliding, which shows only where the velocity "
                             "changes sign, and the record has " +
                             std::to_string(r.data.reversals) +
                             (r.data.reversals == 1 ? " reversal" : " reversals") +
                             ": record back-and-forth motion"));
    if (low_speed_unseen && stribeck(e))
      out.push_back(flag(&e, "near_zero", near_fraction,
                         e.name + " shapes the Stribeck curve at low speed, and only " +
                             format_number(100 * near_fraction) + " % of the samples (" +
                             std::to_string(near) + ") have |v| < " + format_number(threshold) +
                             " (the smaller of 2 vs and 10 % of the largest speed)" +
                             ": record slow motion through zero velocity"));
  }
  if (std::isfinite(r.condition_number) && r.condition_number > kFlagCondition)
    out.push_back(flag(nullptr, "condition", r.condition_number,
                       "the information matrix is near singular (condition number " +
                           format_number(r.condition_number) +
                           "): some combination of the parameters is not determined"));
  return out;
}

}  // namespace frictionlab::identify
