// frictionlab: coupled mechanical systems with dynamic friction (equations: systems.hpp and
// docs/simulation.md).
//
// State vector y = (x, v, s) [m, m/s, -] (joint: q [rad], qd [rad/s], s) where s = z / z_b is
// the friction state scaled by the model's invariant bound z_b = M::state_bound(p) [m]
// (LuGre, elasto-plastic: max g / sigma0; Dahl: Fc / sigma0), so that |s| <= 1 on the invariant
// set. The scaling is for CVODE: its absolute tolerance `atol` then means the same thing for s
// as for x and v (unscaled, z ~ 1e-5 m would be below any sensible atol), and the Jacobian entry
// dF/ds = sigma0 z_b ~ Fs is O(1) instead of sigma0 ~ 1e5. ROS2 and Newton's method are invariant
// under a constant linear change of variables, so the fixed-step results do not depend on the
// scaling (up to rounding), except through TR-BDF2's Newton stopping test, which, like CVODE's
// tolerances, is applied to the scaled state.
//
// Right-hand sides: sim/system_rhs.hpp (templated on the scalar so that ceres::Jet gives exact
// Jacobians).
#include "frictionlab/sim/systems.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <exception>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "checks.hpp"
#include "cvode.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/integrate/rosenbrock.hpp"
#include "frictionlab/integrate/trbdf2.hpp"
#include "frictionlab/models/validation.hpp"
#include "frictionlab/sim/system_rhs.hpp"

namespace frictionlab::sim {
namespace {

using detail::bad;
using detail::check_friction;
using detail::Checker;
using detail::kTrBdf2Newton;

constexpr int kDim = 3;
using Vec = Eigen::Matrix<double, kDim, 1>;
using Jet = RhsJet<kDim>;

/// Largest number of output samples a call may produce (5 doubles each: 400 MB at the limit).
constexpr double kMaxSamples = 1e7;
/// Largest number of ROS2 steps (keeps the step count far inside `long`).
constexpr double kMaxSteps = 1e12;
/// Relative tolerance for "integer multiple" checks of t_end / h and output_dt / h.
constexpr double kMultipleTol = 1e-9;

/// A friction family on the scaled state, in double and in the integrators' Jets.
template <template <class> class M>
using Friction = ScaledFriction<M, double, Jet>;

// ---------------------------------------------------------------------------------------------
// Output grid and validation of the options

/// Whether the integrator takes fixed steps h (everything but cvode).
bool fixed_step(SystemIntegrator i) { return i != SystemIntegrator::cvode; }

struct Plan {
  // fixed-step integrators
  long n_steps = 0;    ///< number of steps N = t_end / h
  double h = 0;        ///< step actually used: t_end / N (equal to opt.h within 1e-9 relative)
  long out_every = 1;  ///< output every K steps (and after the last one)
  // cvode
  double dt_out = 0;   ///< output spacing
  long n_regular = 0;  ///< outputs at j*dt_out for j = 1..n_regular (all < t_end), then t_end
  long n_samples = 0;
};

/// Whether x is an integer multiple n >= 1 of unit within kMultipleTol (relative to x).
bool integer_multiple(double x, double unit, long& n) {
  const double r = x / unit;
  if (!(r < kMaxSteps)) return false;
  n = std::lround(r);
  return n >= 1 && std::abs(static_cast<double>(n) * unit - x) <= kMultipleTol * x;
}

Plan plan_output(const char* sys, double t_end, const SimOptions& opt) {
  const Checker c{sys};
  c.positive("t_end", t_end);
  c.finite("h", opt.h);
  c.nonnegative("output_dt", opt.output_dt);
  c.positive("rtol", opt.rtol);
  c.positive("atol", opt.atol);
  Plan pl;
  if (fixed_step(opt.integrator)) {
    c.positive("h", opt.h);
    if (!(t_end / opt.h < kMaxSteps))
      bad(sys, "h",
          "is too small: t_end / h = " + format_exact(t_end / opt.h) + " steps exceeds " +
              format_exact(kMaxSteps));
    if (!integer_multiple(t_end, opt.h, pl.n_steps))
      bad(sys, "h",
          "must divide t_end = " + format_exact(t_end) + " into an integer number of steps (got " +
              format_exact(opt.h) + ", t_end / h = " + format_exact(t_end / opt.h) + ")");
    pl.h = t_end / static_cast<double>(pl.n_steps);
    if (opt.output_dt > 0 && !integer_multiple(opt.output_dt, opt.h, pl.out_every))
      bad(sys, "output_dt",
          "must be an integer multiple of h = " + format_exact(opt.h) + " for the " +
              integrator_name(opt.integrator) + " integrator (got " + format_exact(opt.output_dt) +
              ")");
    pl.n_samples = pl.n_steps / pl.out_every + 1 + (pl.n_steps % pl.out_every != 0 ? 1 : 0);
  } else {
    pl.dt_out = opt.output_dt > 0 ? opt.output_dt : opt.h;
    if (!(pl.dt_out > 0))
      bad(sys, "output_dt",
          "must be > 0 when h <= 0 with the cvode integrator (got " + format_exact(opt.output_dt) +
              ")");
    const double r = t_end / pl.dt_out;
    if (!(r < kMaxSamples))
      bad(sys, opt.output_dt > 0 ? "output_dt" : "h",
          "gives too many output samples: t_end / " + format_exact(pl.dt_out) + " = " +
              format_exact(r) + " exceeds " + format_exact(kMaxSamples));
    // Regular samples strictly before t_end (a sample within 1e-9 relative of t_end is t_end).
    pl.n_regular = static_cast<long>(std::ceil(r * (1 - kMultipleTol))) - 1;
    if (pl.n_regular < 0) pl.n_regular = 0;
    pl.n_samples = pl.n_regular + 2;
  }
  if (!(static_cast<double>(pl.n_samples) <= kMaxSamples))
    bad(sys, opt.output_dt > 0 ? "output_dt" : "h",
        "gives too many output samples (" + format_exact(static_cast<double>(pl.n_samples)) +
            ", limit " + format_exact(kMaxSamples) + ")");
  return pl;
}

// ---------------------------------------------------------------------------------------------
// Integration drivers

template <class Rhs>
struct Recorder {
  const Rhs& rhs;
  SystemTrajectory& out;

