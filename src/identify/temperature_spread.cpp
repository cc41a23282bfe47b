// frictionlab identify: the temperature rule's spread (identify/temperature_spread.hpp).
#include "frictionlab/identify/temperature_spread.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

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

}  // namespace frictionlab::identify
