// frictionlab mujoco (private): the friction of a joint within one MuJoCo step, given what the
// step does without it. With the joint's velocity v, the velocity v_free it would end the step
// with under every force so far, and c = (A^-1)_ii, the velocity change per unit torque on it
// over the step divided by h (A: the matrix MuJoCo's step solves with), a friction torque f
// ends the step at v+ = v_free + h c f.
#pragma once

#include <ceres/jet.h>

#include "frictionlab/models/load_dependence.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace frictionlab::mujoco {

/// A Jet of one direction, the velocity's: F and dF/du of a LuGre joint in one evaluation.
using Dual = ceres::Jet<double, 1>;

/// A LuGre joint's parameters as lugre_step and lugre_force take them: in Jets, cast once where
/// the joint's parameters are set (cast_params<Dual>) rather than at every evaluation.
using LugreParams = LuGre<Dual>::Params;

/// A LuGre joint's step from velocity v, implicit in the velocity: over each substep of at most
/// kLugreSubstep, v+ solves
///   v+ = v_free - h c F(v+),  F(u) = sigma0 z+(u) + sigma1(u) (z+(u) - z) / h + sigma2 u,
/// with z+(u) the exact bristle update for the velocity u held over the substep (LuGre::step)
/// and the other forces' share of v_free - v spread evenly over the substeps. L-stable for any
/// sigma0 and step (the bristle's stiffness and damping act on the velocity the substep ends
/// with), so the bristle's pre-sliding and the sticking hold; of first order in the substep.
/// The torque MuJoCo applies over its whole step is the friction whose impulse ends the step at
/// the last substep's velocity. Each root is found by Newton's method on
/// R(u) = u - v_free + h c F(u), with F and dF/du from one evaluation in a Jet, safeguarded by a
/// bracket (R is continuous, R(u) -> +-inf as u -> +-inf, and |u| kinks it at rest).
struct LugreStep {
  double v_next = 0.0;  ///< v+ [rad/s]
  double z_next = 0.0;  ///< z+ [rad]
  double force = 0.0;   ///< the mean friction over the step [Nm]: the torque on the joint is -force
  int evaluations = 0;  ///< evaluations of F
};

/// The longest substep of lugre_step [s]: MuJoCo's 1 ms default timestep is one substep.
inline constexpr double kLugreSubstep = 1e-3;

/// `guess`: where to start looking (a previous solution), or NaN: at v_free; used when the step
/// is one substep. With a load dependence (`load`, models/load_dependence.hpp) under the applied
/// torque `tau` [Nm], held over the step, F(u) gains rise(tau, side of u) sigma0 z+(u) / g(u):
/// the bristles' elastic force scaled by 1 + rise / g, the joint LuGre model's load dependence
/// (sim/joint_model.hpp, JointModel::load; at u = 0 the side tau pushes towards).
LugreStep lugre_step(const LugreParams& p, double z, double v, double v_free, double hc, double h,
                     double guess, const LoadDependence<double>* load = nullptr,
                     double tau = 0.0) noexcept;

/// F(u), dF/du [Nm s/rad] and z+(u) of lugre_step's implicit equation for the velocity u held over
/// one step h (at most kLugreSubstep: no substeps), with its load dependence under tau: what a
/// solve of several coupled joints at once evaluates.
struct LugreForce {
  double force = 0.0, slope = 0.0, z_next = 0.0;
};
LugreForce lugre_force(const LugreParams& p, double z, double u, double h,
                       const LoadDependence<double>* load = nullptr, double tau = 0.0) noexcept;

/// A static model's friction by the stopping-torque rule: the budget g(v) + sigma2 |v| at the
/// step's starting velocity v (Fs at rest; a smoothed sign is taken as the exact one), the torque
/// -clip(v_free / (h c), budget): it stops the joint within the step if the budget allows. With a
/// load dependence the budget gains rise(tau, forward): the level on the side the joint would
/// move to (forward: v_free > 0) under the applied torque tau [Nm], as the joint model's Moreau
/// step takes it.
double static_budget(const StaticFriction<double>::Params& p, double v,
                     const LoadDependence<double>* load = nullptr, double tau = 0.0,
                     bool forward = true) noexcept;

}  // namespace frictionlab::mujoco
