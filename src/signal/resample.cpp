// frictionlab signal: linear resampling (include/frictionlab/signal/resample.hpp).
#include "frictionlab/signal/resample.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {

std::vector<double> uniform_grid(double t0, double t_end, double rate) {
  if (!std::isfinite(rate) || !(rate > 0))
    throw std::invalid_argument("resampling rate must be finite and > 0 Hz, got " +
                                format_number(rate));
  if (!std::isfinite(t0) || !std::isfinite(t_end) || !(t_end >= t0))
    throw std::invalid_argument("resampling needs a finite time span t_end >= t0, got [" +
                                format_number(t0) + ", " + format_number(t_end) + "]");
  const double span = (t_end - t0) * rate + 1e-9;
  if (span > 1e9)
    throw std::invalid_argument("resampling at " + format_number(rate) + " Hz over " +
                                format_number(t_end - t0) + " s gives more than 1e9 samples");
  const auto last = static_cast<std::size_t>(std::floor(span));
  const double h = 1.0 / rate;
  std::vector<double> g(last + 1);
  for (std::size_t k = 0; k <= last; ++k) g[k] = t0 + static_cast<double>(k) * h;
  return g;
}

std::vector<double> interp_linear(std::span<const double> t, std::span<const double> y,
                                  std::span<const double> tq) {
  const std::size_t n = t.size();
  if (y.size() != n)
    throw std::invalid_argument("interpolation: " + std::to_string(n) + " times but " +
                                std::to_string(y.size()) + " values");
  (void)sampling_stats(t);  // n >= 2, finite, strictly increasing
  std::vector<double> out(tq.size());
  std::size_t i = 0;  // t[i] <= q < t[i+1] (moving bracket: tq sorted)
  for (std::size_t k = 0; k < tq.size(); ++k) {
    const double q = tq[k];
    if (!(q >= t[0]) || (k > 0 && !(q >= tq[k - 1])))
      throw std::invalid_argument(
          "interpolation: query times must be sorted and >= t0 = " + format_number(t[0]) +
          " (query " + std::to_string(k) + ": " + format_number(q) + ")");
    if (q >= t[n - 1]) {
      // At or beyond the last sample: only rounding of the grid can put q beyond it (by at most
      // 1e-9 of an output step <= 1e-9 of the span, plus the rounding of t0 + k h); hold the
      // last value.
      const double slack =
          1e-8 * (t[n - 1] - t[0]) +
          8 * std::numeric_limits<double>::epsilon() * std::max(std::abs(t[0]), std::abs(t[n - 1]));
      if (q > t[n - 1] + slack)
        throw std::invalid_argument("interpolation: query time " + format_number(q) +
                                    " is beyond the last sample t = " + format_number(t[n - 1]));
      out[k] = y[n - 1];
      continue;
    }
    while (t[i + 1] <= q) ++i;
    if (q == t[i]) {
      out[k] = y[i];
      continue;
    }
    const double w = (q - t[i]) / (t[i + 1] - t[i]);
    out[k] = y[i] + (y[i + 1] - y[i]) * w;
  }
  return out;
}

std::vector<double> resample_linear(std::span<const double> t, std::span<const double> y,
                                    double rate) {
  if (t.size() < 2)
    throw std::invalid_argument("resampling needs at least 2 samples, got " +
                                std::to_string(t.size()));
  const std::vector<double> g = uniform_grid(t.front(), t.back(), rate);
  return interp_linear(t, y, g);
}

}  // namespace frictionlab::signal
