// frictionlab signal: TV-regularised differentiation (include/frictionlab/signal/tvreg.hpp).
#include "frictionlab/signal/tvreg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {
namespace {

constexpr int kMaxBand = 3;  // p = order + 1 <= 3

/// Coefficients of the p-th forward difference: (Delta^p y)_k = sum_j c_j y_{k+j}.
std::array<double, kMaxBand + 1> difference_coefficients(int p) {
  std::array<double, kMaxBand + 1> c{};
  double binom = 1;  // C(p, j)
  for (int j = 0; j <= p; ++j) {
    c[static_cast<std::size_t>(j)] = ((p - j) % 2 == 0 ? 1.0 : -1.0) * binom;
    binom = binom * (p - j) / (j + 1);
  }
  return c;
}

/// out = Delta^p y (size n - p).
void apply_d(const std::array<double, kMaxBand + 1>& c, int p, const std::vector<double>& y,
             std::vector<double>& out) {
  const std::size_t m = y.size() - static_cast<std::size_t>(p);
  out.resize(m);
  for (std::size_t k = 0; k < m; ++k) {
    double acc = 0;
    for (int j = 0; j <= p; ++j)
      acc += c[static_cast<std::size_t>(j)] * y[k + static_cast<std::size_t>(j)];
    out[k] = acc;
  }
}

/// out = (Delta^p)^T g (size n = g.size() + p).
void apply_dt(const std::array<double, kMaxBand + 1>& c, int p, const std::vector<double>& g,
              std::vector<double>& out) {
  const std::size_t m = g.size();
  out.assign(m + static_cast<std::size_t>(p), 0.0);
  for (std::size_t k = 0; k < m; ++k)
    for (int j = 0; j <= p; ++j)
      out[k + static_cast<std::size_t>(j)] += c[static_cast<std::size_t>(j)] * g[k];
}

/// Solves (diag(mu) + D D^T) w = b, D = Delta^P, by a banded Cholesky factorisation L L^T
/// (L lower triangular with bandwidth P; the bandwidth is a template parameter so that the inner
/// loops unroll). D D^T is Toeplitz: its d-th diagonal is t_d = sum_{j=d}^{P} c_j c_{j-d}.
/// Returns false if a pivot is not positive (numerically singular).
template <std::size_t P>
class BandedSolver {
 public:
  BandedSolver() {
    const auto c = difference_coefficients(static_cast<int>(P));
    for (std::size_t d = 0; d <= P; ++d) {
      double s = 0;
      for (std::size_t j = d; j <= P; ++j) s += c[j] * c[j - d];
      t_[d] = s;
    }
  }

  /// fix_first: y_0 is not an unknown (D loses its first column: (D D^T)_00 -= c_0^2 = 1).
  bool solve(const std::vector<double>& mu, const std::vector<double>& b, bool fix_first,
             std::vector<double>& w) {
    const std::size_t N = mu.size();
    // Row i holds L(i, i - d) at l_[i][d] for d = 1..P and 1 / L(i, i) at l_[i][0].
    l_.resize(N);
    for (std::size_t i = 0; i < N; ++i) {
      auto& li = l_[i];
      li.fill(0.0);
      for (std::size_t d = std::min(P, i); d >= 1; --d) {
        const std::size_t j = i - d;
        double a = t_[d];
        for (std::size_t e = d + 1; e <= P && e <= i; ++e) a -= li[e] * l_[j][e - d];
        li[d] = a * l_[j][0];
      }
      double diag = mu[i] + t_[0] - (fix_first && i == 0 ? 1.0 : 0.0);
      for (std::size_t d = 1; d <= P && d <= i; ++d) diag -= li[d] * li[d];
      if (!(diag > 0) || !std::isfinite(diag)) return false;
      li[0] = 1.0 / std::sqrt(diag);
    }
    // Forward: L v = b; backward: L^T w = v.
    w = b;
    for (std::size_t i = 0; i < N; ++i) {
      double a = w[i];
      for (std::size_t d = 1; d <= P && d <= i; ++d) a -= l_[i][d] * w[i - d];
      w[i] = a * l_[i][0];
    }
    for (std::size_t i = N; i-- > 0;) {
      double a = w[i];
      for (std::size_t d = 1; d <= P && i + d < N; ++d) a -= l_[i + d][d] * w[i + d];
      w[i] = a * l_[i][0];
    }
    return true;
  }

