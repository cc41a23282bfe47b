// frictionlab identify: the statistics at an optimum shared by every method (lsq, oe, idim):
// the normal matrix, the linearised covariance, the Newey-West (HAC) covariance, the intervals
// of an estimate, and the reasons its standard errors cannot be trusted (assess;
// docs/identification.md, "Results"). The distributions and metrics they use: stats.hpp.
#pragma once

#include <Eigen/Core>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/identify/result.hpp"
#include "frictionlab/models/common.hpp"
#include "frictionlab/models/fit_form.hpp"
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

/// An estimate that ended on the edge of the region the solver searches.
struct EdgeEstimate {
  std::string name;  ///< ParameterEstimate::name
  FitScale scale;    ///< its internal scale, which sets the edge (a factor 1e6 or +-30)
};

/// Residuals farther than `threshold` robust standard deviations from their median: isolated
/// spikes (fit_statistics.cpp: find_outliers).
struct Outliers {
  long count = 0;        ///< how many
  long n = 0;            ///< of how many residuals
  double threshold = 0;  ///< in robust standard deviations
  double scale = 0;      ///< the robust standard deviation 1.4826 MAD (unit of the residuals)
  double largest = 0;    ///< the largest distance from the median, in robust standard deviations
};

/// The residuals follow the change of the prediction when the input is taken the other way
/// between samples (fit_statistics.cpp: other_hold_signature).
struct OtherHold {
  Hold other = Hold::zoh;  ///< the hold the record was likely made with
  double slope = 0;        ///< of the residuals on that change (1: all of it)
  double share = 0;        ///< of the residuals' sum of squares it explains, 0..1
};

/// The information matrix at the optimum, as the reasons name it.
struct Information {
  std::string_view name = "J^T J";  ///< "J^T J"; "W^T W" of a linear regression
  double condition_number = std::numeric_limits<double>::quiet_NaN();  ///< NaN: not formed
  bool singular = false;
  /// The intervals come from the linearisation of a nonlinear model (said when they do not
  /// hold); false for a linear regression.
  bool linearised = true;
};

/// What the statistics at an optimum found: the facts assess() words as the reasons of a
/// Reliability. The defaults find nothing.
struct Findings {
  bool converged = true;               ///< the solver stopped by convergence
  std::vector<EdgeEstimate> at_limit;  ///< estimates on the edge of the search region
  std::string jacobian_failure;        ///< how the Jacobian at the optimum failed; "": it did not
  std::optional<Outliers> outliers;    ///< isolated spikes among the residuals
  std::vector<std::string> no_effect;  ///< parameters without effect on the simulated output
  Information information;
  /// Whose residuals' colour to judge: "" the fit's, "position" the residuals of the position;
  /// nullopt: not judged. The rule: rel.whiteness.ljung_box_p < 0.01 and (acf1 > 0.5 or
  /// rel.hac_ratio_max > 2); hac_ratio_max is NaN when no HAC standard errors could be computed
  /// (the rule then rests on the autocorrelation alone).
  std::optional<std::string> coloured;
  std::optional<OtherHold> other_hold;  ///< the other input hold's signature in the residuals
};

/// The reasons the standard errors cannot be trusted (docs/identification.md, "Results"), each
/// worded here once, in this order: no convergence, estimates on the edge of the search region,
/// the Jacobian at the optimum, outliers, parameters without effect, a singular or nearly
/// singular (condition number > 1e8) information matrix, strongly coloured residuals, the other
/// input hold. Each sets rel.standard_errors = false; outliers also set rel.outliers. The colour
/// rule reads rel.whiteness and rel.hac_ratio_max: set them first.
void assess(const Findings& f, Reliability& rel);

/// e's white-noise standard error `se` and 95 % interval value -+ tq se; with `hac_se`, its
/// Newey-West ones too, and their ratio to the white-noise one (when se > 0) raises
/// rel.hac_ratio_max.
void set_intervals(ParameterEstimate& e, double se, double tq, Reliability& rel,
                   std::optional<double> hac_se);

/// e on its lower bound 0: no standard error, no interval (ParameterEstimate::at_bound).
void set_at_bound(ParameterEstimate& e);

}  // namespace frictionlab::identify::detail
