// Largest absolute values of sampled signals, for tests that bound an error over a whole series.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace frictionlab::testing {

/// max_k |a[k]| (0 for an empty series).
inline double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

/// max_k |a[k] - b[k]| over the common length; a test failure when the lengths differ (two series
/// that should be sampled alike are not).
inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double m = 0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

}  // namespace frictionlab::testing
