// The finite-difference reference of the autodiff tests: a central difference of a scalar
// objective of a parameter vector.
#pragma once

#include <algorithm>

namespace frictionlab::testing {

/// d objective / d th[i] by a central difference with the step 1e-6 th[i], the other parameters
/// held; objective takes a pointer to N parameters.
template <int N, class Objective>
double central_difference(const Objective& objective, const double (&th)[N], int i) {
  double tp[N], tm[N];
  std::copy(th, th + N, tp);
  std::copy(th, th + N, tm);
  const double d = 1e-6 * th[i];
  tp[i] += d;
  tm[i] -= d;
  return (objective(tp) - objective(tm)) / (2 * d);
}

}  // namespace frictionlab::testing
