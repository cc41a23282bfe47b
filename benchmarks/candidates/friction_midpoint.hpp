// frictionlab: a fixed-step, friction-aware scheme for one mechanical degree of freedom with a
// single-state dynamic friction model (LuGre, Dahl, elasto-plastic): the implicit midpoint rule
// for the mechanics around the friction model's own exact update for a held velocity, solved as
// one scalar equation in the new velocity by safeguarded Newton.
//
// System (units of the stick-slip system; the joint reads q, qd, I, torques):
//   m x'' = A(t, x) - F,       F = friction force at the (relative) velocity and the state z,
// A the applied force (spring, gravity, applied torque). One step h from (t_n, x_n, v_n, z_n),
// unknown w = v_{n+1}:
//
//   vb      = (v_n + w) / 2                           mid-step velocity, held over the step
//   x_{n+1} = x_n + h vb                              (trapezoidal = midpoint for x' = v)
//   z_{n+1} = M::step(p, z_n, vb, h)                  the model's exact update for v held at vb
//   Fb      = mean friction force over the step for v held at vb (impulse / h; `Sys::friction`)
//   r(w)    = m (w - v_n) - h (A(t_n + h/2, (x_n + x_{n+1}) / 2) - Fb) = 0.
//
// For LuGre, Fb = sigma0 <z> + sigma1(vb) (z_{n+1} - z_n) / h + sigma2 vb: the damping and viscous
// impulses are exact for the update, and <z> = z_n + h (vb - a z_n) phi2(a h), a = sigma0 |vb| /
// g(vb), phi2(x) = (expm1(-x) + x) / x^2, is the exact time average of z over the step for the
// held velocity (a closed form exists for LuGre and for Dahl with n = 1; the reference Sys for
// LuGre is in benchmarks/bench_stick_slip.cpp). In the limit of a slow friction state (a h -> 0)
// the scheme is the implicit midpoint rule (order 2); for a h >> 1 z_{n+1} is the steady
// deflection at vb and Fb the steady friction at vb, for any h. |z| stays within the model's
// invariant bound for any h (a property of M::step).
//
// Status: a measured candidate (docs/simulation.md, "Choosing the real-time scheme"), not used by
// sim::SystemIntegrator; the recommended fixed-step scheme is TR-BDF2 (trbdf2.hpp).
//
// Solution of r(w) = 0 (safeguarded Newton, e.g. Press et al., "Numerical Recipes", 3rd ed.,
// sec. 9.4, rtsafe): r is continuous, r'(w) from one ceres::Jet<double, 1> evaluation, and
//   r(w1) - r(w2) >= m (w1 - w2) - S   for all w1 > w2,
// where S = Sys::spread(z_n, h) bounds the variation of the non-monotone parts of h (Fb - A)
// (h times the range of sigma0 zb + sigma1 dz/h for LuGre, plus twice the amplitude of a gravity
// torque; the viscous and spring parts are non-decreasing in w). Hence a root lies in
//   [v_n, v_n + (S - r(v_n)) / m]  if r(v_n) < 0,     [v_n - (S + r(v_n)) / m, v_n]  otherwise,
// and the iteration keeps that bracket: start at w = v_n; Newton step w - r/r' when r' > 0 and
// the result stays in the bracket, else bisection; the bracket end on the side of the sign of r
// moves to each new iterate. Stop when the correction is <= atol + rtol |w| (NewtonSettings) or
// after max_iterations corrections (fixed budget; the last iterate is kept and the step counted as
// unconverged). When r has several roots (possible where the friction force falls with velocity
// faster than m / h), the one reached from v_n is taken.
//
// Cost per step: 1 + k evaluations of the residual in ceres::Jet<double, 1> (k = corrections,
// typically 1 or 2) plus one in double for the final state; each is one M::step and one
// friction average. No allocation.
//
// `Sys` provides (T = double and T = ceres::Jet<double, 1>; y = (x, v, state) in the system's
// own units or scaling for the state):
//   double inertia() const;                                     m [kg] or I [kg m^2], > 0
//   template <class T> T applied(double t, const T& x) const;  A(t, x)
//   template <class T> T friction(double s0, const T& v, double h, T& s1) const;
//       Fb for the velocity v held over h from state s0; writes the new state to s1
//   double spread(double s0, double h) const;                  S above, >= 0
#pragma once

#include <ceres/jet.h>

#include <Eigen/Core>
#include <cmath>
#include <type_traits>
#include <utility>

#include "frictionlab/integrate/newton.hpp"

namespace frictionlab {

template <class Sys>
class FrictionMidpoint {
 public:
  using Vector = Eigen::Matrix<double, 3, 1>;  ///< (x, v, friction state)
  using Jet1 = ceres::Jet<double, 1>;
  static constexpr int kOrder = 2;

  explicit FrictionMidpoint(Sys sys, NewtonSettings settings = {})
      : sys_(std::move(sys)), set_(settings) {
    if (set_.max_iterations < 1) set_.max_iterations = 1;
  }

  /// Advance y = (x, v, s) from t to t + h in place.
  void step(double t, Vector& y, double h) {
    const double x0 = y[0], v0 = y[1], s0 = y[2], m = sys_.inertia();
    const double tm = t + 0.5 * h;
    // r(w) and r'(w) (Jet) or r(w) and the new state (double).
    auto residual = [&](const auto& w, auto& s1) {
      using T = std::decay_t<decltype(w)>;
      const T vb = 0.5 * (v0 + w);
      const T xm = x0 + (0.5 * h) * vb;
      const T Fb = sys_.friction(s0, vb, h, s1);
      return m * (w - v0) - h * (sys_.applied(tm, xm) - Fb);
    };
    auto eval = [&](double w, double& r, double& dr) {
      Jet1 s1;
      const Jet1 rj = residual(Jet1(w, 0), s1);
      r = rj.a;
      dr = rj.v[0];
      ++cnt_.rhs_evals;
      ++cnt_.jac_evals;
    };
    double w = v0, r = 0, dr = 0;
    eval(w, r, dr);
    const double spread = sys_.spread(s0, h);
    double lo = 0, hi = 0;
    if (r < 0) {
      lo = v0;
      hi = v0 + (spread - r) / m;
    } else {
      hi = v0;
      lo = v0 - (spread + r) / m;
    }
    bool converged = r == 0;
    for (int k = 0; k < set_.max_iterations && !converged; ++k) {
      double wn = w - r / dr;
      if (!(dr > 0) || !(wn >= lo && wn <= hi)) wn = 0.5 * (lo + hi);
      const double dw = wn - w;
      w = wn;
      ++cnt_.iterations;
      if (std::abs(dw) <= set_.atol + set_.rtol * std::abs(w)) {
        converged = true;
        break;
      }
      eval(w, r, dr);
      if (r < 0) {
        lo = w;
      } else if (r > 0) {
        hi = w;
      } else {
        converged = true;
      }
    }
    if (!converged) ++cnt_.unconverged;
    double s1 = 0;
    residual(w, s1);
    ++cnt_.rhs_evals;
    y[0] = x0 + h * 0.5 * (v0 + w);
    y[1] = w;
    y[2] = s1;
    ++cnt_.steps;
  }

  const NewtonCounters& counters() const noexcept { return cnt_; }
  long steps() const noexcept { return cnt_.steps; }
  long rhs_evals() const noexcept { return cnt_.rhs_evals; }
  const NewtonSettings& settings() const noexcept { return set_; }
  const Sys& sys() const noexcept { return sys_; }

 private:
  Sys sys_;
  NewtonSettings set_;
  NewtonCounters cnt_{};
};

}  // namespace frictionlab
