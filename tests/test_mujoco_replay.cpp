// The MJCF that `export mujoco` writes, loaded and run by MuJoCo itself (Debian's libmujoco-dev
// 2.2.2, C API; built only where CMake finds it, tests/mujoco.cmake):
//  - a servo actuator's position form (joint armature, damping, frictionloss and a position
//    actuator with forcerange) inside the XL330 logs' pendulum bench (a point mass `mass` at
//    `length`, q = 0 hanging down, g = 9.80665 m/s^2), each log replayed from its goal positions
//    (Euler, 1 ms, ctrl = the goal held over the log's 5 ms entry; the actuator off and the
//    back-EMF out of the damping where the log disables the torque) against the log and against
//    frictionlab's own re-simulation of the same parameter file (identify::servo_log_error);
//  - a friction fit's frictionloss/damping fragment on a free rotor under a constant torque:
//    the sticking below Fc and the steady velocity (tau - Fc) / sigma2 above it.
// The dcmotor forms (MuJoCo 3.12+) are not loadable in 2.2.2 and stay checked against MuJoCo's
// XML reference only (tests/test_actuator_export.cpp, tests/test_lugre_xml.cpp).
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "mujoco_bench.hpp"

namespace frictionlab {
namespace {

const std::string kServoDir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/servo_xl330";
constexpr double kTimestep = 1e-3;  // [s]

/// The element of `fragment` from `open` to `close` (inclusive), after the fragment's leading
/// comment (which names the elements too); fails the test if absent.
std::string element(const std::string& fragment, const std::string& open,
                    const std::string& close) {
  const auto body = fragment.find("-->");
  const auto a = fragment.find(open, body == std::string::npos ? 0 : body);
  const auto b = a == std::string::npos ? a : fragment.find(close, a);
  EXPECT_NE(b, std::string::npos) << "no " << open << " in\n" << fragment;
  if (b == std::string::npos) return {};
  return fragment.substr(a, b + close.size() - a);
}

/// A model around the fragment's joint element and actuator section (if any): one body on a
/// hinge about y with a point mass `mass` [kg] at `length` [m] below it (q = 0 hanging down;
/// gravity off for mass 0 and a rotor of inertia `inertia` [kg m^2] instead).
std::string bench_xml(const std::string& fragment, double mass, double length, double inertia) {
  const std::string joint = element(fragment, "<joint ", "/>");
  const bool actuated = fragment.find("<actuator>") != std::string::npos;
  const std::string actuator = actuated ? element(fragment, "<actuator>", "</actuator>") : "";
  char body[256];
  if (mass > 0) {
    std::snprintf(body, sizeof body,
                  "<inertial pos=\"0 0 %.17g\" mass=\"%.17g\" diaginertia=\"1e-12 1e-12 1e-12\"/>",
                  -length, mass);
  } else {
    std::snprintf(body, sizeof body,
                  "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"%.17g %.17g %.17g\"/>", inertia,
                  inertia, inertia);
  }
  return "<mujoco model=\"frictionlab_bench\">\n"
         "  <option timestep=\"0.001\" integrator=\"Euler\" gravity=\"0 0 " +
         std::string(mass > 0 ? "-9.80665" : "0") +
         "\"/>\n"
         "  <default><joint type=\"hinge\" axis=\"0 1 0\"/></default>\n"
         "  <worldbody>\n    <body name=\"link\">\n      " +
         joint + "\n      " + body + "\n    </body>\n  </worldbody>\n" + actuator + "\n</mujoco>\n";
}

using Model = test::MjModelPtr;
using Data = test::MjDataPtr;

Model load(const std::string& xml, const std::string& name) { return test::load_mjcf(xml, name); }

/// The log replayed in MuJoCo from its first position and speed, ctrl = the goal of entry k
/// over the step to entry k + 1; the mean |q - position| over the entries [rad]. Where the log
/// disables the torque the actuator is switched off (mjDSBL_ACTUATION) and the joint damping set
/// to `damping_off` (the fit's Kv: the back-EMF kt^2/R of the position form needs the motor's
/// circuit, which a disabled servo opens); docs/actuators.md, "MuJoCo".
double replay_mae(mjModel& m, const data::ServoLog& log, double damping_off) {
  Data d(mj_makeData(&m));
  const double damping_on = m.dof_damping[0];
  d->qpos[0] = log.position.front();
  d->qvel[0] = log.speed.empty() ? 0.0 : log.speed.front();
  const int sub = static_cast<int>(std::lround(log.dt / kTimestep));
  double sum = 0;
  for (std::size_t k = 0; k < log.position.size(); ++k) {
    sum += std::abs(d->qpos[0] - log.position[k]);
    const bool on = log.torque_enable.empty() || log.torque_enable[k] != 0;
    if (on) {
      m.opt.disableflags &= ~mjDSBL_ACTUATION;
    } else {
      m.opt.disableflags |= mjDSBL_ACTUATION;
    }
    m.dof_damping[0] = on ? damping_on : damping_off;
    d->ctrl[0] = log.goal_position[k];
    for (int s = 0; s < sub; ++s) mj_step(&m, d.get());
  }
  m.dof_damping[0] = damping_on;
  m.opt.disableflags &= ~mjDSBL_ACTUATION;
  return sum / static_cast<double>(log.position.size());
}

struct Replay {
  double mujoco = 0, own = 0;  // mean MAE over the logs that keep the torque on [rad]
  int logs = 0;
  double mujoco_off = 0, own_off = 0;  // the same over the logs that disable it
  int logs_off = 0;
};

/// Every log replayed with the position-form export of `params` at the log's kp and vin, against
/// frictionlab's own re-simulation of the parameter file.
Replay replay_logs(const std::string& params) {
  const auto source = io::read_actuator_source(kServoDir + "/reference_params/" + params);
  Replay r;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kServoDir + "/logs"))
    files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    const data::ServoLog log = io::read_servo_log(file.string()).log;
    bool enabled = true;
    for (unsigned char e : log.torque_enable) enabled = enabled && e != 0;
    io::ActuatorMujocoOptions o;
    o.joint = "servo";
    o.kp = log.kp;
    o.vin = log.vin;
    const auto fragment = io::export_actuator_mujoco(source, o).xml;
    const double kv = io::actuator_mujoco_values(source.setup, log.kp, *log.vin).viscous;
    const Model m = load(bench_xml(fragment, log.mass, log.length, 0.0), "xl330_bench");
    if (!m) return r;
    EXPECT_EQ(m->nu, 1);
    EXPECT_EQ(m->opt.integrator, mjINT_EULER);
    const double mj = replay_mae(*m, log, kv);
    const double own =
        identify::servo_log_error(source.setup.actuator.constants, source.setup.params, log)
            .position_mae;
    std::printf(
        "[measured] %s %s (kp %g, %s, torque %s): MuJoCo %.4f rad, frictionlab %.4f rad "
        "(%.2fx)\n",
        params.c_str(), file.filename().c_str(), log.kp, log.trajectory.c_str(),
        enabled ? "on" : "off at times", mj, own, mj / own);
    EXPECT_TRUE(std::isfinite(mj));
    (enabled ? r.mujoco : r.mujoco_off) += mj;
    (enabled ? r.own : r.own_off) += own;
    ++(enabled ? r.logs : r.logs_off);
  }
  r.mujoco /= r.logs;
  r.own /= r.logs;
  r.mujoco_off /= r.logs_off;
  r.own_off /= r.logs_off;
  return r;
}

