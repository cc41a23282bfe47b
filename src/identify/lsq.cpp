// frictionlab identify: the multi-start Ceres solve (`lsq`) and the statistics at the optimum
// (docs/identification.md, "lsq" and "Results").
#include <ceres/ceres.h>

#include <Eigen/Dense>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "fit_statistics.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/stats.hpp"
#include "frictionlab/models/validation.hpp"
#include "lsq.hpp"
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
    if (!p_.enabled()) return ceres::SOLVER_CONTINUE;
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
      p_(msg);
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
  ceres::Solver::Options so;
  // The step from the normal equations (J^T J + D) dx = -J^T r by Cholesky: J is tall and
  // narrow (a sample per row, at most a few tens of columns; CompressedCost hands Ceres its
  // p + 1 rows with the same J^T J), and Ceres scales the columns to unit norm first (Jacobi
  // scaling), so the squared condition number stays far from the precision of double wherever
  // the standard errors are reported (condition numbers above 1e8 are flagged,
  // fill_statistics); the statistics use their own decomposition of J.
  so.linear_solver_type = ceres::DENSE_NORMAL_CHOLESKY;
  so.max_num_iterations = opt.max_iterations;
  so.function_tolerance = 1e-12;
  so.gradient_tolerance = 1e-14;
  so.parameter_tolerance = 1e-12;
  so.logging_type = ceres::SILENT;
  so.minimizer_progress_to_stdout = false;
  so.num_threads = 1;
  // The search box (bounds above) makes Ceres's trust-region step a projected line search by
  // default, and every line-search trial evaluates the gradient, i.e. the whole Jacobian by
  // simulation: about one extra Jacobian per iteration. With 0 trials the step is projected
  // onto the box without a search (Solver::Options::max_num_line_search_step_size_iterations).
  so.max_num_line_search_step_size_iterations = 0;
  ProgressCallback cb(progress, label, so.function_tolerance, so.max_num_iterations);
  so.callbacks.push_back(&cb);
  so.update_state_every_iteration = false;
  std::optional<ModelConvergence> model_end;
  if (compressed != nullptr) {
    model_end.emplace(*compressed, so.function_tolerance);
    so.callbacks.push_back(&*model_end);
  }
  ceres::Solver::Summary sum;
  const std::vector<std::string> solver_lines = solve_quietly(so, &problem, &sum);
  if (cb.aborted()) throw Cancelled();  // (an aborted solve's point is not a result)
  if (compressed != nullptr) compressed->finish();
  for (std::size_t j = 0; j < free.size(); ++j) {
    res.theta[static_cast<std::size_t>(free[j])] = x[j];
    const double lo = problem.GetParameterLowerBound(x.data(), static_cast<int>(j));
    const double hi = problem.GetParameterUpperBound(x.data(), static_cast<int>(j));
    const auto tf = fam.info()[static_cast<std::size_t>(free[j])].tf;
    if (tf != FitScale::nonneg && (x[j] <= lo + 1e-6 || x[j] >= hi - 1e-6))
      res.at_limit.push_back(free[j]);
  }
  res.summary.initial_cost = sum.initial_cost;
  res.summary.final_cost = sum.final_cost;
  res.summary.iterations = static_cast<int>(sum.iterations.size()) - 1;
  const bool by_model = sum.termination_type == ceres::USER_SUCCESS && model_end &&
                        !std::isnan(model_end->decrease());
  res.summary.converged = sum.termination_type == ceres::CONVERGENCE || by_model;
  res.termination =
      by_model ? "Function tolerance reached by the Gauss-Newton model: largest decrease " +
                     format_number(model_end->decrease()) +
                     " of the cost <= " + format_number(so.function_tolerance)
               : sum.message;
  for (const auto& line : solver_lines)  // what the summary's message does not say already
    if (line.find(sum.message) == std::string::npos) res.termination += "; solver: " + line;
  res.cost = std::isfinite(sum.final_cost) && sum.IsSolutionUsable()
                 ? sum.final_cost
                 : std::numeric_limits<double>::infinity();
  return res;
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
  const bool automatic = opt.starts <= 0;
  const int planned = automatic ? std::max(1, fam.default_starts()) : opt.starts;
  // `count` perturbed start points: the `count` best (by the cost at the point) of
  // kCandidates * count random perturbations of theta0 (deterministic from the seed):
  // log-parameters and non-negative ones times a log-uniform factor in [1/spread, spread],
  // unbounded ones (logits, softmax weights) plus a uniform [-1, 1].
  constexpr int kCandidates = 8;
  const auto perturbed = [&](int count) {
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
  };
  // Start 0 = theta0, then the perturbed ones, then the caller's extra start.
  std::vector<std::vector<double>> th(1, theta0);
  std::vector<std::string> origin(1, "initial guess");
  for (auto& x : perturbed(planned - 1)) {
    th.push_back(std::move(x));
    origin.emplace_back("perturbed initial guess");
  }
  if (!extra.theta.empty()) {
    th.push_back(extra.theta);
    origin.push_back(extra.origin);
  }
  std::vector<StartResult> results;
  // Solve the starts th[from..] on up to `threads` threads.
  const auto solve = [&](std::size_t from) {
    const int total = static_cast<int>(th.size());
    results.resize(th.size());
    const int nthreads =
        std::clamp(resolve_threads(opt.threads), 1, std::max(1, total - static_cast<int>(from)));
    for_each_index(th.size() - from, nthreads, [&](std::size_t i) {
      progress.check();
      const int s = static_cast<int>(from + i);
      const std::string lab =
          label + " start " + std::to_string(s + 1) + "/" + std::to_string(total);
      results[static_cast<std::size_t>(s)] =
          solve_one(fam, d, th[static_cast<std::size_t>(s)], free, opt, loss, progress, lab,
                    threads_per_solve(opt, nthreads));
      const auto& r = results[static_cast<std::size_t>(s)];
      progress(lab + ": cost " + format_number(r.summary.initial_cost) + " -> " +
               format_number(r.summary.final_cost) + " in " + std::to_string(r.summary.iterations) +
               " iterations" + (r.summary.converged ? "" : " (not converged)"));
    });
  };
  solve(0);
  // Automatic: when the data-driven starts (the initial guess and the caller's extra start)
  // have the lowest cost at a point that is not a converged optimum inside the search box, they
  // are not trusted alone; two perturbed starts follow (as starts = 3 would have run them).
  std::size_t lowest = 0;
  for (std::size_t s = 1; s < results.size(); ++s)
    if (results[s].cost < results[lowest].cost) lowest = s;
  if (automatic && planned == 1 &&
      (!results[lowest].summary.converged || !results[lowest].at_limit.empty())) {
    const std::string why =
        !results[lowest].summary.converged ? "did not converge" : "ended on its search box";
    progress(label + ": the best data-driven start " + why + "; two perturbed starts follow");
    const std::size_t from = th.size();
    for (auto& x : perturbed(2)) {
      th.push_back(std::move(x));
      origin.emplace_back("perturbed initial guess (start " + std::to_string(lowest + 1) + " " +
                          why + ")");
    }
    solve(from);
  }
  LsqRun run;
  run.best = 0;
  for (std::size_t s = 0; s < results.size(); ++s) {
    results[s].summary.origin = origin[s];
    run.starts.push_back(results[s].summary);
    if (results[s].cost < results[static_cast<std::size_t>(run.best)].cost)
      run.best = static_cast<int>(s);
  }
  const auto& b = results[static_cast<std::size_t>(run.best)];
  run.theta = b.theta;
  run.at_limit = b.at_limit;
  run.iterations = b.summary.iterations;
  run.converged = b.summary.converged;
  run.termination = b.termination;
  run.last = std::move(results[static_cast<std::size_t>(run.best)].last);
  return run;
}

