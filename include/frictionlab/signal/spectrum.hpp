// frictionlab signal: where a uniformly sampled signal's power lies in frequency
// (docs/preprocessing.md, "Motion bandwidth").
//
// power_bandwidth(x, fs, fraction), power_fraction_above(x, fs, f): the periodogram of x after
// removing its least-squares line (a drifting joint is not a low-frequency oscillation) and a Hann
// window (its side lobes fall off as 1/f^3, so a strong low-frequency motion does not leak into the
// band above it),
//   P_k = |sum_n w_n x_n exp(-2 pi i k n / N)|^2,  f_k = k fs / N,  k = 0 .. N/2,
// and the smallest f_k whose cumulative power sum_{j <= k} P_j reaches `fraction` of the total,
// or the share of the total at f_k > f.
// The FFT is Eigen's (unsupported/Eigen/FFT, kissfft inside) over the first N samples, N the
// largest length <= the record's whose prime factors are 2, 3 and 5 (the few samples after them
// are left out).
//
// Host side: allocates, throws std::invalid_argument. No file I/O.
#pragma once

#include <span>

namespace frictionlab::signal {

/// The frequency [Hz] below which `fraction` (0 < fraction < 1) of the power of x lies (header).
/// x is sampled uniformly at fs [Hz] (fs > 0, finite); needs at least 8 samples. A signal that is
/// a straight line (no power left after the detrend) gives 0.
double power_bandwidth(std::span<const double> x, double fs, double fraction);

/// The share of the power of x (the same periodogram) at frequencies above f [Hz], in [0, 1];
/// 0 for a straight line. Same requirements as power_bandwidth.
double power_fraction_above(std::span<const double> x, double fs, double f);

}  // namespace frictionlab::signal