TEST(MujocoReplay, ThePositionFormOfM1ReplaysTheXl330LogsAsFrictionlabDoes) {
  if (!std::filesystem::exists(kServoDir + "/logs")) GTEST_SKIP() << "no shared data";
  const Replay r = replay_logs("m1.json");
  ASSERT_EQ(r.logs, 12);
  ASSERT_EQ(r.logs_off, 4);  // lift_and_drop: the torque disabled for the drop
  std::printf(
      "[measured] m1: mean MAE MuJoCo %.4f rad, frictionlab %.4f rad (%.2fx); "
      "torque disabled at times: %.4f / %.4f rad (%.2fx)\n",
      r.mujoco, r.own, r.mujoco / r.own, r.mujoco_off, r.own_off, r.mujoco_off / r.own_off);
  // m1 is what MuJoCo can express (Coulomb, viscous, the P loop with its stall clamp): the
  // replay is as good as frictionlab's own within the integrator's and the unexported
  // q_offset's share.
  EXPECT_LT(r.mujoco, 1.15 * r.own);
  EXPECT_GT(r.mujoco, 0.85 * r.own);
  // With the torque disabled for the drop the pendulum swings on gravity, friction and Kv alone:
  // there the unexported q_offset (a gravity torque) and MuJoCo's soft friction constraint
  // (its creep, below) show; measured 1.17-1.33x per log.
  EXPECT_LT(r.mujoco_off, 1.4 * r.own_off);
  EXPECT_GT(r.mujoco_off, 0.85 * r.own_off);
}