namespace {

void fill_common(FitResult& r, const Family& fam, const FitData& d,
                 const std::vector<double>& theta, const std::vector<double>* residuals) {
  r.params = fam.fitted(theta.data());
  if (fam.sensorless()) r.Km = std::exp(theta[0]);
  if (residuals != nullptr) {
    r.training = metrics_of_residuals(d.y, *residuals, d.first);
  } else {
    std::vector<double> pred(static_cast<std::size_t>(d.n()));
    fam.predict(theta.data(), d, r.scheme, r.hold, pred.data());
    r.training = compute_metrics(d.y, pred, d.first);
  }
  if (const auto* lp = std::get_if<LuGre<double>::Params>(&r.params)) {
    r.passive = LuGre<double>::is_passive(*lp);
    if (!*r.passive) {
      std::vector<ParamIssue> issues;
      validation_detail::Checker c(issues);
      validation_detail::check_passivity(c, lp->sigma1, lp->sigma2, lp->curve.Fc_pos,
                                         lp->curve.Fs_pos, lp->curve.Fc_neg, lp->curve.Fs_neg);
      for (const auto& is : issues) {
        r.passivity_message += (r.passivity_message.empty() ? "" : "; ") + is.message;
      }
    }
  }
}

}  // namespace

void fill_values_only(FitResult& r, const Family& fam, const FitData& d,
                      const std::vector<double>& theta, const std::vector<int>& estimated,
                      const std::vector<double>* residuals) {
  fill_common(r, fam, d, theta, residuals);
  const auto& ui = fam.user_info();
  std::vector<double> u(ui.size());
  fam.user_values(theta.data(), u.data());
  std::vector<double> G(ui.size() * std::max<std::size_t>(estimated.size(), 1));
  fam.user_jacobian(theta.data(), estimated, G.data());
  r.parameters.clear();
  for (std::size_t q = 0; q < ui.size(); ++q) {
    ParameterEstimate e;
    e.name = ui[q].name;
    e.field = ui[q].field;
    e.unit = ui[q].unit;
    e.value = u[q];
    bool depends = false;
    for (std::size_t j = 0; j < estimated.size(); ++j)
      depends = depends || G[q * estimated.size() + j] != 0;
    e.fixed = !depends;
    e.std_error = e.fixed ? 0 : kNaN;
    e.ci_low = e.fixed ? e.value : kNaN;
    e.ci_high = e.fixed ? e.value : kNaN;
    r.parameters.push_back(e);
  }
  r.num_estimated = static_cast<int>(estimated.size());
  r.correlation.assign(ui.size(), std::vector<double>(ui.size(), kNaN));
  for (std::size_t q = 0; q < ui.size(); ++q) r.correlation[q][q] = 1;
  r.condition_number = kNaN;
  const long m = r.training.n;
  r.sigma = m > r.num_estimated
                ? std::sqrt(r.training.ssr / static_cast<double>(m - r.num_estimated))
                : kNaN;
  r.aicc = aicc(r.training.ssr, m, r.num_estimated);
  r.bic = bic(r.training.ssr, m, r.num_estimated);
}

