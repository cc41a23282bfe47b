// frictionlab identify: constant-velocity segments (docs/identification.md, "two-stage").
#include "frictionlab/identify/segments.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace frictionlab::identify {

std::vector<Segment> find_constant_velocity_segments(const std::vector<double>& t,
                                                     const std::vector<double>& v,
                                                     const std::vector<double>& y,
                                                     const std::vector<double>& i,
                                                     const SegmentOptions& opt) {
  std::vector<Segment> out;
  const auto n = static_cast<long>(std::min({t.size(), v.size(), y.size()}));
  double vmax = 0;
  for (long k = 0; k < n; ++k) vmax = std::max(vmax, std::abs(v[static_cast<std::size_t>(k)]));
  if (vmax == 0) return out;
  const double abs_tol = opt.abs_tol_frac * vmax, v_min = opt.v_min_frac * vmax;
  auto sgn = [](double x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); };
  long k = 0;
  while (k < n) {
    const auto uk = static_cast<std::size_t>(k);
    const int s = sgn(v[uk]);
    if (s == 0 || std::abs(v[uk]) < v_min) {
      ++k;
      continue;
    }
    double lo = v[uk], hi = v[uk], sum = v[uk];
    long j = k + 1;
    while (j < n) {
      const double vj = v[static_cast<std::size_t>(j)];
      if (sgn(vj) != s) break;
      const double nlo = std::min(lo, vj), nhi = std::max(hi, vj), nsum = sum + vj;
      const double mean = nsum / static_cast<double>(j - k + 1);
      if (nhi - nlo > opt.rel_tol * std::abs(mean) + abs_tol) break;
      lo = nlo;
      hi = nhi;
      sum = nsum;
      ++j;
    }
    const double mean = sum / static_cast<double>(j - k);
    if (t[static_cast<std::size_t>(j - 1)] - t[uk] >= opt.min_duration && std::abs(mean) >= v_min) {
      Segment seg;
      seg.begin = k;
      seg.end = j;
      seg.first_averaged =
          k + static_cast<long>(std::floor(opt.settle_frac * static_cast<double>(j - k)));
      seg.first_averaged = std::min(seg.first_averaged, j - 1);
      double sv = 0, sy = 0, si = 0;
      for (long q = seg.first_averaged; q < j; ++q) {
        const auto uq = static_cast<std::size_t>(q);
        sv += v[uq];
        sy += y[uq];
        if (!i.empty()) si += i[uq];
      }
      const auto cnt = static_cast<double>(j - seg.first_averaged);
      seg.v_mean = sv / cnt;
      seg.y_mean = sy / cnt;
      seg.i_mean = si / cnt;
      out.push_back(seg);
      k = j;
    } else {
      ++k;
    }
  }
  return out;
}

}  // namespace frictionlab::identify
