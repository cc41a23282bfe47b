// frictionlab identify: SR3 with an l0 penalty and Newton-Raphson on nonlinear library
// parameters (include/frictionlab/identify/sr3.hpp; reference 004 sec. 3.2).
#include "frictionlab/identify/sr3.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace frictionlab::identify {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

void Sr3Library::apply(const VectorXd& alpha, const VectorXd& xi, VectorXd& value, MatrixXd* d1,
                       MatrixXd* d2) const {
  if (num_alpha() != 0 && (d1 != nullptr || d2 != nullptr))
    throw std::logic_error(
        "Sr3Library::apply: a library with nonlinear parameters must "
        "provide its derivatives");
  MatrixXd theta(rows(), cols());
  evaluate(alpha, theta, false);
  value.noalias() = theta * xi;
}

VectorXd Sr3Library::alpha_lower() const {
  return VectorXd::Constant(num_alpha(), -std::numeric_limits<double>::infinity());
}

VectorXd Sr3Library::alpha_upper() const {
  return VectorXd::Constant(num_alpha(), std::numeric_limits<double>::infinity());
}

int Sr3Result::num_active() const {
  return static_cast<int>(std::count(active.begin(), active.end(), true));
}

VectorXd least_squares_on(const MatrixXd& theta, const VectorXd& y, const std::vector<bool>& use) {
  const Index r = theta.cols();
  VectorXd xi = VectorXd::Zero(r);
  std::vector<Index> idx;
  for (Index j = 0; j < r; ++j)
    if (use[static_cast<std::size_t>(j)]) idx.push_back(j);
  if (idx.empty()) return xi;
  const auto k = static_cast<Index>(idx.size());
  // A per-thread workspace, decomposed in place: on a long record (25 000 x 12) a fresh n x k
  // matrix per call made allocation and page faults half of the run time.
  thread_local MatrixXd work;
  if (work.rows() != theta.rows() || work.cols() < k) work.resize(theta.rows(), std::max(k, r));
  Eigen::Ref<MatrixXd> ts = work.leftCols(k);
  VectorXd norms(k);
  for (Index i = 0; i < k; ++i) {
    const Index j = idx[static_cast<std::size_t>(i)];
    norms(i) = theta.col(j).norm();
    if (!(norms(i) > 0)) norms(i) = 1;
    ts.col(i) = theta.col(j) / norms(i);
  }
  const Eigen::ColPivHouseholderQR<Eigen::Ref<MatrixXd>> qr(ts);
  const VectorXd c = qr.solve(y);
  for (Index i = 0; i < k; ++i) xi(idx[static_cast<std::size_t>(i)]) = c(i) / norms(i);
  return xi;
}

