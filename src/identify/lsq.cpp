// frictionlab identify: the multi-start Ceres solve of method lsq (lsq.hpp; docs/identification.md,
// "lsq"). The statistics at its optimum: fit_statistics.cpp.
#include "lsq.hpp"

#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/format.hpp"
#include "parallel.hpp"
#include "solver_log.hpp"
#include "statistics.hpp"

namespace frictionlab::identify::detail {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Log-parameters stay within a factor 1e6 of their start (keeps exp() finite); logits and
/// softmax weights within +-30.
constexpr double kLogBox = 13.815510557964274;  // ln(1e6)
constexpr double kFreeBox = 30;

/// Polls the fit's cancel hook at every iteration, and reports the iterations of a solve at most
/// once a second, with the time per iteration and an
/// estimate of the time left: the number of iterations until the cost's decrease falls below
/// the function tolerance, extrapolated from the ratio of the last two decreases (the rate of a
/// linearly converging iteration), times the mean time per iteration so far.
class ProgressCallback final : public ceres::IterationCallback {
 public:
  ProgressCallback(const Progress& p, std::string label, double function_tolerance,
                   int max_iterations)
      : p_(p),
        label_(std::move(label)),
        tol_(function_tolerance),
        max_iterations_(max_iterations) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    // A cancelled fit stops at the next iteration (solve_one then throws Cancelled).
    if (p_.cancelled()) {
      aborted_ = true;
      return ceres::SOLVER_ABORT;
    }
    if (!p_.report) return ceres::SOLVER_CONTINUE;
    const auto now = std::chrono::steady_clock::now();
    if (s.step_is_successful || s.iteration == 0) costs_.push_back(s.cost);
    if (now - last_ >= std::chrono::seconds(1) && s.iteration > 0) {
      last_ = now;
      const double per = std::chrono::duration<double>(now - start_).count() / s.iteration;
      std::string msg = label_ + ": iteration " + std::to_string(s.iteration) + ", cost " +
                        format_number(s.cost) + ", " + format_number(per, 2) + " s per iteration";
      const std::size_t n = costs_.size();
      if (n >= 3) {
        const double d1 = costs_[n - 3] - costs_[n - 2], d2 = costs_[n - 2] - costs_[n - 1];
        if (d1 > 0 && d2 > 0 && d2 < d1) {
          const double rate = d2 / d1;
          const double goal = tol_ * costs_[n - 1];
          double more = d2 <= goal ? 1.0 : std::ceil(std::log(goal / d2) / std::log(rate));
          more = std::clamp(more, 1.0,
                            static_cast<double>(std::max(1, max_iterations_ - s.iteration)));
          msg += ", about " + format_number(more * per, 2) + " s left";
        }
      }
      p_.say(msg);
    }
    return ceres::SOLVER_CONTINUE;
  }
  /// Whether the solve was stopped by the cancel hook.
  bool aborted() const { return aborted_; }

 private:
  const Progress& p_;
  bool aborted_ = false;
  std::string label_;
  double tol_;
  int max_iterations_;
  std::vector<double> costs_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_ = start_;
};

