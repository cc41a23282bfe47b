// The synthetic pendulum joint shared by the joint tests and benchmarks/bench_joint.cpp:
// I = 0.0626 kg m^2, mgCx = 0.05 N m, mgCy = -1 N m, offset = -0.04 N m; joint LuGre friction
// sigma0 = 300 N m/rad, sigma1 = 2 N m s/rad, Fc = 0.15 N m, one Stribeck term Fs = 0.08 N m
// (delta = 1, Omega_s = 0.1 rad/s), cv = 0.05 N m s/rad. perturbed_start() is the same model with
// every parameter 15-30 % off (the offset at 0): the start of the output-error recovery tests.
#pragma once

#include "frictionlab/sim/joint_model.hpp"

namespace frictionlab::testing {

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
