// The MJCF that `export mujoco` writes, loaded and run by MuJoCo itself (Debian's libmujoco-dev
// 2.2.2, C API; built only where CMake finds it, tests/mujoco.cmake):
//  - a servo actuator's position form in the XL330 logs' pendulum bench, every log replayed
//    from its goal positions (mujoco::replay_servo_logs: Euler, 1 ms, the actuator off and the
//    back-EMF out of the damping where the log disables the torque) against the log, against
//    frictionlab's friction inside MuJoCo and against frictionlab's own re-simulation;
//  - a friction fit's frictionloss/damping fragment on a free rotor under a constant torque:
//    the sticking below Fc and the steady velocity (tau - Fc) / sigma2 above it;
//  - a joint model in the pendulum made from its inertia and gravity terms
//    (mujoco::replay_joint_records): records that frictionlab's own simulation made, and the
//    DFKI pendulum's records with its sr3 fit, with the exported joint form (frictionloss,
//    damping) and with frictionlab's friction inside MuJoCo.
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
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/mujoco/replay.hpp"
#include "frictionlab/workflows/joint.hpp"
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

/// A record of `joint` made by frictionlab's own simulation at 0.1 ms: 6 s at 200 Hz, driven by
/// a torque that swings the pendulum through reversals and rests; with a temperature law the
/// joint warms from 25 to 45 degC over the record.
identify::JointData simulated_record(const sim::JointModel& joint) {
  identify::JointData d;
  d.source = "simulated";
  for (int k = 0; k <= 1200; ++k) {
    const double t = k * 0.005;
    d.t.push_back(t);
    d.tau.push_back(1.2 * std::sin(2.0 * M_PI * 0.4 * t) + 0.5 * std::sin(2.0 * M_PI * 1.3 * t));
    if (joint.temperature) d.temperature.push_back(25.0 + 20.0 * t / 6.0);
  }
  const sim::JointTrajectory tr =
      sim::simulate_joint_model(joint, d.t, d.tau, {}, {1e-4}, d.temperature);
  d.q = tr.q;
  d.qd = tr.qd;
  d.qdd.assign(d.size(), 0.0);  // not used by a simulation
  return d;
}

sim::JointModel synthetic_joint() {
  sim::JointModel j;
  j.I = 0.04;
  j.mgCx = 0.15;
  j.mgCy = -1.6;
  j.offset = 0.05;
  return j;
}

/// synthetic_joint() with coulomb-viscous friction: Fc = 0.25 N m, sigma2 = 0.03 N m s/rad.
sim::JointModel coulomb_joint() {
  sim::JointModel j = synthetic_joint();
  StaticFriction<double>::Params f;
  f.curve = StribeckCurve<double>::symmetric(0.25, 0.25, 0.1, 2.0);
  f.sigma2 = 0.03;
  j.friction = f;
  return j;
}

/// synthetic_joint() with joint LuGre friction: sigma0 = 2e3 N m/rad, sigma1 = 2 N m s/rad,
/// Fc = 0.25 N m, cv = 0.03 N m s/rad.
sim::JointModel lugre_joint() {
  sim::JointModel j = synthetic_joint();
  j.friction = JointLuGre<double>::Params{
      .sigma0 = 2e3, .sigma1 = 2.0, .Fc = 0.25, .n_viscous = 1, .cv = {0.03}};
  return j;
}

TEST(MujocoReplay, AJointModelIsReplayedInItsPendulumAsFrictionlabSimulatesIt) {
  // The bench's mass, length and angle carry the model's inertia, gravity and offset: with the
  // friction inside MuJoCo the replay follows the record frictionlab's own simulation made to
  // within the step's error, as its own simulation at the same step does.
  const sim::JointModel coulomb = coulomb_joint(), lugre = lugre_joint();
  for (const auto& [name, joint] : {std::pair{"coulomb-viscous", coulomb}, {"lugre", lugre}}) {
    const identify::JointData d = simulated_record(joint);
    const mujoco::JointReplay r = mujoco::replay_joint_records(joint, {d}, 1.0, 1e-3);
    std::printf("[measured] %s joint: %s\n", name, mujoco::replay_summary(r).c_str());
    double range = 0;
    for (const double q : d.q) range = std::max(range, std::abs(q));
    EXPECT_GT(range, 0.5) << name << ": the record swings";
    EXPECT_LT(r.own, 2e-3) << name;
    EXPECT_LT(r.inside, 2e-3) << name;
    EXPECT_LT(std::abs(r.inside - r.own), 1e-3) << name;
    // MuJoCo's soft frictionloss creeps where the joint sticks: the exported form is further off
    EXPECT_GT(r.exported, r.inside) << name;
  }
}