/// The simulation cost as Ceres sees it: the m residuals r and the m x p Jacobian J of the
/// inner cost, handed over as the p + 1 residuals and (p + 1) x p Jacobian of a least-squares
/// problem with the same cost, gradient and Gauss-Newton matrix,
///   J_c = Lambda^1/2 V^T,  r_c = Lambda^-1/2 V^T J^T r,  rho = (|r|^2 - |r_c|^2)^1/2
/// (J^T J = V Lambda V^T; J_c^T J_c = J^T J, J_c^T r_c = J^T r, |r_c|^2 + rho^2 = |r|^2, and the
/// Levenberg-Marquardt model |r + J dx|^2 = |r_c + J_c dx|^2 + rho^2 for every step dx; the
/// directions of eigenvalues below 1e-13 of the largest, which J^T r has no part along, are
/// left out). Ceres's steps, costs and tolerance tests are those of the full problem up to
/// rounding, and its own work per evaluation no longer scales with m: it fills, checks and
/// copies a (p + 1) x p Jacobian instead of the m x p one (a 30 001-sample fit: about 2.5 ms
/// per Jacobian and 1 ms per residual evaluation less, and J^T J of 7 x 7 instead of 30 001 x 7).
/// A residual-only evaluation gives (|r|, 0, ...): only its cost is used. The latest
/// evaluation with a Jacobian is kept whole (Linearisation): the statistics at the optimum
/// reuse it when the solver ended where it last evaluated the Jacobian (Ceres evaluates it at
/// every accepted point).
class CompressedCost final : public ceres::CostFunction {
 public:
  CompressedCost(std::unique_ptr<ceres::CostFunction> inner, Linearisation& out, int threads)
      : inner_(std::move(inner)), out_(out), threads_(threads) {
    p_ = inner_->parameter_block_sizes()[0];
    set_num_residuals(p_ + 1);
    *mutable_parameter_block_sizes() = inner_->parameter_block_sizes();
    keeper_ = dynamic_cast<const KeepsJacobian*>(inner_.get());
  }
  /// Whether a cost of m residuals and p parameters is worth compressing.
  static bool worth(long m, long p) { return p > 0 && m > 4 * (p + 1); }

  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    const auto m = static_cast<std::size_t>(inner_->num_residuals());
    const auto p = static_cast<std::size_t>(p_);
    std::fill(residuals, residuals + p + 1, 0.0);
    if (jacobians == nullptr || jacobians[0] == nullptr) {
      r_.resize(m);
      if (!inner_->Evaluate(parameters, r_.data(), nullptr)) return false;
      double ss = 0;
      for (double e : r_) ss += e * e;
      residuals[0] = std::sqrt(ss);
      return std::isfinite(residuals[0]);
    }
    // The inner cost's kept evaluation read in place (KeepsJacobian: no copy of the m x p
    // Jacobian per step; the Linearisation gets it once, at the end: finish), or a new one.
    const double* rp = nullptr;
    const double* Jp = nullptr;
    bool fine = true;
    in_inner_ = keeper_ != nullptr && keeper_->kept_at(parameters[0], rp, Jp, fine);
    if (in_inner_) {
      out_.x.clear();  // (what it holds is older)
      inner_x_.assign(parameters[0], parameters[0] + p);
      if (!fine) return false;
    } else {
      out_.residuals.resize(m);
      out_.jacobian.resize(m * p);
      double* jac[1] = {out_.jacobian.data()};
      if (!inner_->Evaluate(parameters, out_.residuals.data(), jac)) {
        out_ = {};
        return false;
      }
      out_.x.assign(parameters[0], parameters[0] + p);
      rp = out_.residuals.data();
      Jp = out_.jacobian.data();
    }
    Eigen::MatrixXd N;
    Eigen::VectorXd g;
    double ss = 0;
    if (keeper_ == nullptr || !keeper_->normal_at(parameters[0], N, g, ss)) {
      const Eigen::Map<const RowMatrix> J(Jp, static_cast<Eigen::Index>(m), p_);
      const Eigen::Map<const Eigen::VectorXd> r(rp, static_cast<Eigen::Index>(m));
      N = normal_matrix(J, threads_);
      g = J.transpose() * r;
      ss = r.squaredNorm();
    }
    if (!N.allFinite() || !g.allFinite() || !std::isfinite(ss)) return false;
    if (!in_inner_) out_.normal = N;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(N);
    const Eigen::VectorXd& lam = es.eigenvalues();
    const Eigen::MatrixXd& V = es.eigenvectors();
    const double floor = 1e-13 * std::max(lam.maxCoeff(), 0.0);
    Eigen::Map<RowMatrix> Jc(jacobians[0], p_ + 1, p_);
    Jc.setZero();
    double rc2 = 0;
    for (int i = 0; i < p_; ++i) {
      if (!(lam(i) > floor)) continue;
      const double sl = std::sqrt(lam(i));
      Jc.row(i) = sl * V.col(i).transpose();
      residuals[i] = V.col(i).dot(g) / sl;
      rc2 += residuals[i] * residuals[i];
    }
    residuals[p_] = std::sqrt(std::max(ss - rc2, 0.0));
    model_decrease_ = ss > 0 ? rc2 / ss : kNaN;
    return true;
  }

  /// The Gauss-Newton model's largest decrease of the cost at the last evaluation with a
  /// Jacobian, relative to the cost there: |r_c|^2 / |r|^2 = g^T (J^T J)^+ g / |r|^2 (the
  /// decrease of |r + J dx|^2 at its minimiser dx = -(J^T J)^+ g). NaN before one.
  double model_decrease() const { return model_decrease_; }

  /// After the solve: the last evaluation with a Jacobian into the Linearisation when it was
  /// read in place and the inner cost still keeps it (it may have computed one ahead at a
  /// later point since: then the Linearisation is left empty), with its J^T J when the inner
  /// cost formed it (else the statistics form it).
  void finish() const {
    if (!in_inner_) return;
    const double* rp = nullptr;
    const double* Jp = nullptr;
    bool fine = true;
    const auto m = static_cast<std::size_t>(inner_->num_residuals());
    const auto p = static_cast<std::size_t>(p_);
    if (keeper_->kept_at(inner_x_.data(), rp, Jp, fine) && fine) {
      out_.x = inner_x_;
      out_.residuals.assign(rp, rp + m);
      out_.jacobian.assign(Jp, Jp + m * p);
      Eigen::VectorXd g;
      double ss = 0;
      if (!keeper_->normal_at(inner_x_.data(), out_.normal, g, ss)) out_.normal.resize(0, 0);
    } else {
      out_ = {};
    }
  }

 private:
  std::unique_ptr<ceres::CostFunction> inner_;
  Linearisation& out_;
  int threads_ = 1;
  int p_ = 0;
  const KeepsJacobian* keeper_ = nullptr;
  mutable std::vector<double> r_;         ///< a residual-only evaluation's residuals
  mutable bool in_inner_ = false;         ///< the last Jacobian evaluation was read in place
  mutable std::vector<double> inner_x_;   ///< at this point
  mutable double model_decrease_ = kNaN;  ///< model_decrease()
};

