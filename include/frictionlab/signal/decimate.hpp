// frictionlab signal: decimation (docs/preprocessing.md, "Butterworth + decimation for inverse
// models").
//
// decimate(x, k, fs): zero-phase Butterworth low-pass (butterworth.hpp, sosfiltfilt) of order N
// (default 8) with cutoff  fc = cutoff_ratio * fs / (2 k)  (default ratio 0.8: 80 % of the new
// Nyquist frequency, the cutoff of scipy.signal.decimate / MATLAB decimate), then every k-th
// sample x_0, x_k, x_2k, ... (k = 1: the input unchanged, no filter). The forward-backward filter
// has gain |H|^2 = 1 / (1 + (tan(pi f / fs) / tan(pi fc / fs))^(2N)): -6.02 dB at fc, and for
// N = 8 at the new Nyquist frequency fs / (2 k) = 1.25 fc about -15.6 dB (-28 dB at 1.5 fc, for
// fc << fs); what lies above the new Nyquist frequency aliases, attenuated by at least that much.
//
// The inverse-model practice (low-pass of q, qd and qdd by differences, the same decimation
// filter on every signal so that a relation linear in them survives) is a setting of the record
// pipeline, data::preprocess (data/preprocess.hpp: derivatives from position,
// DecimateFilter::antialias). A regressor W that is nonlinear in the signals (cos q, sign qd,
// Stribeck terms) should be built at the full rate and its columns decimated with decimate() like
// tau (Gautier's parallel filtering of Y and W); `decimate` is public for that.
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

}  // namespace frictionlab::signal
