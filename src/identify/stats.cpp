// frictionlab identify: Student-t quantiles, fit metrics, information criteria
// (docs/identification.md, "Results").
#include "frictionlab/identify/stats.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace frictionlab::identify {

namespace {

/// Continued fraction of the regularized incomplete beta function (modified Lentz method;
/// Lentz 1976, Thompson & Barnett 1986), converging for x < (a + 1)/(a + b + 2).
double beta_cf(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::abs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 1000; ++m) {
    const double m2 = 2.0 * m;
    // Even step.
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    // Odd step.
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1) < 1e-15) break;
  }
  return h;
}

/// Regularized incomplete beta I_x(a, b) for 0 <= x <= 1, given also y = 1 - x (computed by the
/// caller without cancellation).
double inc_beta(double a, double b, double x, double y) {
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const double lfront =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log(y);
  const double front = std::exp(lfront);
  if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
  return 1 - front * beta_cf(b, a, y) / b;
}

}  // namespace

double student_t_cdf(double t, double nu) {
  if (!(nu > 0)) throw std::invalid_argument("student_t_cdf: nu must be > 0");
  if (std::isinf(t)) return t > 0 ? 1.0 : 0.0;
  // Beyond nu = 1e7 the lgamma differences lose digits; the normal CDF is then closer than
  // 1e-7 (the leading correction is phi(t) (t^3 + t) / (4 nu)).
  if (nu > 1e7) return 0.5 * std::erfc(-t / std::sqrt(2.0));
  const double x = nu / (nu + t * t), y = t * t / (nu + t * t);
  const double tail = 0.5 * inc_beta(0.5 * nu, 0.5, x, y);
  return t > 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double nu) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("student_t_quantile: p must be in (0, 1)");
  if (!(nu > 0)) throw std::invalid_argument("student_t_quantile: nu must be > 0");
  if (p < 0.5) return -student_t_quantile(1 - p, nu);
  if (p == 0.5) return 0;
  double lo = 0, hi = 1;
  while (student_t_cdf(hi, nu) < p && hi < 1e300) hi *= 2;
  for (int it = 0; it < 400 && hi - lo > 1e-13 * std::max(1.0, hi); ++it) {
    const double mid = 0.5 * (lo + hi);
    if (student_t_cdf(mid, nu) < p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

double chi_square_sf(double x, double k) {
  if (!(k > 0) || std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (x <= 0) return 1.0;
  const double a = 0.5 * k, z = 0.5 * x;
  const double log_front = a * std::log(z) - z - std::lgamma(a);
  if (z < a + 1) {
    // P(a, z) = z^a e^-z / Gamma(a) * sum_n z^n / (a (a+1) ... (a+n)); Q = 1 - P.
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000; ++n) {
      term *= z / (a + n);
      sum += term;
      if (std::abs(term) < std::abs(sum) * 1e-16) break;
    }
    return std::max(0.0, 1.0 - std::exp(log_front) * sum);
  }
  // Q(a, z) = z^a e^-z / Gamma(a) * 1 / (z + 1 - a - 1 (1 - a) / (z + 3 - a - ...)), Lentz.
  constexpr double tiny = 1e-300;
  double b = z + 1 - a, c = 1 / tiny, dd = 1 / b, h = dd;
  for (int n = 1; n < 10000; ++n) {
    const double an = -n * (n - a);
    b += 2;
    dd = an * dd + b;
    if (std::abs(dd) < tiny) dd = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    dd = 1 / dd;
    const double del = dd * c;
    h *= del;
    if (std::abs(del - 1) < 1e-16) break;
  }
  return std::exp(log_front) * h;
}

bool strongly_coloured(const Reliability& rel) {
  const auto& w = rel.whiteness;
  return w.ljung_box_p < 0.01 && (w.acf1 > 0.5 || rel.hac_ratio_max > 2);
}

ResidualWhiteness residual_whiteness(const std::vector<double>& r, int lags) {
  ResidualWhiteness w;
  const auto n = static_cast<long>(r.size());
  if (n < 10) return w;
  const int h = static_cast<int>(std::max(1L, std::min<long>(lags, n / 5)));
  double mean = 0;
  for (double e : r) mean += e;
  mean /= static_cast<double>(n);
  double c0 = 0;
  for (double e : r) c0 += (e - mean) * (e - mean);
  if (!(c0 > 0)) return w;
  // The lagged products c_l = sum_{k >= l} e_k e_{k-l} (e = r - mean) of every lag at once, in
  // one pass over k (each c_l summed in the order of k; the lags of one k as one vector
  // operation).
  std::vector<double> e(r.size());
  for (std::size_t k = 0; k < r.size(); ++k) e[k] = r[k] - mean;
  Eigen::ArrayXd cls = Eigen::ArrayXd::Zero(h);
  for (long k = 1; k < n; ++k) {
    const long len = std::min<long>(h, k);
    cls.head(len) += e[static_cast<std::size_t>(k)] *
                     Eigen::Map<const Eigen::ArrayXd>(e.data() + (k - len), len).reverse();
  }
  double q = 0;
  for (int l = 1; l <= h; ++l) {
    const double cl = cls(l - 1);
    const double rho = cl / c0;
    if (l == 1) w.acf1 = rho;
    q += rho * rho / static_cast<double>(n - l);
  }
  const auto nd = static_cast<double>(n);
  w.lags = h;
  w.ljung_box_q = nd * (nd + 2) * q;
  w.ljung_box_p = chi_square_sf(w.ljung_box_q, h);
  return w;
}

namespace {

/// Metrics of the residuals resid(k) = y_k - prediction_k, k in [first, n).
template <class Resid>
Metrics metrics_of(const std::vector<double>& y, long first, long n, const Resid& resid) {
  Metrics m;
  if (first < 0) first = 0;
  if (n <= first) return m;
  m.n = n - first;
  double mean = 0, ymin = std::numeric_limits<double>::infinity(), ymax = -ymin;
  for (long k = first; k < n; ++k) {
    const double yk = y[static_cast<std::size_t>(k)];
    mean += yk;
    ymin = std::min(ymin, yk);
    ymax = std::max(ymax, yk);
  }
  mean /= static_cast<double>(m.n);
  double sst = 0, sy2 = 0;
  for (long k = first; k < n; ++k) {
    const auto uk = static_cast<std::size_t>(k);
    const double r = resid(k);
    m.ssr += r * r;
    sy2 += y[uk] * y[uk];
    m.max_abs = std::max(m.max_abs, std::abs(r));
    sst += (y[uk] - mean) * (y[uk] - mean);
  }
  m.rmse = std::sqrt(m.ssr / static_cast<double>(m.n));
  m.rms = std::sqrt(sy2 / static_cast<double>(m.n));
  m.nrmse = ymax > ymin ? m.rmse / (ymax - ymin) : std::numeric_limits<double>::quiet_NaN();
  m.r2 = sst > 0 ? 1 - m.ssr / sst : std::numeric_limits<double>::quiet_NaN();
  return m;
}

}  // namespace

Metrics compute_metrics(const std::vector<double>& y, const std::vector<double>& pred, long first) {
  const long n = static_cast<long>(std::min(y.size(), pred.size()));
  return metrics_of(y, first, n, [&](long k) {
    const auto uk = static_cast<std::size_t>(k);
    return y[uk] - pred[uk];
  });
}

Metrics metrics_of_residuals(const std::vector<double>& y, const std::vector<double>& residuals,
                             long first) {
  first = std::max(first, 0L);
  const long n = std::min(static_cast<long>(y.size()), first + static_cast<long>(residuals.size()));
  return metrics_of(y, first, n,
                    [&](long k) { return residuals[static_cast<std::size_t>(k - first)]; });
}

double aicc(double ssr, long n, int p) {
  const double k = p + 1.0, N = static_cast<double>(n);
  const double ll = N * std::log(std::max(ssr, 1e-300) / N);
  const double corr =
      N - k - 1 > 0 ? 2 * k * (k + 1) / (N - k - 1) : std::numeric_limits<double>::infinity();
  return ll + 2 * k + corr;
}

double bic(double ssr, long n, int p) {
  const double k = p + 1.0, N = static_cast<double>(n);
  return N * std::log(std::max(ssr, 1e-300) / N) + k * std::log(N);
}

}  // namespace frictionlab::identify