TEST(MujocoReplay, TheLoadDependentM6LosesWhatTheExportSays) {
  if (!std::filesystem::exists(kServoDir + "/logs")) GTEST_SKIP() << "no shared data";
  const Replay m6 = replay_logs("m6.json");
  ASSERT_EQ(m6.logs, 12);
  ASSERT_EQ(m6.logs_off, 4);
  std::printf("[measured] m6: mean MAE MuJoCo %.4f rad, frictionlab %.4f rad (%.2fx)\n", m6.mujoco,
              m6.own, m6.mujoco / m6.own);
  // Its load-dependent and Stribeck friction is not representable (the fragment's notes): the
  // replay is worse than frictionlab's own simulation of the same fit.
  EXPECT_GT(m6.mujoco, 1.1 * m6.own);
}

TEST(MujocoReplay, FrictionlossAndDampingHoldAndDragAsTheFit) {
  // examples/data/coulomb_viscous.json: the friction fragment (joint frictionloss = Fc,
  // damping = sigma2) on a free rotor of 0.01 kg m^2 under a constant torque.
  io::MujocoOptions o;
  o.joint = "wrist";
  const auto source = io::read_friction_source(std::string(FRICTIONLAB_SOURCE_DIR) +
                                               "/examples/data/coulomb_viscous.json");
  const auto fragment = io::export_mujoco(source, o).xml;
  const Model m = load(bench_xml(fragment, 0.0, 0.0, 0.01), "rotor");
  ASSERT_TRUE(m);
  const double Fc = m->dof_frictionloss[0], b = m->dof_damping[0];
  ASSERT_GT(Fc, 0.0);
  ASSERT_GT(b, 0.0);
  const auto run = [&](double tau, double seconds) {
    Data d(mj_makeData(m.get()));
    const int steps = static_cast<int>(std::lround(seconds / kTimestep));
    for (int k = 0; k < steps; ++k) {
      d->qfrc_applied[0] = tau;
      mj_step(m.get(), d.get());
    }
    return std::array<double, 2>{d->qpos[0], d->qvel[0]};
  };
  // Below Fc the joint sticks, up to the creep of MuJoCo's soft friction constraint (its
  // solreffriction / solimpfriction defaults): measured, and small against the velocity the
  // torque would reach without friction.
  const auto held = run(0.5 * Fc, 2.0);
  const double free_velocity = 0.5 * Fc / b;
  std::printf(
      "[measured] tau = Fc/2 for 2 s: q = %.3g rad, creep qd = %.3g rad/s (%.1f %% of "
      "the %.3g rad/s without friction)\n",
      held[0], held[1], 100 * held[1] / free_velocity, free_velocity);
  EXPECT_LT(std::abs(held[1]), 0.1 * free_velocity);
  // Above it the steady velocity is (tau - Fc) / sigma2 (time constant I / sigma2).
  const double tau = 2.0 * Fc;
  const auto moving = run(tau, 50 * 0.01 / b);
  const double want = (tau - Fc) / b;
  std::printf("[measured] tau = 2 Fc: qd = %.6g rad/s, (tau - Fc) / sigma2 = %.6g rad/s\n",
              moving[1], want);
  EXPECT_NEAR(moving[1], want, 0.02 * want);
}

}  // namespace
}  // namespace frictionlab