/// Ends a solve where the Gauss-Newton model of the point just accepted (with its Jacobian:
/// Ceres evaluates it before the callbacks) promises a decrease of at most `tolerance` times
/// the cost: Ceres's own function tolerance would otherwise stop it at this same point, one
/// evaluation later, when the step taken from it changes the cost by that little. The model's
/// decrease bounds the Levenberg-Marquardt step's (a damped step decreases the model less), so
/// ending here leaves at most that decrease untaken: a step of sqrt(tolerance m) standard errors
/// at most (the cost's decrease 1/2 dx^T J^T J dx against s^2 = |r|^2 / m), 2e-4 for 30 000
/// samples and tolerance 1e-12.
class ModelConvergence final : public ceres::IterationCallback {
 public:
  ModelConvergence(const CompressedCost& cost, double tolerance) : cost_(cost), tol_(tolerance) {}
  ceres::CallbackReturnType operator()(const ceres::IterationSummary& s) override {
    if (s.iteration > 0 && !s.step_is_successful) return ceres::SOLVER_CONTINUE;
    const double dec = cost_.model_decrease();
    if (!(dec <= tol_)) return ceres::SOLVER_CONTINUE;
    decrease_ = dec;
    return ceres::SOLVER_TERMINATE_SUCCESSFULLY;
  }
  /// The model's relative decrease where it ended the solve (NaN: it did not).
  double decrease() const { return decrease_; }

 private:
  const CompressedCost& cost_;
  double tol_;
  double decrease_ = kNaN;
};