TEST(MujocoReplay, ALoadDependenceAndATemperatureLawRunInsideMujocoAsFrictionlabSimulatesThem) {
  // What MuJoCo's joint attributes cannot carry, frictionlab's friction inside MuJoCo runs: the
  // Coulomb level raised by the applied torque (driving and back-driven alike, or not), a LuGre
  // joint's bristle force under load, and LuGre levels that fall as the joint warms (the
  // record's temperature at every step). The exported form (the load-free friction at T_ref)
  // loses what the dependence does.
  sim::JointModel coulomb = coulomb_joint(), lugre = lugre_joint();
  coulomb.load = LoadDependence<double>{0.2, 0.1};
  sim::JointModel warming = lugre;
  lugre.load = LoadDependence<double>{0.15, 0.15};
  warming.temperature = TemperatureDependence<double>{TemperatureLaw::linear, 35.0, -0.03, -0.02};
  for (const auto& [name, joint] : {std::pair{"load-dependent coulomb-viscous", coulomb},
                                    {"load-dependent lugre", lugre},
                                    {"warming lugre", warming}}) {
    const identify::JointData d = simulated_record(joint);
    const mujoco::JointReplay r = mujoco::replay_joint_records(joint, {d}, 1.0, 1e-3);
    std::printf("[measured] %s joint: %s\n", name, mujoco::replay_summary(r).c_str());
    EXPECT_LT(r.own, 2e-3) << name;
    EXPECT_LT(r.inside, 2e-3) << name;
    EXPECT_LT(std::abs(r.inside - r.own), 1e-3) << name;
    EXPECT_GT(r.exported, 3 * r.inside) << name;
  }
}

TEST(MujocoReplay, TheDfkiJointFitReplaysAsFrictionlabSimulatesIt) {
  const std::string dir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/pendulum_dfki";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no shared data";
  // docs/joint-identification.md's sr3 fit: training sysid, validation gravcomp, 300 Hz, 5 Hz
  io::RecordSpec spec;
  spec.time = "time";
  spec.position = "position";
  spec.force = "torque";
  workflows::FitJointOptions o;
  o.method = workflows::JointMethod::sr3;
  o.prep.preprocess.resample_rate = 300;
  o.prep.preprocess.lowpass_cutoff = 5;
  o.prep.choose_lowpass = false;
  const workflows::FitJointOutcome fit =
      workflows::fit_joint(io::read_record(dir + "/sysid_data_measured.csv", spec),
                           {io::read_record(dir + "/gravcomp_data_measured.csv", spec)}, {}, o);
  std::vector<identify::JointData> records{fit.training_data};
  records.insert(records.end(), fit.validation_data.begin(), fit.validation_data.end());
  const mujoco::JointReplay r = mujoco::replay_joint_records(fit.model, records, 1.0, 1e-3);
  for (const auto& rec : r.records)
    std::printf(
        "[measured] DFKI sr3 %s: MuJoCo exported %.4f rad, inside %.4f rad, "
        "frictionlab %.4f rad (%.3fx, %.3fx)\n",
        std::filesystem::path(rec.file).filename().c_str(), rec.exported, rec.inside, rec.own,
        rec.exported / rec.own, rec.inside / rec.own);
  std::printf("[measured] %s\n", mujoco::replay_summary(r).c_str());
  ASSERT_EQ(r.records.size(), 2u);
  // the joint-lugre set's presliding is short (sigma0 = 1e5): the joint form loses little
  EXPECT_LT(std::abs(r.exported / r.own - 1.0), 0.05);
  EXPECT_LT(std::abs(r.inside / r.own - 1.0), 0.02);
}

}  // namespace
}  // namespace frictionlab
