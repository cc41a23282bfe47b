// frictionlab data: checks of a measured record before identification, and its summary
// (docs/preprocessing.md, "Record checks").
//
// check_record() throws RecordError for a record that cannot be used, in this order:
//   1. channel lengths: every non-empty channel must have as many samples as t
//      ("channel 'force' has 99 samples, 'time' has 100");
//   2. required channels (the caller says which, CheckOptions::need_*): a missing one is named
//      with the channels that are present;
//   3. too short: fewer than CheckOptions::min_samples samples (default 20). Whether the record
//      covers enough time constants of the friction dynamics cannot be checked before the fit:
//      only the sample count is;
//   4. non-finite values (NaN, +-Inf) or values beyond kMaxMagnitude in any channel: the first
//      one, with its channel and 1-based sample index;
//   4b. a temperature below absolute zero (-273.15 degC: the channel is not in degC);
//   5. time not strictly increasing: the first 1-based sample index whose time is not larger
//      than its predecessor's.
// Then it returns a RecordReport (never throws for these): the sampling statistics (sample rate
// from the median step, jitter, duration), the number of velocity sign changes and reversals,
// and warnings:
//   - jitter_max > CheckOptions::jitter_warning (10 %): the record is not uniformly sampled
//     (Savitzky-Golay differentiation and low-pass filtering refuse it; resample first);
//   - the time column is probably not in seconds: integer times stepping by 1..10 over a span
//     beyond 1000 ("looks like milliseconds"), or a median step beyond 1 s (below 1 Hz);
//   - every temperature above kKelvinLike (the channel is probably in kelvin);
//   - the velocity is zero everywhere;
//   - when CheckOptions::needs_reversals (dynamic models: the pre-sliding parameters sigma0,
//     sigma1, ... are only excited when the motion reverses):
//       "velocity never changes sign: the dynamic parameters are not identifiable from this record"
//     or, if it changes sign only inside the dead band, a warning saying so.
// Sign changes: count of k where sgn(v_k) != sgn(v_j) for the previous non-zero sample j (zeros
// are skipped). Reversals: the same with hysteresis, counting only crossings from v > +b to
// v < -b or back, b = reversal_deadband * max|v| (noise around standstill does not count).
// Without a velocity channel the position increments x_k - x_{k-1} stand in for v.
//
// Messages: "SOURCE: sample K: ..." (K 1-based) or "SOURCE: ..." (SOURCE = Record::source, or
// "record" if empty). Loaders in io/ report file lines / variable elements themselves; these
// checks see only the samples.
//
// Host side: allocates, throws. No file I/O.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/limits.hpp"

namespace frictionlab::data {

/// The remedy for a non-uniform time grid, by the option that applies it (the CLI's --resample
/// of fit, compare, fit-joint, eval-joint; Python's resample_rate): what the jitter warning and
/// the preprocessing's error end with.
inline constexpr const char* kResampleHint = " (--resample HZ; Python resample_rate=HZ)";

/// The largest magnitude accepted for any recorded value or model parameter in SI units: 1e15
/// (frictionlab/limits.hpp, the one magnitude policy; docs/file-formats.md, "Limits").
/// Used by check_record, workflows::simulate_model and every file reader.
inline constexpr double kMaxMagnitude = frictionlab::kMaxMagnitude;

/// Absolute zero [degC]: no temperature channel goes below it.
inline constexpr double kAbsoluteZero = -273.15;
/// A temperature channel whose every value is above this [degC] is probably in kelvin (a
/// warning; friction is identified on joints well below 200 degC).
inline constexpr double kKelvinLike = 200.0;

/// Throws RecordError naming the first (1-based) sample whose temperature is below kAbsoluteZero
/// (check_record's step 4b; the joint methods' preparation runs it on the raw record too).
void check_temperature_channel(const Record& r);

/// A record that cannot be used. what() is the complete message.
class RecordError : public std::invalid_argument {
 public:
  RecordError(std::string source, std::size_t sample, std::string channel,
              const std::string& message);
  const std::string& source() const noexcept { return source_; }
  /// 1-based sample index, 0 when the problem is not at one sample.
  std::size_t sample() const noexcept { return sample_; }
  /// The channel concerned ("time", "position", "velocity", "acceleration", "current",
  /// "force"), may be empty.
  const std::string& channel() const noexcept { return channel_; }
  /// The message without the "SOURCE: sample K: " prefix.
  const std::string& detail() const noexcept { return detail_; }

 private:
  std::string source_;
  std::size_t sample_ = 0;
  std::string channel_;
  std::string detail_;
};

struct CheckOptions {
  bool need_motion = false;    ///< velocity or position (either one)
  bool need_velocity = false;  ///< velocity itself
  bool need_position = false;
  bool need_force = false;    ///< measured friction force or joint torque
  bool need_current = false;  ///< motor current (sensorless-torque problem)
  /// The model has internal dynamics identified from motion reversals (Dahl, LuGre,
  /// elasto-plastic, Maxwell slip, GMS): warn when the velocity never changes sign.
  bool needs_reversals = false;
  std::size_t min_samples = 20;     ///< fewer is an error
  double jitter_warning = 0.1;      ///< warn when jitter_max exceeds this [-]
  double reversal_deadband = 0.01;  ///< b / max|v| for counting reversals [-]
};

struct RecordReport {
  std::size_t samples = 0;
  double duration = 0;                ///< [s]
  double dt_median = 0;               ///< [s]
  double sample_rate = 0;             ///< 1 / dt_median [Hz]
  double dt_min = 0;                  ///< [s]
  double dt_max = 0;                  ///< [s]
  double jitter_max = 0;              ///< max |dt - dt_median| / dt_median [-]
  double jitter_std = 0;              ///< std(dt) / dt_median [-]
  std::vector<std::string> channels;  ///< present channels, in Record order ("time", ...)
  bool motion_from_position = false;  ///< sign counts from position increments (no velocity)
  std::size_t velocity_sign_changes = 0;
  std::size_t velocity_reversals = 0;  ///< sign changes beyond the dead band
  std::vector<std::string> warnings;   ///< complete sentences, without "warning: "
};

/// The checks and the report described above.
RecordReport check_record(const Record& record, const CheckOptions& options = {});

/// "SOURCE" of messages: record.source, or "record" if empty.
std::string source_name(const Record& record);

}  // namespace frictionlab::data
