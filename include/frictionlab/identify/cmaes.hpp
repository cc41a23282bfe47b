// frictionlab: CMA-ES, the covariance matrix adaptation evolution strategy, for derivative-free
// minimisation of non-smooth objectives over a box (used by identify/servo_fit.hpp).
//
// Algorithm: Hansen, "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772, 2016), with the
// default strategy parameters of its Table 1 and negative ("active") recombination weights:
//   lambda = 4 + floor(3 ln n), mu = floor(lambda / 2), w'_i = ln((lambda + 1)/2) - ln i,
//   positive weights normalised to sum 1, negative ones scaled by
//   min(1 + c1/cmu, 1 + 2 mueff^-/(mueff + 2), (1 - c1 - cmu)/(n cmu)) / sum |w'^-|,
//   c_sigma = (mueff + 2)/(n + mueff + 5), d_sigma = 1 + 2 max(0, sqrt((mueff-1)/(n+1)) - 1)
//   + c_sigma, c_c = (4 + mueff/n)/(n + 4 + 2 mueff/n), c1 = 2/((n + 1.3)^2 + mueff),
//   cmu = min(1 - c1 - 1e-8, 2 (mueff - 2 + 1/mueff)/((n + 2)^2 + mueff)), c_m = 1.
// One generation: x_k = m + sigma B D z_k (z_k ~ N(0, I)); after sorting by f:
//   y_k = (x_k - m)/sigma, y_w = sum_{k<=mu} w_k y_k, m += c_m sigma y_w,
//   p_sigma = (1 - c_sigma) p_sigma + sqrt(c_sigma (2 - c_sigma) mueff) C^{-1/2} y_w,
//   sigma *= exp(c_sigma/d_sigma (|p_sigma| / E|N(0,I)| - 1)),
//   h_sigma = [|p_sigma| / sqrt(1 - (1 - c_sigma)^(2 (g + 1))) < (1.4 + 2/(n + 1)) E|N(0,I)|],
//   p_c = (1 - c_c) p_c + h_sigma sqrt(c_c (2 - c_c) mueff) y_w,
//   C = (1 + c1 (1 - h_sigma) c_c (2 - c_c) - c1 - cmu sum w) C + c1 p_c p_c^T
//       + cmu sum_k w°_k y_k y_k^T,  w°_k = w_k (w_k >= 0), w_k n / (|C^{-1/2} y_k|^2 + 1e-8)
//       (w_k < 0),
// with g the number of updates including this one and E|N(0,I)| = sqrt(n)(1 - 1/(4n) +
// 1/(21 n^2)). This is the variant of the `cmaes` Python package (CyberAgent, Debian
// python3-cmaes), against which tests/test_cmaes.cpp checks three updates to rounding (the 1e-8
// guards and the eigenvalue floor 1e-8 for negative eigenvalues are that package's too).
//
// Box constraints: the search runs in the unit box [0, 1]^n (the caller normalises its
// parameters to their ranges); a sample outside is redrawn up to 100 times, then clipped, and
// the update uses the point actually evaluated (as the `cmaes` package does).
//
// Restarts (minimize): IPOP (Auger & Hansen 2005): when a run stagnates, start again from a
// uniformly drawn point with twice the population, until the evaluation or time budget is spent.
// Stopping a run: sigma * max(sqrt(diag C)) < tol_x, the range of the best values over the last
// 10 + ceil(30 n / lambda) generations < tol_f, or cond(C) > 1e14.
//
// Determinism: a given seed gives the same sequence of samples and results for any number of
// threads (the candidates of one generation are evaluated in parallel, each by itself).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "frictionlab/identify/progress.hpp"

namespace frictionlab::identify {

/// One CMA-ES run (ask/tell interface) in the unit box.
class Cmaes {
 public:
  /// Start at mean m0 (each in [0, 1]) with step size sigma0 > 0; lambda <= 0: the default.
  Cmaes(const std::vector<double>& m0, double sigma0, int lambda, std::uint64_t seed);

  int dimension() const noexcept { return n_; }
  int population() const noexcept { return lambda_; }
  int generation() const noexcept { return g_; }
  double sigma() const noexcept { return sigma_; }
  const Eigen::VectorXd& mean() const noexcept { return m_; }
  const Eigen::MatrixXd& covariance() const noexcept { return C_; }
  const Eigen::VectorXd& weights() const noexcept { return w_; }
  double mueff() const noexcept { return mueff_; }
  const Eigen::VectorXd& p_sigma() const noexcept { return ps_; }
  const Eigen::VectorXd& p_c() const noexcept { return pc_; }

  /// lambda candidates, each in the unit box.
  std::vector<std::vector<double>> ask();

  /// Update from the evaluated candidates (points and values; any order, any points of the
  /// right dimension: they need not come from ask).
  void tell(const std::vector<std::vector<double>>& x, const std::vector<double>& f);

  /// Why the run should stop ("" = go on): "tol_x", "tol_f", "condition", "flat" (all values of
  /// a generation equal), "not_finite".
  std::string stop_reason(double tol_x, double tol_f) const;

 private:
  void update_eigen();
  int n_, lambda_, mu_;
  int g_ = 0;
  double sigma_, mueff_, cs_, ds_, cc_, c1_, cmu_, chin_;
  Eigen::VectorXd w_, m_, ps_, pc_, D_;
  Eigen::MatrixXd C_, B_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0.0, 1.0};
  std::vector<double> best_history_;
  double last_range_ = 1.0;
  bool flat_ = false, not_finite_ = false;
};

struct CmaesOptions {
  double sigma0 = 0.25;  ///< initial step in the unit box
  int lambda = 0;        ///< first population (0: 4 + 3 ln n)
  std::uint64_t seed = 1;
  long max_evals = 3000;   ///< total objective evaluations (all restarts)
  double max_seconds = 0;  ///< wall-time budget [s] (0: none)
  int max_restarts = 9;    ///< IPOP restarts after the first run
  double tol_x = 1e-6;     ///< in the unit box
  double tol_f = 1e-9;     ///< absolute, in the objective's units
  int threads = 1;         ///< evaluation threads (>= 1)
  /// If set: the evaluation threads of each generation, asked at its start (values < 1 count
  /// as 1) instead of `threads`; e.g. several fits that share the cores take more of them as
  /// the others finish. The result does not depend on it (the candidates are evaluated each by
  /// itself).
  std::function<int()> threads_now;
  /// After every generation, from the calling thread: cancel is polled (true stops the
  /// minimisation with Cancelled), then report receives "CMA-ES run R: N evaluations, best F"
  /// with the evaluations so far (all runs), the best value so far and the fraction of
  /// max_evals spent. Both may be empty.
  Progress progress;
};

struct CmaesResult {
  std::vector<double> x;  ///< best point (unit box)
  double f = 0.0;         ///< its value
  long evals = 0;
  int generations = 0;
  int runs = 0;      ///< 1 + restarts
  std::string stop;  ///< "evals", "time", "restarts" (all runs done)
  double seconds = 0.0;
};

/// Minimise f over [0, 1]^n from x0 (first run; restarts from uniform points). f must be safe to
/// call from several threads at once; a non-finite value counts as +infinity.
CmaesResult cmaes_minimize(const std::function<double(const std::vector<double>&)>& f,
                           const std::vector<double>& x0, const CmaesOptions& options);

}  // namespace frictionlab::identify
