// frictionlab signal: decimation (include/frictionlab/signal/decimate.hpp).
#include "frictionlab/signal/decimate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/butterworth.hpp"

namespace frictionlab::signal {
namespace {

std::vector<double> every_kth(std::span<const double> x, std::size_t k) {
  std::vector<double> out;
  out.reserve(x.size() / k + 1);
  for (std::size_t i = 0; i < x.size(); i += k) out.push_back(x[i]);
  return out;
}

}  // namespace

std::vector<double> decimate(std::span<const double> x, int factor, double sample_rate_hz,
                             int order, double cutoff_ratio) {
  if (factor < 1)
    throw std::invalid_argument("decimation factor must be >= 1, got " + std::to_string(factor));
  if (!std::isfinite(cutoff_ratio) || !(cutoff_ratio > 0) || !(cutoff_ratio < 1))
    throw std::invalid_argument("decimation cutoff ratio must satisfy 0 < ratio < 1, got " +
                                format_number(cutoff_ratio));
  if (!std::isfinite(sample_rate_hz) || !(sample_rate_hz > 0))
    throw std::invalid_argument("decimation: sample rate must be finite and > 0 Hz, got " +
                                format_number(sample_rate_hz));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument("decimation: value is not finite at sample " + std::to_string(i) +
                                  " (0-based): " + format_number(x[i]));
  if (factor == 1) return {x.begin(), x.end()};
  const double fc = cutoff_ratio * sample_rate_hz / (2.0 * factor);
  const std::vector<double> y = lowpass_filtfilt(x, sample_rate_hz, fc, order);
  return every_kth(y, static_cast<std::size_t>(factor));
}

}  // namespace frictionlab::signal
