// frictionlab data: the one preprocessing pipeline of a measured record (docs/preprocessing.md,
// "Record preprocessing"), used by the friction fit (workflows/fit.hpp), the joint fit
// (identify/joint_data.hpp) and inverse-model filtering. The numerics are in signal/
// (resample.hpp, butterworth.hpp, differentiate.hpp, reintegrate.hpp, tvreg.hpp, decimate.hpp);
// this applies them to the channels of a Record, in this order (a stage whose option is at its
// default does nothing):
//   1. resample_rate != 0: every channel linearly onto the uniform grid t_0 + k / rate
//      (resample.hpp's endpoint rule). Refused (RecordError at the sample after the gap) when a
//      step t_k - t_{k-1} of the record is longer than the largest gap, resample_max_gap s, or
//      by default kResampleGapSteps (10) times the record's median step: linear interpolation
//      across it would invent the data of the gap (split the record at the gap instead);
//   2. lowpass_cutoff > 0: every channel except time through a zero-phase Butterworth low-pass of
//      order lowpass_order (butterworth.hpp): the same filter on every channel, so that a relation
//      between them (force = W(position, velocity, acceleration)) survives it (Gautier's
//      "parallel filtering");
//   3. derivatives (differentiate.hpp, options.diff, any DiffMethod):
//        position: velocity, acceleration := d position / dt, d^2 position / dt^2 (replacing
//                  measured ones);
//        velocity: acceleration := d velocity / dt of the measured velocity;
//      diff_window_s > 0 gives the savgol window in seconds instead of diff.window samples:
//      round(diff_window_s * fs), made odd, at least 5;
//   4. reintegrate (needs derivatives from position): position and velocity replaced by the
//      double integral of the acceleration, constants by least squares against the position
//      (reintegrate.hpp), so that the three are consistent;
//   5. tv_force_alpha > 0: force replaced by its TV-regularised de-noised form (tvreg.hpp, order 1,
//      weight tv_force_alpha, `smoothed`; reference 004 sec. 5.1);
//   6. decimate > 1: every decimate-th sample t_0, t_k, t_2k, ... of every channel;
//        DecimateFilter::none: plain subsampling; with lowpass_cutoff > 0 the cutoff must lie
//                  below the new Nyquist frequency fs / (2 decimate) (checked before stage 2);
//        DecimateFilter::antialias: each channel through signal::decimate (zero-phase
//                  Butterworth of order decimate_order at decimate_cutoff_ratio times the new
//                  Nyquist frequency, then subsampling): the inverse-model practice (Gautier;
//                  Janot, Vandanjon & Gautier, IEEE TCST 22(1) 2014), a relation linear in the
//                  channels survives it;
//   7. trim_s > 0: the samples within trim_s of either end of the record after stage 5 are
//      dropped (filter and differentiator edges).
// Stages 2-7 need a uniform grid (jitter_max <= uniform_tolerance; resample first otherwise),
// checked at the first of them that runs; fs = 1 / mean step. After stage 6 or 7 at least 3
// samples must be left. Check the record first (checks.hpp): this assumes finite values and
// strictly increasing time, and reports violations only as std::invalid_argument from signal/.
//
// Host side: allocates, throws RecordError (source- and stage-prefixed) for unusable options or
// records, std::runtime_error if a tvreg differentiation does not converge.
#pragma once

#include <string>

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/signal/differentiate.hpp"

namespace frictionlab::data {

/// Stage 3: which channel is differentiated.
enum class DerivativesFrom {
  none,      ///< no derivatives
  position,  ///< velocity and acceleration from position
  velocity,  ///< acceleration from the measured velocity
};

/// Stage 6: what precedes the subsampling.
enum class DecimateFilter {
  none,       ///< plain subsampling (stage 2's low-pass must be below the new Nyquist frequency)
  antialias,  ///< signal::decimate's zero-phase Butterworth on every channel
};

/// Stage 1's default largest gap, in median sample steps: a step up to 10 times the median
/// stands for at most 9 dropped samples in a row, which interpolation bridges; a longer one is a
/// pause of the acquisition whose motion is unknown.
inline constexpr double kResampleGapSteps = 10;

struct PreprocessOptions {
  double resample_rate = 0;  ///< [Hz]; 0: keep the samples
  /// [s] largest step t_k - t_{k-1} stage 1 interpolates across; 0: kResampleGapSteps times the
  /// record's median step; +infinity: any gap (the record's data inside it is invented).
  double resample_max_gap = 0;
  double lowpass_cutoff = 0;        ///< [Hz] (-3 dB of one pass; -6 dB after both); 0: none
  int lowpass_order = 4;            ///< Butterworth order of one pass (1..20)
  double uniform_tolerance = 0.01;  ///< largest jitter_max accepted by stages 2-7 [-]
  DerivativesFrom derivatives = DerivativesFrom::none;
  signal::DiffOptions diff{};  ///< differentiator of stage 3 (method, window, tv, ...)
  double diff_window_s = 0;    ///< [s]; > 0: savgol window in seconds (replaces diff.window)
  bool reintegrate = false;    ///< stage 4
  double tv_force_alpha = 0;   ///< [force unit s^2]; > 0: TV de-noising of force (stage 5)
  int decimate = 1;            ///< keep every decimate-th sample (>= 1)
  DecimateFilter decimate_filter = DecimateFilter::none;
  int decimate_order = 8;              ///< antialias: Butterworth order of one pass
  double decimate_cutoff_ratio = 0.8;  ///< antialias: cutoff / new Nyquist frequency (0..1)
  double trim_s = 0;                   ///< [s] dropped at each end (>= 0)
};

/// The preprocessed copy of `record` (same source; the channels present in the input, plus
/// velocity and acceleration from stage 3). With no stage, `record` unchanged.
Record preprocess(const Record& record, const PreprocessOptions& options);

/// The stages `options` runs, in order, for a person: "resample to 300 Hz, low-pass 5 Hz
/// (Butterworth order 4, zero-phase), velocity and acceleration from position (savgol),
/// ...", or "none" (the CLI's --verbose prints it).
std::string describe(const PreprocessOptions& options);

/// `checks` for a record as read before `options`: with resampling, the jitter the resampling
/// bridges (steps up to kResampleGapSteps median steps) is not warned about, since resampling
/// is the remedy the warning names; a longer step that resample_max_gap allows still is.
CheckOptions checks_before_preprocessing(CheckOptions checks, const PreprocessOptions& options);

}  // namespace frictionlab::data
