// frictionlab signal: Butterworth low-pass filters as second-order sections, and zero-phase
// forward-backward filtering (docs/preprocessing.md, "Low-pass filtering").
//
// Design (Butterworth 1930; bilinear transform with pre-warping: Oppenheim & Schafer,
// "Discrete-Time Signal Processing", 3rd ed., sec. 7.2.1; same filter as
// scipy.signal.butter(N, fc, fs=fs, output='sos')):
//   analog prototype  |H_a(j W)|^2 = 1 / (1 + (W/W_c)^(2N)), poles on the circle |s| = W_c at
//                     s_k = W_c exp(j pi (2k + N + 1) / (2N)), k = 0..N-1 (left half-plane);
//   pre-warping       W_c = 2 fs tan(pi fc / fs), so that the digital cutoff is exactly fc [Hz];
//   bilinear          s = 2 fs (1 - z^-1) / (1 + z^-1).
// With K = tan(pi fc / fs) and q_k = 2 sin(pi (2k + 1) / (2N)) (k = 0..floor(N/2)-1), each
// conjugate pole pair gives the section
//   H_k(z) = K^2 (1 + 2 z^-1 + z^-2) / ((1 + q_k K + K^2) + 2 (K^2 - 1) z^-1 + (1 - q_k K + K^2)
//   z^-2)
// and odd N adds the first-order section  H(z) = K (1 + z^-1) / ((1 + K) + (K - 1) z^-1).
// Every section has unit gain at DC, all zeros are at z = -1 (Nyquist), and
//   |H(e^{j w})|^2 = 1 / (1 + (tan(w/2) / K)^(2N)),  w = 2 pi f / fs,
// so |H| = 1/sqrt(2) at f = fc exactly (-3.01 dB) for every order.
//
// Filtering: sosfilt runs the sections in cascade, each in transposed direct form II (as
// scipy.signal.sosfilt). sosfiltfilt filters forward, then backward over the reversed output
// (zero phase; magnitude |H|^2, i.e. -6.02 dB at fc; effective order 2N), exactly like
// scipy.signal.sosfiltfilt(sos, x, padtype='odd', padlen=None):
//   - odd extension by padlen samples at each end: x_{-k} = 2 x_0 - x_k,
//     x_{n-1+k} = 2 x_{n-1} - x_{n-1-k} (k = 1..padlen);
//   - default padlen = 3 (2 S + 1 - min(#{b2 = 0}, #{a2 = 0})) for S sections, i.e. 3 (N + 1)
//     for a Butterworth filter of order N (odd or even);
//   - initial state of each pass: the steady state of the cascade for a constant input equal to
//     the first value of that pass (scipy.signal.sosfilt_zi times that value);
//   - the signal must be longer than padlen.
// Measured agreement with scipy 1.10.1: docs/preprocessing.md (tests/test_signal.cpp).
//
// Host side: allocates, throws std::invalid_argument. Filters are defined per sample: the input
// must be uniformly sampled at fs (see sampling.hpp, require_uniform).
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <span>
#include <vector>

namespace frictionlab::signal {

/// One second-order section, a0 = 1:
/// H(z) = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2).
struct Biquad {
  double b0 = 1, b1 = 0, b2 = 0, a1 = 0, a2 = 0;
};

/// A cascade of sections (the product of their transfer functions).
using Sos = std::vector<Biquad>;

/// Butterworth low-pass of order N (1..20), cutoff fc [Hz] (-3.01 dB point), sample rate fs
/// [Hz], 0 < fc < fs/2. floor(N/2) second-order sections, then one first-order section (b2 =
/// a2 = 0) if N is odd.
Sos butter_lowpass(int order, double cutoff_hz, double sample_rate_hz);

/// H(e^{j 2 pi f / fs}).
std::complex<double> frequency_response(const Sos& sos, double f_hz, double sample_rate_hz);

/// Per-section state {z0, z1} of the transposed direct form II.
using SosState = std::vector<std::array<double, 2>>;

/// Steady-state initial state of the cascade for a unit constant input (scipy.signal.sosfilt_zi):
/// multiply by the input level.
SosState sosfilt_zi(const Sos& sos);

/// Filter x through the cascade. `state` (optional, in/out) is the initial and final state;
/// null means zero initial state.
std::vector<double> sosfilt(const Sos& sos, std::span<const double> x, SosState* state = nullptr);

/// Default padding of sosfiltfilt: 3 (2 S + 1 - min(#{b2 = 0}, #{a2 = 0})).
std::size_t default_padlen(const Sos& sos);

/// Zero-phase forward-backward filtering with odd extension (see the header comment).
/// padlen < 0: default_padlen(sos). Requires x.size() > padlen.
std::vector<double> sosfiltfilt(const Sos& sos, std::span<const double> x, long padlen = -1);

/// sosfiltfilt(butter_lowpass(order, cutoff_hz, sample_rate_hz), x).
std::vector<double> lowpass_filtfilt(std::span<const double> x, double sample_rate_hz,
                                     double cutoff_hz, int order);

}  // namespace frictionlab::signal
