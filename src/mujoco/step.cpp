// frictionlab mujoco: one evaluation of the servo joints inside MuJoCo's passive-force callback
// (include/frictionlab/mujoco/friction.h has the rule; models/actuator_budgets.hpp the budgets).
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "box_qp.hpp"
#include "context.hpp"
#include "friction_step.hpp"
#include "frictionlab/models/actuator_budgets.hpp"

namespace frictionlab::mujoco {
namespace {

/// The most Gauss-Seidel sweeps over the friction joints of one step.
constexpr int kMaxSweeps = 50;
/// The most evaluations of coupled LuGre joints' Newton iteration in one step (solve_coupled):
/// its iterates and the shortened steps of its line search.
constexpr int kMaxNewton = 24;
/// The shortest fraction of a Newton step the line search tries (then the step is taken as is).
constexpr double kMinNewtonStep = 1.0 / 64.0;

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
/// minus gravity and Coriolis, plus the actuators' forces through their moments and the bodies'
/// xfrc_applied.
/// The applied forces too (k.applied: qfrc_applied and the actuators', a load dependence's load).
void smooth_forces(const mjModel& m, mjData& d, StepScratch& k) {
  mj_rne(&m, &d, 0, k.bias.data());
  for (int v = 0; v < m.nv; ++v) k.applied[v] = d.qfrc_applied[v];
  for (int i = 0; i < m.nu; ++i) {
    const mjtNum* moment = row(d.actuator_moment, i, m.nv);
    double velocity = 0.0;
    for (int v = 0; v < m.nv; ++v) velocity += moment[v] * d.qvel[v];
    const double f = actuator_force(m, d, i, velocity);
    if (f != 0.0)
      for (int v = 0; v < m.nv; ++v) k.applied[v] += moment[v] * f;
  }
  for (int v = 0; v < m.nv; ++v) k.force[v] = d.qfrc_passive[v] + k.applied[v] - k.bias[v];
  // the Cartesian forces and torques on bodies (xfrc_applied, at each body's centre of mass as
  // MuJoCo applies them): external, not a joint's load
  for (int b = 1; b < m.nbody; ++b) {
    const mjtNum* w = row(d.xfrc_applied, b, 6);
    if (w[0] != 0.0 || w[1] != 0.0 || w[2] != 0.0 || w[3] != 0.0 || w[4] != 0.0 || w[5] != 0.0)
      mj_applyFT(&m, &d, w, w + 3, row(d.xipos, b, 3), b, k.force.data());
  }
}

/// A new step (once per d.time; a re-evaluation keeps the step's values): the LuGre states
/// move to the end of the step before, the firmware computes its outputs.
void advance_step(flmj_friction& fl, const mjModel& m, const mjData& d) {
  if (fl.data == &d && fl.time == d.time) return;
  const bool continues = fl.data == &d;
  fl.data = &d;
  fl.time = d.time;
  if (continues) {
    for (FrictionJoint& j : fl.frictions) j.z = j.z_next;
  } else {  // no friction of a step before to start the sweeps from (warm_start)
    for (ServoJoint& j : fl.servos) j.last.friction = 0.0;
    for (FrictionJoint& j : fl.frictions) j.last.friction = 0.0;
  }
  for (ServoJoint& j : fl.servos) {
    j.firmware_input.dt = m.opt.timestep;
    const sim::ServoState x{d.qpos[j.qpos], d.qvel[j.dof]};
    j.last.control =
        sim::servo_firmware(j.constants, j.params, j.firmware_input, d.ctrl[j.goal], x, j.firmware);
  }
}

/// The matrix a step's velocity change solves with, A = M, plus h diag(damping) under the Euler
/// integrator (which integrates damping implicitly); A^-1 of the smooth forces and of the
/// joints' unit vectors, at the joints' dofs (wf, coupling). Without damping under Euler, A is M
/// and MuJoCo's own factor of it serves: with M = L'DL (qLD) and X = D^-1/2 L'^-1 [select |
/// force] (mj_solveM2, half of a solve), the coupling is X_s' X_s and wf is X_s' X_f. Else A is
/// assembled and factored here.
void solve_step_matrix(flmj_friction& fl, const mjModel& m, mjData& d) {
  StepScratch& k = fl.scratch;
  const auto n = static_cast<int>(k.select.cols()) - 1;
  bool damped = false;
  if (m.opt.integrator == mjINT_EULER)
    for (int v = 0; v < m.nv; ++v) damped = damped || m.dof_damping[v] != 0.0;
  if (!damped) {
    // column j of an Eigen matrix is the nv numbers of vector j, as mj_solveM2 lays them out;
    // L'^-1 of a dof's unit vector is zero below the dof (its ancestors come first in MuJoCo's
    // order), so each product runs over the rows above the lower of the two dofs
    k.select.col(n) = k.force;
    mj_solveM2(&m, &d, k.solved.data(), k.select.data(), n + 1);
    const auto dot = [&k](int a, int b, int rows) {
      const double* x = k.solved.col(a).data();
      const double* y = k.solved.col(b).data();
      double sum = 0.0;
      for (int r = 0; r < rows; ++r) sum += x[r] * y[r];
      return sum;
    };
    for (int a = 0; a < n; ++a) {
      const int dof_a = k.dofs[static_cast<std::size_t>(a)];
      k.wf[a] = dot(a, n, dof_a + 1);
      for (int b = 0; b <= a; ++b)
        k.coupling(a, b) = k.coupling(b, a) =
            dot(a, b, std::min(dof_a, k.dofs[static_cast<std::size_t>(b)]) + 1);
    }
    return;
  }
  mj_fullM(&m, k.dense.data(), d.qM);
  for (int r = 0; r < m.nv; ++r)
    for (int c = 0; c < m.nv; ++c)
      k.A(r, c) = k.dense[static_cast<std::size_t>(r) * m.nv + c] +
                  (r == c ? m.opt.timestep * m.dof_damping[r] : 0.0);
  k.llt.compute(k.A);
  k.solved.leftCols(n) = k.llt.solve(k.select.leftCols(n));
  k.w = k.llt.solve(k.force);
  for (int a = 0; a < n; ++a) {
    k.wf[a] = k.w[k.dofs[static_cast<std::size_t>(a)]];
    for (int b = 0; b < n; ++b) k.coupling(a, b) = k.solved(k.dofs[static_cast<std::size_t>(a)], b);
  }
}

/// The servo joints' motor torques into the smooth forces (their external torques first), and
/// the friction budgets that depend on the step's start only: a servo's (at the joint's
/// temperature where its parameter file has a law: sim/servo.hpp's budget with the law's
/// scales) and a static model's on either side of motion (with a load dependence under the
/// joint's applied torque).
void servo_torques(flmj_friction& fl, const mjData& d, StepScratch& k) {
  for (ServoJoint& j : fl.servos) {
    const double qd = d.qvel[j.dof];
    const sim::ServoParams& p = j.params;
    j.last.external = k.force[j.dof];
    j.last.motor = sim::servo_motor_torque(j.constants, p, j.last.control, j.enabled, qd);
    k.force[j.dof] += j.last.motor;
    const double s = model_has_stribeck(p.model) ? actuator_stribeck_factor(p.friction, qd) : 1.0;
    j.last.budget = friction_budget_given_factor(p.model, p.friction, qd, j.last.motor,
                                                 j.last.external, s, j.level, j.viscous);
  }
  for (FrictionJoint& j : fl.frictions) {
    j.last.external = k.force[j.dof];
    if (j.lugre) continue;
    const double qd = d.qvel[j.dof], tau = k.applied[j.dof];
    const LoadDependence<double>* load = j.load ? &*j.load : nullptr;
    j.budget_pos = static_budget(j.static_params, qd, load, tau, true);
    j.budget_neg = static_budget(j.static_params, qd, load, tau, false);
  }
}

/// A friction joint's torque: LuGre's implicit step, or a static model's stopping-torque rule
/// with the budget on the side the joint would move to. `first`: the step's first sweep (a
/// LuGre joint's solve then starts from scratch, later ones from the sweep before); its model
/// evaluations counted in `stats`.
double model_friction(FrictionJoint& j, double qd, double v_free, double hc, double h, double tau,
                      bool first, flmj_stats& stats) {
  if (j.lugre) {
    const double guess = first ? std::numeric_limits<double>::quiet_NaN() : j.v_next;
    const LugreStep s =
        lugre_step(j.lugre_params, j.z, qd, v_free, hc, h, guess, j.load ? &*j.load : nullptr, tau);
    stats.lugre_evaluations += s.evaluations;
    j.z_next = s.z_next;
    j.v_next = s.v_next;
    j.last.state = s.z_next;
    j.last.budget = 0.0;
    return -s.force;
  }
  j.last.budget = v_free > 0.0 ? j.budget_pos : j.budget_neg;
  return -clip_friction(v_free / hc, j.last.budget);
}

/// The friction joint at position a among the n joints (the servos first).
FrictionJoint& friction_at(flmj_friction& fl, int a) {
  return fl.frictions[static_cast<std::size_t>(a) - fl.servos.size()];
}

/// The programme of the budget joints: v0 (the velocities without the joints' frictions), each
/// joint's bounds and H = h coupling; the bounds of a LuGre joint are set by evaluate_lugre.
void set_programme(const flmj_friction& fl, const mjData& d, double h, StepScratch& k) {
  Eigen::Index a = 0;
  for (const ServoJoint& j : fl.servos) {
    k.v0[a] = d.qvel[j.dof] + h * k.wf[a];
    k.lo[a] = -j.last.budget;
    k.hi[a++] = j.last.budget;
  }
  for (const FrictionJoint& j : fl.frictions) {
    k.v0[a] = d.qvel[j.dof] + h * k.wf[a];
    k.lo[a] = -j.budget_pos;  // against forward motion
    k.hi[a++] = j.budget_neg;
  }
  k.H = h * k.coupling;
}

/// The budget joints' frictions from the programme's solution k.f; the budget reported is that
/// on the side the friction acts against.
void take_budgets(flmj_friction& fl, const StepScratch& k) {
  Eigen::Index a = 0;
  for (ServoJoint& j : fl.servos) j.last.friction = k.f[a++];
  for (FrictionJoint& j : fl.frictions) {
    if (!j.lugre) {
      j.last.friction = k.f[a];
      j.last.budget = j.last.friction > 0.0 ? j.budget_neg : j.budget_pos;
    }
    ++a;
  }
}

/// Start the sweeps from the frictions of the step before (warm start: zero after a reset or
/// on another mjData), whose effect on the joints' free velocities goes into wf. Between steps
/// the frictions change little, so the sweeps converge in fewer passes to the same solution.
void warm_start(const flmj_friction& fl, StepScratch& k) {
  Eigen::Index a = 0;
  for (const ServoJoint& j : fl.servos) k.wf += k.coupling.col(a++) * j.last.friction;
  for (const FrictionJoint& j : fl.frictions) k.wf += k.coupling.col(a++) * j.last.friction;
}

/// The budget joints' frictions by the programme with the LuGre joints' frictions held (fixed
/// joints of the programme), their changes taken into wf: one block of a sweep, exact for the
/// budget joints' coupling among themselves. Returns the largest change and friction.
std::pair<double, double> budget_block(flmj_friction& fl, StepScratch& k) {
  Eigen::Index a = 0;
  for (const ServoJoint& j : fl.servos) k.f[a++] = j.last.friction;
  for (const FrictionJoint& j : fl.frictions) {
    k.f[a] = j.last.friction;
    if (j.lugre) k.lo[a] = k.hi[a] = j.last.friction;
    ++a;
  }
  k.qp.solve(k.H, k.v0, k.lo, k.hi, k.f);
  double change = 0.0, size = 0.0;
  a = 0;
  const auto take = [&](const flmj_torques& last) {
    const double delta = k.f[a] - last.friction;
    change = std::max(change, std::abs(delta));
    size = std::max(size, std::abs(k.f[a]));
    k.wf += k.coupling.col(a++) * delta;
  };
  for (const ServoJoint& j : fl.servos) take(j.last);
  for (const FrictionJoint& j : fl.frictions) {
    if (j.lugre)
      ++a;
    else
      take(j.last);
  }
  take_budgets(fl, k);
  return {change, size};
}

/// Joint after joint, each seeing the friction of the others: the velocity its step would end
/// with (v_free) and the change per unit torque (h c), then its friction; swept again while a
/// friction changes (projected Gauss-Seidel: the joints couple through the mass matrix, so a
/// joint stopped before another's friction came in would not stay stopped). With several
/// joints the budget joints are one block, solved exactly by the programme after the LuGre
/// joints in each sweep, so that they meet the stopping-torque rule even where the sweeps stop
/// at kMaxSweeps. One sweep is exact for a single joint.
void sweep(flmj_friction& fl, const mjData& d, double h, StepScratch& k) {
  const std::size_t joints = fl.servos.size() + fl.frictions.size();
  const bool block = joints > 1 && k.lugre.size() < joints;  // budget joints among several
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    ++fl.stats.sweeps;
    double change = 0.0, size = 0.0;
    Eigen::Index a = 0;
    // the joint's v_free without its own friction, and h c
    const auto free_velocity = [&](double qd, const flmj_torques& last) {
      return qd + h * (k.wf[a] - k.coupling(a, a) * last.friction);
    };
    const auto take = [&](flmj_torques& last, double friction) {
      change = std::max(change, std::abs(friction - last.friction));
      size = std::max(size, std::abs(friction));
      k.wf += k.coupling.col(a) * (friction - last.friction);
      last.friction = friction;
      ++a;
    };
    for (ServoJoint& j : fl.servos) {
      if (block) {
        ++a;
        continue;
      }
      // the stopping-torque rule within the servo's budget
      const double v_free = free_velocity(d.qvel[j.dof], j.last);
      take(j.last, -clip_friction(v_free / (h * k.coupling(a, a)), j.last.budget));
    }
    for (FrictionJoint& j : fl.frictions) {
      if (block && !j.lugre) {
        ++a;
        continue;
      }
      const double qd = d.qvel[j.dof];
      take(j.last, model_friction(j, qd, free_velocity(qd, j.last), h * k.coupling(a, a), h,
                                  k.applied[j.dof], sweep == 0, fl.stats));
    }
    if (block) {
      const auto [budget_change, budget_size] = budget_block(fl, k);
      change = std::max(change, budget_change);
      size = std::max(size, budget_size);
    }
    if (joints == 1 || change <= 1e-13 * size) return;
  }
  ++fl.stats.sweep_limits;
}

/// F, dF/du and z+ of every LuGre joint at its velocity in k.u; its friction -F into k.f and
/// into both of its bounds (a fixed joint of the programme).
void evaluate_lugre(flmj_friction& fl, double h, StepScratch& k) {
  for (std::size_t l = 0; l < k.lugre.size(); ++l) {
    const int a = k.lugre[l];
    const FrictionJoint& j = friction_at(fl, a);
    const auto i = static_cast<Eigen::Index>(l);
    const LugreForce e =
        lugre_force(j.lugre_params, j.z, k.u[i], h, j.load ? &*j.load : nullptr, k.applied[j.dof]);
    k.F[i] = e.force;
    k.dF[i] = e.slope;
    k.z_next[i] = e.z_next;
    k.f[a] = k.lo[a] = k.hi[a] = -e.force;
  }
  fl.stats.lugre_evaluations += static_cast<long long>(k.lugre.size());
}

/// Whether every LuGre joint's residual u - v is rounding against the velocities and the
/// velocity changes v = v0 + H f sums.
bool lugre_converged(const StepScratch& k) {
  for (std::size_t l = 0; l < k.lugre.size(); ++l) {
    const int a = k.lugre[l];
    double change = 0.0;
    for (Eigen::Index b = 0; b < k.f.size(); ++b) change += std::abs(k.H(a, b) * k.f[b]);
    const auto i = static_cast<Eigen::Index>(l);
    const double scale = std::abs(k.u[i]) + std::abs(k.v0[a]) + change;
    if (!(std::abs(k.r[i]) <= 1e-14 * scale)) return false;
  }
  return true;
}

/// Newton's Jacobian I + C diag(dF/du), factored in place (k.J, k.lu): C = H_LL - H_LS H_SS^-1
/// H_SL, the LuGre joints' velocity change per unit of their frictions with the budget joints S
/// that the programme left sticking taking their share (those at a bound hold their frictions).
/// False if H_SS is not positive definite to rounding or the Jacobian is singular.
bool factor_jacobian(StepScratch& k) {
  const auto nl = static_cast<Eigen::Index>(k.lugre.size());
  Eigen::Index m = 0;
  for (int i = 0; i < static_cast<int>(k.f.size()); ++i)
    if (k.qp.side(i) == BoxSide::stick) k.sticking[static_cast<std::size_t>(m++)] = i;
  const auto L = [&k](Eigen::Index l) { return k.lugre[static_cast<std::size_t>(l)]; };
  const auto S = [&k](Eigen::Index r) { return k.sticking[static_cast<std::size_t>(r)]; };
  for (Eigen::Index l = 0; l < nl; ++l)
    for (Eigen::Index q = 0; q < nl; ++q) k.J(l, q) = k.H(L(l), L(q));
  if (m > 0) {
    for (Eigen::Index r = 0; r < m; ++r) {
      for (Eigen::Index c = 0; c < m; ++c) k.Hss(r, c) = k.H(S(r), S(c));
      for (Eigen::Index q = 0; q < nl; ++q) k.X(r, q) = k.H(S(r), L(q));
    }
    Eigen::Ref<Eigen::MatrixXd> block = k.Hss.topLeftCorner(m, m);
    const Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(block);  // in place: no allocation
    if (llt.info() != Eigen::Success) return false;
    auto x = k.X.topRows(m);
    llt.solveInPlace(x);
    for (Eigen::Index l = 0; l < nl; ++l)
      for (Eigen::Index q = 0; q < nl; ++q)
        for (Eigen::Index r = 0; r < m; ++r) k.J(l, q) -= k.H(L(l), S(r)) * k.X(r, q);
  }
  for (Eigen::Index q = 0; q < nl; ++q) k.J.col(q) *= k.dF[q];
  k.J.diagonal().array() += 1.0;
  return k.lu.compute(k.J);
}

/// The residual r = u - v(u) of the LuGre joints' implicit steps at their velocities k.u: each
/// joint's F(u), the budget joints' frictions solved by the programme with the LuGre joints'
/// held, the velocities v = v0 + H f. False if the programme failed.
bool newton_residual(flmj_friction& fl, double h, bool budgets, StepScratch& k) {
  evaluate_lugre(fl, h, k);
  if (budgets && k.qp.solve(k.H, k.v0, k.lo, k.hi, k.f) < 0) return false;
  k.v.noalias() = k.H * k.f;
  k.v += k.v0;
  for (std::size_t l = 0; l < k.lugre.size(); ++l)
    k.r[static_cast<Eigen::Index>(l)] = k.u[static_cast<Eigen::Index>(l)] - k.v[k.lugre[l]];
  return true;
}

/// The solution at k.u taken as the step's: the budget joints' frictions, each LuGre joint's
/// velocity, bristle state and friction.
void take_coupled(flmj_friction& fl, bool budgets, const StepScratch& k) {
  if (budgets) take_budgets(fl, k);
  for (std::size_t l = 0; l < k.lugre.size(); ++l) {
    FrictionJoint& j = friction_at(fl, k.lugre[l]);
    const auto i = static_cast<Eigen::Index>(l);
    j.z_next = j.last.state = k.z_next[i];
    j.v_next = k.u[i];
    j.last.friction = -k.F[i];
    j.last.budget = 0.0;
  }
}

/// Coupled joints with LuGre joints among them, one substep: Newton's method on the LuGre
/// joints' implicit steps u = v0 + H f(u) (f = -F(u) for a LuGre joint), the budget joints'
/// frictions the programme's exact solution at each iterate, from the velocities the frictions
/// of the step before give. The same equations as the sweeps', whose joint-by-joint solves
/// converge only linearly in the coupling. Where a Stribeck curve's falling branch or a joint's
/// kink at rest makes a full step raise the residual, the step is halved until |r|^2 falls by
/// Armijo's rule (down to kMinNewtonStep, then taken as is). False if the iteration did not
/// converge within kMaxNewton evaluations: the sweeps then take the step.
bool solve_coupled(flmj_friction& fl, double h, StepScratch& k) {
  const bool budgets = k.lugre.size() < static_cast<std::size_t>(k.f.size());
  Eigen::Index a = 0;
  for (const ServoJoint& j : fl.servos) k.f[a++] = j.last.friction;
  for (const FrictionJoint& j : fl.frictions) k.f[a++] = j.last.friction;
  k.v.noalias() = k.H * k.f;
  k.v += k.v0;
  for (std::size_t l = 0; l < k.lugre.size(); ++l)
    k.u[static_cast<Eigen::Index>(l)] = k.v[k.lugre[l]];
  double merit_base = std::numeric_limits<double>::infinity(), step = 1.0;
  for (int evaluation = 0; evaluation < kMaxNewton; ++evaluation) {
    if (!newton_residual(fl, h, budgets, k)) break;
    if (lugre_converged(k)) {
      ++fl.stats.newton_solves;
      take_coupled(fl, budgets, k);
      return true;
    }
    const double merit = k.r.squaredNorm();
    if (merit > (1.0 - 2e-4 * step) * merit_base && step > kMinNewtonStep) {
      step *= 0.5;  // back along the last Newton step
      k.u = k.u_base - step * k.du;
      continue;
    }
    if (!factor_jacobian(k)) break;
    k.u_base = k.u;
    merit_base = merit;
    step = 1.0;
    k.du = k.r;
    k.lu.solve(k.J, k.du);
    k.u -= k.du;
    if (!k.u.allFinite()) break;
  }
  ++fl.stats.newton_stalls;
  return false;
}

/// Coupled joints whose frictions are all budgets (servos, static models): the stopping-torque
/// rule on all of them at once, solved exactly as a box-constrained programme (box_qp.hpp),
/// the sides of the step before to start from.
void solve_budgets(flmj_friction& fl, StepScratch& k) {
  k.qp.solve(k.H, k.v0, k.lo, k.hi, k.f);
  take_budgets(fl, k);
}

/// The joints' frictions over the step: budget joints (servos, static models) alone at once by
/// the programme; with LuGre joints among them at once by Newton's method (one substep), the
/// programme inside; a single joint, longer steps and a stalled Newton iteration by the sweeps.
void solve_frictions(flmj_friction& fl, const mjData& d, double h, StepScratch& k) {
  const std::size_t joints = fl.servos.size() + fl.frictions.size();
  if (joints > 1) set_programme(fl, d, h, k);
  if (joints > 1 && fl.scratch.lugre.empty()) {
    solve_budgets(fl, k);
    ++fl.stats.programme_solves;
    return;
  }
  if (joints > 1 && h <= kLugreSubstep && solve_coupled(fl, h, k)) return;
  warm_start(fl, k);
  sweep(fl, d, h, k);
}

}  // namespace

void apply(flmj_friction& fl, const mjModel& m, mjData& d) {
  if (fl.servos.empty() && fl.frictions.empty()) return;
  ++fl.stats.evaluations;
  advance_step(fl, m, d);
  StepScratch& k = fl.scratch;
  smooth_forces(m, d, k);
  servo_torques(fl, d, k);
  solve_step_matrix(fl, m, d);
  solve_frictions(fl, d, m.opt.timestep, k);
  for (const ServoJoint& j : fl.servos) d.qfrc_passive[j.dof] += j.last.motor + j.last.friction;
  for (const FrictionJoint& j : fl.frictions) d.qfrc_passive[j.dof] += j.last.friction;
}

}  // namespace frictionlab::mujoco
