// The parameter sets and integrator options of the coupled-system tests
// (tests/test_coupled_systems.cpp), shared with benchmarks/bench_stick_slip.cpp, which measures the
// same systems.
#pragma once

#include <cmath>

#include "frictionlab/models/lugre.hpp"
#include "frictionlab/sim/systems.hpp"

namespace frictionlab::testing {

/// The LuGre parameters of Canudas de Wit et al. 1995 (and reference 003): sigma0 = 1e5 N/m,
/// sigma1 = sqrt(1e5) N s/m, sigma2 = 0.4 N s/m, Fc = 1 N, Fs = 1.5 N, vs = 1 mm/s, alpha = 2.
inline LuGre<double>::Params classic() {
  return {.sigma0 = 1e5,
          .sigma1 = std::sqrt(1e5),
          .sigma2 = 0.4,
          .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0)};
}

/// A hanging pendulum joint with inertia and gravity of the order of the DFKI pendulum's published
/// identification (J = 0.0626 kg m^2, m g cx ~ 1.0 N m), driven by a slow sine torque of
/// 0.5 N m at 0.2 Hz so that it sticks at every reversal.
inline sim::JointSpec pendulum_spec() {
  sim::JointSpec j;
  j.I = 0.0626;
  j.mgCx = 0.2;
  j.mgCy = -1.0;  // V(q) = mgCx sin q + mgCy cos q: minimum near q = 0 (hanging)
  j.tau_amp = 0.5;
  j.tau_freq = 0.2;
  j.tau_offset = 0.0;
  j.t_end = 10.0;
  return j;
}

/// Joint LuGre [N m, rad]: Fc = 0.18, Fs = 0.25 N m, vs = 0.05 rad/s, sigma0 = 1e3 N m/rad,
/// critically damped pre-sliding sigma1 = 2 sqrt(sigma0 I), sigma2 = 0.05 N m s/rad.
inline LuGre<double>::Params joint_lugre() {
  return {.sigma0 = 1e3,
          .sigma1 = 2.0 * std::sqrt(1e3 * 0.0626),
          .sigma2 = 0.05,
          .curve = StribeckCurve<double>::symmetric(0.18, 0.25, 0.05, 2.0)};
}

/// CVODE (BDF, adaptive) at relative tolerance rtol, output every output_dt.
inline sim::SimOptions cvode_opts(double rtol, double output_dt) {
  sim::SimOptions o;
  o.integrator = sim::SystemIntegrator::cvode;
  o.h = 0.0;  // no maximum step
  o.output_dt = output_dt;
  o.rtol = rtol;
  o.atol = rtol * 1e-2;  // on x [m], v [m/s] and the scaled state z / z_b [-]
  return o;
}

/// A fixed-step integrator at step h, output every output_dt (0: every step).
inline sim::SimOptions fixed_opts(sim::SystemIntegrator integrator, double h, double output_dt) {
  sim::SimOptions o;
  o.integrator = integrator;
  o.h = h;
  o.output_dt = output_dt;
  return o;
}

}  // namespace frictionlab::testing