/// A cost that keeps a copy of its latest evaluation with a Jacobian (Linearisation), for
/// costs too short to compress (CompressedCost).
class RememberingCost final : public ceres::CostFunction {
 public:
  RememberingCost(std::unique_ptr<ceres::CostFunction> inner, Linearisation& out)
      : inner_(std::move(inner)), out_(out) {
    set_num_residuals(inner_->num_residuals());
    *mutable_parameter_block_sizes() = inner_->parameter_block_sizes();
  }
  bool Evaluate(double const* const* parameters, double* residuals,
                double** jacobians) const override {
    const bool ok = inner_->Evaluate(parameters, residuals, jacobians);
    if (jacobians != nullptr && jacobians[0] != nullptr) {
      const auto m = static_cast<std::size_t>(num_residuals());
      const auto p = static_cast<std::size_t>(parameter_block_sizes()[0]);
      if (ok) {
        out_.x.assign(parameters[0], parameters[0] + p);
        out_.residuals.assign(residuals, residuals + m);
        out_.jacobian.assign(jacobians[0], jacobians[0] + m * p);
      } else {
        out_ = {};
      }
    }
    return ok;
  }

 private:
  std::unique_ptr<ceres::CostFunction> inner_;
  Linearisation& out_;
};

struct StartResult {
  std::vector<double> theta;
  Linearisation last;         ///< the last Jacobian evaluation
  std::vector<int> at_limit;  ///< theta indices that ended on their search box
  StartSummary summary;
  std::string termination;
  double cost = std::numeric_limits<double>::infinity();
};

/// Threads for the work of one solve when `concurrent` solves run at once (LsqOptions::threads,
/// 0: every core, shared among them).
int threads_per_solve(const LsqOptions& opt, int concurrent) {
  const int total = resolve_threads(opt.threads);
  return std::max(1, total / std::max(1, concurrent));
}

/// The search box of the free parameters x (internal, at their start): a non-negative one
/// above 0, a log one within a factor 1e6 of its start (kLogBox), a logit or softmax weight within
/// +-kFreeBox.
void set_search_box(ceres::Problem& problem, std::vector<double>& x, const Family& fam,
                    const std::vector<int>& free) {
  for (std::size_t j = 0; j < free.size(); ++j) {
    const auto& pi = fam.info()[static_cast<std::size_t>(free[j])];
    const int jj = static_cast<int>(j);
    switch (pi.tf) {
      case FitScale::nonneg:
        problem.SetParameterLowerBound(x.data(), jj, 0.0);
        break;
      case FitScale::log:
        problem.SetParameterLowerBound(x.data(), jj, x[j] - kLogBox);
        problem.SetParameterUpperBound(x.data(), jj, x[j] + kLogBox);
        break;
      case FitScale::free:
        problem.SetParameterLowerBound(x.data(), jj, -kFreeBox);
        problem.SetParameterUpperBound(x.data(), jj, kFreeBox);
        break;
    }
  }
}

/// Ceres's options for one start (the callbacks are the caller's).
ceres::Solver::Options solver_options(const LsqOptions& opt) {
  ceres::Solver::Options so;
  // The step from the normal equations (J^T J + D) dx = -J^T r by Cholesky: J is tall and
  // narrow (a sample per row, at most a few tens of columns; CompressedCost hands Ceres its
  // p + 1 rows with the same J^T J), and Ceres scales the columns to unit norm first (Jacobi
  // scaling), so the squared condition number stays far from the precision of double wherever
  // the standard errors are reported (condition numbers above 1e8 are flagged by
  // assess); the statistics use their own decomposition of J.
  so.linear_solver_type = ceres::DENSE_NORMAL_CHOLESKY;
  so.max_num_iterations = opt.max_iterations;
  so.function_tolerance = 1e-12;
  so.gradient_tolerance = 1e-14;
  so.parameter_tolerance = 1e-12;
  so.logging_type = ceres::SILENT;
  so.minimizer_progress_to_stdout = false;
  so.num_threads = 1;
  // The search box (set_search_box) makes Ceres's trust-region step a projected line search by
  // default, and every line-search trial evaluates the gradient, i.e. the whole Jacobian by
  // simulation: about one extra Jacobian per iteration. With 0 trials the step is projected
  // onto the box without a search (Solver::Options::max_num_line_search_step_size_iterations).
  so.max_num_line_search_step_size_iterations = 0;
  so.update_state_every_iteration = false;
  return so;
}

