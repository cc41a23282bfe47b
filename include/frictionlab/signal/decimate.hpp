// frictionlab signal: decimation and the filtering pipeline of inverse-dynamic identification
// (IDIM) (docs/preprocessing.md, "Butterworth + decimation for inverse models").
//
// decimate(x, k, fs): zero-phase Butterworth low-pass (butterworth.hpp, sosfiltfilt) of order N
// (default 8) with cutoff  fc = cutoff_ratio * fs / (2 k)  (default ratio 0.8: 80 % of the new
// Nyquist frequency, the cutoff of scipy.signal.decimate / MATLAB decimate), then every k-th
// sample x_0, x_k, x_2k, ... (k = 1: the input unchanged, no filter). The forward-backward filter
// has gain |H|^2 = 1 / (1 + (tan(pi f / fs) / tan(pi fc / fs))^(2N)): -6.02 dB at fc, and for
// N = 8 at the new Nyquist frequency fs / (2 k) = 1.25 fc about -15.6 dB (-28 dB at 1.5 fc, for
// fc << fs); what lies above the new Nyquist frequency aliases, attenuated by at least that much.
//
// inverse_model_signals(t, q, tau, options): the usual practice of inverse-model identification
// (Gautier 1990s; e.g. Gautier, "Dynamic identification of robots with power model", ICRA 1997;
// Janot, Vandanjon & Gautier, IEEE TCST 22(1) 2014):
//   1. q_f = zero-phase Butterworth low-pass of q (order `order`, cutoff `cutoff_hz`), chosen
//      well above the joint's dynamics (typically 5 to 10 times its bandwidth) so that it
//      removes noise without distorting the motion; fs = 1 / mean step;
//   2. qd, qdd = central differences of q_f (differentiate.hpp, method central);
//   3. parallel decimation: q_f, qd, qdd and tau all go through the same decimate() (factor
//      `decimation`), so that a relation tau = W(q, qd, qdd) theta that is linear in the
//      signals survives the filter on both sides; t is sampled at t_0, t_k, ...
// A regressor W that is nonlinear in the signals (cos q, sign qd, Stribeck terms) should be
// built at the full rate from q_f, qd, qdd and its columns decimated with decimate() like tau
// (Gautier's parallel filtering of Y and W); `decimate` is public for that. The decimation
// cutoff should lie above cutoff_hz (else it cuts into the band that step 1 kept).
//
// Host side: allocates, throws std::invalid_argument naming the parameter.
#pragma once

#include <span>
#include <vector>

namespace frictionlab::signal {

/// Zero-phase Butterworth low-pass at cutoff_ratio * fs / (2 factor), then every factor-th sample
/// (starting with x_0). factor >= 1 (1: x unchanged), 0 < cutoff_ratio < 1, order 1..20, fs > 0.
/// Requires x longer than the filter's padding (3 (order + 1) samples) when factor > 1.
std::vector<double> decimate(std::span<const double> x, int factor, double sample_rate_hz,
                             int order = 8, double cutoff_ratio = 0.8);

struct InverseModelOptions {
  double cutoff_hz = 0;                 ///< Butterworth cutoff for q [Hz] (> 0, < fs/2; required)
  int order = 4;                        ///< Butterworth order for q (one pass; zero phase: 2x)
  int decimation = 1;                   ///< keep every k-th sample after the decimation filter
  int decimation_order = 8;             ///< Butterworth order of the decimation filter
  double decimation_cutoff_ratio = 0.8; ///< decimation cutoff / new Nyquist frequency
  double uniform_tolerance = 0.01;      ///< largest accepted jitter_max of the time grid [-]
};

struct InverseModelSignals {
  std::vector<double> t;    ///< [s]
  std::vector<double> q;    ///< filtered position [rad or m]
  std::vector<double> qd;   ///< [rad/s or m/s]
  std::vector<double> qdd;  ///< [rad/s^2 or m/s^2]
  std::vector<double> tau;  ///< torque or force through the decimation filter (empty if not given)
};

/// Steps 1-3 of the header comment. tau may be empty; otherwise it has the size of t.
InverseModelSignals inverse_model_signals(std::span<const double> t, std::span<const double> q,
                                          std::span<const double> tau,
                                          const InverseModelOptions& options);

}  // namespace frictionlab::signal
