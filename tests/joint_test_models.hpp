// The synthetic pendulum joint shared by the joint tests and benchmarks/bench_joint.cpp:
// I = 0.0626 kg m^2, mgCx = 0.05 N m, mgCy = -1 N m, offset = -0.04 N m; joint LuGre friction
// sigma0 = 300 N m/rad, sigma1 = 2 N m s/rad, Fc = 0.15 N m, one Stribeck term Fs = 0.08 N m
// (delta = 1, Omega_s = 0.1 rad/s), cv = 0.05 N m s/rad. perturbed_start() is the same model with
// every parameter 15-30 % off (the offset at 0): the start of the output-error recovery tests.
// multisine_torque, measured_motion and oe_options: those tests' records and options; estimate:
// the lookup of a fitted parameter by name, for every joint fit; coulomb_viscous and horizontal:
// the joint of the closed-form tests; print_lugre_fit: the line an oe fit of the pendulum prints.
#pragma once

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_oe.hpp"
#include "frictionlab/sim/joint_model.hpp"

namespace frictionlab::testing {

/// The multisine torque of the output-error tests [N m] at t [s]: 0.5, 1.3 and 3.1 Hz.
inline double multisine_torque(double t) {
  constexpr double kPi = 3.14159265358979323846;
  return 0.7 * std::sin(2 * kPi * 0.5 * t) + 0.35 * std::sin(2 * kPi * 1.3 * t + 1) +
         0.1 * std::sin(2 * kPi * 3.1 * t + 2);
}

/// The motion of `truth` under the applied torque tau at t (simulated at 0.1 ms steps from rest,
/// at the temperatures `temperature` when given), measured with white noise of 1e-4 rad and
/// 1e-3 rad/s on the position and velocity (seed 5): a record for oe, which needs no
/// acceleration (zeros).
inline identify::JointData measured_motion(const sim::JointModel& truth, std::vector<double> t,
                                           std::vector<double> tau,
                                           std::vector<double> temperature = {}) {
  const auto tr = sim::simulate_joint_model(truth, t, tau, {}, {1e-4}, temperature);
  identify::JointData d;
  d.source = "synthetic";
  d.t = std::move(t);
  d.tau = std::move(tau);
  d.temperature = std::move(temperature);
  std::mt19937 rng(5);
  std::normal_distribution<double> nq(0.0, 1e-4), nv(0.0, 1e-3);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    d.q.push_back(tr.q[k] + nq(rng));
    d.qd.push_back(tr.qd[k] + nv(rng));
  }
  d.qdd.assign(d.t.size(), 0.0);
  return d;
}

/// oe's options in those tests: both cores, steps of 2 ms, at most `max_iterations` iterations.
inline identify::JointOeOptions oe_options(int max_iterations = 50) {
  identify::JointOeOptions o;
  o.threads = 2;
  o.max_step = 2e-3;
  o.max_iterations = max_iterations;
  return o;
}

/// The estimate called `name` of a joint fit: any result with `parameters` (oe, idim, sr3);
/// std::runtime_error when there is none.
template <class JointFitResult>
const identify::ParameterEstimate& estimate(const JointFitResult& r, const std::string& name) {
  for (const auto& e : r.parameters)
    if (e.name == name) return e;
  throw std::runtime_error("no parameter " + name);
}

/// Prints the parameters of `r`, an oe fit of a joint LuGre model (one Stribeck term, linear
/// viscous), its iterations and costs: "[measured] <label>: I ... cost <initial> -> <final>".
inline void print_lugre_fit(const char* label, const identify::JointOeResult& r) {
  const auto& q = std::get<JointLuGre<double>::Params>(r.model.friction);
  std::printf(
      "[measured] %s: I %.5g mgCx %.4g mgCy %.5g offset %.4g sigma0 %.4g sigma1 %.4g Fc %.4g "
      "Fs %.4g Omega_s %.4g cv %.4g; %d iterations, cost %.3g -> %.3g\n",
      label, r.model.I, r.model.mgCx, r.model.mgCy, r.model.offset, q.sigma0, q.sigma1, q.Fc,
      q.Fs[0], q.Omega_s, q.cv[0], r.iterations, r.initial_cost, r.final_cost);
}

/// Coulomb levels Fc_pos / Fc_neg [N m] (no Stribeck rise) and viscous coefficient Fv
/// [N m s/rad]: the static friction of the closed-form joint tests.
inline StaticFriction<double>::Params coulomb_viscous(double Fc_pos, double Fc_neg, double Fv) {
  StaticFriction<double>::Params p;
  p.curve =
      StribeckCurve<double>{Fc_pos, Fc_neg, Fc_pos, Fc_neg, 1.0, 1.0, StribeckShape::exponential};
  p.sigma2 = Fv;
  return p;
}

/// A joint without gravity load or offset (no mgCx, mgCy terms): inertia I [kg m^2] and the
/// static friction f.
inline sim::JointModel horizontal(double I, const StaticFriction<double>::Params& f) {
  sim::JointModel m;
  m.structure = {false, false};
  m.I = I;
  m.friction = f;
  return m;
}

inline sim::JointModel lugre_pendulum() {
  sim::JointModel m;
  m.I = 0.0626;
  m.mgCx = 0.05;
  m.mgCy = -1.0;
  m.offset = -0.04;
  m.friction = JointLuGre<double>::Params{.sigma0 = 300.0,
                                          .sigma1 = 2.0,
                                          .Fc = 0.15,
                                          .n_viscous = 1,
                                          .cv = {0.05},
                                          .n_stribeck = 1,
                                          .Fs = {0.08},
                                          .delta = {1.0},
                                          .Omega_s = 0.1};
  return m;
}

inline sim::JointModel perturbed_start(const sim::JointModel& truth) {
  sim::JointModel m = truth;
  m.I *= 1.15;
  m.mgCy *= 0.85;
  m.offset = 0;
  auto& p = std::get<JointLuGre<double>::Params>(m.friction);
  p.sigma0 *= 0.7;
  p.sigma1 *= 1.3;
  p.Fc *= 1.2;
  p.Fs[0] *= 0.8;
  p.Omega_s *= 1.2;
  p.cv[0] *= 0.8;
  return m;
}

}  // namespace frictionlab::testing