/// The solved point into res.theta, and the free parameters that ended on their search box
/// (within 1e-6 of a bound that is not the 0 of a non-negative one) into res.at_limit.
void read_back(StartResult& res, const ceres::Problem& problem, const std::vector<double>& x,
               const Family& fam, const std::vector<int>& free) {
  for (std::size_t j = 0; j < free.size(); ++j) {
    res.theta[static_cast<std::size_t>(free[j])] = x[j];
    const double lo = problem.GetParameterLowerBound(x.data(), static_cast<int>(j));
    const double hi = problem.GetParameterUpperBound(x.data(), static_cast<int>(j));
    const auto tf = fam.info()[static_cast<std::size_t>(free[j])].tf;
    if (tf != FitScale::nonneg && (x[j] <= lo + 1e-6 || x[j] >= hi - 1e-6))
      res.at_limit.push_back(free[j]);
  }
}

/// The solve's costs, iterations, convergence (Ceres's, or ModelConvergence's when it ended the
/// solve), termination message with the solver's own lines, and the cost that ranks the start
/// (+inf when the solution is not usable).
void summarise(StartResult& res, const ceres::Solver::Summary& sum,
               const ModelConvergence* model_end, double function_tolerance,
               const std::vector<std::string>& solver_lines) {
  res.summary.initial_cost = sum.initial_cost;
  res.summary.final_cost = sum.final_cost;
  res.summary.iterations = static_cast<int>(sum.iterations.size()) - 1;
  const bool by_model = sum.termination_type == ceres::USER_SUCCESS && model_end != nullptr &&
                        !std::isnan(model_end->decrease());
  res.summary.converged = sum.termination_type == ceres::CONVERGENCE || by_model;
  res.termination =
      by_model ? "Function tolerance reached by the Gauss-Newton model: largest decrease " +
                     format_number(model_end->decrease()) +
                     " of the cost <= " + format_number(function_tolerance)
               : sum.message;
  for (const auto& line : solver_lines)  // what the summary's message does not say already
    if (line.find(sum.message) == std::string::npos) res.termination += "; solver: " + line;
  res.cost = std::isfinite(sum.final_cost) && sum.IsSolutionUsable()
                 ? sum.final_cost
                 : std::numeric_limits<double>::infinity();
}

/// One start: Ceres from theta0 over the free parameters in their search box; the last Jacobian
/// evaluation is kept (StartResult::last). Throws Cancelled when cancelled.
StartResult solve_one(const Family& fam, const FitData& d, const std::vector<double>& theta0,
                      const std::vector<int>& free, const LsqOptions& opt, const Robust& loss,
                      const Progress& progress, const std::string& label, int threads) {
  StartResult res;
  res.theta = theta0;
  std::vector<double> x(free.size());
  for (std::size_t j = 0; j < free.size(); ++j) x[j] = theta0[static_cast<std::size_t>(free[j])];
  ceres::Problem problem;
  auto cost = fam.make_cost(d, theta0, free, loss, threads);
  const CompressedCost* compressed = nullptr;
  if (CompressedCost::worth(d.m(), static_cast<long>(free.size()))) {
    auto* c = new CompressedCost(std::move(cost), res.last, resolve_threads(threads));
    compressed = c;
    problem.AddResidualBlock(c, nullptr, x.data());
  } else {
    problem.AddResidualBlock(new RememberingCost(std::move(cost), res.last), nullptr, x.data());
  }
  set_search_box(problem, x, fam, free);
  ceres::Solver::Options so = solver_options(opt);
  ProgressCallback cb(progress, label, so.function_tolerance, so.max_num_iterations);
  so.callbacks.push_back(&cb);
  std::optional<ModelConvergence> model_end;
  if (compressed != nullptr) {
    model_end.emplace(*compressed, so.function_tolerance);
    so.callbacks.push_back(&*model_end);
  }
  ceres::Solver::Summary sum;
  const std::vector<std::string> solver_lines = solve_quietly(so, &problem, &sum);
  if (cb.aborted()) throw Cancelled();  // (an aborted solve's point is not a result)
  if (compressed != nullptr) compressed->finish();
  read_back(res, problem, x, fam, free);
  summarise(res, sum, model_end ? &*model_end : nullptr, so.function_tolerance, solver_lines);
  return res;
}