  void add(double t, const Vec& y) {
    const double vr = rhs.relative_velocity(y);
    double F = 0, sdot = 0;
    rhs.fr.eval(y[2], vr, F, sdot);
    out.t.push_back(t);
    out.x.push_back(y[0]);
    out.v.push_back(y[1]);
    out.F.push_back(F);
    out.states[0].push_back(y[2] * rhs.fr.zb);
  }
};

template <class Rhs>
SystemTrajectory integrate(const char* sys, const Rhs& rhs, const Vec& y0, double t_end,
                           const SimOptions& opt, const Plan& pl) {
  SystemTrajectory out;
  out.state_names = {"z"};
  out.states.resize(1);
  const auto n = static_cast<std::size_t>(pl.n_samples);
  out.t.reserve(n);
  out.x.reserve(n);
  out.v.reserve(n);
  out.F.reserve(n);
  out.states[0].reserve(n);
  Recorder<Rhs> rec{rhs, out};
  Vec y = y0;
  rec.add(0.0, y);
  if (fixed_step(opt.integrator)) {
    auto run = [&](auto& stepper) {
      for (long i = 1; i <= pl.n_steps; ++i) {
        const double t0 = static_cast<double>(i - 1) * pl.h;
        stepper.step(t0, y, pl.h);
        if (!y.allFinite())
          throw std::runtime_error(std::string(sys) + ": " + integrator_name(opt.integrator) +
                                   ": state not finite after the step from t = " +
                                   format_exact(t0) + " (h = " + format_exact(pl.h) + ")");
        if (i == pl.n_steps) {
          rec.add(t_end, y);
          if (opt.on_output) opt.on_output(t_end);
        } else if (i % pl.out_every == 0) {
          rec.add(static_cast<double>(i) * pl.h, y);
          if (opt.on_output) opt.on_output(static_cast<double>(i) * pl.h);
        }
      }
      out.steps = stepper.steps();
      out.rhs_evals = stepper.rhs_evals();
    };
    if (opt.integrator == SystemIntegrator::trbdf2) {
      TrBdf2<kDim, const Rhs&> st(rhs, kTrBdf2Newton);
      run(st);
      out.unconverged_stages = st.counters().unconverged;
    } else {
      Ros2<kDim, const Rhs&> st(rhs);
      run(st);
    }
  } else {
    detail::CvodeSettings cs;
    cs.rtol = opt.rtol;
    cs.atol = opt.atol;
    cs.max_step = opt.h > 0 ? opt.h : 0.0;
    cs.t_stop = t_end;
    const detail::OdeSystem ode = detail::make_ode_system<kDim>(rhs);
    std::exception_ptr stop;  // what on_output threw: propagated as it is, not as a solver error
    const auto output = [&](double tt) {
      if (!opt.on_output) return true;
      try {
        opt.on_output(tt);
        return true;
      } catch (...) {
        stop = std::current_exception();
        return false;
      }
    };
    try {
      detail::Cvode cv(ode, 0.0, y.data(), cs);
      bool go = true;
      for (long j = 1; go && j <= pl.n_regular; ++j) {
        const double tj = static_cast<double>(j) * pl.dt_out;
        cv.advance_to(tj, y.data());
        rec.add(tj, y);
        go = output(tj);
      }
      if (go) {
        cv.advance_to(t_end, y.data());
        rec.add(t_end, y);
        output(t_end);
      }
      const detail::CvodeStats st = cv.stats();
      out.steps = st.steps;
      // Every evaluation of f counts: CVODE's own (double) plus the Jet ones behind each Jacobian.
      out.rhs_evals = st.rhs_evals + st.jac_evals;
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(std::string(sys) + ": " + e.what());
    }
    if (stop) std::rethrow_exception(stop);
  }
  return out;
}

/// Dispatch on the friction model held in the variant: fn(Friction<M>) for the right M.
template <class Fn>
SystemTrajectory with_friction(const char* sys, const FrictionParams& friction, Fn&& fn) {
  return std::visit(
      [&](const auto& p) -> SystemTrajectory {
        using P = std::decay_t<decltype(p)>;
        check_friction(sys, p);
        if constexpr (std::is_same_v<P, LuGre<double>::Params>) {
          return fn(Friction<LuGre>(p));
        } else if constexpr (std::is_same_v<P, Dahl<double>::Params>) {
          return fn(Friction<Dahl>(p));
        } else {
          static_assert(std::is_same_v<P, ElastoPlastic<double>::Params>);
          return fn(Friction<ElastoPlastic>(p));
        }
      },
      friction);
}

}  // namespace

SystemTrajectory simulate_stick_slip(const StickSlipSpec& spec, const FrictionParams& friction,
                                     const SimOptions& opt) {
  const char* sys = "stick-slip";  // the system's name in SYSTEM.json (also for belt = true)
  const Checker c{sys};
  c.positive("m", spec.m);
  c.positive("k", spec.k);
  c.finite("v_drive", spec.v_drive);
  c.finite("x0", spec.x0);
  c.finite("v0", spec.v0);
  const Plan pl = plan_output(sys, spec.t_end, opt);
  const Vec y0(spec.x0, spec.v0, 0.0);  // relaxed bristles (z = 0) at t = 0
  return with_friction(sys, friction, [&]<template <class> class M>(Friction<M> fr) {
    const StickSlipRhs<Friction<M>> rhs{std::move(fr), spec.m, spec.k, spec.v_drive, spec.belt};
    return integrate(sys, rhs, y0, spec.t_end, opt, pl);
  });
}

SystemTrajectory simulate_joint(const JointSpec& spec, const FrictionParams& friction,
                                const SimOptions& opt) {
  const char* sys = "joint";
  const Checker c{sys};
  c.positive("I", spec.I);
  c.finite("mgCx", spec.mgCx);
  c.finite("mgCy", spec.mgCy);
  c.finite("tau_offset", spec.tau_offset);
  c.finite("tau_amp", spec.tau_amp);
  c.finite("tau_freq", spec.tau_freq);
  c.finite("q0", spec.q0);
  c.finite("qd0", spec.qd0);
  if (spec.tau_t.size() != spec.tau.size())
    throw std::invalid_argument(
        std::string(sys) + ": parameters 'tau_t' and 'tau' must have the same size (got " +
        std::to_string(spec.tau_t.size()) + " and " + std::to_string(spec.tau.size()) + ")");
  for (std::size_t i = 0; i < spec.tau_t.size(); ++i) {
    c.finite("tau_t[" + std::to_string(i) + "]", spec.tau_t[i]);
    c.finite("tau[" + std::to_string(i) + "]", spec.tau[i]);
    if (i > 0 && !(spec.tau_t[i] > spec.tau_t[i - 1]))
      bad(sys, "tau_t",
          "must be strictly increasing (tau_t[" + std::to_string(i) +
              "] = " + format_exact(spec.tau_t[i]) + " after tau_t[" + std::to_string(i - 1) +
              "] = " + format_exact(spec.tau_t[i - 1]) + ")");
  }
  const Plan pl = plan_output(sys, spec.t_end, opt);
  TorqueInput tau;
  tau.t = spec.tau_t;
  tau.tau = spec.tau;
  tau.offset = spec.tau_offset;
  tau.amp = spec.tau_amp;
  tau.freq = spec.tau_freq;
  const Vec y0(spec.q0, spec.qd0, 0.0);  // relaxed bristles (z = 0) at t = 0
  return with_friction(sys, friction, [&]<template <class> class M>(Friction<M> fr) {
    const JointRhs<Friction<M>> rhs{std::move(fr), spec.I, spec.mgCx, spec.mgCy, tau};
    return integrate(sys, rhs, y0, spec.t_end, opt, pl);
  });
}

const char* integrator_name(SystemIntegrator i) {
  return name_of(kSystemIntegratorNames, i, "unknown").data();
}

std::optional<SystemIntegrator> parse_integrator(std::string_view name) {
  return parse_name(kSystemIntegratorNames, name);
}

}  // namespace frictionlab::sim
