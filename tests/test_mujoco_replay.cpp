// The MJCF that `export mujoco` writes, loaded and run by MuJoCo itself (Debian's libmujoco-dev
// 2.2.2, C API; built only where CMake finds it, tests/mujoco.cmake):
//  - a servo actuator's position form in the XL330 logs' pendulum bench, every log replayed
//    from its goal positions (mujoco::replay_servo_logs: Euler, 1 ms, the actuator off and the
//    back-EMF out of the damping where the log disables the torque) against the log, against
//    frictionlab's friction inside MuJoCo and against frictionlab's own re-simulation;
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
#include <string>
#include <vector>

#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/mujoco/replay.hpp"
#include "mujoco_bench.hpp"

namespace frictionlab {
namespace {

const std::string kServoDir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/servo_xl330";
constexpr double kTimestep = 1e-3;  // [s]

/// The 16 XL330 logs replayed with the reference fit `params`; prints the per-log table.
mujoco::ServoReplay replay(const std::string& params) {
  const auto source = io::read_actuator_source(kServoDir + "/reference_params/" + params);
  std::vector<data::ServoLog> logs;
  for (const auto& read : io::read_servo_logs({kServoDir + "/logs"})) logs.push_back(read.log);
  const mujoco::ServoReplay r = mujoco::replay_servo_logs(source, logs, kTimestep);
  for (const auto& l : r.logs)
    std::printf(
        "[measured] %s %s (kp %g, %s, torque %s): MuJoCo exported %.4f rad, inside %.4f "
        "rad, frictionlab %.4f rad (%.2fx, %.2fx)\n",
        params.c_str(), std::filesystem::path(l.file).filename().c_str(), l.kp,
        l.trajectory.c_str(), l.torque_off ? "off at times" : "on", l.exported, l.inside, l.own,
        l.exported / l.own, l.inside / l.own);
  std::printf("[measured] %s: %s\n", params.c_str(), mujoco::replay_summary(r).c_str());
  return r;
}

/// Means of the exported and own MAE over the logs with the torque on (`off` false) or off at
/// times (true).
std::array<double, 2> means(const mujoco::ServoReplay& r, bool off) {
  double exported = 0, own = 0;
  int n = 0;
  for (const auto& l : r.logs)
    if (l.torque_off == off) {
      exported += l.exported;
      own += l.own;
      ++n;
    }
  return {exported / n, own / n};
}

TEST(MujocoReplay, ThePositionFormOfM1ReplaysTheXl330LogsAsFrictionlabDoes) {
  if (!std::filesystem::exists(kServoDir + "/logs")) GTEST_SKIP() << "no shared data";
  const mujoco::ServoReplay r = replay("m1.json");
  ASSERT_EQ(r.logs.size(), 16u);
  const auto on = means(r, false), off = means(r, true);
  std::printf(
      "[measured] m1 exported: torque on %.4f / %.4f rad (%.2fx); disabled at times "
      "%.4f / %.4f rad (%.2fx)\n",
      on[0], on[1], on[0] / on[1], off[0], off[1], off[0] / off[1]);
  // m1 is what MuJoCo can express (Coulomb, viscous, the P loop with its stall clamp): the
  // replay is as good as frictionlab's own within the integrator's share.
  EXPECT_LT(on[0], 1.15 * on[1]);
  EXPECT_GT(on[0], 0.85 * on[1]);
  // With the torque disabled for the drop the pendulum swings on gravity, friction and Kv alone:
  // MuJoCo's soft friction constraint (its creep) and its integrator show there.
  EXPECT_LT(off[0], 1.4 * off[1]);
  EXPECT_GT(off[0], 0.85 * off[1]);
}

TEST(MujocoReplay, TheLoadDependentM6LosesWhatTheExportSaysAndKeepsItInside) {
  if (!std::filesystem::exists(kServoDir + "/logs")) GTEST_SKIP() << "no shared data";
  const mujoco::ServoReplay r = replay("m6.json");
  ASSERT_EQ(r.logs.size(), 16u);
  // Its load-dependent and Stribeck friction is not representable as frictionloss and damping
  // (the fragment's notes): the exported replay is worse than frictionlab's own simulation of the
  // same fit; with frictionlab's friction inside MuJoCo it is frictionlab's own within 5 %.
  EXPECT_GT(r.exported, 1.1 * r.own);
  EXPECT_LT(std::abs(r.inside / r.own - 1.0), 0.05);
}

TEST(MujocoReplay, FrictionlossAndDampingHoldAndDragAsTheFit) {
  // examples/data/coulomb_viscous.json: the friction fragment (joint frictionloss = Fc,
  // damping = sigma2) on a free rotor of 0.01 kg m^2 under a constant torque.
  io::MujocoOptions o;
  o.joint = "wrist";
  const auto source = io::read_friction_source(std::string(FRICTIONLAB_SOURCE_DIR) +
                                               "/examples/data/coulomb_viscous.json");
  const auto fragment = io::export_mujoco(source, o).xml;
  // a free rotor of 0.01 kg m^2 about y, no gravity, the fragment's joint element
  const auto body = fragment.find("-->");
  const auto open = fragment.find("<joint ", body), close = fragment.find("/>", open);
  ASSERT_NE(close, std::string::npos) << fragment;
  const test::MjModelPtr m = test::load_mjcf(
      "<mujoco><option timestep=\"0.001\" integrator=\"Euler\" gravity=\"0 0 0\"/>"
      "<default><joint type=\"hinge\" axis=\"0 1 0\"/></default><worldbody><body>" +
          fragment.substr(open, close + 2 - open) +
          "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"0.01 0.01 0.01\"/>"
          "</body></worldbody></mujoco>",
      "rotor");
  ASSERT_TRUE(m);
  const double Fc = m->dof_frictionloss[0], b = m->dof_damping[0];
  ASSERT_GT(Fc, 0.0);
  ASSERT_GT(b, 0.0);
  const auto run = [&](double tau, double seconds) {
    test::MjDataPtr d(mj_makeData(m.get()));
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