Eigen::MatrixXd normal_matrix(const Eigen::Ref<const RowMatrix>& J, int threads) {
  constexpr Eigen::Index kRows = 4096;  // rows per block
  const Eigen::Index m = J.rows(), p = J.cols();
  const auto blocks = static_cast<std::size_t>(std::max<Eigen::Index>(1, (m + kRows - 1) / kRows));
  std::vector<Eigen::MatrixXd> part(blocks, Eigen::MatrixXd::Zero(p, p));
  for_each_index(blocks, blocks > 1 ? threads : 1, [&](std::size_t b) {
    const Eigen::Index r0 = static_cast<Eigen::Index>(b) * kRows;
    part[b].selfadjointView<Eigen::Lower>().rankUpdate(
        J.middleRows(r0, std::min(kRows, m - r0)).transpose());
  });
  Eigen::MatrixXd N = Eigen::MatrixXd::Zero(p, p);
  for (const auto& P : part) N += P;
  return N.selfadjointView<Eigen::Lower>();
}

/// Scores g_k = sum_{c < rows_per_sample} J_{k n + c}^T r_{k n + c} (n = rows_per_sample): the
/// rows of one sample summed.
Eigen::MatrixXd sample_scores(const AnyMatrix& J, const std::vector<double>& res,
                              long rows_per_sample) {
  const Eigen::Index rows = J.rows(), n = rows_per_sample;
  if (n < 1 || rows % n != 0 || static_cast<Eigen::Index>(res.size()) != rows)
    throw std::invalid_argument("sample_scores: " + std::to_string(rows) + " Jacobian rows and " +
                                std::to_string(res.size()) +
                                " residuals are not whole samples of " + std::to_string(n) +
                                " rows");
  const Eigen::Map<const Eigen::VectorXd> r(res.data(), rows);
  Eigen::MatrixXd rowwise = J.array().colwise() * r.array();
  if (n == 1) return rowwise;
  Eigen::MatrixXd g = Eigen::MatrixXd::Zero(rows / n, J.cols());
  for (Eigen::Index k = 0; k < rows; ++k) g.row(k / n) += rowwise.row(k);
  return g;
}

