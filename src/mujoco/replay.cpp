// frictionlab mujoco: servo logs replayed in MuJoCo (include/frictionlab/mujoco/replay.hpp).
#include "frictionlab/mujoco/replay.hpp"

#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "bench.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/servo_fit.hpp"

namespace frictionlab::mujoco {
namespace {

/// The log replayed in `m` (joint 0, actuator 0 the goal), from its first position and speed;
/// `torque(on)` switches the servo's torque. The mean |q - position| [rad].
template <class Torque>
double replay_mae(const mjModel& m, const data::ServoLog& log, Torque torque) {
  DataPtr d(mj_makeData(&m));
  d->qpos[0] = log.position.front();
  d->qvel[0] = log.speed.empty() ? 0.0 : log.speed.front();
  const long sub = std::lround(log.dt / m.opt.timestep);
  double sum = 0;
  for (std::size_t k = 0; k < log.position.size(); ++k) {
    sum += std::abs(d->qpos[0] - log.position[k]);
    torque(log.torque_enable.empty() || log.torque_enable[k] != 0);
    d->ctrl[0] = log.goal_position[k];
    for (long s = 0; s < sub; ++s) mj_step(&m, d.get());
  }
  return sum / static_cast<double>(log.position.size());
}

/// The exported position-form fragment at the log's kp and vin in the bench.
double replay_exported(const io::ActuatorSource& source, const data::ServoLog& log,
                       double timestep) {
  io::ActuatorMujocoOptions o;
  o.joint = "servo";
  o.kp = log.kp;
  o.vin = log.vin;
  const std::string fragment = io::export_actuator_mujoco(source, o).xml;
  const double vin = log.vin.value_or(source.setup.actuator.constants.vin);
  const double kv = io::actuator_mujoco_values(source.setup, log.kp, vin).viscous;
  const ModelPtr m = load_text(
      pendulum_bench_mjcf({log.mass, log.length, log.arm_mass}, source.setup.params.q_offset,
                          timestep, fragment_element(fragment, "<joint ", "/>"),
                          fragment_element(fragment, "<actuator>", "</actuator>")),
      log.file);
  const double damping_on = m->dof_damping[0];
  return replay_mae(*m, log, [&](bool on) {
    // a disabled servo opens the motor's circuit: no actuator, no back-EMF in the damping
    if (on) {
      m->opt.disableflags &= ~mjDSBL_ACTUATION;
    } else {
      m->opt.disableflags |= mjDSBL_ACTUATION;
    }
    m->dof_damping[0] = on ? damping_on : kv;
  });
}

/// The same log with frictionlab's servo friction inside MuJoCo.
double replay_inside(const io::ActuatorSource& source, const data::ServoLog& log, double timestep) {
  char joint[128];
  std::snprintf(joint, sizeof joint, "<joint name=\"servo\" armature=\"%.17g\"/>",
                source.setup.params.armature);
  const ModelPtr m = load_text(
      pendulum_bench_mjcf({log.mass, log.length, log.arm_mass}, source.setup.params.q_offset,
                          timestep, joint,
                          "<actuator><general name=\"goal\" joint=\"servo\" gainprm=\"0\" "
                          "biasprm=\"0 0 0\"/></actuator>"),
      log.file);
  io::MujocoFriction file;
  file.file = log.file;
  io::MujocoServoJoint s;
  s.joint = "servo";
  s.goal = "goal";
  s.source = source;
  s.kp = log.kp;
  s.kd = log.kd;
  s.ki = log.ki;
  s.vin = log.vin;
  file.servos.push_back(s);
  flmj_friction fl;
  bind(fl, *m, file);
  const PassiveScope scope(fl);
  return replay_mae(*m, log, [&](bool on) { fl.servos.front().enabled = on; });
}

}  // namespace

std::string pendulum_bench_mjcf(const sim::PendulumBench& bench, double q_offset, double timestep,
                                const std::string& joint, const std::string& actuator) {
  const double x = -bench.length * std::sin(q_offset), z = -bench.length * std::cos(q_offset);
  std::string xml =
      "<mujoco model=\"frictionlab_bench\">\n  <option timestep=\"" + format_exact(timestep) +
      "\" integrator=\"Euler\" gravity=\"0 0 -9.80665\"/>\n"
      "  <default><joint type=\"hinge\" axis=\"0 1 0\"/></default>\n"
      "  <worldbody>\n    <body name=\"link\">\n      " +
      joint + "\n      <inertial pos=\"" + format_exact(x) + " 0 " + format_exact(z) +
      "\" mass=\"" + format_exact(bench.mass) + "\" diaginertia=\"1e-12 1e-12 1e-12\"/>\n";
  if (bench.arm_mass > 0) {
    // the rod: a child body at the axis whose mass sits at L/2 with inertia m L^2 / 12
    const std::string i = format_exact(bench.arm_mass * bench.length * bench.length / 12.0);
    xml += "      <body name=\"arm\"><inertial pos=\"" + format_exact(x / 2) + " 0 " +
           format_exact(z / 2) + "\" mass=\"" + format_exact(bench.arm_mass) + "\" diaginertia=\"" +
           i + " " + i + " " + i + "\"/></body>\n";
  }
  return xml + "    </body>\n  </worldbody>\n  " + actuator + "\n</mujoco>\n";
}

ServoReplay replay_servo_logs(const io::ActuatorSource& source,
                              const std::vector<data::ServoLog>& logs, double timestep) {
  if (logs.empty()) throw std::invalid_argument("no logs to replay in MuJoCo");
  ServoReplay r;
  r.timestep = timestep;
  r.mujoco_version = mujoco_version();
  for (const data::ServoLog& log : logs) {
    const double steps = log.dt / timestep;
    if (!(log.dt > 0) || std::abs(steps - std::round(steps)) > 1e-9 * steps)
      throw std::invalid_argument(log.file + ": its step " + format_number(log.dt) +
                                  " s is not a multiple of MuJoCo's timestep " +
                                  format_number(timestep) + " s");
    ServoReplayLog l;
    l.file = log.file;
    l.kp = log.kp;
    l.trajectory = log.trajectory;
    for (const unsigned char e : log.torque_enable) l.torque_off = l.torque_off || e == 0;
    l.exported = replay_exported(source, log, timestep);
    l.inside = replay_inside(source, log, timestep);
    l.own = identify::servo_log_error(source.setup.actuator.constants, source.setup.params, log)
                .position_mae;
    r.exported += l.exported / static_cast<double>(logs.size());
    r.inside += l.inside / static_cast<double>(logs.size());
    r.own += l.own / static_cast<double>(logs.size());
    r.logs.push_back(std::move(l));
  }
  return r;
}

std::string replay_summary(const ServoReplay& r) {
  return "MuJoCo " + r.mujoco_version + " replay of " + std::to_string(r.logs.size()) +
         " log(s) at " + format_number(1e3 * r.timestep) + " ms, mean MAE: the exported fragment " +
         format_number(r.exported, 3) + " rad, frictionlab's friction inside MuJoCo " +
         format_number(r.inside, 3) + " rad, frictionlab's own simulation " +
         format_number(r.own, 3) + " rad (" + format_number(r.exported / r.own, 3) + "x, " +
         format_number(r.inside / r.own, 3) + "x)";
}

}  // namespace frictionlab::mujoco
