// frictionlab mujoco: a friction model's torque within one MuJoCo step (friction_step.hpp).
#include "friction_step.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace frictionlab::mujoco {
namespace {

/// The load dependence of a LuGre joint under the applied torque tau [Nm] (none: load-free).
struct Load {
  const LoadDependence<double>* dependence = nullptr;
  double tau = 0.0;
};

/// F(u), dF/du and z+(u) of lugre_step for the velocity u held over the step.
LugreForce lugre_at(const LugreParams& p, double z, double u, double h, const Load& load) noexcept {
  using M = LuGre<Dual>;
  const Dual v(u, 0);
  const M::AtVelocity w = M::at(p, v);
  const Dual z_next = M::step(p, M::State{Dual(z)}, w, Dual(h)).z;
  Dual force = p.sigma0 * z_next + w.sigma1 * (z_next - z) / h + p.sigma2 * v;
  if (load.dependence != nullptr) {
    const bool positive = u > 0.0 || (u == 0.0 && load.tau > 0.0);
    force += load_rise(*load.dependence, load.tau, positive) * p.sigma0 * z_next / w.g;
  }
  return {force.a, force.v[0], z_next.a};
}

/// The bracket [lo, hi] of lugre_step's root narrowed to the side of u whose residual has R's
/// sign there (R(lo) < 0 < R(hi)); infinite ends until a residual of that sign was seen.
struct Bracket {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  void narrow(double u, double r) noexcept { (r < 0.0 ? lo : hi) = u; }
  [[nodiscard]] bool closed() const noexcept { return std::isfinite(lo) && std::isfinite(hi); }
  [[nodiscard]] bool holds(double u) const noexcept { return u > lo && u < hi; }
};

/// The next iterate from u with R(u) = r, R'(u) = slope: Newton's step where it stays inside
/// the bracket; outside it, the bracket's midpoint once closed, else a walk against the sign of
/// r whose stride doubles with each walk (R -> +-inf as u -> +-inf, so the walk brackets).
double next_iterate(double u, double r, double slope, const Bracket& b, double& stride) noexcept {
  if (slope > 0.0) {
    const double newton = u - r / slope;
    if (b.holds(newton)) return newton;
  }
  if (b.closed()) return 0.5 * (b.lo + b.hi);
  stride *= 2.0;
  return u + (r > 0.0 ? -stride : stride);
}

/// One implicit substep: v+ = v_free - hc F(v+) over a step h, from `guess` (or v_free), by
/// Newton's method on R(u) = u - v_free + hc F(u) safeguarded by a bracket (R is continuous and
/// differentiable except at u = 0, where |u| kinks it).
LugreStep implicit_substep(const LugreParams& p, double z, double v_free, double hc, double h,
                           double guess, const Load& load) noexcept {
  LugreStep out;
  double u = std::isfinite(guess) ? guess : v_free;
  // the first walk's stride: the Newton step with the bristle's pre-sliding slope
  // 1 + h c (sigma0 h + sigma1 + sigma2), the steepest R has near rest
  const double presliding = 1.0 + hc * (p.sigma0.a * h + p.sigma1.a + p.sigma2.a);
  double stride = -1.0;
  Bracket bracket;
  for (int i = 0; i < 200; ++i) {
    const LugreForce at = lugre_at(p, z, u, h, load);
    ++out.evaluations;
    out = {u, at.z_next, at.force, out.evaluations};
    const double r = u - v_free + hc * at.force;
    const double scale = std::abs(u) + std::abs(v_free) + hc * std::abs(at.force);
    if (std::abs(r) <= 1e-15 * scale) break;
    bracket.narrow(u, r);
    if (stride < 0.0)
      stride = 0.5 * std::max(std::abs(r) / presliding, 1e-15 * (1.0 + std::abs(u)));
    const double next = next_iterate(u, r, 1.0 + hc * at.slope, bracket, stride);
    if (std::abs(next - u) <= 4e-16 * std::abs(u) || next == u) break;
    u = next;
  }
  return out;
}

}  // namespace

LugreStep lugre_step(const LugreParams& p, double z, double v, double v_free, double hc, double h,
                     double guess, const LoadDependence<double>* load, double tau) noexcept {
  const Load l{load, tau};
  const int n = std::max(1, static_cast<int>(std::ceil(h / kLugreSubstep - 1e-9)));
  if (n == 1) return implicit_substep(p, z, v_free, hc, h, guess, l);
  // the other forces' velocity change spread evenly over the substeps
  const double drive = (v_free - v) / n;
  LugreStep s{v, z, 0.0, 0};
  int evaluations = 0;
  for (int i = 0; i < n; ++i) {
    s = implicit_substep(p, s.z_next, s.v_next + drive, hc / n, h / n,
                         std::numeric_limits<double>::quiet_NaN(), l);
    evaluations += s.evaluations;
  }
  // the friction whose impulse over the whole step ends it at the last substep's velocity
  return {s.v_next, s.z_next, (v_free - s.v_next) / hc, evaluations};
}

LugreForce lugre_force(const LugreParams& p, double z, double u, double h,
                       const LoadDependence<double>* load, double tau) noexcept {
  return lugre_at(p, z, u, h, Load{load, tau});
}

double static_budget(const StaticFriction<double>::Params& p, double v,
                     const LoadDependence<double>* load, double tau, bool forward) noexcept {
  const double rise = load != nullptr ? load_rise(*load, tau, forward) : 0.0;
  return stribeck_g(p.curve, v) + rise + p.sigma2 * std::abs(v);
}

}  // namespace frictionlab::mujoco
