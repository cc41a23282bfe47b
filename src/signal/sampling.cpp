// frictionlab signal: sampling statistics (include/frictionlab/signal/sampling.hpp).
#include "frictionlab/signal/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "frictionlab/format.hpp"

namespace frictionlab::signal {

SamplingStats sampling_stats(std::span<const double> t) {
  const std::size_t n = t.size();
  if (n < 2)
    throw std::invalid_argument("sampling statistics need at least 2 samples, got " +
                                std::to_string(n));
  std::vector<double> dt(n - 1);
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(t[k]))
      throw std::invalid_argument("time is not finite at sample " + std::to_string(k) +
                                  " (0-based): " + format_number(t[k]));
    if (k > 0) {
      if (!(t[k] > t[k - 1]))
        throw std::invalid_argument("time is not strictly increasing at sample " +
                                    std::to_string(k) + " (0-based): " + format_number(t[k]) +
                                    " follows " + format_number(t[k - 1]));
      dt[k - 1] = t[k] - t[k - 1];
    }
  }
  SamplingStats s;
  s.samples = n;
  s.duration = t[n - 1] - t[0];
  s.dt_mean = s.duration / static_cast<double>(n - 1);
  const auto [mn, mx] = std::minmax_element(dt.begin(), dt.end());
  s.dt_min = *mn;
  s.dt_max = *mx;
  std::vector<double> sorted = dt;
  const std::size_t m = sorted.size();
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(m / 2), sorted.end());
  double med = sorted[m / 2];
  if (m % 2 == 0) {
    // even count: mean of the two middle values (the lower one is the max of the lower half)
    const double lower =
        *std::max_element(sorted.begin(), sorted.begin() + static_cast<long>(m / 2));
    med = 0.5 * (med + lower);
  }
  s.dt_median = med;
  s.sample_rate = 1.0 / med;
  double var = 0;
  double worst = -1;
  for (std::size_t k = 0; k < m; ++k) {
    const double dev = std::abs(dt[k] - med);
    if (dev > worst) {
      worst = dev;
      s.worst_step = k + 1;
    }
    var += (dt[k] - s.dt_mean) * (dt[k] - s.dt_mean);
  }
  s.jitter_max = worst / med;
  s.jitter_std = std::sqrt(var / static_cast<double>(m)) / med;
  return s;
}

SamplingStats require_uniform(std::span<const double> t, double tolerance,
                              const std::string& what) {
  const SamplingStats s = sampling_stats(t);
  if (!(s.jitter_max <= tolerance)) {
    const std::size_t k = s.worst_step;
    throw std::invalid_argument(
        what + " needs uniform sampling: the sample step varies by up to " +
        format_number(100 * s.jitter_max) + "% of its median " + format_number(s.dt_median) +
        " s (steps from " + format_number(s.dt_min) + " s to " + format_number(s.dt_max) +
        " s; worst: " + format_number(t[k] - t[k - 1]) + " s before sample " + std::to_string(k) +
        " (0-based), t = " + format_number(t[k]) + " s; tolerance " +
        format_number(100 * tolerance) + "%); resample to a uniform rate first");
  }
  return s;
}

}  // namespace frictionlab::signal
