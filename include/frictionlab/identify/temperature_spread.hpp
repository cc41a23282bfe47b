// frictionlab identify: whether the temperatures a fit sees can determine a temperature law
// (models/temperature_dependence.hpp): one rule for the joint (idim) and the servo fits.
//
// The spread is the 95th minus the 5th percentile of the temperatures, robust to a sensor's
// single outliers and to a few samples at the ends of a warm-up. Below kTemperatureMinSpread a
// law's coefficients are held at 0 with an `undetermined` flag: a dependence of 1 %/K changes
// the levels by 3 % over it, about what a fit tells apart from noise and model error, and the
// coarsest servo sensors read whole degrees.
//
// Host side: allocates.
#pragma once

#include <string>
#include <vector>

namespace frictionlab::identify {

/// The spread [K] below which the temperatures do not determine a temperature law.
inline constexpr double kTemperatureMinSpread = 3.0;

/// The 95th minus the 5th percentile of T [K] (linear interpolation between order statistics);
/// 0 for fewer than 2 values.
double temperature_spread(std::vector<double> T);

/// Why temperatures of this spread [K] do not determine a law, and what to record instead (the
/// text of the `undetermined` flags of kT and kT_v).
std::string temperature_spread_reason(double spread);

}  // namespace frictionlab::identify
