// frictionlab signal: re-integration with least-squares constants
// (include/frictionlab/signal/reintegrate.hpp).
#include "frictionlab/signal/reintegrate.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {
namespace {

void check_channel(std::span<const double> t, std::span<const double> x, const std::string& what,
                   const std::string& name) {
  std::string msg = what;
  msg += ": ";
  msg += name;
  if (x.size() != t.size())
    throw std::invalid_argument(msg + " has " + std::to_string(x.size()) + " samples, time " +
                                std::to_string(t.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument(msg + " is not finite at sample " + std::to_string(i) +
                                  " (0-based): " + format_number(x[i]));
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

}  // namespace

Reintegrated reintegrate(std::span<const double> t, std::span<const double> a,
                         std::span<const double> q, std::span<const double> v) {
  const std::string what = "re-integration";
  (void)sampling_stats(t);  // n >= 2, finite, strictly increasing
  check_channel(t, a, what, "acceleration");
  check_channel(t, q, what, "position");
  if (!v.empty()) check_channel(t, v, what, "velocity");
  const std::size_t n = t.size();

  std::vector<double> V(n, 0.0), Q(n, 0.0), tau(n);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double h = t[i + 1] - t[i];
    V[i + 1] = V[i] + h * (a[i] + a[i + 1]) / 2;
    Q[i + 1] = Q[i] + h * V[i] + h * h * (2 * a[i] + a[i + 1]) / 6;
  }
  for (std::size_t i = 0; i < n; ++i) tau[i] = t[i] - t[0];

  Reintegrated r;
  if (!v.empty()) {
    std::vector<double> dv(n);
    for (std::size_t i = 0; i < n; ++i) dv[i] = v[i] - V[i];
    r.v0 = mean(dv);
    std::vector<double> dq(n);
    for (std::size_t i = 0; i < n; ++i) dq[i] = q[i] - r.v0 * tau[i] - Q[i];
    r.q0 = mean(dq);
  } else {
    // Linear regression of d = q - Q on tau, centred for conditioning.
    std::vector<double> d(n);
    for (std::size_t i = 0; i < n; ++i) d[i] = q[i] - Q[i];
    const double tm = mean(tau), dm = mean(d);
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
      sxx += (tau[i] - tm) * (tau[i] - tm);
      sxy += (tau[i] - tm) * (d[i] - dm);
    }
    r.v0 = sxy / sxx;  // sxx > 0: n >= 2 distinct times
    r.q0 = dm - r.v0 * tm;
  }
  r.position.resize(n);
  r.velocity.resize(n);
  double eq = 0, ev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    r.velocity[i] = r.v0 + V[i];
    r.position[i] = r.q0 + r.v0 * tau[i] + Q[i];
    eq += (r.position[i] - q[i]) * (r.position[i] - q[i]);
    if (!v.empty()) ev += (r.velocity[i] - v[i]) * (r.velocity[i] - v[i]);
  }
  r.position_rms = std::sqrt(eq / static_cast<double>(n));
  r.velocity_rms = std::sqrt(ev / static_cast<double>(n));
  r.acceleration.assign(a.begin(), a.end());
  return r;
}

std::vector<double> integrate_fit(std::span<const double> t, std::span<const double> d,
                                  std::span<const double> ref) {
  const std::string what = "integration with a fitted constant";
  (void)sampling_stats(t);
  check_channel(t, d, what, "derivative");
  check_channel(t, ref, what, "reference");
  const std::size_t n = t.size();
  std::vector<double> x(n, 0.0);
  for (std::size_t i = 0; i + 1 < n; ++i)
    x[i + 1] = x[i] + (t[i + 1] - t[i]) * (d[i] + d[i + 1]) / 2;
  double c = 0;
  for (std::size_t i = 0; i < n; ++i) c += ref[i] - x[i];
  c /= static_cast<double>(n);
  for (double& v : x) v += c;
  return x;
}

}  // namespace frictionlab::signal