namespace {

/// Scores g_k[j] = data[k rs + j cs] * (scale ? scale[k] : 1), k < m, j < p: the rows of a
/// scores matrix, or a Jacobian's rows times the residuals, read in place.
struct ScoreRows {
  const double* data;
  Eigen::Index rs, cs;
  const double* scale;
  Eigen::Index m, p;
  /// out += sign g_k.
  void add(Eigen::Index k, double sign, double* out) const {
    const double f = sign * (scale != nullptr ? scale[k] : 1.0);
    const double* g = data + k * rs;
    for (Eigen::Index j = 0; j < p; ++j) out[j] += g[j * cs] * f;
  }
};

/// The Bartlett-weighted sum of the scores' lagged products,
///   S = sum_{k,j} (1 - |k - j| / W)_+ g_k g_j^T,   W = L + 1:
/// the weights are the autocorrelation of a box of width W, so
///   S = (1 / W) sum_t c_t c_t^T,   c_t = g_{t-L} + ... + g_t   (g = 0 outside 0..m-1,
///   t = 0 .. m - 1 + L):
/// every pair k, j lies in W - |k - j| windows. O((m + L) p^2) instead of O(L m p^2) for the
/// lagged products (a noise-free record's coloured residuals had L in the hundreds: 0.5 s of a
/// 0.6 s fit). The windows go in chunks of kChunk: a chunk sums its first window afresh (so that
/// rounding does not accumulate), then adds the entering and subtracts the leaving score, and
/// collects its c_t in blocks for a symmetric rank update. The chunks run on up to `threads`
/// threads; their partial sums are added in chunk order (the same S for any thread count).
Eigen::MatrixXd bartlett_sum(const ScoreRows& g, long L, int threads) {
  constexpr Eigen::Index kBlock = 256, kChunk = 4096;
  const Eigen::Index m = g.m, p = g.p, W = L + 1, windows = m + L;
  const auto chunks = static_cast<std::size_t>((windows + kChunk - 1) / kChunk);
  std::vector<Eigen::MatrixXd> partial(chunks);
  for_each_index(chunks, threads, [&](std::size_t ci) {
    const Eigen::Index t0 = static_cast<Eigen::Index>(ci) * kChunk,
                       t1 = std::min(windows, t0 + kChunk);
    Eigen::MatrixXd S = Eigen::MatrixXd::Zero(p, p);
    RowMatrix block(kBlock, p);
    std::vector<double> c(static_cast<std::size_t>(p), 0.0);
    Eigen::Index filled = 0;
    for (Eigen::Index t = t0; t < t1; ++t) {
      if (t == t0) {
        for (Eigen::Index k = std::max<Eigen::Index>(0, t - L); k <= std::min(t, m - 1); ++k)
          g.add(k, 1.0, c.data());
      } else {
        if (t < m) g.add(t, 1.0, c.data());
        if (t - W >= 0 && t - W < m) g.add(t - W, -1.0, c.data());
      }
      std::copy(c.begin(), c.end(), block.row(filled).data());
      if (++filled == kBlock || t + 1 == t1) {
        S.selfadjointView<Eigen::Lower>().rankUpdate(block.topRows(filled).transpose());
        filled = 0;
      }
    }
    partial[ci] = S;
  });
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(p, p);
  for (const auto& P : partial) S += P;
  return Eigen::MatrixXd(S.selfadjointView<Eigen::Lower>()) / static_cast<double>(W);
}

/// The Newey-West sandwich factor A S A^T, S the Bartlett-weighted sum of the scores' lagged
/// products (bartlett_sum; L < 0 as 0).
Eigen::MatrixXd hac_sandwich(const ScoreRows& g, const Eigen::Ref<const Eigen::MatrixXd>& A, long L,
                             double factor, int threads) {
  return A * bartlett_sum(g, std::max(L, 0L), threads) * A.transpose() * factor;
}

}  // namespace

Eigen::MatrixXd hac_covariance_scores(const Eigen::Ref<const Eigen::MatrixXd>& g,
                                      const Eigen::Ref<const Eigen::MatrixXd>& A, long L,
                                      double factor, int threads) {
  return hac_sandwich({g.data(), g.innerStride(), g.outerStride(), nullptr, g.rows(), g.cols()}, A,
                      L, factor, threads);
}

