// frictionlab: CMA-ES (see identify/cmaes.hpp for the equations and their source).
#include "frictionlab/identify/cmaes.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "parallel.hpp"

namespace frictionlab::identify {

Cmaes::Cmaes(const std::vector<double>& m0, double sigma0, int lambda, std::uint64_t seed)
    : n_(static_cast<int>(m0.size())), sigma_(sigma0), rng_(seed) {
  if (n_ < 1) throw std::invalid_argument("CMA-ES: dimension must be >= 1");
  if (!(sigma0 > 0)) throw std::invalid_argument("CMA-ES: sigma0 must be > 0");
  const double n = n_;
  lambda_ = lambda > 0 ? lambda : 4 + static_cast<int>(std::floor(3.0 * std::log(n)));
  if (lambda_ < 2) lambda_ = 2;
  mu_ = lambda_ / 2;
  Eigen::VectorXd wp(lambda_);
  for (int i = 0; i < lambda_; ++i) wp[i] = std::log((lambda_ + 1) / 2.0) - std::log(i + 1.0);
  const double sum_pos = wp.head(mu_).sum();
  mueff_ = sum_pos * sum_pos / wp.head(mu_).squaredNorm();
  const int nneg = lambda_ - mu_;
  double mueff_neg = 0, sum_neg = 0;
  if (nneg > 0) {
    sum_neg = wp.tail(nneg).sum();
    mueff_neg = sum_neg * sum_neg / wp.tail(nneg).squaredNorm();
  }
  const double alpha_cov = 2.0;
  c1_ = alpha_cov / ((n + 1.3) * (n + 1.3) + mueff_);
  cmu_ = std::min(1.0 - c1_ - 1e-8, alpha_cov * (mueff_ - 2.0 + 1.0 / mueff_) /
                                        ((n + 2.0) * (n + 2.0) + alpha_cov * mueff_ / 2.0));
  const double alpha_mu = 1.0 + c1_ / cmu_;
  const double alpha_mueff = 1.0 + 2.0 * mueff_neg / (mueff_ + 2.0);
  const double alpha_posdef = (1.0 - c1_ - cmu_) / (n * cmu_);
  const double neg_scale = std::min({alpha_mu, alpha_mueff, alpha_posdef});
  w_.resize(lambda_);
  for (int i = 0; i < lambda_; ++i)
    w_[i] = wp[i] >= 0 ? wp[i] / sum_pos : neg_scale * wp[i] / std::abs(sum_neg);
  cs_ = (mueff_ + 2.0) / (n + mueff_ + 5.0);
  ds_ = 1.0 + 2.0 * std::max(0.0, std::sqrt((mueff_ - 1.0) / (n + 1.0)) - 1.0) + cs_;
  cc_ = (4.0 + mueff_ / n) / (n + 4.0 + 2.0 * mueff_ / n);
  chin_ = std::sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
  m_ = Eigen::Map<const Eigen::VectorXd>(m0.data(), n_);
  ps_ = Eigen::VectorXd::Zero(n_);
  pc_ = Eigen::VectorXd::Zero(n_);
  C_ = Eigen::MatrixXd::Identity(n_, n_);
  B_ = C_;
  D_ = Eigen::VectorXd::Ones(n_);
}

void Cmaes::update_eigen() {
  C_ = 0.5 * (C_ + C_.transpose());
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(C_);
  Eigen::VectorXd d2 = es.eigenvalues();
  for (int i = 0; i < n_; ++i)
    if (!(d2[i] >= 0)) d2[i] = 1e-8;
  B_ = es.eigenvectors();
  C_ = B_ * d2.asDiagonal() * B_.transpose();
  D_ = d2.cwiseSqrt();
}

std::vector<std::vector<double>> Cmaes::ask() {
  update_eigen();
  std::vector<std::vector<double>> out(static_cast<std::size_t>(lambda_),
                                       std::vector<double>(static_cast<std::size_t>(n_)));
  Eigen::VectorXd z(n_), x(n_);
  for (auto& xi : out) {
    bool inside = false;
    for (int attempt = 0; attempt < 100 && !inside; ++attempt) {
      for (int j = 0; j < n_; ++j) z[j] = normal_(rng_);
      x = m_ + sigma_ * (B_ * D_.cwiseProduct(z));
      inside = (x.array() >= 0.0).all() && (x.array() <= 1.0).all();
    }
    for (int j = 0; j < n_; ++j) xi[static_cast<std::size_t>(j)] = std::clamp(x[j], 0.0, 1.0);
  }
  return out;
}

void Cmaes::tell(const std::vector<std::vector<double>>& x, const std::vector<double>& f) {
  if (static_cast<int>(x.size()) != lambda_ || f.size() != x.size())
    throw std::invalid_argument("CMA-ES tell: expected " + std::to_string(lambda_) +
                                " points and values");
  update_eigen();
  ++g_;
  std::vector<int> order(static_cast<std::size_t>(lambda_));
  std::iota(order.begin(), order.end(), 0);
  auto value = [&](int i) {
    const double v = f[static_cast<std::size_t>(i)];
    return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return value(a) < value(b); });
  not_finite_ = !std::isfinite(value(order.front()));
  flat_ = value(order.front()) == value(order.back());
  best_history_.push_back(value(order.front()));

