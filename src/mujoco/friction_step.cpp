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

/// F(u) and z+(u) of lugre_step for the velocity u held over the step.
struct LugreAt {
  double force, z_next;
};
LugreAt lugre_at(const LuGre<double>::Params& p, double z, double u, double h,
                 const Load& load) noexcept {
  using M = LuGre<double>;
  const M::AtVelocity w = M::at(p, u);
  const double z_next = M::step(p, M::State{z}, w, h).z;
  double force = p.sigma0 * z_next + w.sigma1 * (z_next - z) / h + p.sigma2 * u;
  if (load.dependence != nullptr) {
    const bool positive = u > 0.0 || (u == 0.0 && load.tau > 0.0);
    force += load_rise(*load.dependence, load.tau, positive) * p.sigma0 * z_next / w.g;
  }
  return {force, z_next};
}

/// One implicit substep: v+ = v_free - hc F(v+) over a step h, from `guess` (or v_free).
LugreStep implicit_substep(const LuGre<double>::Params& p, double z, double v_free, double hc,
                           double h, double guess, const Load& load) noexcept {
  LugreStep out;
  const auto residual = [&](double u, LugreAt& at) {
    at = lugre_at(p, z, u, h, load);
    ++out.evaluations;
    return u - v_free + hc * at.force;
  };
  // start at the guess (the previous sweep's root) or v_free; the first stride is a Newton step
  // with the bristle's pre-sliding slope 1 + h c (sigma0 h + sigma1 + sigma2), the steepest R
  // has near rest
  const double start = std::isfinite(guess) ? guess : v_free;
  LugreAt at{};
  const double r0 = residual(start, at);
  if (r0 == 0.0) return {start, at.z_next, at.force, out.evaluations};
  const double slope = 1.0 + hc * (p.sigma0 * h + p.sigma1 + p.sigma2);
  // bracket: walk away from the start against the sign of R, doubling the stride
  const double dir = r0 > 0.0 ? -1.0 : 1.0;
  double stride = std::max(std::abs(r0) / slope, 1e-15 * (1.0 + std::abs(start)));
  double a = start, ra = r0, b = start + dir * stride;
  LugreAt atb{};
  double rb = residual(b, atb);
  for (int i = 0; i < 200 && (rb > 0.0) == (r0 > 0.0); ++i) {
    a = b;
    ra = rb;
    stride *= 2.0;
    b = start + dir * stride;
    rb = residual(b, atb);
  }
  // Illinois regula falsi on [a, b], R(a) and R(b) of opposite signs
  double u = b, ru = rb;
  LugreAt atu = atb;
  int side = 0;
  for (int i = 0; i < 100 && ru != 0.0; ++i) {
    u = (a * rb - b * ra) / (rb - ra);
    ru = residual(u, atu);
    const double scale = std::abs(u) + std::abs(v_free) + hc * std::abs(atu.force);
    if (std::abs(ru) <= 1e-15 * scale || std::abs(b - a) <= 4e-16 * std::abs(u)) break;
    if ((ru > 0.0) == (rb > 0.0)) {
      b = u;
      rb = ru;
      if (side == -1) ra *= 0.5;
      side = -1;
    } else {
      a = u;
      ra = ru;
      if (side == 1) rb *= 0.5;
      side = 1;
    }
  }
  out.v_next = u;
  out.z_next = atu.z_next;
  out.force = atu.force;
  return out;
}

}  // namespace

LugreStep lugre_step(const LuGre<double>::Params& p, double z, double v, double v_free, double hc,
                     double h, double guess, const LoadDependence<double>* load,
                     double tau) noexcept {
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

double static_budget(const StaticFriction<double>::Params& p, double v,
                     const LoadDependence<double>* load, double tau, bool forward) noexcept {
  const double rise = load != nullptr ? load_rise(*load, tau, forward) : 0.0;
  return stribeck_g(p.curve, v) + rise + p.sigma2 * std::abs(v);
}

}  // namespace frictionlab::mujoco