/// Newey-West covariance of the internal parameters: A S A with A = (J^T J)^-1 and
/// S = G0 + sum_{l=1..L} (1 - l/(L+1)) (G_l + G_l^T), G_l = sum_k g_k g_{k-l}^T, g_k = J_k^T r_k,
/// times m/(m - p) (small-sample factor). The scores are J's rows times the residuals, formed
/// as the windows need them.
Eigen::MatrixXd hac_covariance(const AnyMatrix& J, const std::vector<double>& res,
                               const Eigen::MatrixXd& A, long L, int threads) {
  const Eigen::Index m = J.rows(), p = J.cols();
  if (static_cast<Eigen::Index>(res.size()) != m)
    throw std::invalid_argument("hac_covariance: " + std::to_string(m) + " Jacobian rows and " +
                                std::to_string(res.size()) + " residuals");
  return hac_sandwich({J.data(), J.innerStride(), J.outerStride(), res.data(), m, p}, A, L,
                      static_cast<double>(m) / static_cast<double>(m - p), threads);
}

/// Bartlett bandwidth: Andrews' (1991) AR(1) plug-in from the residuals' lag-1 autocorrelation
/// rho, L = 1.1447 (alpha m)^(1/3), alpha = 4 rho^2 / ((1 - rho)^2 (1 + rho)^2), at least the
/// Newey-West rule 4 (m/100)^(2/9), at most min(m/4, 2000).
long hac_bandwidth(double rho, long m) {
  const double nw = std::floor(4 * std::pow(static_cast<double>(m) / 100.0, 2.0 / 9.0));
  double L = nw;
  if (std::isfinite(rho)) {
    const double rr = std::clamp(rho, -0.999, 0.999);
    const double alpha = 4 * rr * rr / ((1 - rr) * (1 - rr) * (1 + rr) * (1 + rr));
    L = std::max(L, std::ceil(1.1447 * std::cbrt(alpha * static_cast<double>(m))));
  }
  return static_cast<long>(std::clamp(L, 1.0, std::min(static_cast<double>(m) / 4.0, 2000.0)));
}

void flag_coloured_residuals(Reliability& rel, std::string_view of) {
  const auto& w = rel.whiteness;
  if (!strongly_coloured(rel)) return;
  rel.standard_errors = false;
  rel.reasons.push_back(
      "the residuals" + (of.empty() ? std::string() : " of the " + std::string(of)) +
      " are strongly coloured (lag-1 autocorrelation " + format_fixed(w.acf1, 3) +
      ", Ljung-Box p = " + format_number(w.ljung_box_p) + " over " + std::to_string(w.lags) +
      " lags): the white-noise standard errors understate the uncertainty" +
      (std::isfinite(rel.hac_ratio_max)
           ? " up to " + format_fixed(rel.hac_ratio_max, 1) +
                 "-fold; the HAC intervals account for it, not for model error"
           : std::string()));
}

/// Residuals farther than kOutlierScale robust standard deviations (1.4826 MAD, the normal
/// distribution's consistent scale) from their median: under Gaussian noise one in 1e23, so an
/// isolated spike (a dropped sample, a sensor glitch). Its square pulls a least-squares fit, and
/// the white-noise standard errors do not account for it: said, with the remedy. A fit with a
/// robust loss bounds their pull already: not flagged.
void flag_outliers(Reliability& rel, const std::vector<double>& res, LossKind loss) {
  constexpr double kOutlierScale = 10;
  if (loss != LossKind::none || res.size() < 20) return;
  const auto median_of = [](std::vector<double> v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  };
  const double med = median_of(res);
  std::vector<double> dev(res.size());
  for (std::size_t k = 0; k < res.size(); ++k) dev[k] = std::abs(res[k] - med);
  const double scale = 1.4826 * median_of(dev);
  if (!(scale > 0)) return;
  std::size_t count = 0;
  double largest = 0;
  for (double a : dev)
    if (a > kOutlierScale * scale) {
      ++count;
      largest = std::max(largest, a);
    }
  if (count == 0) return;
  rel.outliers = static_cast<long>(count);
  rel.standard_errors = false;
  rel.reasons.push_back(std::to_string(count) + " of " + std::to_string(res.size()) +
                        " residuals are outliers (beyond " + format_number(kOutlierScale) +
                        " robust standard deviations of " + format_number(scale) +
                        ", the largest " + format_number(largest / scale) +
                        "): a spike pulls a least-squares fit and "
                        "its standard errors do not account for it; a robust loss bounds its pull "
                        "(--loss huber; Python loss='huber')");
}

