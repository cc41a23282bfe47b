// frictionlab identify: the robust losses of a fit (Huber, Cauchy) as a transform of each
// residual, usable with double and ceres::Jet (LsqOptions::loss).
#pragma once

#include <cmath>

#include "frictionlab/identify/options.hpp"

namespace frictionlab::identify::detail {

/// Robust transform of a residual: r~ = r sqrt(rho(r^2)/r^2), so that sum r~^2 = sum rho(r^2)
/// (Huber: rho(s) = s for s <= c^2, 2c sqrt(s) - c^2 above; Cauchy: c^2 log(1 + s/c^2)).
struct Robust {
  LossKind kind = LossKind::none;
  double scale = 1;

  template <class S>
  S apply(const S& r) const {
    using std::log1p;
    using std::sqrt;
    if (kind == LossKind::none) return r;
    const S s = r * r;
    const double c2 = scale * scale;
    if (kind == LossKind::huber) {
      if (!(s > S(c2))) return r;
      const S ar = sqrt(s);
      return r * sqrt((S(2 * scale) * ar - S(c2)) / s);
    }
    // Cauchy: rho(s)/s = log1p(u)/u with u = s/c^2 (-> 1 for u -> 0).
    const S u = s / S(c2);
    if (!(u > S(1e-8))) return r * sqrt(S(1) - u / S(2));
    return r * sqrt(log1p(u) / u);
  }
};

}  // namespace frictionlab::identify::detail
