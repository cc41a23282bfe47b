// frictionlab: identifiability flags of a fit — which parameters the record cannot determine, and
// why, in plain words (docs/identification.md, "Identifiability flags"). identify::fit fills
// FitResult::identifiability with them; the report (io/report_html.hpp) and the CLI show them.
//
// Rules (each flag names its parameter, or none for the fit as a whole):
//   bound            an estimate at its lower bound 0 (ParameterEstimate::at_bound)
//   limit            at the edge of the search region (at_limit: 1e6 from its start, logit +-30)
//   undetermined     the objective is flat along it (ParameterEstimate::undetermined)
//   no_std_error     estimated, but no standard error could be computed (J^T J singular there)
//   relative_error   standard error > 50 % of |value|: the record does not pin it down
//   correlation      |correlation| > 0.95 with another parameter (named in `other`): the record
//                    cannot separate the two
//   condition        condition number of the scaled J^T J > 1e8 (fit-wide)
//   reversals        a dynamic model with fewer than 2 velocity reversals: the pre-sliding terms
//                    (sigma0, sigma1 and the Maxwell-slip/GMS elements) are seen only where the
//                    velocity changes sign
//   near_zero        fewer than 1 % of the samples (or fewer than 50) have |v| below the
//                    low-speed threshold min(2 vs, 0.1 max|v|) (vs the fitted Stribeck velocity):
//                    a Stribeck curve g(v) = Fc + (Fs - Fc) exp(-|v/vs|^alpha) differs from its
//                    Coulomb level only below a few vs (exp(-2) = 0.14 at 2 vs for alpha = 1),
//                    and a fitted vs is itself doubtful when the record has no slow samples at
//                    all (hence the bound by the record's own speed range): Fs, vs and alpha are
//                    not seen
#pragma once

#include <span>
#include <string>
#include <vector>

#include "frictionlab/identify/result.hpp"

namespace frictionlab::identify {

/// Thresholds of the rules above.
inline constexpr double kFlagCorrelation = 0.95;
inline constexpr double kFlagRelativeError = 0.5;
inline constexpr double kFlagCondition = 1e8;
inline constexpr double kFlagNearZeroFraction = 0.01;
inline constexpr long kFlagNearZeroSamples = 50;

/// min(2 vs, 0.1 max|v|) [m/s | rad/s] (vs: the largest fitted Stribeck velocity); 0 for a model
/// without one.
double low_speed_threshold(const FitResult& r, std::span<const double> v);

/// Flags of `r`, fitted on the velocity samples `v` (the residual samples of the fit, after the
/// warm-up) [m/s | rad/s]. Parameters in r.parameters order, then the fit-wide ones.
std::vector<IdentifiabilityFlag> identifiability_flags(const FitResult& r,
                                                       std::span<const double> v);

}  // namespace frictionlab::identify