/// The signature of the other input hold in the residuals (docs/identification.md, "Input
/// hold"). With delta_k = pred_other_k - pred_k the change of the fitted model's prediction when
/// its input is taken the other way between samples (held instead of linear, or the reverse), a
/// record made the other way has residuals r_k ~ delta_k - J dtheta: the part of delta that the
/// parameters cannot absorb, delta_perp = (I - J (J^T J)^-1 J^T) delta (the residuals are
/// orthogonal to the columns of J at the optimum). So the slope beta = r.delta_perp /
/// |delta_perp|^2 is near 1 and the share of the residuals' sum of squares it explains, R2 =
/// (r.delta_perp)^2 / (|r|^2 |delta_perp|^2), is large; for a record made the fitted way beta
/// is near 0 (noise, R2 ~ 1/N). Said when kOtherHoldSlope[0] <= beta <= kOtherHoldSlope[1] and
/// R2 >= kOtherHoldShare. A model without a state has delta = 0, a robust loss other residuals:
/// nothing to say. JtJ_inv: (J^T J)^-1 of the free internal parameters.
void flag_other_hold(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const Eigen::Ref<const RowMatrix>& J,
                     const std::vector<double>& res, const Eigen::MatrixXd& JtJ_inv,
                     LossKind loss) {
  constexpr double kOtherHoldSlope[2] = {0.5, 2.0};
  constexpr double kOtherHoldShare = 0.25;
  if (loss != LossKind::none) return;
  const Hold other = d.hold == Hold::zoh ? Hold::linear : Hold::zoh;
  std::vector<double> pred_other(static_cast<std::size_t>(d.n()));
  fam.predict(theta.data(), d, Method::exact, other, pred_other.data());
  const long m = d.m();
  const Eigen::Map<const Eigen::VectorXd> rv(res.data(), m);
  Eigen::VectorXd delta(m);
  for (long i = 0; i < m; ++i) {
    const auto k = static_cast<std::size_t>(d.first + i);
    delta(i) = pred_other[k] - (d.y[k] - rv(i));  // the prediction is y - r
  }
  const Eigen::VectorXd perp = delta - J * (JtJ_inv * (J.transpose() * delta));
  const double rd = rv.dot(perp), dd = perp.squaredNorm(), rr = rv.squaredNorm();
  if (!(dd > 0) || !(rr > 0) || !std::isfinite(rd)) return;
  const double beta = rd / dd, r2 = rd * rd / (rr * dd);
  if (!(beta >= kOtherHoldSlope[0] && beta <= kOtherHoldSlope[1] && r2 >= kOtherHoldShare)) return;
  auto& rel = r.reliability;
  rel.standard_errors = false;
  rel.reasons.push_back(
      std::string("the residuals follow the change of the prediction with the input ") +
      (other == Hold::zoh ? "held between samples" : "linear between samples") + " (slope " +
      format_fixed(beta, 2) + ", " + format_fixed(100 * r2, 0) +
      " % of the residuals' sum of squares): " +
      (other == Hold::zoh
           ? "the record's velocity was likely held between samples (a digital controller's or "
             "DAC's output); fit with --hold zoh (Python hold='zoh')"
           : "the record's velocity likely changes smoothly between samples; fit with --hold "
             "linear (Python hold='linear')"));
}

