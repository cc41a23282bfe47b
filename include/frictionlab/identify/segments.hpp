// frictionlab: constant-velocity segments of a record (the data of the classical two-stage
// identification: one point of the static friction curve per segment).
#pragma once

#include <vector>

#include "frictionlab/identify/options.hpp"

namespace frictionlab::identify {

struct Segment {
  long begin = 0;           ///< first sample of the segment
  long end = 0;             ///< one past its last sample
  long first_averaged = 0;  ///< first sample of the averaged part (after settle_frac)
  double v_mean = 0;        ///< mean velocity over the averaged part
  double y_mean = 0;        ///< mean measured channel over the averaged part
  double i_mean = 0;        ///< mean current over the averaged part (0 if no current)
};

/// Maximal runs of samples of one velocity sign in which max v - min v stays within
/// rel_tol*|mean v| + abs_tol_frac*max|v|, lasting >= min_duration, with |mean v| >=
/// v_min_frac*max|v| (greedy, left to right; docs/identification.md, "two-stage").
/// `i` may be empty.
std::vector<Segment> find_constant_velocity_segments(const std::vector<double>& t,
                                                     const std::vector<double>& v,
                                                     const std::vector<double>& y,
                                                     const std::vector<double>& i,
                                                     const SegmentOptions& opt);

}  // namespace frictionlab::identify
