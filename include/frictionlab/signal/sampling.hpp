// frictionlab signal: statistics of a sampling grid (sample step, jitter) and the uniformity test
// that the filters and Savitzky-Golay differentiators need (docs/preprocessing.md, "Sampling").
//
// With dt_k = t_k - t_{k-1} (k = 1..n-1) [s]:
//   dt_median      median of dt_k (the nominal step; robust to a few dropped samples)
//   sample_rate    1 / dt_median [Hz]
//   jitter_max     max_k |dt_k - dt_median| / dt_median      [-]
//   jitter_std     sqrt(mean_k (dt_k - mean(dt))^2) / dt_median [-]
// A grid is "uniform within tol" when jitter_max <= tol. Digital filters and Savitzky-Golay
// kernels are defined per sample index, so on a non-uniform grid they silently mean something
// else than the user asked for; require_uniform() turns that into an error naming the jitter.
//
// Host side: allocates, throws std::invalid_argument. No file I/O.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace frictionlab::signal {

struct SamplingStats {
  std::size_t samples = 0;  ///< n
  double duration = 0;      ///< t_{n-1} - t_0 [s]
  double dt_median = 0;     ///< [s]
  double dt_mean = 0;       ///< duration / (n - 1) [s]
  double dt_min = 0;        ///< [s]
  double dt_max = 0;        ///< [s]
  double sample_rate = 0;   ///< 1 / dt_median [Hz]
  double jitter_max = 0;    ///< max |dt - dt_median| / dt_median [-]
  double jitter_std = 0;    ///< std(dt) / dt_median [-]
  /// 0-based index k of the sample that ends the step with the largest |dt - dt_median|
  /// (the step from sample k-1 to sample k).
  std::size_t worst_step = 0;
};

/// Statistics of a time grid. Requires n >= 2 finite, strictly increasing values
/// (std::invalid_argument otherwise, naming the first offending 0-based index).
SamplingStats sampling_stats(std::span<const double> t);

/// Throws std::invalid_argument unless jitter_max <= tolerance. The message names `what` (e.g.
/// "Savitzky-Golay differentiation"), the jitter in percent, the step range, the worst step and
/// the remedy (resample to a uniform rate first). Returns the statistics.
SamplingStats require_uniform(std::span<const double> t, double tolerance, const std::string& what);

}  // namespace frictionlab::signal