/// What every start of one lsq run shares.
struct LsqProblem {
  const Family& fam;
  const FitData& d;
  const std::vector<int>& free;
  const LsqOptions& opt;
  const Robust& loss;
  const Progress& progress;
  const std::string& label;
};

/// The start points of a run in the order they were made, with where each came from and, once
/// solved, its result.
struct Starts {
  std::vector<std::vector<double>> theta;
  std::vector<std::string> origin;
  std::vector<StartResult> results;
  void add(std::vector<double> t, std::string o) {
    theta.push_back(std::move(t));
    origin.push_back(std::move(o));
  }
};

/// `count` perturbed start points: the `count` best (by the cost at the point) of
/// kCandidates * count random perturbations of theta0 (deterministic from the seed):
/// log-parameters and non-negative ones times a log-uniform factor in [1/spread, spread],
/// unbounded ones (logits, softmax weights) plus a uniform [-1, 1].
std::vector<std::vector<double>> perturbed_starts(const LsqProblem& P,
                                                  const std::vector<double>& theta0, int count) {
  constexpr int kCandidates = 8;
  const auto& [fam, d, free, opt, loss, progress, label] = P;
  std::mt19937_64 rng(opt.seed);
  const double ls = std::log(std::max(opt.spread, 1.0));
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<std::pair<double, std::vector<double>>> cand;
  std::vector<double> pred(static_cast<std::size_t>(d.n()));
  for (int c = 0; c < kCandidates * count; ++c) {
    progress.check();
    auto x = theta0;
    for (int i : free) {
      auto& e = x[static_cast<std::size_t>(i)];
      switch (fam.info()[static_cast<std::size_t>(i)].tf) {
        case FitScale::log:
          e += ls * U(rng);
          break;
        case FitScale::nonneg:
          e *= std::exp(ls * U(rng));
          break;
        case FitScale::free:
          e += U(rng);
          break;
      }
    }
    fam.predict(x.data(), d, Method::exact, d.hold, pred.data());
    double ssr = 0;
    for (long k = d.first; k < d.n(); ++k) {
      const double r =
          loss.apply(d.y[static_cast<std::size_t>(k)] - pred[static_cast<std::size_t>(k)]);
      ssr += r * r;
    }
    cand.emplace_back(std::isfinite(ssr) ? ssr : std::numeric_limits<double>::infinity(), x);
  }
  std::stable_sort(cand.begin(), cand.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<double>> out;
  out.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int s = 0; s < count; ++s) out.push_back(cand[static_cast<std::size_t>(s)].second);
  return out;
}

/// Solves the starts from `from` on, on up to LsqOptions::threads threads, each reported.
void solve_starts(const LsqProblem& P, Starts& starts, std::size_t from) {
  const int total = static_cast<int>(starts.theta.size());
  starts.results.resize(starts.theta.size());
  const int nthreads =
      std::clamp(resolve_threads(P.opt.threads), 1, std::max(1, total - static_cast<int>(from)));
  for_each_index(starts.theta.size() - from, nthreads, [&](std::size_t i) {
    P.progress.check();
    const int s = static_cast<int>(from + i);
    const std::string lab =
        P.label + " start " + std::to_string(s + 1) + "/" + std::to_string(total);
    auto& r = starts.results[static_cast<std::size_t>(s)];
    r = solve_one(P.fam, P.d, starts.theta[static_cast<std::size_t>(s)], P.free, P.opt, P.loss,
                  P.progress, lab, threads_per_solve(P.opt, nthreads));
    P.progress.say(lab + ": cost " + format_number(r.summary.initial_cost) + " -> " +
                   format_number(r.summary.final_cost) + " in " +
                   std::to_string(r.summary.iterations) + " iterations" +
                   (r.summary.converged ? "" : " (not converged)"));
  });
}

