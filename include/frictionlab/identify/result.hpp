// frictionlab: the result of an identification (identify::fit) and of a validation
// (identify::evaluate). Plain data for the CLI to write as fit.json; the formulas behind every
// number are in docs/identification.md, section "Results".
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "frictionlab/identify/options.hpp"
#include "frictionlab/models/common.hpp"
#include "frictionlab/models/registry.hpp"

namespace frictionlab::identify {

struct ParameterEstimate {
  std::string name;   ///< user-facing name: reference 000's names (Km, Kw, S0, ...) for the
                      ///< sensorless problem, docs/models.md's field names otherwise
  std::string field;  ///< docs/models.md field name ("sigma0", "Fc_pos", "k[2]"; "Km" for Km)
  std::string unit;
  double value = 0;
  double std_error = 0;  ///< NaN: not available (grid, non-identifiable, at a bound)
  double ci_low = 0;     ///< 95 % interval value -+ t(0.975, N - p) * std_error
  double ci_high = 0;
  bool fixed = false;     ///< held fixed (not estimated): std_error = 0, interval = value
  bool at_bound = false;  ///< on its lower bound 0: the standard error does not apply
  /// At the edge of the region the solver may search (a log parameter 1e6 times away from its
  /// start, a logit or softmax weight at +-30): the data push it out of any plausible range.
  bool at_limit = false;
  /// The record does not determine it (e.g. the objective is flat along it): reported, not to
  /// be trusted.
  bool undetermined = false;
  /// Newey-West (HAC, Bartlett kernel) standard error: the sandwich covariance
  /// (J^T J)^-1 S (J^T J)^-1 with S from the autocovariances of J_k^T r_k up to
  /// Reliability::hac_lags; valid under coloured (autocorrelated) residuals. NaN where the
  /// white-noise one is NaN.
  double hac_std_error = std::numeric_limits<double>::quiet_NaN();
  double hac_ci_low =
      std::numeric_limits<double>::quiet_NaN();  ///< value -+ t(0.975, N - p) * hac_std_error
  double hac_ci_high = std::numeric_limits<double>::quiet_NaN();
};

/// Goodness of fit of a prediction against the measured channel (training or validation).
struct Metrics {
  long n = 0;          ///< samples compared (after the warm-up)
  double ssr = 0;      ///< sum of squared residuals
  double rmse = 0;     ///< sqrt(ssr / n)
  double nrmse = 0;    ///< rmse / (max y - min y) over the compared samples
  double r2 = 0;       ///< 1 - ssr / sum (y - mean y)^2
  double max_abs = 0;  ///< largest |residual|
  double rms =
      0;  ///< sqrt(mean y^2): the size of the measured channel (rmse / rms: the relative error)
};

/// Whiteness of the residuals at the optimum (identify::residual_whiteness).
struct ResidualWhiteness {
  int lags = 0;                                                   ///< h
  double ljung_box_q = std::numeric_limits<double>::quiet_NaN();  ///< Q
  double ljung_box_p = std::numeric_limits<double>::quiet_NaN();  ///< P(chi2_h > Q)
  double acf1 = std::numeric_limits<double>::quiet_NaN();         ///< lag-1 autocorrelation rho_1
};

/// Whether the standard errors can be trusted, and why not (docs/identification.md, "Results").
struct Reliability {
  /// false when any reason below holds: the white-noise standard errors and intervals are then
  /// printed as unreliable (the HAC ones next to them account for coloured residuals only).
  bool standard_errors = true;
  std::vector<std::string> reasons;  ///< e.g. "parameter Vth is at the edge of its search box"
  ResidualWhiteness whiteness;
  int hac_lags = 0;  ///< Bartlett-kernel bandwidth of the Newey-West covariance
  /// Largest ratio HAC / white-noise standard error over the estimated parameters.
  double hac_ratio_max = std::numeric_limits<double>::quiet_NaN();
  /// Residuals beyond 10 robust standard deviations of their median (isolated spikes); 0 with a
  /// robust loss, which bounds their pull.
  long outliers = 0;
};

/// A parameter (or the fit) that the record cannot determine, and why
/// (identify/identifiability.hpp).
struct IdentifiabilityFlag {
  std::string parameter;  ///< ParameterEstimate::name, or "" for the fit as a whole
  /// bound, limit, undetermined, no_std_error, relative_error, correlation, condition,
  /// reversals, near_zero
  std::string kind;
  std::string other;  ///< the other parameter of a correlation flag, else ""
  /// The number behind it: the relative standard error, the correlation, the condition number,
  /// the reversal count, the fraction of samples near zero velocity; NaN where none.
  double value = std::numeric_limits<double>::quiet_NaN();
  std::string message;  ///< the reason in plain words
};

struct DataSummary {
  long n = 0;            ///< samples in the record
  long n_used = 0;       ///< residuals (samples after the warm-up)
  double duration = 0;   ///< t[n-1] - t[0] [s]
  double rate_hz = 0;    ///< 1 / median sample interval [Hz]
  double dt_max = 0;     ///< largest sample interval [s]
  long reversals = 0;    ///< sign changes of the velocity (|v| > 1e-3 max|v| counts)
  double v_max_abs = 0;  ///< max |v|
};

/// One start of the multi-start `lsq` (or of the dynamic stage of `two-stage`).
struct StartSummary {
  double initial_cost = 0;  ///< 1/2 sum r^2 (of the robustified residuals) at the start
  double final_cost = 0;
  int iterations = 0;
  bool converged = false;
  /// "initial guess", "perturbed initial guess", or the nested model whose optimum it is
  /// ("optimum of nested model lugre").
  std::string origin;
};

struct FitResult {
  ModelChoice model{};
  std::string model_name;  ///< model_name(model)
  ProblemKind problem = ProblemKind::friction;
  FitMethod method = FitMethod::lsq;

