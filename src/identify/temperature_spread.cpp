// frictionlab identify: the temperature rule's spread (identify/temperature_spread.hpp).
#include "frictionlab/identify/temperature_spread.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "frictionlab/format.hpp"

namespace frictionlab::identify {

double temperature_spread(std::vector<double> T) {
  if (T.size() < 2) return 0.0;
  std::sort(T.begin(), T.end());
  const auto at = [&](double q) {
    const double i = q * static_cast<double>(T.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(i));
    const std::size_t hi = std::min(lo + 1, T.size() - 1);
    return T[lo] + (T[hi] - T[lo]) * (i - static_cast<double>(lo));
  };
  return at(0.95) - at(0.05);
}

std::string temperature_spread_reason(double spread) {
  return "the temperature hardly varies (it spans " + format_number(spread) +
         " K over the moving samples, 5th to 95th percentile, less than " +
         format_number(kTemperatureMinSpread) +
         " K), so a change of the friction with it cannot be seen. Record the joint from a cold "
         "start until it is warm, or at two ambient temperatures";
}

}  // namespace frictionlab::identify