void fill_statistics(FitResult& r, const Family& fam, const FitData& d,
                     const std::vector<double>& theta, const std::vector<int>& free,
                     const Robust& loss, const std::vector<int>& at_limit, int threads,
                     Linearisation* known, const AtOptimum& at_values) {
  threads = resolve_threads(threads);
  const auto p = static_cast<long>(free.size());
  const long m = d.m();
  // Residuals and Jacobian (w.r.t. the free internal parameters) at the optimum: the solver's
  // own last evaluation when it was made there (the same cost, bit for bit the same x).
  std::vector<double> x(static_cast<std::size_t>(p));
  for (long j = 0; j < p; ++j)
    x[static_cast<std::size_t>(j)] =
        theta[static_cast<std::size_t>(free[static_cast<std::size_t>(j)])];
  std::vector<double> res, jac;
  Eigen::MatrixXd normal;  // J^T J when the solver's evaluation computed it
  bool evaluated = true;
  if (p == 0) {
    evaluated = false;
  } else if (known != nullptr && known->x == x &&
             known->residuals.size() == static_cast<std::size_t>(m) &&
             known->jacobian.size() == static_cast<std::size_t>(m * p)) {
    res = std::move(known->residuals);  // taken, not copied (a long record's Jacobian is large)
    jac = std::move(known->jacobian);
    normal = std::move(known->normal);
    known->x.clear();
  } else {
    const auto cost = fam.make_cost(d, theta, free, loss, threads);
    res.resize(static_cast<std::size_t>(m));
    jac.resize(static_cast<std::size_t>(m * p));
    const double* params[1] = {x.data()};
    double* jacs[1] = {jac.data()};
    evaluated = cost->Evaluate(params, res.data(), jacs);
  }
  // Without a robust loss the residuals are y - prediction: the training metrics need no
  // simulation of their own.
  fill_values_only(r, fam, d, theta, free,
                   evaluated && loss.kind == LossKind::none ? &res : nullptr);
  if (at_values) {
    // The prediction from the residuals (y - prediction) where they are those of every sample.
    std::vector<double> prediction;
    if (evaluated && loss.kind == LossKind::none && d.first == 0) {
      prediction.resize(static_cast<std::size_t>(m));
      for (std::size_t k = 0; k < prediction.size(); ++k) prediction[k] = d.y[k] - res[k];
    }
    at_values(r, prediction);
  }
  auto& rel = r.reliability;
  const auto unreliable = [&](const std::string& why) {
    rel.standard_errors = false;
    rel.reasons.push_back(why);
  };
  if (!r.converged && !r.starts.empty()) unreliable("the solver stopped without convergence");
  for (std::size_t q = 0; q < fam.user_info().size(); ++q) {
    const int ii = fam.user_info()[q].internal;
    for (int j : at_limit) {
      if (ii != j) continue;
      auto& e = r.parameters[q];
      e.at_limit = true;
      unreliable("parameter " + e.name + " ended at the edge of its search region (" +
                 (fam.info()[static_cast<std::size_t>(j)].tf == FitScale::log
                      ? "a factor 1e6 from its start"
                      : "a logit or weight of +-30") +
                 "): the record does not determine it");
    }
  }
  if (p == 0) return;
  if (!evaluated) {
    r.warnings.push_back("the Jacobian at the optimum is not finite: no standard errors");
    unreliable("the Jacobian at the optimum is not finite");
    return;
  }
  rel.whiteness = residual_whiteness(res);
  flag_outliers(rel, res, loss.kind);
  const Eigen::Map<const RowMatrix> J(jac.data(), m, p);
  double ssr = 0;
  for (double e : res) ssr += e * e;
  const long dof = m - p;
  if (dof <= 0) {
    r.warnings.push_back("no degrees of freedom left (N <= p): no standard errors");
    return;
  }
  // J^T J as the solver's evaluation computed it, or straight from the row-major Jacobian (no
  // column-major or scaled copy of J).
  if (normal.rows() != p || normal.cols() != p) normal = normal_matrix(J, threads);
  const LinearCovariance lc = linear_covariance_normal(normal, ssr, m);
  const double s2 = lc.s2;
  r.sigma = std::sqrt(s2);
  r.condition_number = lc.condition_number;
  std::vector<std::string> dead;
  for (long j : lc.dead)
    dead.push_back(fam.info()[static_cast<std::size_t>(free[static_cast<std::size_t>(j)])].name);
  if (!dead.empty()) {
    r.warnings.push_back(
        "parameters with no effect on the prediction (not identifiable from this record): " +
        join_list(dead));
  }
  if (lc.singular) {
    r.warnings.push_back("J^T J is singular at the optimum (condition number " +
                         format_number(r.condition_number) + "): no standard errors");
    unreliable("the information matrix J^T J is singular: some parameters are not determined");
    return;
  }
  if (r.condition_number > 1e10)
    r.warnings.push_back("J^T J is ill-conditioned (condition number " +
                         format_number(r.condition_number) +
                         "): parameters strongly correlated, standard errors large");
  if (r.condition_number > 1e8)
    unreliable("the information matrix J^T J is nearly singular (condition number " +
               format_number(r.condition_number) + " > 1e8): the linearised intervals do not hold");
  const Eigen::MatrixXd& cov_theta = lc.cov;
  // Delta method: Cov_user = G Cov_theta G^T, G = d user / d theta_free.
  const auto q = static_cast<long>(fam.user_info().size());
  std::vector<double> Gv(static_cast<std::size_t>(q * p));
  fam.user_jacobian(theta.data(), free, Gv.data());
  const Eigen::Map<const RowMatrix> G(Gv.data(), q, p);
  const Eigen::MatrixXd cov = G * cov_theta * G.transpose();
  const double tq = student_t_quantile(0.975, static_cast<double>(dof));
  rel.hac_lags = static_cast<int>(hac_bandwidth(rel.whiteness.acf1, m));
  const Eigen::MatrixXd cov_hac =
      G * hac_covariance(J, res, cov_theta / s2, rel.hac_lags, threads) * G.transpose();
  for (long a = 0; a < q; ++a) {
    auto& e = r.parameters[static_cast<std::size_t>(a)];
    if (e.fixed) continue;
    const int ii = fam.user_info()[static_cast<std::size_t>(a)].internal;
    if (ii >= 0 && fam.info()[static_cast<std::size_t>(ii)].tf == FitScale::nonneg &&
        theta[static_cast<std::size_t>(ii)] <= 0) {
      e.at_bound = true;
      e.std_error = kNaN;
      e.ci_low = e.ci_high = kNaN;
      continue;
    }
    e.std_error = std::sqrt(std::max(cov(a, a), 0.0));
    e.ci_low = e.value - tq * e.std_error;
    e.ci_high = e.value + tq * e.std_error;
    e.hac_std_error = std::sqrt(std::max(cov_hac(a, a), 0.0));
    e.hac_ci_low = e.value - tq * e.hac_std_error;
    e.hac_ci_high = e.value + tq * e.hac_std_error;
    if (e.std_error > 0) {
      const double ratio = e.hac_std_error / e.std_error;
      if (!(ratio <= rel.hac_ratio_max)) rel.hac_ratio_max = ratio;
    }
  }
  flag_coloured_residuals(rel);
  flag_other_hold(r, fam, d, theta, J, res, cov_theta / s2, loss.kind);
  for (long a = 0; a < q; ++a) {
    for (long b = 0; b < q; ++b) {
      auto& c = r.correlation[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      const auto& ea = r.parameters[static_cast<std::size_t>(a)];
      const auto& eb = r.parameters[static_cast<std::size_t>(b)];
      if (a == b) {
        c = 1;
      } else if (ea.fixed || eb.fixed) {
        c = 0;
      } else {
        const double den = std::sqrt(cov(a, a) * cov(b, b));
        c = den > 0 ? cov(a, b) / den : kNaN;
      }
    }
  }
}

namespace {

/// The part both forms share: from the column-scaled normal matrix N = Js^T Js and the column
/// norms cn (1 for the dead columns, already in out.dead), the condition number, singularity
/// and cov = s2 D^-1 N^-1 D^-1.
LinearCovariance finish_covariance(LinearCovariance out, const Eigen::MatrixXd& N,
                                   const Eigen::VectorXd& cn) {
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(N);
  const Eigen::VectorXd& lam = es.eigenvalues();
  const double lmax = lam.maxCoeff(), lmin = lam.minCoeff();
  out.condition_number = lmin > 0 ? lmax / lmin : std::numeric_limits<double>::infinity();
  out.singular = !out.dead.empty() || !(lmin > 1e-14 * lmax);
  if (out.singular) return out;
  const Eigen::MatrixXd Ninv =
      es.eigenvectors() * lam.cwiseInverse().asDiagonal() * es.eigenvectors().transpose();
  const Eigen::MatrixXd Dinv = cn.cwiseInverse().asDiagonal();
  out.cov = out.s2 * Dinv * Ninv * Dinv;
  return out;
}

/// Marks the columns of norm 0 as dead (their norm set to 1 for the scaling).
void mark_dead(LinearCovariance& out, Eigen::VectorXd& cn) {
  for (Eigen::Index j = 0; j < cn.size(); ++j) {
    if (!(cn(j) > 0)) {
      out.dead.push_back(static_cast<long>(j));
      cn(j) = 1;
    }
  }
}

}  // namespace

LinearCovariance linear_covariance_normal(const Eigen::Ref<const Eigen::MatrixXd>& JtJ, double ssr,
                                          Eigen::Index m) {
  LinearCovariance out;
  out.s2 = ssr / static_cast<double>(m - JtJ.cols());
  Eigen::VectorXd cn = JtJ.diagonal().cwiseMax(0.0).cwiseSqrt();
  mark_dead(out, cn);
  const Eigen::VectorXd inv = cn.cwiseInverse();
  return finish_covariance(std::move(out), inv.asDiagonal() * JtJ * inv.asDiagonal(), cn);
}

}  // namespace frictionlab::identify::detail