  ModelSpec params;          ///< the fitted friction model (write it as MODEL.json)
  std::optional<double> Km;  ///< motor torque constant [Nm/A] (sensorless problem)
  std::vector<ParameterEstimate> parameters;  ///< every parameter, estimated or fixed
  /// Correlation matrix of the parameters (same order; fixed ones have 0 off-diagonal, 1 on
  /// the diagonal); NaN where the covariance is not available.
  std::vector<std::vector<double>> correlation;
  /// Condition number of the column-scaled J^T J at the optimum (J: residual Jacobian with
  /// respect to the estimated internal parameters, every column scaled to unit norm).
  double condition_number = 0;
  double sigma = 0;       ///< residual standard deviation sqrt(SSR / (N - p))
  int num_estimated = 0;  ///< p
  Metrics training;
  double aicc = 0;  ///< N ln(SSR/N) + 2k + 2k(k+1)/(N-k-1), k = p + 1
  double bic = 0;   ///< N ln(SSR/N) + k ln N

  Reliability reliability;
  /// What the record cannot determine (identify::identifiability_flags); empty for a rich record.
  std::vector<IdentifiabilityFlag> identifiability;

  /// LuGre-type sets: sigma2 > sigma1 (Fs - Fc)/Fc on both sides (models/validation.hpp).
  std::optional<bool> passive;
  std::string passivity_message;  ///< validation's message when not passive

  double run_time_s = 0;
  int iterations = 0;  ///< solver iterations of the best start (grid: grid passes)
  bool converged = false;
  std::string termination;  ///< solver's own words (or the grid's)
  std::vector<StartSummary> starts;
  /// The model this one contains whose optimum was also a start (lsq; "" if none): the fit is
  /// never worse on the training record than that model's.
  std::string nested_model;
  DataSummary data;
  std::vector<std::string> warnings;

  /// How predictions are simulated (used by evaluate/predict): the exact step with linear
  /// input hold for lsq and two-stage; forward Euler at the logged step with the input held
  /// (as the reference firmware and estimator) for grid.
  Method scheme = Method::exact;
  Hold hold = Hold::linear;
  double warmup_s = 0;
};

/// The parameter of `r` called `name` (its name, e.g. "Kw", or its field, e.g. "sigma2"); throws
/// std::out_of_range naming the parameters there are.
const ParameterEstimate& parameter(const FitResult& r, std::string_view name);

/// Covariance matrix of the reported parameters (r.parameters order, their units):
/// C[a][b] = correlation[a][b] * std_error[a] * std_error[b], the linearised (delta-method)
/// covariance the standard errors and the correlation come from. Rows of fixed parameters are 0;
/// NaN where the correlation or a standard error is not available.
std::vector<std::vector<double>> covariance(const FitResult& r);

}  // namespace frictionlab::identify
