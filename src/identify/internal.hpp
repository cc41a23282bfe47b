// frictionlab identify: private interfaces shared by the compiled identification sources.
//
// A Family maps an internal parameter vector theta (log for strictly positive parameters, plain
// for non-negative ones with a bound at 0, plain and unbounded for logits/softmax weights) to
// a model's Params, simulates the prediction of the measured channel, and builds the Ceres cost
// (autodiff with ceres::Jet through the whole simulation). See docs/identification.md.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/models/fit_form.hpp"
#include "parallel.hpp"

namespace ceres {
class CostFunction;
}

namespace frictionlab::identify::detail {

struct ParamInfo {
  std::string field;  ///< docs/models.md name of the internal parameter (or of its natural value)
  std::string name;   ///< user-facing name
  std::string unit;
  FitScale tf = FitScale::log;  ///< how theta maps to the natural value
  bool is_static = false;       ///< Km or part of the static curve (first stage of two-stage)
};

/// A reported (user) parameter: a function of the natural values.
struct UserInfo {
  std::string field, name, unit;
  int internal = -1;  ///< the internal parameter it equals (natural value), -1 if a combination
};

/// The numeric record a fit works on.
struct FitData {
  std::vector<double> t, v, i, y;
  bool sensorless = false;
  long first = 0;  ///< first sample with a residual (warm-up)
  /// The input velocity between samples in the fit's simulation (FitOptions::hold): what the
  /// cost, the starts and the statistics simulate with (the coarse scans of the initial guess
  /// always hold it: init.cpp).
  Hold hold = Hold::linear;
  long n() const { return static_cast<long>(t.size()); }
  long m() const { return n() - first; }
};

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

/// A simulation of a prediction's sum of squared residuals that goes on where it stopped
/// (Family::start_ssr): the scans simulate every candidate's first samples, then finish the
/// most promising first. One run can give the sums of several values of a parameter the
/// prediction is affine in and the state does not depend on (Family::force_affine): one
/// simulation for all of them.
class SsrRun {
 public:
  virtual ~SsrRun() = default;
  /// Simulates up to sample min(k_end, n) and returns the lowest of the partial sums of squares
  /// sum_{d.first <= k < k_end} (y_k - pred_k)^2 (sums()).
  virtual double advance(long k_end) = 0;
  /// The samples simulated so far.
  long done() const { return k_; }
  /// The partial sums so far, one per value of the affine parameter (one for a run without):
  /// a single value's summed in the order of k, like the first of several values'.
  const std::vector<double>& sums() const { return sums_; }

 protected:
  long k_ = 0;
  std::vector<double> sums_;
};

class Family {
 public:
  /// Samples between two checks of a partial sum of squares against a bound (ssr_below, the
  /// scans).
  static constexpr long kSsrChunk = 2048;

  virtual ~Family() = default;
  const std::vector<ParamInfo>& info() const { return info_; }
  const std::vector<UserInfo>& user_info() const { return user_; }
  int size() const { return static_cast<int>(info_.size()); }
  bool sensorless() const { return sensorless_; }
  /// The model's number of lsq starts when LsqOptions::starts is 0 (its Fit's `starts`).
  int default_starts() const { return default_starts_; }
  /// Index of the internal parameter with this field, -1 if none.
  int index(std::string_view field) const;

  std::vector<double> to_internal(const std::vector<double>& natural) const;
  std::vector<double> to_natural(const std::vector<double>& theta) const;