namespace {

double inf_norm(const VectorXd& v) { return v.size() == 0 ? 0.0 : v.lpNorm<Eigen::Infinity>(); }

/// The scaled normal equations on the non-degenerate columns.
struct ScaledSystem {
  std::vector<Index> use;  // library column of each scaled unknown
  VectorXd d;              // scale of every library column: xi_s = xi * d (0 if degenerate)
  MatrixXd A;              // Theta_s^T Theta_s on `use`
  VectorXd b;              // Theta_s^T y_s on `use`
};

ScaledSystem scale_system(const MatrixXd& G, const VectorXd& c, double y_norm, bool normalize,
                          double degenerate, std::vector<bool>& degenerate_out) {
  const Index r = G.rows();
  ScaledSystem s;
  s.d = VectorXd::Zero(r);
  for (Index j = 0; j < r; ++j) {
    const double norm = std::sqrt(std::max(G(j, j), 0.0));
    const bool deg = !(norm > degenerate * y_norm);
    degenerate_out[static_cast<std::size_t>(j)] = deg;
    if (deg) continue;
    s.use.push_back(j);
    s.d(j) = normalize ? norm / y_norm : 1.0;
  }
  const Index m = static_cast<Index>(s.use.size());
  s.A.resize(m, m);
  s.b.resize(m);
  const double ys = normalize ? y_norm : 1.0;
  for (Index a = 0; a < m; ++a) {
    const Index i = s.use[static_cast<std::size_t>(a)];
    const double di = normalize ? s.d(i) * y_norm : 1.0;  // ||theta_i|| (or 1)
    s.b(a) = c(i) / (di * ys);
    for (Index bb = 0; bb < m; ++bb) {
      const Index j = s.use[static_cast<std::size_t>(bb)];
      const double dj = normalize ? s.d(j) * y_norm : 1.0;
      s.A(a, bb) = G(i, j) / (di * dj);
    }
  }
  return s;
}

/// Hard threshold (prox of nu*lambda*l0) with protected entries.
VectorXd prox_l0(const VectorXd& xi, double threshold, const std::vector<bool>& prot) {
  VectorXd w = xi;
  for (Index a = 0; a < xi.size(); ++a)
    if (!prot[static_cast<std::size_t>(a)] && std::abs(xi(a)) < threshold) w(a) = 0;
  return w;
}

bool same_support(const VectorXd& a, const VectorXd& b) {
  for (Index i = 0; i < a.size(); ++i)
    if ((a(i) != 0) != (b(i) != 0)) return false;
  return true;
}

struct LoopOutcome {
  VectorXd xi_s, w_s;
  int iterations = 0;
  bool converged = false;
};

/// Steps 2-4 of 04_* sec. 3.2 at a fixed alpha, in scaled unknowns.
LoopOutcome xi_w_loop(const ScaledSystem& s, VectorXd w, const std::vector<bool>& prot,
                      const Sr3Options& opt, int round, const VectorXd& unscale_all,
                      std::vector<Sr3Iterate>* trace, Index r) {
  const Index m = s.b.size();
  const double inv_nu = 1.0 / opt.nu;
  const double threshold = std::sqrt(2.0 * opt.nu * opt.lambda);
  MatrixXd M = s.A;
  M.diagonal().array() += inv_nu;
  const Eigen::LLT<MatrixXd> llt(M);
  if (llt.info() != Eigen::Success)
    throw std::runtime_error("sr3: A + I/nu is not positive definite (non-finite library?)");
  LoopOutcome out;
  VectorXd xi = VectorXd::Zero(m);
  const auto to_raw = [&](const VectorXd& v) {
    VectorXd raw = VectorXd::Zero(r);
    for (Index a = 0; a < m; ++a) {
      const Index j = s.use[static_cast<std::size_t>(a)];
      raw(j) = v(a) / unscale_all(j);
    }
    return raw;
  };
  int stable = 0;
  for (int k = 0; k < opt.max_iterations; ++k) {
    VectorXd xi_new = llt.solve(s.b + w * inv_nu);
    VectorXd w_new = prox_l0(xi_new, threshold, prot);
    ++out.iterations;
    const double dw = inf_norm(w_new - w);
    const double dx = inf_norm(xi_new - xi);
    stable = same_support(w_new, w) ? stable + 1 : 0;
    xi = std::move(xi_new);
    w = std::move(w_new);
    if (trace != nullptr) trace->push_back({round, to_raw(xi), to_raw(w), false});
    if (dw <= opt.tolerance && dx <= opt.tolerance) {
      out.converged = true;
      break;
    }
    if (opt.accelerate && stable >= opt.accelerate_after) {
      // Fixed point of eq. 10 for the current support S: (A + P_N/nu) xi = b, W = P_S xi.
      MatrixXd F = s.A;
      for (Index a = 0; a < m; ++a)
        if (w(a) == 0) F(a, a) += inv_nu;
      const Eigen::LDLT<MatrixXd> ldlt(F);
      stable = 0;
      if (ldlt.info() != Eigen::Success) continue;
      VectorXd xj = ldlt.solve(s.b);
      if (!xj.allFinite()) continue;
      VectorXd wj = prox_l0(xj, threshold, prot);
      if (!same_support(wj, w)) continue;
      // Consistent: W = P_S xi with the prox reproducing S. Check eq. 10 holds to rounding.
      const VectorXd resid = M * xj - (s.b + wj * inv_nu);
      if (inf_norm(resid) > 1e-9 * std::max(1.0, inf_norm(s.b) + inf_norm(wj) * inv_nu)) continue;
      xi = std::move(xj);
      w = std::move(wj);
      if (trace != nullptr) trace->push_back({round, to_raw(xi), to_raw(w), true});
      out.converged = true;
      break;
    }
  }
  out.xi_s = std::move(xi);
  out.w_s = std::move(w);
  return out;
}

struct NewtonOutcome {
  VectorXd alpha;
  int iterations = 0;
  double e = 0;  // min_c ||Theta_S(alpha) c - y||^2 at the returned alpha
};

/// Step 5 of 04_* sec. 3.2 for the support `use` (variable projection, see the header): the
/// coefficients are the least-squares ones on the support at every alpha, so E(alpha) =
/// min_c ||Theta_S(alpha) c - y||^2; its gradient is eq. 12's g with xi = c (envelope theorem),
/// and eq. 12's H (without the coupling of c and alpha) gives the Newton step, safeguarded by
/// the step limit, the bounds and halving until E decreases. `theta` holds Theta(alpha) on entry
/// and Theta(returned alpha) on exit.
NewtonOutcome newton_alpha(const Sr3Library& lib, const VectorXd& y, const std::vector<bool>& use,
                           VectorXd alpha, MatrixXd& theta, const Sr3Options& opt) {
  const Index na = lib.num_alpha();
  const VectorXd lo = lib.alpha_lower();
  const VectorXd hi = lib.alpha_upper();
  NewtonOutcome out;
  bool any = false;
  for (Index j = 0; j < lib.cols(); ++j)
    any = any || (use[static_cast<std::size_t>(j)] && lib.depends_on_alpha(j));
  VectorXd c = least_squares_on(theta, y, use);
  double e0 = (theta * c - y).squaredNorm();
  if (!any) {  // no active column depends on alpha: E does not either
    out.alpha = std::move(alpha);
    out.e = e0;
    return out;
  }
  VectorXd value;
  // trial, trial2: the library at trial alphas. Their alpha-independent columns equal theta's
  // and never change, so one copy each suffices (evaluate then rewrites the alpha columns).
  MatrixXd d1, d2, trial = theta, trial2 = theta;
  for (int it = 0; it < opt.max_newton_iterations; ++it) {
    lib.apply(alpha, c, value, &d1, &d2);
    const VectorXd res = value - y;
    const VectorXd g = d1.transpose() * res;  // eq. 12, g_i
    MatrixXd H = d1.transpose() * d1;         // eq. 12, second sum
    MatrixXd H2 = H;
    for (Index i = 0; i < na; ++i)
      for (Index j = 0; j < na; ++j) H2(i, j) += d2.col(i * na + j).dot(res);  // first sum
    VectorXd step;
    const Eigen::LLT<MatrixXd> full(H2);
    if (full.info() == Eigen::Success) {
      step = -full.solve(g);
    } else {
      const Eigen::LLT<MatrixXd> gn(H);
      if (gn.info() != Eigen::Success) break;
      step = -gn.solve(g);
    }
    if (!step.allFinite()) break;
    const double sn = inf_norm(step);
    if (sn > opt.max_newton_step) step *= opt.max_newton_step / sn;
    for (Index i = 0; i < na; ++i)
      step(i) = std::clamp(alpha(i) + step(i), lo(i), hi(i)) - alpha(i);
    // Converged: a step at or below the tolerance, or a decrease of E predicted by the quadratic
    // model below rounding level.
    if (inf_norm(step) <= opt.newton_tolerance) break;
    const double predicted = -2.0 * g.dot(step) - step.dot(H2 * step);
    if (predicted <= opt.newton_rel_decrease * e0) break;
    bool accepted = false;
    double e1 = e0;
    VectorXd c1;
    for (int h = 0; h < 10 && inf_norm(step) > opt.newton_tolerance; ++h) {
      lib.evaluate(alpha + step, trial, true);
      c1 = least_squares_on(trial, y, use);
      e1 = (trial * c1 - y).squaredNorm();
      if (e1 < e0 && std::isfinite(e1)) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    ++out.iterations;
    if (!accepted) break;
    // Expansion: eq. 12's H ignores that c follows alpha, so it overestimates the curvature of
    // the projected E and its steps fall short; double the step while E keeps decreasing.
    for (int h = 0; h < 10; ++h) {
      VectorXd longer = 2.0 * step;
      if (inf_norm(longer) > opt.max_newton_step) break;
      bool inside = true;
      for (Index i = 0; i < na; ++i)
        inside = inside && alpha(i) + longer(i) >= lo(i) && alpha(i) + longer(i) <= hi(i);
      if (!inside) break;
      lib.evaluate(alpha + longer, trial2, true);
      VectorXd c2 = least_squares_on(trial2, y, use);
      const double e2 = (trial2 * c2 - y).squaredNorm();
      if (!(e2 < e1)) break;
      step = std::move(longer);
      e1 = e2;
      c1 = std::move(c2);
      trial.swap(trial2);
    }
    alpha += step;
    theta.swap(trial);
    c = std::move(c1);
    const double decrease = e0 - e1;
    e0 = e1;
    if (inf_norm(step) <= opt.newton_tolerance || decrease <= opt.newton_rel_decrease * e0) break;
  }
  out.alpha = std::move(alpha);
  out.e = e0;
  return out;
}

void check_inputs(const Sr3Library& lib, const VectorXd& y, const Sr3Options& opt,
                  const Sr3Start& start) {
  const auto fail = [](const std::string& m) { throw std::invalid_argument("sr3: " + m); };
  if (y.size() != lib.rows())
    fail("y has " + std::to_string(y.size()) + " rows, the library " + std::to_string(lib.rows()));
  if (lib.cols() == 0) fail("the library has no columns");
  if (!y.allFinite()) fail("y has non-finite values");
  if (!(y.norm() > 0)) fail("y is zero");
  if (!(opt.nu > 0) || !std::isfinite(opt.nu)) fail("nu must be finite and > 0");
  if (!(opt.lambda >= 0) || !std::isfinite(opt.lambda)) fail("lambda must be finite and >= 0");
  if (!(opt.newton_rel_decrease >= 0) || !std::isfinite(opt.newton_rel_decrease))
    fail("newton_rel_decrease must be finite and >= 0");
  if (!opt.protect.empty() && static_cast<Index>(opt.protect.size()) != lib.cols())
    fail("protect has " + std::to_string(opt.protect.size()) + " entries, the library " +
         std::to_string(lib.cols()) + " columns");
  if (start.alpha.size() != lib.num_alpha())
    fail("start alpha has " + std::to_string(start.alpha.size()) + " entries, the library " +
         std::to_string(lib.num_alpha()) + " nonlinear parameters");
  if (start.W.size() != 0 && start.W.size() != lib.cols())
    fail("start W has " + std::to_string(start.W.size()) + " entries, the library " +
         std::to_string(lib.cols()) + " columns");
  if (opt.max_iterations < 1 || opt.max_alpha_rounds < 1)
    fail("max_iterations and max_alpha_rounds must be >= 1");
}

/// One run of sr3(): the library at the current alpha with its Gram matrix, the xi and W
/// iterates (raw units) and the rounds visited. run() alternates the xi/W loop at fixed alpha
/// (steps 2-4 of 04_* sec. 3.2) with Newton on alpha (step 5) until alpha settles, a round
/// repeats (a cycle) or the rounds run out; each step is a method.
class Sr3Rounds {
 public:
  Sr3Rounds(const Sr3Library& lib, const VectorXd& y, const Sr3Options& opt, const Sr3Start& start,
            std::vector<Sr3Iterate>* trace)
      : lib_(lib), y_(y), opt_(opt), trace_(trace), r_(lib.cols()) {
    for (Index j = 0; j < r_; ++j)
      if (lib.depends_on_alpha(j)) alpha_cols_.push_back(j);
    res_.alpha = start.alpha;
    res_.y_norm = y.norm();
    res_.degenerate.assign(static_cast<std::size_t>(r_), false);
    theta_.resize(lib.rows(), r_);
    lib.evaluate(res_.alpha, theta_, false);
    if (!theta_.allFinite()) throw std::invalid_argument("sr3: the library has non-finite values");
    G_ = theta_.transpose() * theta_;
    c_ = theta_.transpose() * y;
    prot_all_ = opt.protect;
    if (prot_all_.empty()) prot_all_.assign(static_cast<std::size_t>(r_), false);
    w_raw_ = start.W.size() == r_ ? start.W : VectorXd::Zero(r_);
    xi_raw_ = w_raw_;
    alpha_converged_ = lib.num_alpha() == 0;
  }

  Sr3Result run() {
    for (int round = 0; round < opt_.max_alpha_rounds; ++round) {
      ++res_.alpha_rounds;
      solve_coefficients(round);
      if (lib_.num_alpha() == 0) break;
      // Step 5 on the support of W (plus protected columns), coefficients re-solved by least
      // squares at every trial alpha (see the header).
      const std::vector<bool> support = active_columns();
      if (end_on_cycle(support) || newton_step(support)) {
        alpha_converged_ = true;
        break;
      }
    }
    return finish();
  }

 private:
  /// A round's state before its Newton step, and the cost 1/2 E / ||y||^2 + lambda k after it.
  struct Visited {
    std::vector<bool> support;
    VectorXd alpha_before, alpha_after, w, xi;
    double cost;
  };

  /// Steps 2-4 at the current alpha: xi and W of the xi/W loop, or with lambda = 0 the
  /// least-squares solution (prox = identity: the fixed point of eq. 10).
  void solve_coefficients(int round) {
    const ScaledSystem s =
        scale_system(G_, c_, res_.y_norm, opt_.normalize, opt_.degenerate_column, res_.degenerate);
    const Index m = static_cast<Index>(s.use.size());
    if (opt_.lambda == 0) {
      std::vector<bool> use(static_cast<std::size_t>(r_), false);
      for (const Index j : s.use) use[static_cast<std::size_t>(j)] = true;
      xi_raw_ = least_squares_on(theta_, y_, use);
      w_raw_ = xi_raw_;
      if (trace_ != nullptr) trace_->push_back({round, xi_raw_, w_raw_, false});
      return;
    }
    VectorXd w_s(m);
    std::vector<bool> prot(static_cast<std::size_t>(m));
    for (Index a = 0; a < m; ++a) {
      const Index j = s.use[static_cast<std::size_t>(a)];
      w_s(a) = w_raw_(j) * s.d(j);
      prot[static_cast<std::size_t>(a)] = prot_all_[static_cast<std::size_t>(j)];
    }
    const LoopOutcome lo = xi_w_loop(s, w_s, prot, opt_, round, s.d, trace_, r_);
    res_.iterations += lo.iterations;
    all_converged_ = all_converged_ && lo.converged;
    xi_raw_.setZero();
    w_raw_.setZero();
    for (Index a = 0; a < m; ++a) {
      const Index j = s.use[static_cast<std::size_t>(a)];
      xi_raw_(j) = lo.xi_s(a) / s.d(j);
      w_raw_(j) = lo.w_s(a) / s.d(j);
    }
  }

  /// The support of W plus the protected columns, without the degenerate ones.
  std::vector<bool> active_columns() const {
    std::vector<bool> active(static_cast<std::size_t>(r_), false);
    for (Index j = 0; j < r_; ++j) {
      const auto u = static_cast<std::size_t>(j);
      active[u] = !res_.degenerate[u] && (w_raw_(j) != 0 || prot_all_[u]);
    }
    return active;
  }

  /// A repeated state (same support, alpha within alpha_tolerance) means the alternation has
  /// entered a cycle (the threshold keeps support A at the optimum alpha of support B and vice
  /// versa): it stops at the member with the lowest cost (see the header). Whether it did.
  bool end_on_cycle(const std::vector<bool>& support) {
    std::size_t repeat = visited_.size();
    for (std::size_t v = 0; v < visited_.size(); ++v)
      if (visited_[v].support == support &&
          inf_norm(visited_[v].alpha_before - res_.alpha) <= opt_.alpha_tolerance)
        repeat = v;
    if (repeat == visited_.size()) return false;
    std::size_t best = repeat;
    for (std::size_t v = repeat; v < visited_.size(); ++v)
      if (visited_[v].cost < visited_[best].cost) best = v;
    const double moved = inf_norm(visited_[best].alpha_after - res_.alpha);
    res_.alpha = visited_[best].alpha_after;
    w_raw_ = visited_[best].w;
    xi_raw_ = visited_[best].xi;
    if (moved > 0) {
      lib_.evaluate(res_.alpha, theta_, true);
      update_gram();
    }
    res_.cycled = true;
    return true;
  }

  /// Step 5: Newton on alpha for the support; whether alpha moved by at most alpha_tolerance.
  bool newton_step(const std::vector<bool>& support) {
    const NewtonOutcome nt = newton_alpha(lib_, y_, support, res_.alpha, theta_, opt_);
    res_.newton_iterations += nt.iterations;
    int k = 0;
    for (const bool b : support) k += b ? 1 : 0;
    const double scale2 = opt_.normalize ? res_.y_norm * res_.y_norm : 1.0;
    visited_.push_back(
        {support, res_.alpha, nt.alpha, w_raw_, xi_raw_, 0.5 * nt.e / scale2 + opt_.lambda * k});
    const double moved = inf_norm(nt.alpha - res_.alpha);
    res_.alpha = nt.alpha;
    if (moved > 0) {
      if (!theta_.allFinite())
        throw std::invalid_argument("sr3: the library has non-finite values at the new alpha");
      update_gram();
    }
    return moved <= opt_.alpha_tolerance;
  }

  /// G and c in the columns that depend on alpha, after theta_ moved with it.
  void update_gram() {
    if (alpha_cols_.empty()) return;
    MatrixXd ta(theta_.rows(), static_cast<Index>(alpha_cols_.size()));
    for (std::size_t a = 0; a < alpha_cols_.size(); ++a)
      ta.col(static_cast<Index>(a)) = theta_.col(alpha_cols_[a]);
    const MatrixXd ga = theta_.transpose() * ta;
    const VectorXd ca = ta.transpose() * y_;
    for (std::size_t a = 0; a < alpha_cols_.size(); ++a) {
      const Index j = alpha_cols_[a];
      G_.col(j) = ga.col(static_cast<Index>(a));
      G_.row(j) = ga.col(static_cast<Index>(a)).transpose();
      c_(j) = ca(static_cast<Index>(a));
    }
  }

  /// The degenerate flags and the scale at the final alpha, the active columns, and xi (debiased
  /// by least squares on them when asked) with its residual sum of squares.
  Sr3Result finish() {
    const ScaledSystem s =
        scale_system(G_, c_, res_.y_norm, opt_.normalize, opt_.degenerate_column, res_.degenerate);
    res_.active = active_columns();
    for (Index j = 0; j < r_; ++j) {
      if (res_.degenerate[static_cast<std::size_t>(j)]) {
        w_raw_(j) = 0;
        xi_raw_(j) = 0;
      }
    }
    res_.xi_relaxed = xi_raw_;
    res_.W = w_raw_;
    res_.xi = opt_.debias ? least_squares_on(theta_, y_, res_.active) : w_raw_;
    res_.rss = (theta_ * res_.xi - y_).squaredNorm();
    res_.scale = s.d;
    res_.converged = all_converged_ && alpha_converged_;
    return res_;
  }

  const Sr3Library& lib_;
  const VectorXd& y_;
  const Sr3Options& opt_;
  std::vector<Sr3Iterate>* trace_;
  const Index r_;                  ///< library columns
  std::vector<Index> alpha_cols_;  ///< the columns that depend on alpha
  Sr3Result res_;                  ///< alpha and the counters as the rounds go
  MatrixXd theta_;                 ///< the library at res_.alpha
  MatrixXd G_;                     ///< theta_^T theta_
  VectorXd c_;                     ///< theta_^T y
  std::vector<bool> prot_all_;     ///< protected columns
  VectorXd w_raw_, xi_raw_;        ///< the W and xi iterates, raw units
  bool all_converged_ = true;      ///< every xi/W loop converged
  bool alpha_converged_ = false;   ///< alpha settled (or there is none)
  std::vector<Visited> visited_;   ///< the rounds with a Newton step, for end_on_cycle
};

}  // namespace

Sr3Result sr3(const Sr3Library& lib, const VectorXd& y, const Sr3Options& opt,
              const Sr3Start& start, std::vector<Sr3Iterate>* trace) {
  check_inputs(lib, y, opt, start);
  return Sr3Rounds(lib, y, opt, start, trace).run();
}

Sr3Result sr3(const MatrixXd& theta, const VectorXd& y, const Sr3Options& options,
              std::vector<Sr3Iterate>* trace) {
  const MatrixSr3Library lib(theta);
  return sr3(lib, y, options, Sr3Start{}, trace);
}

}  // namespace frictionlab::identify
