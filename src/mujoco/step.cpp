// frictionlab mujoco: one evaluation of the servo joints inside MuJoCo's passive-force callback
// (include/frictionlab/mujoco/friction.h has the rule; models/actuator_budgets.hpp the budgets).
#include <algorithm>

#include "context.hpp"
#include "frictionlab/models/actuator_budgets.hpp"

namespace frictionlab::mujoco {
namespace {

/// The force of actuator i from its ctrl (or activation) and its length and velocity, for gain
/// types fixed / affine and bias types none / affine (the others: 0, not modelled).
double actuator_force(const mjModel& m, const mjData& d, int i, double velocity) {
  const mjtNum* g = row(m.actuator_gainprm, i, mjNGAIN);
  const mjtNum* b = row(m.actuator_biasprm, i, mjNBIAS);
  const double length = d.actuator_length[i];
  double gain = 0.0, bias = 0.0;
  if (m.actuator_gaintype[i] == mjGAIN_FIXED) gain = g[0];
  if (m.actuator_gaintype[i] == mjGAIN_AFFINE) gain = g[0] + g[1] * length + g[2] * velocity;
  if (m.actuator_biastype[i] == mjBIAS_AFFINE) bias = b[0] + b[1] * length + b[2] * velocity;
  double input = 0.0;
  if (m.actuator_dyntype[i] == mjDYN_NONE) {
    input = d.ctrl[i];
    if (m.actuator_ctrllimited[i]) {
      const mjtNum* range = row(m.actuator_ctrlrange, i, 2);
      input = std::clamp(input, range[0], range[1]);
    }
  } else {
    input = d.act[i - (m.nu - m.na)];
  }
  double force = gain * input + bias;
  if (m.actuator_forcelimited[i]) {
    const mjtNum* range = row(m.actuator_forcerange, i, 2);
    force = std::clamp(force, range[0], range[1]);
  }
  return force;
}

/// The smooth forces on every dof before frictionlab's: MuJoCo's passive forces, qfrc_applied,
/// minus gravity and Coriolis, plus the actuators' forces through their moments.
void smooth_forces(const mjModel& m, mjData& d, StepScratch& k) {
  mj_rne(&m, &d, 0, k.bias.data());
  for (int v = 0; v < m.nv; ++v) k.force[v] = d.qfrc_passive[v] + d.qfrc_applied[v] - k.bias[v];
  for (int i = 0; i < m.nu; ++i) {
    const mjtNum* moment = row(d.actuator_moment, i, m.nv);
    double velocity = 0.0;
    for (int v = 0; v < m.nv; ++v) velocity += moment[v] * d.qvel[v];
    const double f = actuator_force(m, d, i, velocity);
    if (f != 0.0)
      for (int v = 0; v < m.nv; ++v) k.force[v] += moment[v] * f;
  }
}

/// The firmware outputs of a new step (once per d.time; a re-evaluation keeps them).
void advance_firmware(flmj_friction& fl, const mjModel& m, const mjData& d) {
  if (fl.data == &d && fl.time == d.time) return;
  fl.data = &d;
  fl.time = d.time;
  for (ServoJoint& j : fl.servos) {
    j.firmware_input.dt = m.opt.timestep;
    const sim::ServoState x{d.qpos[j.qpos], d.qvel[j.dof]};
    j.last.control =
        sim::servo_firmware(j.constants, j.params, j.firmware_input, d.ctrl[j.goal], x, j.firmware);
  }
}

/// The matrix a step's velocity change solves with, factored: M, plus h diag(damping) under the
/// Euler integrator (which integrates damping implicitly); and A^-1 e_dof of every servo joint.
void factor_step_matrix(flmj_friction& fl, const mjModel& m, mjData& d) {
  StepScratch& k = fl.scratch;
  mj_fullM(&m, k.dense.data(), d.qM);
  const bool euler = m.opt.integrator == mjINT_EULER;
  for (int r = 0; r < m.nv; ++r)
    for (int c = 0; c < m.nv; ++c)
      k.A(r, c) = k.dense[static_cast<std::size_t>(r) * m.nv + c] +
                  (r == c && euler ? m.opt.timestep * m.dof_damping[r] : 0.0);
  k.llt.compute(k.A);
  for (std::size_t s = 0; s < fl.servos.size(); ++s) {
    k.unit.setZero();
    k.unit[fl.servos[s].dof] = 1.0;
    k.column.col(static_cast<Eigen::Index>(s)) = k.llt.solve(k.unit);
  }
}

}  // namespace

void apply(flmj_friction& fl, const mjModel& m, mjData& d) {
  if (fl.servos.empty()) return;
  advance_firmware(fl, m, d);
  StepScratch& k = fl.scratch;
  smooth_forces(m, d, k);
  for (ServoJoint& j : fl.servos) {
    const double qd = d.qvel[j.dof];
    j.last.external = k.force[j.dof];
    j.last.motor = sim::servo_motor_torque(j.constants, j.params, j.last.control, j.enabled, qd);
    k.force[j.dof] += j.last.motor;
  }
  factor_step_matrix(fl, m, d);
  for (int v = 0; v < m.nv; ++v) k.unit[v] = k.force[v];
  k.w = k.llt.solve(k.unit);
  const double h = m.opt.timestep;
  // the stopping-torque rule, joint after joint: the torque that ends this joint's step at rest
  // given the forces so far, clipped into the budget
  for (std::size_t s = 0; s < fl.servos.size(); ++s) {
    ServoJoint& j = fl.servos[s];
    const double qd = d.qvel[j.dof];
    const auto col = k.column.col(static_cast<Eigen::Index>(s));
    const double stopping = (qd + h * k.w[j.dof]) / (h * col[j.dof]);
    j.last.budget =
        friction_budget(j.params.model, j.params.friction, qd, j.last.motor, j.last.external);
    j.last.friction = -clip_friction(stopping, j.last.budget);
    k.w += col * j.last.friction;
    d.qfrc_passive[j.dof] += j.last.motor + j.last.friction;
  }
}

}  // namespace frictionlab::mujoco
