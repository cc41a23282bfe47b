// frictionlab signal: differentiators (include/frictionlab/signal/differentiate.hpp).
#include "frictionlab/signal/differentiate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"
#include "frictionlab/signal/savgol.hpp"

namespace frictionlab::signal {
namespace {

// Derivatives at t_k of the quadratic through (t_a, x_a), (t_b, x_b), (t_c, x_c), a < b < c.
// Lagrange form: x'(t) = sum_i x_i L_i'(t), x'' = sum_i x_i L_i''.
void quadratic_derivatives(double ta, double tb, double tc, double xa, double xb, double xc,
                           double tk, double& d1, double& d2) {
  const double da = (ta - tb) * (ta - tc);
  const double db = (tb - ta) * (tb - tc);
  const double dc = (tc - ta) * (tc - tb);
  d1 = xa * ((tk - tb) + (tk - tc)) / da + xb * ((tk - ta) + (tk - tc)) / db +
       xc * ((tk - ta) + (tk - tb)) / dc;
  d2 = 2.0 * (xa / da + xb / db + xc / dc);
}

Derivatives central(std::span<const double> t, std::span<const double> x) {
  const std::size_t n = t.size();
  if (n < 3)
    throw std::invalid_argument("central differences need at least 3 samples, got " +
                                std::to_string(n));
  Derivatives d{std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const double hm = t[k] - t[k - 1];
    const double hp = t[k + 1] - t[k];
    const double den = hm * hp * (hm + hp);
    d.first[k] = (hm * hm * x[k + 1] + (hp * hp - hm * hm) * x[k] - hp * hp * x[k - 1]) / den;
    d.second[k] = 2.0 * (hm * x[k + 1] - (hm + hp) * x[k] + hp * x[k - 1]) / den;
  }
  quadratic_derivatives(t[0], t[1], t[2], x[0], x[1], x[2], t[0], d.first[0], d.second[0]);
  quadratic_derivatives(t[n - 3], t[n - 2], t[n - 1], x[n - 3], x[n - 2], x[n - 1], t[n - 1],
                        d.first[n - 1], d.second[n - 1]);
  return d;
}

TVRegResult tv_converged(std::span<const double> t, std::span<const double> x,
                         const TVRegOptions& o) {
  TVRegResult r = tvreg(t, x, o);
  if (!r.converged)
    throw std::runtime_error(
        "TV-regularised differentiation did not converge in " + std::to_string(r.iterations) +
        " iterations (relative change " + format_number(r.change) + " > tolerance " +
        format_number(o.tolerance) + "; alpha = " + format_number(r.alpha) +
        ", epsilon = " + format_number(r.epsilon) + "): raise max_iterations or epsilon");
  return r;
}

Derivatives tv_derivatives(std::span<const double> t, std::span<const double> x,
                           const DiffOptions& options) {
  TVRegOptions o = options.tv;
  o.uniform_tolerance = options.uniform_tolerance;
  if (o.order == 1) {
    if (!std::isfinite(options.tv_second_alpha) || !(options.tv_second_alpha > 0))
      throw std::invalid_argument(
          "TV-regularised differentiation of order 1: the second derivative needs "
          "tv_second_alpha > 0 (the alpha of TVRegDiff applied to the first derivative), got " +
          format_number(options.tv_second_alpha));
    TVRegResult first = tv_converged(t, x, o);
    TVRegOptions o2 = o;
    o2.alpha = options.tv_second_alpha;
    o2.epsilon = 0;
    o2.initial.clear();
    TVRegResult second = tv_converged(t, first.first, o2);
    return Derivatives{std::move(first.first), std::move(second.first)};
  }
  TVRegResult r = tv_converged(t, x, o);
  return Derivatives{std::move(r.first), std::move(r.second)};
}

}  // namespace

Derivatives differentiate(std::span<const double> t, std::span<const double> x,
                          const DiffOptions& options) {
  if (t.size() != x.size())
    throw std::invalid_argument("differentiation: " + std::to_string(t.size()) + " times but " +
                                std::to_string(x.size()) + " values");
  if (options.method == DiffMethod::central) {
    (void)sampling_stats(t);  // finite, strictly increasing, n >= 2
    return central(t, x);
  }
  if (options.method == DiffMethod::tvreg) return tv_derivatives(t, x, options);
  if (options.polyorder < 2)
    throw std::invalid_argument(
        "Savitzky-Golay differentiation needs a polynomial order >= 2 for the acceleration, got " +
        std::to_string(options.polyorder));
  const SamplingStats s =
      require_uniform(t, options.uniform_tolerance, "Savitzky-Golay differentiation");
  const double delta = s.dt_mean;
  return Derivatives{savgol_filter(x, options.window, options.polyorder, 1, delta),
                     savgol_filter(x, options.window, options.polyorder, 2, delta)};
}

double derivative_at(std::span<const double> t, std::span<const double> v, std::size_t k) {
  const std::size_t n = t.size();
  if (n < 2) return 0.0;
  if (k == 0) return (v[1] - v[0]) / (t[1] - t[0]);
  if (k == n - 1) return (v[n - 1] - v[n - 2]) / (t[n - 1] - t[n - 2]);
  return (v[k + 1] - v[k - 1]) / (t[k + 1] - t[k - 1]);
}

std::vector<double> derivative(std::span<const double> t, std::span<const double> v) {
  std::vector<double> a(t.size());
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = derivative_at(t, v, k);
  return a;
}

double trapezoid_step(std::span<const double> t, std::span<const double> v, std::size_t k) {
  return 0.5 * (v[k] + v[k - 1]) * (t[k] - t[k - 1]);
}

std::vector<double> cumulative_trapezoid(std::span<const double> t, std::span<const double> v) {
  std::vector<double> x(t.size(), 0.0);
  for (std::size_t k = 1; k < t.size(); ++k) x[k] = x[k - 1] + trapezoid_step(t, v, k);
  return x;
}

}  // namespace frictionlab::signal
