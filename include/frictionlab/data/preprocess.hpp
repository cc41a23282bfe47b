// frictionlab data: preprocessing of a whole record (docs/preprocessing.md, "Record
// preprocessing"): resampling, zero-phase low-pass filtering, velocity from position. The
// numerics are in signal/ (resample.hpp, butterworth.hpp, differentiate.hpp); this applies them
// to every channel of a Record, in this order:
//   1. resample_rate > 0: every channel linearly onto the uniform grid t_0 + k / rate
//      (resample.hpp's endpoint rule);
//   2. lowpass_cutoff > 0: every channel except time through a zero-phase Butterworth low-pass of
//      order lowpass_order (butterworth.hpp). Needs a uniform grid (jitter_max <=
//      uniform_tolerance; resample first otherwise); fs = 1 / mean step;
//   3. velocity_from_position: velocity := d position / dt by differentiate(options.diff)
//      (replacing a measured velocity if there is one).
// Check the record first (checks.hpp): this assumes finite values, equal lengths and strictly
// increasing time, and reports violations only as std::invalid_argument from signal/.
//
// Host side: allocates, throws RecordError (source-prefixed) for unusable options or records.
#pragma once

#include "frictionlab/data/checks.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/signal/differentiate.hpp"

namespace frictionlab::data {

struct PreprocessOptions {
  double resample_rate = 0;         ///< [Hz]; 0: keep the samples
  double lowpass_cutoff = 0;        ///< [Hz] (-3 dB of one pass; -6 dB after both); 0: none
  int lowpass_order = 4;            ///< Butterworth order of one pass (1..20)
  double uniform_tolerance = 0.01;  ///< largest jitter_max accepted by the low-pass [-]
  bool velocity_from_position = false;
  signal::DiffOptions diff{};  ///< differentiator for velocity_from_position
};

/// The preprocessed copy of `record` (same source, channels as present in the input).
Record preprocess(const Record& record, const PreprocessOptions& options);

}  // namespace frictionlab::data