  Eigen::MatrixXd y(n_, lambda_);
  for (int k = 0; k < lambda_; ++k) {
    const auto& xk = x[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
    for (int j = 0; j < n_; ++j) y(j, k) = (xk[static_cast<std::size_t>(j)] - m_[j]) / sigma_;
  }
  const Eigen::VectorXd yw = y.leftCols(mu_) * w_.head(mu_);
  m_ += sigma_ * yw;  // c_m = 1
  const Eigen::MatrixXd Cinvsqrt = B_ * D_.cwiseInverse().asDiagonal() * B_.transpose();
  ps_ = (1.0 - cs_) * ps_ + std::sqrt(cs_ * (2.0 - cs_) * mueff_) * (Cinvsqrt * yw);
  const double ps_norm = ps_.norm();
  sigma_ *= std::exp((cs_ / ds_) * (ps_norm / chin_ - 1.0));
  const double n = n_;
  const bool hs = ps_norm / std::sqrt(1.0 - std::pow(1.0 - cs_, 2.0 * (g_ + 1))) <
                  (1.4 + 2.0 / (n + 1.0)) * chin_;
  pc_ = (1.0 - cc_) * pc_ + (hs ? std::sqrt(cc_ * (2.0 - cc_) * mueff_) : 0.0) * yw;
  Eigen::VectorXd wo = w_;
  for (int k = 0; k < lambda_; ++k)
    if (w_[k] < 0) wo[k] = w_[k] * n / ((Cinvsqrt * y.col(k)).squaredNorm() + 1e-8);
  const double delta_hs = (hs ? 0.0 : 1.0) * cc_ * (2.0 - cc_);
  const Eigen::MatrixXd rank_mu = y * wo.asDiagonal() * y.transpose();
  C_ = (1.0 + c1_ * delta_hs - c1_ - cmu_ * w_.sum()) * C_ + c1_ * pc_ * pc_.transpose() +
       cmu_ * rank_mu;
}

std::string Cmaes::stop_reason(double tol_x, double tol_f) const {
  if (not_finite_) return "not_finite";
  if (flat_) return "flat";
  const double max_sd = sigma_ * C_.diagonal().cwiseSqrt().maxCoeff();
  if (max_sd < tol_x) return "tol_x";
  const std::size_t window =
      10 + static_cast<std::size_t>(std::ceil(30.0 * n_ / static_cast<double>(lambda_)));
  if (best_history_.size() >= window) {
    const auto first = best_history_.end() - static_cast<std::ptrdiff_t>(window);
    const auto [lo, hi] = std::minmax_element(first, best_history_.end());
    if (*hi - *lo < tol_f) return "tol_f";
  }
  if (D_.maxCoeff() > 1e7 * D_.minCoeff()) return "condition";
  return "";
}

namespace {

/// After a generation of run `run` (0-based): polls the cancel hook (throws Cancelled), then
/// reports the evaluations and the best value so far, and the share of max_evals spent.
void after_generation(const Progress& progress, const CmaesResult& r, int run, long max_evals) {
  progress.check();
  if (!progress.report) return;
  const std::string message = "CMA-ES run " + std::to_string(run + 1) + ": " +
                              std::to_string(r.evals) + " evaluations, best " + format_number(r.f);
  const double spent = static_cast<double>(r.evals) / static_cast<double>(std::max(1L, max_evals));
  progress.say({message, std::min(1.0, spent), r.evals, r.f});
}

}  // namespace

CmaesResult cmaes_minimize(const std::function<double(const std::vector<double>&)>& f,
                           const std::vector<double>& x0, const CmaesOptions& o) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  const std::size_t n = x0.size();
  if (n == 0) throw std::invalid_argument("CMA-ES: empty start point");
  for (double v : x0)
    if (!(v >= 0.0 && v <= 1.0)) throw std::invalid_argument("CMA-ES: start point outside [0, 1]");
  const int threads = std::max(1, o.threads);
  CmaesResult r;
  r.x = x0;
  r.f = f(x0);
  if (!std::isfinite(r.f)) r.f = std::numeric_limits<double>::infinity();
  r.evals = 1;
  std::mt19937_64 restart_rng(o.seed ^ 0x9e3779b97f4a7c15ULL);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int lambda = o.lambda;
  std::vector<double> start = x0;
  for (int run = 0; run <= o.max_restarts; ++run) {
    Cmaes es(start, o.sigma0, lambda, o.seed + static_cast<std::uint64_t>(run) * 1000003ULL);
    lambda = es.population();
    r.runs = run + 1;
    while (true) {
      if (r.evals + es.population() > o.max_evals) {
        r.stop = "evals";
        break;
      }
      if (o.max_seconds > 0 && elapsed() > o.max_seconds) {
        r.stop = "time";
        break;
      }
      const auto xs = es.ask();
      std::vector<double> fs(xs.size());
      const int now = o.threads_now ? std::max(1, o.threads_now()) : threads;
      detail::for_each_index(xs.size(), now, [&](std::size_t i) { fs[i] = f(xs[i]); });
      r.evals += static_cast<long>(xs.size());
      ++r.generations;
      for (std::size_t i = 0; i < xs.size(); ++i)
        if (std::isfinite(fs[i]) && fs[i] < r.f) {
          r.f = fs[i];
          r.x = xs[i];
        }
      es.tell(xs, fs);
      after_generation(o.progress, r, run, o.max_evals);
      if (!es.stop_reason(o.tol_x, o.tol_f).empty()) break;
    }
    if (r.stop == "evals" || r.stop == "time") break;
    r.stop = "restarts";
    // IPOP: double the population, restart from a uniform point.
    lambda *= 2;
    for (auto& v : start) v = uniform(restart_rng);
  }
  r.seconds = elapsed();
  return r;
}

}  // namespace frictionlab::identify
