// frictionlab: settings and counters shared by the fixed-step implicit schemes (trbdf2.hpp and
// the benchmark candidates in benchmarks/candidates/), which solve their stage equations by
// Newton's method with a fixed iteration budget.
//
// Convergence test (a simple form of the one in Hairer & Wanner, "Solving Ordinary Differential
// Equations II", sec. IV.8, without their contraction-rate factor): the Newton correction dY is
// small in the weighted max norm
//   max_i |dY_i| / (atol + rtol |Y_i|) <= 1.
// A stage that has not passed the test after max_iterations corrections keeps its last iterate
// (bounded cost per step, for real-time use) and is counted in `unconverged`.
#pragma once

#include <Eigen/Core>
#include <cmath>

namespace frictionlab {

struct NewtonSettings {
  /// Newton corrections per stage (per step for Radau IIA and the friction-aware midpoint
  /// scheme); values below 1 are taken as 1.
  int max_iterations = 8;
  double atol = 1e-10;  ///< absolute tolerance of the correction (units of y)
  double rtol = 1e-10;  ///< relative tolerance of the correction
  /// When df/dy is (re-)evaluated (one ceres::Jet pass, which also yields f) and the iteration
  /// matrix factorised: at every iterate (full Newton), at the first iterate of each stage
  /// (TR-BDF2 only; chord iterations within the stage), or once per step at (t_n, y_n)
  /// (simplified Newton).
  enum class Jacobian { each_iteration, each_stage, each_step };
  Jacobian jacobian = Jacobian::each_iteration;
};

struct NewtonCounters {
  long steps = 0;        ///< steps taken
  long rhs_evals = 0;    ///< evaluations of f, in double or in Jets
  long jac_evals = 0;    ///< of which Jet evaluations (each also yields df/dy)
  long iterations = 0;   ///< Newton corrections
  long unconverged = 0;  ///< stages (Radau: steps) that ran out of iterations
};

/// max_i |d_i| / (atol + rtol |y_i|).
template <class V>
double weighted_max_norm(const V& d, const V& y, double atol, double rtol) {
  double r = 0;
  for (int i = 0; i < d.size(); ++i) {
    const double w = std::abs(d[i]) / (atol + rtol * std::abs(y[i]));
    if (std::isnan(w)) return HUGE_VAL;  // a NaN correction never counts as converged
    if (w > r) r = w;
  }
  return r;
}

}  // namespace frictionlab
