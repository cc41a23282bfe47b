// frictionlab signal: linear resampling to a uniform rate (docs/preprocessing.md, "Resampling").
//
// Grid (endpoint rule): t'_k = t_0 + k h with h = 1/rate [s], k = 0..K, where
//   K = floor((t_{n-1} - t_0) * rate + 1e-9).
// The grid starts exactly at the first sample, never extends beyond the last one (no
// extrapolation; the 1e-9 of a step absorbs rounding, so a record whose span is an integer
// number of steps keeps its last sample) and is computed as t_0 + k*h (no accumulated rounding).
// A grid point that rounding puts beyond t_{n-1} takes the value y_{n-1}.
//
// Values: piecewise-linear interpolation between the bracketing samples t_i <= t' <= t_{i+1},
//   y(t') = y_i + (y_{i+1} - y_i) (t' - t_i) / (t_{i+1} - t_i),
// exact (up to rounding) for signals linear in t; a grid point that coincides with a sample
// takes its value. Linear interpolation is a low-pass of its own (the hat kernel has the
// response sinc^2(f h_in)) and does not remove aliasing: low-pass first when downsampling a noisy
// record by a large factor (docs/preprocessing.md).
//
// Host side: allocates, throws std::invalid_argument (t not strictly increasing or not finite,
// sizes differ, rate not finite and > 0, fewer than 2 samples).
#pragma once

#include <span>
#include <vector>

namespace frictionlab::signal {

/// The uniform grid t_0 + k/rate (k = 0..K) of the endpoint rule above.
std::vector<double> uniform_grid(double t0, double t_end, double rate);

/// y interpolated linearly at the sorted query times tq (each within [t_0, t_{n-1}]).
std::vector<double> interp_linear(std::span<const double> t, std::span<const double> y,
                                  std::span<const double> tq);

/// y resampled onto uniform_grid(t.front(), t.back(), rate).
std::vector<double> resample_linear(std::span<const double> t, std::span<const double> y,
                                    double rate);

}  // namespace frictionlab::signal