/// Automatic starts of a model whose default is one start: when the data-driven starts (the
/// initial guess and the caller's extra start) have the lowest cost at a point that is not a
/// converged optimum inside the search box, they are not trusted alone; two perturbed starts
/// follow (as starts = 3 would have run them).
void follow_up_starts(const LsqProblem& P, const std::vector<double>& theta0, Starts& starts) {
  const auto& results = starts.results;
  std::size_t lowest = 0;
  for (std::size_t s = 1; s < results.size(); ++s)
    if (results[s].cost < results[lowest].cost) lowest = s;
  if (results[lowest].summary.converged && results[lowest].at_limit.empty()) return;
  const std::string why =
      !results[lowest].summary.converged ? "did not converge" : "ended on its search box";
  P.progress.say(P.label + ": the best data-driven start " + why + "; two perturbed starts follow");
  const std::size_t from = starts.theta.size();
  for (auto& x : perturbed_starts(P, theta0, 2))
    starts.add(std::move(x),
               "perturbed initial guess (start " + std::to_string(lowest + 1) + " " + why + ")");
  solve_starts(P, starts, from);
}

/// The run's result: every start's summary, and the lowest-cost start's point, search-box
/// flags, solver state and last Jacobian evaluation (moved out of `starts`).
LsqRun best_run(Starts& starts) {
  auto& results = starts.results;
  LsqRun run;
  run.best = 0;
  for (std::size_t s = 0; s < results.size(); ++s) {
    results[s].summary.origin = starts.origin[s];
    run.starts.push_back(results[s].summary);
    if (results[s].cost < results[static_cast<std::size_t>(run.best)].cost)
      run.best = static_cast<int>(s);
  }
  auto& b = results[static_cast<std::size_t>(run.best)];
  run.theta = b.theta;
  run.at_limit = b.at_limit;
  run.iterations = b.summary.iterations;
  run.converged = b.summary.converged;
  run.termination = b.termination;
  run.last = std::move(b.last);
  return run;
}

}  // namespace

Robust make_robust(const Family& fam, const FitData& d, const std::vector<double>& theta0,
                   const LsqOptions& opt) {
  Robust r;
  r.kind = opt.loss;
  if (opt.loss == LossKind::none) return r;
  if (opt.loss_scale > 0) {
    r.scale = opt.loss_scale;
    return r;
  }
  std::vector<double> pred(static_cast<std::size_t>(d.n()));
  fam.predict(theta0.data(), d, Method::exact, d.hold, pred.data());
  std::vector<double> res;
  for (long k = d.first; k < d.n(); ++k)
    res.push_back(d.y[static_cast<std::size_t>(k)] - pred[static_cast<std::size_t>(k)]);
  const double med = median(res);
  for (auto& e : res) e = std::abs(e - med);
  const double mad = median(res);
  r.scale = 1.5 * 1.4826 * mad;
  if (!(r.scale > 0)) r.scale = 1e-6 * std::max(max_abs(d.y), 1e-12);
  return r;
}

LsqRun run_lsq(const Family& fam, const FitData& d, const std::vector<double>& theta0,
               const std::vector<int>& free, const LsqOptions& opt, const Robust& loss,
               const Progress& progress, const std::string& label, const ExtraStart& extra) {
  const LsqProblem P{fam, d, free, opt, loss, progress, label};
  const bool automatic = opt.starts <= 0;
  const int planned = automatic ? std::max(1, fam.default_starts()) : opt.starts;
  // Start 0 = theta0, then the perturbed ones, then the caller's extra start.
  Starts starts;
  starts.add(theta0, "initial guess");
  for (auto& x : perturbed_starts(P, theta0, planned - 1))
    starts.add(std::move(x), "perturbed initial guess");
  if (!extra.theta.empty()) starts.add(extra.theta, extra.origin);
  solve_starts(P, starts, 0);
  if (automatic && planned == 1) follow_up_starts(P, theta0, starts);
  return best_run(starts);
}

}  // namespace frictionlab::identify::detail