 private:
  std::array<double, P + 1> t_{};
  std::vector<std::array<double, P + 1>> l_;
};

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

void validate(std::span<const double> t, std::span<const double> x, const TVRegOptions& o) {
  if (o.order != 1 && o.order != 2)
    throw std::invalid_argument("TV-regularised differentiation: order must be 1 or 2, got " +
                                std::to_string(o.order));
  if (!std::isfinite(o.alpha) || !(o.alpha > 0))
    throw std::invalid_argument(
        "TV-regularised differentiation: alpha must be finite and > 0, got " +
        format_number(o.alpha));
  if (!std::isfinite(o.epsilon) || o.epsilon < 0)
    throw std::invalid_argument(
        "TV-regularised differentiation: epsilon must be finite and >= 0 (0: automatic), got " +
        format_number(o.epsilon));
  if (o.max_iterations < 1)
    throw std::invalid_argument(
        "TV-regularised differentiation: max_iterations must be >= 1, got " +
        std::to_string(o.max_iterations));
  if (!std::isfinite(o.tolerance) || !(o.tolerance > 0))
    throw std::invalid_argument(
        "TV-regularised differentiation: tolerance must be finite and > 0, got " +
        format_number(o.tolerance));
  if (t.size() != x.size())
    throw std::invalid_argument("TV-regularised differentiation: " + std::to_string(t.size()) +
                                " times but " + std::to_string(x.size()) + " values");
  const std::size_t need = static_cast<std::size_t>(o.order) + 3;
  if (x.size() < need)
    throw std::invalid_argument("TV-regularised differentiation of order " +
                                std::to_string(o.order) + " needs at least " +
                                std::to_string(need) + " samples, got " + std::to_string(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument("TV-regularised differentiation: value is not finite at sample " +
                                  std::to_string(i) + " (0-based): " + format_number(x[i]));
  if (!o.initial.empty()) {
    if (o.initial.size() != x.size())
      throw std::invalid_argument("TV-regularised differentiation: initial has " +
                                  std::to_string(o.initial.size()) + " values, the signal " +
                                  std::to_string(x.size()));
    for (std::size_t i = 0; i < o.initial.size(); ++i)
      if (!std::isfinite(o.initial[i]))
        throw std::invalid_argument(
            "TV-regularised differentiation: initial is not finite at sample " + std::to_string(i) +
            " (0-based)");
  }
}

/// epsilon of the TV term: the given one, or the signal's range over its duration^p (at least 100
/// times the smallest the iteration handles). Numerical range (docs/preprocessing.md,
/// "Precision"): the Newton systems hold diag(mu) + D D^T with mu >= h^(2p) epsilon / alpha in
/// flat parts and |D D^T| <= 4^p; the iteration is accurate while kappa = 4^p alpha / (h^(2p)
/// epsilon) <= 1e16 (measured against 80-bit long double) and fails to converge beyond ~3e16.
/// kMaxKappa keeps a margin of 10.
double choose_epsilon(const std::vector<double>& f, double given, double alpha, double h, int p,
                      double duration) {
  constexpr double kMaxKappa = 1e15;
  const double h2p = std::pow(h, p) * std::pow(h, p);
  const double eps_min = std::pow(4.0, p) * alpha / (h2p * kMaxKappa);
  if (given == 0) {
    const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
    const double eps = std::max((*hi - *lo) / std::pow(duration, p), 100 * eps_min);
    if (!(eps > 0) || !std::isfinite(eps))
      throw std::invalid_argument(
          "TV-regularised differentiation: the automatic epsilon is not a positive number (alpha "
          "= " +
          format_number(alpha) + ", range of the signal " + format_number(*hi - *lo) +
          "); set epsilon explicitly");
    return eps;
  }
  if (given < eps_min)
    throw std::invalid_argument(
        "TV-regularised differentiation: epsilon = " + format_number(given) +
        " is too small for alpha = " + format_number(alpha) + " at the sample step " +
        format_number(h) +
        " s in double precision (4^(order+1) alpha / (h^(2 order + 2) epsilon) = " +
        format_number(std::pow(4.0, p) * alpha / (h2p * given)) + " > 1e15): use epsilon >= " +
        format_number(eps_min) + ", a smaller alpha, or low-pass and decimate the record first");
  return given;
}

/// The result's objective, residual and the derivatives of the smoothed signal y at the sample
/// times (central differences, one-sided second order at the ends).
void finish(const std::vector<double>& f, const std::vector<double>& y,
            const std::vector<double>& phi, double eps, int m, TVRegResult& res) {
  const double h = res.step;
  const std::size_t n = y.size();
  double tv = 0, rss = 0;
  for (double ph : phi) tv += ph - eps;
  for (std::size_t i = 0; i < n; ++i) rss += (y[i] - f[i]) * (y[i] - f[i]);
  res.objective = res.alpha * h * tv + 0.5 * h * rss;
  res.residual_rms = std::sqrt(rss / static_cast<double>(n));
  res.first.resize(n);
  for (std::size_t i = 1; i + 1 < n; ++i) res.first[i] = (y[i + 1] - y[i - 1]) / (2 * h);
  res.first[0] = (-3 * y[0] + 4 * y[1] - y[2]) / (2 * h);
  res.first[n - 1] = (3 * y[n - 1] - 4 * y[n - 2] + y[n - 3]) / (2 * h);
  if (m == 2) {
    res.second.resize(n);
    for (std::size_t i = 1; i + 1 < n; ++i)
      res.second[i] = (y[i + 1] - 2 * y[i] + y[i - 1]) / (h * h);
    res.second[0] = 2 * res.second[1] - res.second[2];
    res.second[n - 1] = 2 * res.second[n - 2] - res.second[n - 3];
  }
}

}  // namespace

TVRegResult tvreg(std::span<const double> t, std::span<const double> x, const TVRegOptions& o) {
  validate(t, x, o);
  const SamplingStats st =
      require_uniform(t, o.uniform_tolerance, "TV-regularised differentiation");
  const double h = st.dt_mean;
  const std::size_t n = x.size();
  const int m = o.order;
  const int p = m + 1;
  const auto P = static_cast<std::size_t>(p);
  const std::size_t N = n - P;  // number of TV terms

  const std::vector<double> f(x.begin(), x.end());
  const double alpha = o.scaling == TVScaling::per_sample ? o.alpha * h : o.alpha;
  const double hp = std::pow(h, p);
  const double h2p = hp * hp;
  const double eps = choose_epsilon(f, o.epsilon, alpha, h, p, st.duration);
  const double c_grad =
      alpha / hp;  // gradient of alpha * sum phi(D y / h^p): (alpha / h^p) D^T phi'

  const auto c = difference_coefficients(p);

  const bool fix_first = o.offset == TVOffset::first_sample;
  std::vector<double> y = o.initial.empty() ? f : o.initial;
  if (fix_first) y[0] = f[0];
  BandedSolver<2> solver2;
  BandedSolver<3> solver3;
  auto solve = [&](const std::vector<double>& mu_, const std::vector<double>& b,
                   std::vector<double>& w_) {
    return p == 2 ? solver2.solve(mu_, b, fix_first, w_) : solver3.solve(mu_, b, fix_first, w_);
  };
  std::vector<double> z(N, 0.0);  // dual variable, |z| < 1
  std::vector<double> s(N), phi(N), q(N), r(n), Dr, w, dy, ds, E(N), mu(N), tmp;

  auto update_s = [&]() {
    apply_d(c, p, y, s);
    for (std::size_t k = 0; k < N; ++k) {
      s[k] /= hp;
      phi[k] = std::sqrt(s[k] * s[k] + eps * eps);
    }
  };
  // Relative change of the regularised (m-th) derivative: max |Delta^m dy| / max |Delta^m y|.
  const auto cm = difference_coefficients(m);
  std::vector<double> um, dum;

  TVRegResult res;
  res.alpha = alpha;
  res.epsilon = eps;
  res.step = h;
  update_s();
  for (int it = 1; it <= o.max_iterations; ++it) {
    // Gradient of J / h: r = y - f + (alpha / h^p) D^T (s / phi).
    for (std::size_t k = 0; k < N; ++k) q[k] = s[k] / phi[k];
    apply_dt(c, p, q, tmp);
    for (std::size_t i = 0; i < n; ++i) r[i] = y[i] - f[i] + c_grad * tmp[i];
    if (fix_first) r[0] = 0;
    // E = (phi - z s) / phi^2 > 0, written without cancellation; mu = K^-1 = h^(2p) / (alpha E).
    for (std::size_t k = 0; k < N; ++k) {
      const double as = std::abs(s[k]);
      const double zs = s[k] >= 0 ? z[k] : -z[k];
      const double num = eps * eps / (phi[k] + as) + as * (1.0 - zs);
      E[k] = num / (phi[k] * phi[k]);
      mu[k] = h2p * phi[k] * phi[k] / (alpha * num);
    }
    apply_d(c, p, r, Dr);
    if (!solve(mu, Dr, w))
      throw std::runtime_error(
          "TV-regularised differentiation: the Newton system is numerically singular (alpha = " +
          format_number(alpha) + ", epsilon = " + format_number(eps) + ", step " +
          format_number(h) + " s, order " + std::to_string(m) +
          "; 4^(order+1) alpha / (h^(2 order + 2) epsilon) = " +
          format_number(std::pow(4.0, p) * alpha / (h2p * eps)) +
          "): the smoothing is too strong for this sample rate in double precision; lower alpha, "
          "raise epsilon, or low-pass and decimate the record first");
    apply_dt(c, p, w, dy);
    for (std::size_t i = 0; i < n; ++i) dy[i] -= r[i];
    if (fix_first) dy[0] = 0;
    // Dual step: dz = E D dy / h^p - (z - s / phi), limited to keep |z| < 1.
    apply_d(c, p, dy, ds);
    double tz = 1.0;
    std::vector<double>& dz = tmp;
    dz.resize(N);
    for (std::size_t k = 0; k < N; ++k) {
      dz[k] = E[k] * ds[k] / hp - (z[k] - q[k]);
      const double zn = z[k] + dz[k];
      if (zn >= 1.0 || zn <= -1.0) {
        const double lim = dz[k] > 0 ? (1.0 - z[k]) / dz[k] : (-1.0 - z[k]) / dz[k];
        tz = std::min(tz, 0.9 * lim);
      }
    }
    for (std::size_t k = 0; k < N; ++k) z[k] += tz * dz[k];
    for (std::size_t i = 0; i < n; ++i) y[i] += dy[i];
    update_s();
    apply_d(cm, m, dy, dum);
    apply_d(cm, m, y, um);
    const double scale = max_abs(um);
    res.change = scale > 0 ? max_abs(dum) / scale : max_abs(dum);
    res.iterations = it;
    if (!std::isfinite(res.change))
      throw std::runtime_error("TV-regularised differentiation: the iteration diverged (alpha = " +
                               format_number(alpha) + ", epsilon = " + format_number(eps) + ")");
    if (res.change <= o.tolerance) {
      res.converged = true;
      break;
    }
  }

  finish(f, y, phi, eps, m, res);
  res.smoothed = std::move(y);
  return res;
}

}  // namespace frictionlab::signal