  /// Prediction of the measured channel at every sample (simulated from rest at t[0]).
  virtual void predict(const double* theta, const FitData& d, Method m, Hold h,
                       double* out) const = 0;
  /// The sum of squared residuals of that prediction, simulated on demand (SsrRun::advance);
  /// theta is copied.
  std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h) const {
    return start_ssr(theta, d, m, h, -1, {});
  }
  /// The same for every natural value in `values` of the internal parameter `affine`
  /// (force_affine(affine); theta's own value of it is not used), from one simulation:
  ///   r_k(a) = r_k(a0) - (a - a0) dp_k,  dp_k = pred_k(a0 + 1) - pred_k(a0),  a0 = values[0],
  ///   sum_k r_k(a)^2 = S_rr - 2 (a - a0) S_rd + (a - a0)^2 S_dd
  /// (S_rr, S_rd, S_dd the sums of r_k(a0)^2, r_k(a0) dp_k, dp_k^2: the first value's sum is
  /// the single run's, the others' differ from a simulation of their own by rounding).
  /// affine < 0: theta's prediction alone. Throws std::invalid_argument for a parameter that is
  /// not force_affine or is log-scaled, or no values.
  virtual std::unique_ptr<SsrRun> start_ssr(const double* theta, const FitData& d, Method m, Hold h,
                                            int affine, std::span<const double> values) const = 0;
  /// Whether internal parameter i is a field the model's state does not depend on and its force
  /// is affine in (the Fit's force_affine, models/fit_form.hpp).
  virtual bool force_affine(int i) const = 0;
  /// The sum of squared residuals sum_{k >= d.first} (y_k - pred_k)^2 of that prediction,
  /// summed in the order of k (the same value as from predict), or +inf as soon as a partial
  /// sum is above bound() or not finite (checked every kSsrChunk samples; bound may fall while
  /// this runs). The partial sums only grow, so a simulation whose sum is at most every bound
  /// it sees is never stopped.
  double ssr_below(const double* theta, const FitData& d, Method m, Hold h,
                   const std::function<double()>& bound) const;
  /// Reported parameter values (size user_info().size()).
  virtual void user_values(const double* theta, double* u) const = 0;
  /// d user / d theta[free[j]]: row-major user_info().size() x free.size().
  virtual void user_jacobian(const double* theta, const std::vector<int>& free,
                             double* G) const = 0;
  /// Residuals y_k - pred_k (robustified) for k >= d.first as a Ceres cost with one parameter
  /// block: theta[free[j]], j < free.size(); the other entries of theta stay fixed. `threads`
  /// > 1: the Jacobian is evaluated by time segments in parallel where the model allows it
  /// (families.cpp, SimCost); the result does not depend on the number of threads. The LuGre
  /// models' Jacobian is by forward sensitivities in plain double (models/lugre/sensitivity.hpp),
  /// the others' by Jets; `jets` = true takes the Jets for every model (the sensitivities' test
  /// oracle).
  virtual std::unique_ptr<ceres::CostFunction> make_cost(const FitData& d,
                                                         const std::vector<double>& theta,
                                                         const std::vector<int>& free,
                                                         const Robust& loss, int threads = 1,
                                                         bool jets = false) const = 0;
  virtual ModelSpec fitted(const double* theta) const = 0;
  /// The structure of the model this one contains (its Fit's nested()), if any.
  virtual std::optional<FitStructure> nested() const = 0;
  /// The natural values `nested_nat` of the family `nested` (made from nested()) as this
  /// family's natural values (Km copied; the model part by its Fit's embed()).
  virtual std::vector<double> embed(const Family& nested,
                                    const std::vector<double>& nested_nat) const = 0;
  virtual double steady(const double* theta, double v) const = 0;

 protected:
  std::vector<ParamInfo> info_;
  std::vector<UserInfo> user_;
  bool sensorless_ = false;
  int default_starts_ = 3;
};

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

/// The family of a model choice. `alpha` is not handled here (fixing it is the caller's).
std::unique_ptr<Family> make_family(const ModelChoice& m, ProblemKind problem, bool rotary);

/// Whether the model has a state (needs velocity reversals to identify its dynamics).
bool is_dynamic(const ModelChoice& m);
/// The dynamic models with a Stribeck curve (what two-stage fits), in registry order.
std::vector<std::string> two_stage_models();
/// The initial-guess strategy the model's fit.hpp names.
FitInit init_strategy(const ModelChoice& m);

/// Validated numeric data (throws FitError naming the channel and sample).
FitData prepare_data(const data::Record& rec, ProblemKind problem, double warmup_s);
DataSummary summarize(const FitData& d);

double max_abs(const std::vector<double>& x);
double median(std::vector<double> x);

// The thread helpers (parallel.hpp), by the names the identification sources use.
using parallel::for_each_index;
using parallel::resolve_threads;
using parallel::run_with_helpers;

/// FitOptions::progress serialised by a mutex, and FitOptions::cancel (polled without a lock:
/// the hook is thread-safe).
class Progress {
 public:
  explicit Progress(std::function<void(std::string_view)> f, std::function<bool()> cancel = {})
      : f_(std::move(f)), cancel_(std::move(cancel)) {}
  void operator()(const std::string& msg) const {
    if (!f_) return;
    std::lock_guard<std::mutex> lock(mutex_);
    f_(msg);
  }
  bool enabled() const { return static_cast<bool>(f_); }
  /// Whether the caller asked the fit to stop (FitOptions::cancel).
  bool cancelled() const { return cancel_ && cancel_(); }
  /// Throws Cancelled if cancelled().
  void check() const {
    if (cancelled()) throw Cancelled();
  }

 private:
  std::function<void(std::string_view)> f_;
  std::function<bool()> cancel_;
  mutable std::mutex mutex_;
};

/// Natural-value initial guess for the family (static least squares on near-steady samples
/// with vs and alpha scanned, then scans of the dynamic parameters). Entries of `natural` that
/// are not NaN are given (fixed or already known) and kept; the NaN entries are initialised.
/// Returns the complete natural vector. `threads`: for the scans' simulations (0: every core).
std::vector<double> initial_guess(const Family& fam, const ModelChoice& model, const FitData& d,
                                  const SteadySelection& sel, std::vector<double> natural,
                                  const Progress& progress, int threads = 0);

