// frictionlab identify: the statistics at an optimum shared by every method (lsq, oe, idim):
// the normal matrix, the linearised covariance, the Newey-West (HAC) covariance and the rule
// for coloured residuals (docs/identification.md, "Results").
#pragma once

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "frictionlab/identify/result.hpp"
#include "linearisation.hpp"

namespace frictionlab::identify::detail {

/// Linearised (Gauss-Newton) covariance of least-squares estimates from the residual Jacobian
/// J (m x p) at the optimum: cov = s2 (J^T J)^-1, s2 = ssr / (m - p), computed on the
/// column-scaled Js = J D^-1 (D = column norms) for accuracy: cov = s2 D^-1 (Js^T Js)^-1 D^-1.
struct LinearCovariance {
  double s2 = 0;                ///< residual variance estimate
  double condition_number = 0;  ///< of Js^T Js (inf when singular)
  std::vector<long> dead;       ///< columns of J that are zero (no effect on the residuals)
  bool singular = false;        ///< dead columns, or smallest eigenvalue <= 1e-14 * largest
  Eigen::MatrixXd cov;          ///< p x p (only when !singular)
};
/// From the normal matrix J^T J (p x p) of a Jacobian with m rows: the column norms
/// sqrt(diag J^T J), Js^T Js = D^-1 J^T J D^-1. Requires m > p (the caller checks and reports).
LinearCovariance linear_covariance_normal(const Eigen::Ref<const Eigen::MatrixXd>& JtJ, double ssr,
                                          Eigen::Index m);

/// J^T J of a row-major Jacobian (triangular products by blocks of rows on up to `threads`
/// threads, added in block order: the same matrix for any thread count; no copy of J).
Eigen::MatrixXd normal_matrix(const Eigen::Ref<const RowMatrix>& J, int threads = 1);
/// Per-sample scores of a least-squares problem whose residuals come `rows_per_sample` to a
/// sample (channels interleaved: rows k n .. k n + n - 1 are sample k): the (rows / n) x p matrix
/// with rows g_k = sum_{c < n} J_{k n + c}^T r_{k n + c}. Throws std::invalid_argument when the
/// rows are not whole samples or res has another length.
Eigen::MatrixXd sample_scores(const AnyMatrix& J, const std::vector<double>& res,
                              long rows_per_sample);
/// Newey-West (Bartlett kernel) sandwich from the scores g (m x p, one row per sample, in time
/// order): factor * A S A^T with S = G0 + sum_{l=1..L} (1 - l/(L+1)) (G_l + G_l^T),
/// G_l = sum_k g_k g_{k-l}^T. A is q x p (q <= p: e.g. the rows of (J^T J)^-1 of the parameters
/// of interest, the rest being nuisance parameters); the result is q x q. With L = 0 it is the
/// Eicker-Huber-White sandwich. Up to `threads` threads (the same result for any number).
Eigen::MatrixXd hac_covariance_scores(const Eigen::Ref<const Eigen::MatrixXd>& g,
                                      const Eigen::Ref<const Eigen::MatrixXd>& A, long L,
                                      double factor, int threads = 1);
/// Newey-West covariance A S A * m/(m - p) of least-squares estimates with one residual per
/// sample: A = (J^T J)^-1 (given), J m x p, scores g_k = J_k^T r_k (hac_covariance_scores).
Eigen::MatrixXd hac_covariance(const AnyMatrix& J, const std::vector<double>& res,
                               const Eigen::MatrixXd& A, long L, int threads = 1);
/// Bartlett bandwidth from the residuals' lag-1 autocorrelation (Andrews 1991, AR(1) plug-in),
/// at least the Newey-West rule, at most min(m/4, 2000).
long hac_bandwidth(double rho, long m);

/// The rule of docs/identification.md ("Results") for coloured residuals: when
/// rel.whiteness.ljung_box_p < 0.01 and (acf1 > 0.5 or rel.hac_ratio_max > 2), sets
/// rel.standard_errors = false and adds the reason ("the residuals [of the <of>] are strongly
/// coloured ..."). Needs rel.whiteness and rel.hac_ratio_max (NaN when no HAC standard errors
/// could be computed: the rule then rests on the autocorrelation alone).
void flag_coloured_residuals(Reliability& rel, std::string_view of = {});

}  // namespace frictionlab::identify::detail