/// A cost function that keeps its latest evaluation with a Jacobian, possibly computed ahead
/// with a residual-only evaluation, and its normal equations (the LuGre SimCost, families.cpp):
/// CompressedCost reads them in place instead of having the m x p Jacobian copied out and
/// multiplied again.
class KeepsJacobian {
 public:
  virtual ~KeepsJacobian() = default;
  /// The residuals (m) and row-major Jacobian (m x p) at x when they are kept (ok: whether they
  /// are finite); they are then the solver's current linearisation. false when not kept.
  virtual bool kept_at(const double* x, const double*& residuals, const double*& jacobian,
                       bool& ok) const = 0;
  /// J^T J, J^T r and r^T r at x when the cost formed them with the Jacobian, else false.
  virtual bool normal_at(const double* x, Eigen::MatrixXd& N, Eigen::VectorXd& g,
                         double& ss) const = 0;
};

/// The residuals and the Jacobian of a cost (Family::make_cost) at the free parameters x, as
/// the solver last evaluated them: what the statistics at the optimum need, when x is the
/// optimum, without another evaluation.
struct Linearisation {
  std::vector<double> x;          ///< the free internal parameters (empty: none)
  std::vector<double> residuals;  ///< m
  std::vector<double> jacobian;   ///< m x p, row-major
  Eigen::MatrixXd normal;         ///< J^T J when the evaluation computed it (else empty)
};

/// Result of a (multi-start) Ceres solve.
struct LsqRun {
  std::vector<double> theta;  ///< internal, full
  std::vector<int> at_limit;  ///< indices of theta on their search box (best start)
  std::vector<StartSummary> starts;
  int best = 0;
  int iterations = 0;
  bool converged = false;
  std::string termination;
  Linearisation last;  ///< the best start's last Jacobian evaluation (at theta or before it)
};

/// A start given by the caller (the embedded optimum of a nested model), run after the others.
struct ExtraStart {
  std::vector<double> theta;  ///< internal, full; empty: none
  std::string origin;         ///< what it is, for StartSummary::origin
};

LsqRun run_lsq(const Family& fam, const FitData& d, const std::vector<double>& theta0,
               const std::vector<int>& free, const LsqOptions& opt, const Robust& loss,
               const Progress& progress, const std::string& label, const ExtraStart& extra = {});

/// Robust loss scale (opt.loss_scale or 1.5 * 1.4826 * MAD of the residuals at theta0).
Robust make_robust(const Family& fam, const FitData& d, const std::vector<double>& theta0,
                   const LsqOptions& opt);

/// A matrix in either storage order (a row-major Jacobian as the costs write it, or a
/// column-major one) read in place.
using AnyMatrix =
    Eigen::Ref<const Eigen::MatrixXd, 0, Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
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

/// Fill parameters, standard errors, intervals, correlation, condition number, sigma, metrics,
/// information criteria of `r` from the Jacobian at theta (free: estimated internal indices).
/// Also fills r.reliability (whiteness, HAC standard errors, the reasons the standard errors
/// cannot be trusted); `at_limit`: theta indices that ended on their search box. `threads`: for
/// the Jacobian (Family::make_cost; 0: every core), J^T J and the HAC windows. `known`: the
/// solver's last evaluation of the same cost (LsqRun::last), used instead of a new one when it was
/// made at theta itself (its arrays are then moved out: it is left empty). `at_values`: called with
/// r once its values are set, before the statistics, and the prediction y - residuals when there is
/// no warm-up and no robust loss (identify::fit's at_optimum).
void fill_statistics(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const std::vector<int>& free,
                     const Robust& loss, const std::vector<int>& at_limit = {}, int threads = 0,
                     Linearisation* known = nullptr, const AtOptimum& at_values = {});

/// Fill parameters (values only; standard errors NaN) and metrics without a Jacobian. The
/// training metrics come from `residuals` (y - prediction at theta for the samples from d.first
/// on, unweighted) when given, else from a simulation at theta.
void fill_values_only(FitResult& r, const Family& fam, const FitData& d,
                      const std::vector<double>& theta, const std::vector<int>& estimated,
                      const std::vector<double>* residuals = nullptr);

/// The grid method (reference 000). Returns the natural parameter vector of the LuGre family.
struct GridRun {
  std::vector<double> natural;
  std::vector<std::string> notes;  ///< warnings (Fs reflected, Euler unstable points, ...)
  int passes = 0;
};
GridRun run_grid(const Family& fam, const FitData& d, const FitOptions& opt, double alpha,
                 const std::vector<double>& init_natural, const Progress& progress);

}  // namespace frictionlab::identify::detail
