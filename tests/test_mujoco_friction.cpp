// frictionlab's friction inside MuJoCo (frictionlab::mujoco, include/frictionlab/mujoco/
// friction.h), in Debian's MuJoCo 2.2.2:
//  - one Euler step of a servo joint on the XL330 pendulum bench is frictionlab's servo step
//    (sim/servo.hpp: firmware, DC motor, budget, stopping-torque rule) to rounding, sticking
//    included;
//  - every XL330 log (the torque-off drops included) replayed in MuJoCo with the fitted M6 (and
//    M1) inside it, against frictionlab's own re-simulation of the same parameter file;
//  - a joint fit's load dependence (the level raised by the applied torque, driving or
//    back-driven) and temperature law (the model at the joint's temperature,
//    flmj_set_temperature) inside MuJoCo, and the bodies' xfrc_applied seen by the stopping rule;
//  - flmj_load's errors name the MUJOCO.json, the entry's line and the MJCF name.
#include "frictionlab/mujoco/friction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "coupled_test_systems.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/mujoco/replay.hpp"
#include "frictionlab/sim/servo.hpp"
#include "joint_test_models.hpp"
#include "max_abs.hpp"
#include "mujoco_bench.hpp"

namespace frictionlab {
namespace {

using test::MjDataPtr;
using test::MjModelPtr;

const std::string kServoDir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/servo_xl330";
const std::string kGoal =
    "<actuator><general name=\"goal\" joint=\"servo\" gainprm=\"0\" biasprm=\"0 0 0\"/>"
    "</actuator>";

struct FrictionDeleter {
  void operator()(flmj_friction* fl) const { flmj_free(fl); }
};
using Friction = std::unique_ptr<flmj_friction, FrictionDeleter>;

/// A MUJOCO.json naming the joint "servo", the parameter file and the firmware's kp and vin,
/// with `keys` added to the entry (e.g. a temperature).
std::string write_description(const std::string& params, double kp, double vin,
                              const std::string& keys = "") {
  const auto path = test::process_file("MUJOCO", ".json");
  std::ofstream(path) << "{\"format\": \"frictionlab-mujoco\", \"version\": 1,\n"
                      << " \"joints\": [{\"joint\": \"servo\", \"servo\": \"" << params
                      << "\", \"goal\": \"goal\", \"kp\": " << kp << ", \"vin\": " << vin << keys
                      << "}]}\n";
  return path.string();
}

/// The bench of `log`-like geometry with the servo joint at the parameter file's armature.
MjModelPtr servo_bench(const sim::ServoParams& p, double mass, double length, double timestep) {
  char joint[128];
  std::snprintf(joint, sizeof joint, "<joint name=\"servo\" armature=\"%.17g\"/>", p.armature);
  return test::load_mjcf(
      mujoco::pendulum_bench_mjcf({mass, length, 0.0}, p.q_offset, timestep, joint, kGoal),
      "servo_bench");
}

/// flmj_load of the description, failing the test with its message.
Friction load_friction(const mjModel& m, const std::string& description) {
  char error[1000];
  Friction fl(flmj_load(&m, description.c_str(), error, sizeof error));
  EXPECT_TRUE(fl) << error;
  return fl;
}

TEST(MujocoFriction, AnEulerStepIsFrictionlabsServoStep) {
  if (!std::filesystem::exists(kServoDir)) GTEST_SKIP() << "no shared data";
  const double h = 0.005, kp = 400, vin = 7.4, mass = 0.49, length = 0.1;
  for (const char* name : {"m1.json", "m4.json", "m6.json"}) {
    const std::string params = kServoDir + "/reference_params/" + name;
    const auto source = io::read_actuator_source(params);
    const sim::ServoConstants& c = source.setup.actuator.constants;
    const sim::ServoParams& p = source.setup.params;
    const MjModelPtr m = servo_bench(p, mass, length, h);
    ASSERT_TRUE(m);
    const Friction fl = load_friction(*m, write_description(params, kp, vin));
    ASSERT_TRUE(fl);
    flmj_install(fl.get());
    sim::ServoRunInput in;
    in.dt = h;
    in.kp = kp;
    in.vin = vin;
    const sim::PendulumBench bench{mass, length, 0.0};
    // the bench's point mass carries MuJoCo's smallest inertia, 1e-12 kg m^2, about its centre
    sim::ServoParams pe = p;
    pe.armature += 1e-12;
    int stuck = 0, cases = 0;
    // -q_offset: the pendulum's rest position, where a joint at rest sticks under every model
    for (const double q : {-1.2, -0.2, 0.0, 0.4, -p.q_offset})
      for (const double qd : {0.0, 1e-4, -0.3, 2.5})
        for (const double step : {0.0, 0.3, -0.02})
          for (const bool on : {true, false}) {
            MjDataPtr d(mj_makeData(m.get()));
            d->qpos[0] = q;
            d->qvel[0] = qd;
            d->ctrl[0] = q + step;
            flmj_reset(fl.get());
            flmj_set_torque_enable(fl.get(), "servo", on ? 1 : 0);
            mj_step(m.get(), d.get());
            sim::ServoFirmwareState fw;
            const sim::ServoState x{q, qd};
            const double u = sim::servo_firmware(c, p, in, q + step, x, fw);
            const sim::ServoState y = sim::servo_step(c, pe, bench, x, u, on, h);
            ++cases;
            stuck += y.qd == 0.0;
            EXPECT_NEAR(d->qvel[0], y.qd, 1e-12 * (1 + std::abs(y.qd)))
                << name << " q " << q << " qd " << qd << " goal step " << step << " on " << on;
            EXPECT_NEAR(d->qpos[0], q + h * d->qvel[0], 1e-15);  // Euler: q+ = q + h qd+
          }
    std::printf("[measured] %s: %d steps, %d of them sticking\n", name, cases, stuck);
    EXPECT_GE(stuck, 4);
  }
}

TEST(MujocoFriction, AServosTemperatureLawRunsAtItsTemperature) {
  // m4.json with a linear temperature law (T_ref = 35 degC, kT = -0.01, kT_v = -0.02 1/K, the
  // keys of a fit-actuator --temperature-law parameter file) on the bench at 45 degC, then at
  // 25 degC after flmj_set_temperature: every Euler step is frictionlab's servo step with the
  // law's scales at that temperature (sim::servo_temperature_terms).
  if (!std::filesystem::exists(kServoDir)) GTEST_SKIP() << "no shared data";
  std::ifstream in(kServoDir + "/reference_params/m4.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.insert(text.find('{') + 1,
              "\"temperature_law\": \"linear\", \"T_ref\": 35, \"kT\": -0.01, \"kT_v\": -0.02, ");
  const auto params = test::process_file("m4_T", ".json");
  std::ofstream(params) << text;
  const auto source = io::read_actuator_source(params.string());
  const sim::ServoConstants& c = source.setup.actuator.constants;
  sim::ServoParams p = source.setup.params;
  ASSERT_TRUE(p.temperature);
  const double h = 0.005, kp = 400, vin = 7.4;
  const sim::PendulumBench bench{0.49, 0.1, 0.0};
  const MjModelPtr m = servo_bench(p, bench.mass, bench.length, h);
  ASSERT_TRUE(m);
  const Friction fl =
      load_friction(*m, write_description(params.string(), kp, vin, ", \"temperature\": 45"));
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  p.armature += 1e-12;  // the point mass's smallest inertia in MuJoCo
  sim::ServoRunInput run;
  run.dt = h;
  run.kp = kp;
  run.vin = vin;
  for (const double T : {45.0, 25.0}) {
    if (T != 45.0) {
      ASSERT_EQ(flmj_set_temperature(fl.get(), "servo", T), 0);
    }
    EXPECT_EQ(flmj_get_temperature(fl.get(), "servo"), T);
    int warmer = 0;  // steps where the law changes the velocity
    for (const double qd : {0.0, -0.3, 2.5})
      for (const double step : {0.0, 0.3}) {
        const double q = 0.4;
        MjDataPtr d(mj_makeData(m.get()));
        d->qpos[0] = q;
        d->qvel[0] = qd;
        d->ctrl[0] = q + step;
        flmj_reset(fl.get());
        mj_step(m.get(), d.get());
        sim::ServoFirmwareState fw;
        const sim::ServoState x{q, qd};
        const double u = sim::servo_firmware(c, p, run, q + step, x, fw);
        sim::ServoStepTerms terms = sim::servo_step_terms(p, x);
        const sim::ServoStepTerms at_ref = terms;
        sim::servo_temperature_terms(p, T, terms);
        const auto k = sim::servo_step_constants(p, bench, h);
        const sim::ServoState y = sim::servo_step_given(c, p, k, x, u, true, terms);
        EXPECT_NEAR(d->qvel[0], y.qd, 1e-12 * (1 + std::abs(y.qd))) << T << " " << qd;
        warmer += y.qd != sim::servo_step_given(c, p, k, x, u, true, at_ref).qd;
      }
    EXPECT_GE(warmer, 3) << T;
  }
  EXPECT_EQ(flmj_set_temperature(fl.get(), "servo", 1e4), -1);  // 1 - 0.01 (1e4 - 35) < 0
  EXPECT_EQ(flmj_get_temperature(fl.get(), "servo"), 25.0);
  flmj_install(nullptr);
}

/// frictionlab's re-simulation of the log (sim::servo_firmware, sim::servo_step at the log's
/// step) with MuJoCo's semi-implicit Euler position update q+ = q + h qd+ in place of the
/// reference's q+ = q + h qd+ + a h^2 / 2; the bench inertia as MuJoCo's. The mean MAE [rad].
double own_with_euler_positions(const sim::ServoConstants& c, sim::ServoParams p,
                                const data::ServoLog& log) {
  p.armature += 1e-12;  // the point mass's smallest inertia in MuJoCo
  sim::ServoRunInput in;
  in.dt = log.dt;
  in.kp = log.kp;
  in.vin = *log.vin;
  const sim::PendulumBench bench{log.mass, log.length, log.arm_mass};
  sim::ServoState x{log.position.front(), log.speed.empty() ? 0.0 : log.speed.front()};
  sim::ServoFirmwareState fw;
  double sum = 0;
  for (std::size_t k = 0; k < log.position.size(); ++k) {
    sum += std::abs(x.q - log.position[k]);
    const bool on = log.torque_enable.empty() || log.torque_enable[k] != 0;
    const double u = sim::servo_firmware(c, p, in, log.goal_position[k], x, fw);
    const sim::ServoState y = sim::servo_step(c, p, bench, x, u, on, log.dt);
    x = {x.q + log.dt * y.qd, y.qd};
  }
  return sum / static_cast<double>(log.position.size());
}

/// The XL330 logs.
std::vector<data::ServoLog> xl330_logs() {
  std::vector<data::ServoLog> logs;
  for (const auto& read : io::read_servo_logs({kServoDir + "/logs"})) logs.push_back(read.log);
  return logs;
}

TEST(MujocoFriction, TheXl330LogsReplayWithM6InsideMujocoAsFrictionlabsOwn) {
  if (!std::filesystem::exists(kServoDir + "/logs")) GTEST_SKIP() << "no shared data";
  const std::vector<data::ServoLog> logs = xl330_logs();
  ASSERT_EQ(logs.size(), 16u);
  for (const char* params : {"m6.json", "m1.json"}) {
    const auto source = io::read_actuator_source(kServoDir + "/reference_params/" + params);
    // At 1 ms, MuJoCo's usual step: the whole replay, torque-off drops included, is
    // frictionlab's own re-simulation (at the logs' 5 ms) within 5 %.
    const mujoco::ServoReplay fine = mujoco::replay_servo_logs(source, logs, 0.001);
    std::printf("[measured] %s at 1 ms: %s\n", params, mujoco::replay_summary(fine).c_str());
    EXPECT_LT(std::abs(fine.inside / fine.own - 1.0), 0.05) << params;
    // At the logs' own 5 ms step the replay is frictionlab's steps exactly, with MuJoCo's
    // position update (q+ = q + h qd+; the reference adds a h^2/2): what remains between the
    // two is the integrator's, not the friction's. It shows in the free swings of the drops,
    // where the fitted parameters absorbed the reference's integrator.
    const mujoco::ServoReplay coarse = mujoco::replay_servo_logs(source, logs, 0.005);
    double own_euler = 0, gap = 0;
    for (std::size_t i = 0; i < logs.size(); ++i) {
      const double e =
          own_with_euler_positions(source.setup.actuator.constants, source.setup.params, logs[i]);
      own_euler += e / static_cast<double>(logs.size());
      gap = std::max(gap, std::abs(coarse.logs[i].inside - e));
    }
    std::printf(
        "[measured] %s at 5 ms: %s; frictionlab with Euler's position update %.4f rad "
        "(largest difference per log %.2g rad)\n",
        params, mujoco::replay_summary(coarse).c_str(), own_euler, gap);
    EXPECT_LT(gap, 1e-9) << params;
    EXPECT_LT(std::abs(coarse.inside / coarse.own - 1.0), 0.1) << params;
  }
}

/// A two-link arm in a vertical plane: a shoulder with damping (which MuJoCo's Euler integrates
/// implicitly) and a motor, an elbow driven by the servo of `params` with a spring-like position
/// actuator of its own beside the servo's goal actuator.
std::string arm_mjcf(double elbow_armature) {
  char text[2048];
  std::snprintf(
      text, sizeof text,
      "<mujoco model=\"arm\">\n"
      "  <option timestep=\"0.002\" integrator=\"Euler\" gravity=\"0 0 -9.81\"/>\n"
      "  <worldbody><body name=\"upper\">\n"
      "    <joint name=\"shoulder\" type=\"hinge\" axis=\"0 1 0\" damping=\"0.05\"/>\n"
      "    <inertial pos=\"0 0 -0.15\" mass=\"0.8\" diaginertia=\"0.004 0.004 0.001\"/>\n"
      "    <body name=\"fore\" pos=\"0 0 -0.3\">\n"
      "      <joint name=\"elbow\" type=\"hinge\" axis=\"0 1 0\" armature=\"%.17g\"/>\n"
      "      <inertial pos=\"0.02 0 -0.1\" mass=\"0.49\" diaginertia=\"1e-4 1e-4 1e-5\"/>\n"
      "    </body>\n  </body></worldbody>\n"
      "  <actuator>\n"
      "    <general name=\"goal\" joint=\"elbow\" gainprm=\"0\" biasprm=\"0 0 0\"/>\n"
      "    <motor name=\"shoulder_motor\" joint=\"shoulder\" ctrlrange=\"-2 2\" "
      "ctrllimited=\"true\"/>\n"
      "    <position name=\"elbow_spring\" joint=\"elbow\" kp=\"0.3\" forcerange=\"-0.1 0.1\" "
      "forcelimited=\"true\"/>\n"
      "  </actuator>\n</mujoco>\n",
      elbow_armature);
  return text;
}

TEST(MujocoFriction, OnAnArmTheStoppingRuleSeesEveryForceMujocoApplies) {
  if (!std::filesystem::exists(kServoDir)) GTEST_SKIP() << "no shared data";
  const std::string params = kServoDir + "/reference_params/m6.json";
  const auto source = io::read_actuator_source(params);
  const MjModelPtr m = test::load_mjcf(arm_mjcf(source.setup.params.armature), "arm");
  ASSERT_TRUE(m);
  const auto path = test::process_file("MUJOCO_arm", ".json");
  std::ofstream(path) << "{\"format\": \"frictionlab-mujoco\", \"version\": 1, \"joints\": "
                      << "[{\"joint\": \"elbow\", \"servo\": \"" << params
                      << "\", \"goal\": \"goal\", \"kp\": 200}]}";
  const Friction fl = load_friction(*m, path.string());
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  const int elbow = m->jnt_dofadr[mj_name2id(m.get(), mjOBJ_JOINT, "elbow")];
  int stuck = 0, sliding = 0;
  for (int k = 0; k < 400; ++k) {
    // states and commands on a grid that mixes rest, creeping and fast motion
    const double u = 0.37 * k;
    MjDataPtr d(mj_makeData(m.get()));
    d->qpos[0] = std::sin(u);
    d->qpos[1] = 1.3 * std::cos(1.7 * u);
    d->qvel[0] = 2.0 * std::sin(2.3 * u);
    d->qvel[1] = k % 3 == 0 ? 0.0 : 0.5 * std::sin(3.1 * u) * (k % 5 == 0 ? 1e-3 : 1.0);
    d->ctrl[0] = d->qpos[1] + 0.2 * std::sin(0.9 * u);  // the servo's goal
    d->ctrl[1] = 3.0 * std::sin(1.1 * u);               // beyond ctrlrange at times
    d->ctrl[2] = std::sin(0.5 * u);
    d->qfrc_applied[1] = 0.05 * std::cos(u);
    flmj_reset(fl.get());
    mj_step(m.get(), d.get());
    flmj_torques t;
    ASSERT_EQ(flmj_get_torques(fl.get(), "elbow", &t), 0);
    // the qfrc_* MuJoCo computed for this step: the external torque is all of them but ours
    const double mujoco_external = d->qfrc_passive[elbow] - t.motor - t.friction +
                                   d->qfrc_applied[elbow] + d->qfrc_actuator[elbow] -
                                   d->qfrc_bias[elbow];
    EXPECT_NEAR(t.external, mujoco_external, 1e-12 * (1 + std::abs(mujoco_external))) << k;
    if (std::abs(t.friction) < t.budget) {
      ++stuck;  // within the budget: friction stopped the elbow in this step
      EXPECT_LT(std::abs(d->qvel[elbow]), 1e-12) << k;
    } else {
      ++sliding;
      EXPECT_EQ(std::abs(t.friction), t.budget) << k;
    }
  }
  std::printf("[measured] arm: %d steps stuck, %d sliding\n", stuck, sliding);
  EXPECT_GT(stuck, 10);
  EXPECT_GT(sliding, 20);
}

/// The coupled-system tests' pendulum joint (tests/coupled_test_systems.hpp) as MJCF: a hinge
/// about y whose body has the joint's inertia I about the axis and its gravity torque
/// -mgCx cos q + mgCy sin q (mass 1 kg at (px, 0, pz), g = 9.81 m/s^2, V = mgCx sin q +
/// mgCy cos q); `joint_attributes` completes the joint element.
std::string pendulum_joint_mjcf(const sim::JointSpec& spec, double timestep,
                                const std::string& joint_attributes) {
  const double g = 9.81, px = -spec.mgCx / g, pz = spec.mgCy / g;
  const double i_com = spec.I - (px * px + pz * pz);
  char text[1024];
  std::snprintf(
      text, sizeof text,
      "<mujoco model=\"joint\">\n"
      "  <option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 -9.81\"/>\n"
      "  <worldbody><body name=\"link\">\n"
      "    <joint name=\"joint\" type=\"hinge\" axis=\"0 1 0\" %s/>\n"
      "    <inertial pos=\"%.17g 0 %.17g\" mass=\"1\" diaginertia=\"%.17g %.17g %.17g\"/>\n"
      "  </body></worldbody>\n</mujoco>\n",
      timestep, joint_attributes.c_str(), px, pz, i_com, i_com, i_com);
  return text;
}

/// The joint in MuJoCo driven by the spec's sine torque (sampled at the middle of each step),
/// its angle every `output_dt` from t = 0 to t_end.
std::vector<double> mujoco_joint_run(const mjModel& m, const sim::JointSpec& spec,
                                     double output_dt) {
  MjDataPtr d(mj_makeData(&m));
  d->qpos[0] = spec.q0;
  d->qvel[0] = spec.qd0;
  const double h = m.opt.timestep;
  const long per_output = std::lround(output_dt / h), outputs = std::lround(spec.t_end / output_dt);
  std::vector<double> q{d->qpos[0]};
  for (long k = 0; k < outputs; ++k) {
    for (long s = 0; s < per_output; ++s) {
      const double t = d->time + 0.5 * h;
      d->qfrc_applied[0] =
          spec.tau_offset + spec.tau_amp * std::sin(2 * 3.141592653589793 * spec.tau_freq * t);
      mj_step(&m, d.get());
    }
    q.push_back(d->qpos[0]);
  }
  return q;
}

TEST(MujocoFriction, ALugreJointFollowsFrictionlabsSimulationAt1And10Ms) {
  const sim::JointSpec spec = testing::pendulum_spec();
  const LuGre<double>::Params p = testing::joint_lugre();
  const auto ref = sim::simulate_joint(spec, p, testing::cvode_opts(1e-10, 0.01));
  double amplitude = 0;
  for (const double q : ref.x) amplitude = std::max(amplitude, std::abs(q));
  const auto model = test::process_file("lugre_joint", ".json");
  std::ofstream(model) << io::to_json_text(ModelSpec{p});
  const auto description = test::process_file("MUJOCO_lugre", ".json");
  std::ofstream(description) << "{\"format\": \"frictionlab-mujoco\", \"version\": 1, "
                             << "\"joints\": [{\"joint\": \"joint\", \"friction\": \""
                             << model.string() << "\"}]}";
  double e_1ms = 0;
  for (const double h : {0.001, 0.01}) {
    const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(spec, h, ""), "lugre_joint");
    ASSERT_TRUE(m);
    const Friction fl = load_friction(*m, description.string());
    ASSERT_TRUE(fl);
    flmj_install(fl.get());
    const double e = testing::max_abs_diff(mujoco_joint_run(*m, spec, 0.01), ref.x);
    flmj_install(nullptr);
    const auto trbdf2 =
        sim::simulate_joint(spec, p, testing::fixed_opts(sim::SystemIntegrator::trbdf2, h, 0.01));
    const double e_trbdf2 = testing::max_abs_diff(trbdf2.x, ref.x);
    std::printf(
        "[measured] LuGre joint, h = %g ms: max|q - q_cvode| MuJoCo with frictionlab %.3e "
        "rad (%.2f %% of the %.3f rad swing), frictionlab's TR-BDF2 %.3e rad\n",
        1e3 * h, e, 100 * e / amplitude, amplitude, e_trbdf2);
    // within the coupled-system tests' tolerance for a real-time scheme, 1 % of the swing, at
    // both steps (MuJoCo's own Euler step takes most of it: below)
    EXPECT_LT(e, (h < 0.005 ? 0.002 : 0.01) * amplitude) << h;
    if (h < 0.005) e_1ms = e;
  }
  // MuJoCo's Euler step on its own: the same pendulum with viscous friction only (MuJoCo's
  // damping, which its Euler integrates implicitly) against CVODE on the same system
  LuGre<double>::Params viscous = p;
  viscous.curve = StribeckCurve<double>::symmetric(1e-12, 1e-12, 0.05, 2.0);
  viscous.sigma1 = 0.0;
  const auto ref_viscous = sim::simulate_joint(spec, viscous, testing::cvode_opts(1e-10, 0.01));
  for (const double h : {0.001, 0.01}) {
    char damping[64];
    std::snprintf(damping, sizeof damping, "damping=\"%.17g\"", p.sigma2);
    const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(spec, h, damping), "viscous_joint");
    ASSERT_TRUE(m);
    const double e = testing::max_abs_diff(mujoco_joint_run(*m, spec, 0.01), ref_viscous.x);
    std::printf("[measured] viscous joint, h = %g ms: max|q - q_cvode| MuJoCo alone %.3e rad\n",
                1e3 * h, e);
  }
  // the alternative: MuJoCo's own frictionloss (Fc) and damping (sigma2), as `export mujoco`
  // writes them
  char attributes[128];
  std::snprintf(attributes, sizeof attributes, "frictionloss=\"%.17g\" damping=\"%.17g\"",
                p.curve.Fc_pos, p.sigma2);
  const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(spec, 0.001, attributes), "lugre_joint");
  ASSERT_TRUE(m);
  const double e_export = testing::max_abs_diff(mujoco_joint_run(*m, spec, 0.01), ref.x);
  std::printf(
      "[measured] LuGre joint, h = 1 ms: MuJoCo's frictionloss and damping %.3e rad (%.1f "
      "%% of the swing)\n",
      e_export, 100 * e_export / amplitude);
  EXPECT_GT(e_export, 10 * e_1ms);
}

TEST(MujocoFriction, AStaticModelSticksWhereFrictionlossCreeps) {
  // examples/data/coulomb_viscous.json (Fc = 1 N m, sigma2 = 0.4 N m s/rad) on a free rotor of
  // 0.01 kg m^2: MuJoCo's frictionloss creeps under Fc/2 (tests/test_mujoco_replay.cpp), the
  // stopping-torque rule holds it still; above Fc the steady velocity is (tau - Fc) / sigma2.
  sim::JointSpec rotor;
  rotor.I = 0.01;
  rotor.mgCx = rotor.mgCy = 0.0;
  const auto description = test::process_file("MUJOCO_static", ".json");
  std::ofstream(description) << "{\"format\": \"frictionlab-mujoco\", \"version\": 1, "
                             << "\"joints\": [{\"joint\": \"joint\", \"friction\": \""
                             << FRICTIONLAB_SOURCE_DIR
                             << "/examples/data/coulomb_viscous.json\"}]}";
  const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(rotor, 0.001, ""), "rotor");
  ASSERT_TRUE(m);
  const Friction fl = load_friction(*m, description.string());
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  for (const double tau : {0.5, 2.0}) {
    MjDataPtr d(mj_makeData(m.get()));
    flmj_reset(fl.get());
    for (int k = 0; k < 2000; ++k) {
      d->qfrc_applied[0] = tau;
      mj_step(m.get(), d.get());
    }
    std::printf("[measured] rotor, tau = %g N m for 2 s: q = %.3g rad, qd = %.9g rad/s\n", tau,
                d->qpos[0], d->qvel[0]);
    if (tau < 1.0) {
      EXPECT_EQ(d->qvel[0], 0.0);
      EXPECT_EQ(d->qpos[0], 0.0);
    } else {
      EXPECT_NEAR(d->qvel[0], (tau - 1.0) / 0.4, 1e-9);
    }
  }
}

/// A joint_fit.json of `joint` (fit-joint's format, the keys an export reads) and a MUJOCO.json
/// naming it for the MJCF joint "joint", with `keys` added to the entry (e.g. a temperature).
std::string write_joint_description(const sim::JointModel& joint, const std::string& name,
                                    const std::string& keys = "") {
  const auto fit = test::process_file(name + "_joint_fit", ".json");
  std::ofstream(fit) << R"({"format": "frictionlab-joint-fit", "version": 1, "method": "oe", )"
                     << R"("joint": )" << io::joint_to_json(joint).dump() << "}";
  const auto description = test::process_file(name + "_MUJOCO", ".json");
  std::ofstream(description) << "{\"format\": \"frictionlab-mujoco\", \"version\": 1, "
                             << "\"joints\": [{\"joint\": \"joint\", \"friction\": \""
                             << fit.string() << "\"" << keys << "}]}";
  return description.string();
}

/// A free rotor (no gravity) of 0.01 kg m^2 with coulomb-viscous friction Fc = 1 N m, sigma2 =
/// 0.4 N m s/rad and the load dependence `load`.
sim::JointModel loaded_rotor(const LoadDependence<double>& load) {
  sim::JointModel j;
  j.I = 0.01;
  j.structure.gravity = false;
  j.structure.offset = false;
  StaticFriction<double>::Params f;
  f.curve = StribeckCurve<double>::symmetric(1.0, 1.0, 0.1, 2.0);
  f.sigma2 = 0.4;
  j.friction = f;
  j.load = load;
  return j;
}

TEST(MujocoFriction, AJointsLoadDependenceRaisesItsLevelUnderTheAppliedTorque) {
  // models/load_dependence.hpp on a rotor: the level is Fc + mu |tau| with tau the torque
  // applied on the joint (qfrc_applied, the actuators), mu_drive = 0.25 where it drives the
  // motion and mu_back = 0.5 where the joint is back-driven; a body's xfrc_applied is an
  // external force, which the stopping rule sees and the load does not.
  sim::JointSpec rotor;
  rotor.I = 0.01;
  rotor.mgCx = rotor.mgCy = 0.0;
  const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(rotor, 0.001, ""), "rotor");
  ASSERT_TRUE(m);
  m->opt.gravity[2] = 0.0;
  const Friction fl =
      load_friction(*m, write_joint_description(loaded_rotor({0.25, 0.5}), "loaded_rotor"));
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  struct Push {
    double applied, xfrc;  // [N m] on the joint, and about its axis on the body
  };
  const auto run = [&](Push p, double seconds) {
    MjDataPtr d(mj_makeData(m.get()));
    flmj_reset(fl.get());
    for (long k = 0; k < std::lround(seconds / 0.001); ++k) {
      d->qfrc_applied[0] = p.applied;
      d->xfrc_applied[6 * 1 + 4] = p.xfrc;  // the hinge's axis is y
      mj_step(m.get(), d.get());
    }
    return std::array<double, 2>{d->qpos[0], d->qvel[0]};
  };
  // 1.2 N m exceeds Fc but not Fc + 0.25 * 1.2: the joint sticks (the load-free one would move)
  const auto held = run({1.2, 0.0}, 1.0);
  EXPECT_EQ(held[0], 0.0);
  EXPECT_EQ(held[1], 0.0);
  // 2 N m: the steady velocity solves 2 - (Fc + 0.25 * 2) - sigma2 v = 0
  EXPECT_NEAR(run({2.0, 0.0}, 1.0)[1], (2.0 * 0.75 - 1.0) / 0.4, 1e-9);
  // the same 2 N m as a torque on the body: no load, v = (2 - Fc) / sigma2
  EXPECT_NEAR(run({0.0, 2.0}, 1.0)[1], (2.0 - 1.0) / 0.4, 1e-9);
  // xfrc 0.9 N m alone sticks; with 1.05 N m applied against it the joint is back-driven at rest:
  // the level 1 + 0.5 * 1.05 holds it (to rounding: MuJoCo maps xfrc_applied onto the joint
  // itself, the stopping rule by mj_applyFT)
  EXPECT_LT(std::abs(run({0.0, 0.9}, 0.5)[1]), 1e-15);
  EXPECT_LT(std::abs(run({-1.05, 2.5}, 0.5)[1]), 1e-15);
  // back-driven while moving: one step from qd = 3 rad/s under tau = -0.5 N m decelerates by
  // (0.5 + Fc + 0.5 * 0.5 + sigma2 * 3) h / I
  MjDataPtr d(mj_makeData(m.get()));
  flmj_reset(fl.get());
  d->qvel[0] = 3.0;
  d->qfrc_applied[0] = -0.5;
  mj_step(m.get(), d.get());
  EXPECT_NEAR(d->qvel[0], 3.0 - 0.001 * (0.5 + 1.0 + 0.25 + 0.4 * 3.0) / 0.01, 1e-12);
  flmj_torques t{};
  ASSERT_EQ(flmj_get_torques(fl.get(), "joint", &t), 0);
  EXPECT_NEAR(t.budget, 1.0 + 0.25 + 0.4 * 3.0, 1e-12);
  flmj_install(nullptr);
}

TEST(MujocoFriction, ATemperatureLawRunsAtTheJointsTemperature) {
  // A LuGre joint with a linear temperature law (T_ref = 35 degC, kT = -0.012, kT_v = -0.02
  // 1/K) inside MuJoCo is, at every temperature, the joint model at that temperature
  // (sim::at_temperature) to the last bit: from the MUJOCO.json's "temperature", then after
  // flmj_set_temperature.
  const sim::JointSpec spec = testing::pendulum_spec();
  // the joint of examples/data/joint_lugre_warming.py
  sim::JointModel warming = testing::lugre_pendulum();
  warming.temperature = TemperatureDependence<double>{TemperatureLaw::linear, 35.0, -0.012, -0.02};
  const MjModelPtr m = test::load_mjcf(pendulum_joint_mjcf(spec, 0.001, ""), "warming");
  ASSERT_TRUE(m);
  const Friction fl =
      load_friction(*m, write_joint_description(warming, "warming", ", \"temperature\": 45"));
  ASSERT_TRUE(fl);
  EXPECT_EQ(flmj_get_temperature(fl.get(), "joint"), 45.0);
  const auto run = [&](flmj_friction* f) {
    flmj_install(f);
    flmj_reset(f);
    std::vector<double> q = mujoco_joint_run(*m, spec, 0.01);
    flmj_install(nullptr);
    return q;
  };
  for (const double T : {45.0, 25.0}) {
    if (T != 45.0) {
      ASSERT_EQ(flmj_set_temperature(fl.get(), "joint", T), 0);
    }
    const Friction at = load_friction(
        *m, write_joint_description(sim::at_temperature(warming, T), "at_temperature"));
    ASSERT_TRUE(at);
    const std::vector<double> q = run(fl.get()), want = run(at.get());
    EXPECT_EQ(testing::max_abs_diff(q, want), 0.0) << T;
    std::printf("[measured] warming LuGre joint at %g degC: max|q| %.4f rad\n", T,
                testing::max_abs_diff(q, std::vector<double>(q.size(), 0.0)));
  }
  // refused, and nothing changes: not a joint with a law, not finite, a linear law's scale <= 0
  // (beyond T_ref - 1/kT = 118 degC)
  EXPECT_EQ(flmj_set_temperature(fl.get(), "elbow", 30.0), -1);
  EXPECT_EQ(flmj_set_temperature(fl.get(), "joint", std::nan("")), -1);
  EXPECT_EQ(flmj_set_temperature(fl.get(), "joint", 200.0), -1);
  EXPECT_EQ(flmj_get_temperature(fl.get(), "joint"), 25.0);
  EXPECT_TRUE(std::isnan(flmj_get_temperature(fl.get(), "elbow")));
}

/// frictionlab's friction on every joint j0 .. j<n-1> of chain_mjcf(n), all of the parameter
/// file `friction` (the odd joints of `odd` where given), from a MUJOCO.json named `name` in the
/// test's folder.
Friction load_chain_friction(const mjModel& m, int n, const std::string& friction,
                             const std::string& name, const std::string& odd = "") {
  const auto description = test::process_file(name, ".json");
  {
    std::ofstream out(description);
    out << R"({"format": "frictionlab-mujoco", "version": 1, "joints": [)";
    for (int i = 0; i < n; ++i)
      out << (i > 0 ? ", " : "") << R"({"joint": "j)" << i << R"(", "friction": ")"
          << (i % 2 == 1 && !odd.empty() ? odd : friction) << R"("})";
    out << "]}";
  }
  return load_friction(m, description.string());
}

/// The sine torques that make the joints of the test chain stick and slip in turn [N m].
void drive_chain(mjData& d, int n, double amplitude) {
  for (int i = 0; i < n; ++i)
    d.qfrc_applied[i] = amplitude * std::sin(2 * M_PI * (0.3 + 0.17 * i) * d.time + i);
}

/// Joint i's terms of the last step (a test failure if it has none).
flmj_torques torques_of(const flmj_friction& fl, int i) {
  flmj_torques t{};
  EXPECT_EQ(flmj_get_torques(&fl, ("j" + std::to_string(i)).c_str(), &t), 0);
  return t;
}

/// Whether a budget joint with terms t stuck in its step (at rest, friction within its budget);
/// a test failure where it breaks the stopping-torque rule with the velocity v MuJoCo integrated.
bool meets_stopping_rule(const flmj_torques& t, double v, int step, int joint) {
  EXPECT_LE(std::abs(t.friction), t.budget * (1 + 1e-12)) << step << " j" << joint;
  if (std::abs(t.friction) < t.budget * (1 - 1e-9)) {
    EXPECT_LT(std::abs(v), 1e-12) << step << " j" << joint;
    return true;
  }
  EXPECT_LE(v * t.friction, 1e-12 * std::abs(t.friction)) << step << " j" << joint;
  return false;
}

/// LuGre's implicit step from bristle state z at the velocity v over h: z+ = LuGre::step(z, v,
/// h) and F = sigma0 z+ + sigma1 (z+ - z) / h + sigma2 v.
struct ImplicitLugre {
  double force, z_next;
};
ImplicitLugre implicit_lugre(const LuGre<double>::Params& p, double z, double v, double h) {
  using M = LuGre<double>;
  const M::AtVelocity w = M::at(p, v);
  const double z_next = M::step(p, M::State{z}, w, h).z;
  return {p.sigma0 * z_next + w.sigma1 * (z_next - z) / h + p.sigma2 * v, z_next};
}

TEST(MujocoFriction, OnASevenJointArmEveryJointMeetsTheStoppingRuleAtOnce) {
  // Seven coupled joints with coulomb-viscous friction whose level rises with the applied torque
  // (mu_drive 0.2, mu_back 0.1: the budgets differ by side), driven by sines that make them stick
  // and slip in turn. After every MuJoCo step each joint meets the stopping-torque rule with the
  // velocity MuJoCo itself integrated: within its budget it ends the step at rest, at its budget
  // it ends moving (or at rest) against the friction. The frictions of all joints are solved at
  // once (box_qp.hpp); projected Gauss-Seidel sweeps, stopped at their limit, leave sticking
  // joints creeping here.
  constexpr int kJoints = 7;
  const MjModelPtr m = test::load_mjcf(test::chain_mjcf(kJoints), "chain");
  ASSERT_TRUE(m);
  sim::JointModel joint = loaded_rotor({0.2, 0.1});
  auto& f = std::get<StaticFriction<double>::Params>(joint.friction);
  f.curve = StribeckCurve<double>::symmetric(0.3, 0.3, 0.1, 2.0);
  f.sigma2 = 0.05;
  const auto fit = test::process_file("chain_joint_fit", ".json");
  std::ofstream(fit) << R"({"format": "frictionlab-joint-fit", "version": 1, "method": "oe", )"
                     << R"("joint": )" << io::joint_to_json(joint).dump() << "}";
  const Friction fl = load_chain_friction(*m, kJoints, fit.string(), "chain_MUJOCO");
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  MjDataPtr d(mj_makeData(m.get()));
  int stuck = 0, sliding = 0, mixed = 0;  // joint-steps; steps with both at once
  for (int k = 0; k < 4000; ++k) {
    drive_chain(*d, kJoints, 1.5);
    mj_step(m.get(), d.get());
    int stuck_now = 0, sliding_now = 0;
    for (int i = 0; i < kJoints; ++i)
      (meets_stopping_rule(torques_of(*fl, i), d->qvel[i], k, i) ? stuck_now : sliding_now) += 1;
    stuck += stuck_now;
    sliding += sliding_now;
    mixed += stuck_now > 0 && sliding_now > 0;
  }
  flmj_install(nullptr);
  std::printf(
      "[measured] 7-joint arm, 4000 steps: %d joint-steps stuck, %d sliding, %d steps "
      "with both\n",
      stuck, sliding, mixed);
  flmj_stats stats{};
  ASSERT_EQ(flmj_get_stats(fl.get(), &stats), 0);
  EXPECT_EQ(stats.programme_solves, 4000);  // every step at once, no sweep
  EXPECT_EQ(stats.sweeps, 0);
  EXPECT_EQ(stats.lugre_evaluations, 0);
  EXPECT_GT(stuck, 1000);
  EXPECT_GT(sliding, 1000);
  EXPECT_GT(mixed, 500);
}

TEST(MujocoFriction, OnASevenJointArmEveryLugreJointEndsItsStepOnItsImplicitEquation) {
  // Seven coupled LuGre joints (the shoulder of examples/mujoco), driven by sines that make them
  // stick and slip in turn. After every MuJoCo step each joint's friction and bristle state are
  // LuGre's implicit step at the velocity MuJoCo itself integrated: z+ = LuGre::step(z, v+, h)
  // and F = sigma0 z+ + sigma1 (z+ - z) / h + sigma2 v+. The joints are solved at once (Newton
  // on all seven, the sweeps where it stalls).
  constexpr int kJoints = 7;
  const MjModelPtr m = test::load_mjcf(test::chain_mjcf(kJoints), "chain_lugre");
  ASSERT_TRUE(m);
  const double h = m->opt.timestep;
  const std::string model = FRICTIONLAB_SOURCE_DIR "/examples/mujoco/shoulder_lugre.json";
  const auto p = std::get<LuGre<double>::Params>(io::read_model_file(model).spec);
  const Friction fl = load_chain_friction(*m, kJoints, model, "chain_lugre_MUJOCO");
  ASSERT_TRUE(fl);
  flmj_install(fl.get());
  MjDataPtr d(mj_makeData(m.get()));
  std::vector<double> z(kJoints, 0.0);
  double worst_z = 0, worst_force = 0;
  int slow = 0, fast = 0;  // joint-steps below and above vs
  for (int k = 0; k < 3000; ++k) {
    drive_chain(*d, kJoints, 0.4);
    mj_step(m.get(), d.get());
    for (int i = 0; i < kJoints; ++i) {
      const flmj_torques t = torques_of(*fl, i);
      const double v = d->qvel[i];
      auto& zi = z[static_cast<std::size_t>(i)];
      const ImplicitLugre want = implicit_lugre(p, zi, v, h);
      worst_z = std::max(worst_z, std::abs(t.state - want.z_next) / (p.curve.Fs_pos / p.sigma0));
      worst_force = std::max(worst_force, std::abs(-t.friction - want.force) / p.curve.Fs_pos);
      (std::abs(v) < p.curve.vs ? slow : fast) += 1;
      zi = t.state;
    }
  }
  flmj_install(nullptr);
  flmj_stats stats{};
  ASSERT_EQ(flmj_get_stats(fl.get(), &stats), 0);
  std::printf(
      "[measured] 7 LuGre joints, 3000 steps: largest |z+ - LuGre step| %.2e of Fs/sigma0, "
      "|F - LuGre force| %.2e of Fs; %d joint-steps below vs, %d above; Newton at once in %lld "
      "steps, stalled in %lld (%lld sweeps), %.2f model evaluations per joint-step\n",
      worst_z, worst_force, slow, fast, stats.newton_solves, stats.newton_stalls, stats.sweeps,
      static_cast<double>(stats.lugre_evaluations) / (kJoints * 3000.0));
  // every step tried at once by Newton; a stall hands the step to the sweeps
  EXPECT_EQ(stats.evaluations, 3000);
  EXPECT_EQ(stats.newton_solves + stats.newton_stalls, 3000);
  EXPECT_LT(stats.newton_stalls, 60);
  EXPECT_EQ(stats.sweep_limits, 0);  // the stalled steps' sweeps converged
  EXPECT_EQ(stats.programme_solves, 0);
  EXPECT_LT(worst_z, 1e-9);
  EXPECT_LT(worst_force, 1e-9);
  EXPECT_GT(slow, 2000);
  EXPECT_GT(fast, 2000);
}

/// What a mixed arm's run found: the worst LuGre joint's force off its implicit step [of Fs],
/// the static joints' joint-steps stuck and sliding, and the callback's statistics.
struct MixedArmRun {
  double worst_force = 0.0;
  int stuck = 0, sliding = 0;
  flmj_stats stats{};
};

/// kSteps MuJoCo steps of a 7-joint arm, LuGre on the even joints and coulomb-viscous on the odd
/// ones, driven by drive_chain's sines of `amplitude` [Nm]; after every step, with the velocities
/// MuJoCo integrated, each LuGre joint's friction is checked against its implicit step and each
/// static joint against the stopping-torque rule (a test failure where it breaks it).
MixedArmRun run_mixed_arm(double amplitude, int steps) {
  constexpr int kJoints = 7;
  MixedArmRun run;
  const MjModelPtr m = test::load_mjcf(test::chain_mjcf(kJoints), "chain_mixed");
  EXPECT_TRUE(m);
  if (!m) return run;
  const double h = m->opt.timestep;
  const std::string lugre = FRICTIONLAB_SOURCE_DIR "/examples/mujoco/shoulder_lugre.json";
  const std::string coulomb_viscous = FRICTIONLAB_SOURCE_DIR "/examples/data/coulomb_viscous.json";
  const auto p = std::get<LuGre<double>::Params>(io::read_model_file(lugre).spec);
  const Friction fl =
      load_chain_friction(*m, kJoints, lugre, "chain_mixed_MUJOCO", coulomb_viscous);
  EXPECT_TRUE(fl);
  if (!fl) return run;
  flmj_install(fl.get());
  MjDataPtr d(mj_makeData(m.get()));
  std::vector<double> z(kJoints, 0.0);
  for (int k = 0; k < steps; ++k) {
    drive_chain(*d, kJoints, amplitude);
    mj_step(m.get(), d.get());
    for (int i = 0; i < kJoints; ++i) {
      const flmj_torques t = torques_of(*fl, i);
      const double v = d->qvel[i];
      if (i % 2 == 1) {
        (meets_stopping_rule(t, v, k, i) ? run.stuck : run.sliding) += 1;
        continue;
      }
      auto& zi = z[static_cast<std::size_t>(i)];
      const double force = implicit_lugre(p, zi, v, h).force;
      run.worst_force = std::max(run.worst_force, std::abs(-t.friction - force) / p.curve.Fs_pos);
      zi = t.state;
    }
  }
  flmj_install(nullptr);
  EXPECT_EQ(flmj_get_stats(fl.get(), &run.stats), 0);
  std::printf(
      "[measured] mixed 7-joint arm, drive %.2g Nm, %d steps: |F - LuGre force| %.2e of Fs; "
      "static joints %d joint-steps stuck, %d sliding; at once in %lld steps, Newton stalled in "
      "%lld, sweeps unconverged in %lld\n",
      amplitude, steps, run.worst_force, run.stuck, run.sliding, run.stats.newton_solves,
      run.stats.newton_stalls, run.stats.sweep_limits);
  return run;
}

TEST(MujocoFriction, OnAMixedArmLugreAndStaticJointsAreSolvedTogether) {
  // Sines that make every joint stick and slip. Solved at once (Newton on the LuGre joints, the
  // programme for the others inside it), where Gauss-Seidel sweeps stop unconverged in 14 % of
  // bench_mujoco's steps.
  constexpr int kSteps = 3000;
  const MixedArmRun run = run_mixed_arm(1.5, kSteps);
  EXPECT_LT(run.worst_force, 1e-9);
  EXPECT_GT(run.stuck, 1000);
  EXPECT_GT(run.sliding, 1000);
  EXPECT_EQ(run.stats.newton_solves + run.stats.newton_stalls, kSteps);
  EXPECT_LT(run.stats.newton_stalls, kSteps / 50);
  EXPECT_EQ(run.stats.sweep_limits, 0);
}

TEST(MujocoFriction, OnAGentlyDrivenMixedArmTheStuckJointsStayStuck) {
  // A drive too weak to break the static joints loose: they stick throughout while the LuGre
  // joints creep through their bristles, at rest where |u| kinks their equations.
  constexpr int kSteps = 3000;
  const MixedArmRun run = run_mixed_arm(0.6, kSteps);
  EXPECT_LT(run.worst_force, 1e-9);
  EXPECT_GT(run.stuck, 3 * kSteps - 30);
  EXPECT_EQ(run.stats.newton_solves + run.stats.newton_stalls, kSteps);
  EXPECT_EQ(run.stats.sweep_limits, 0);
}

/// flmj_load's message for a MUJOCO.json of `text` on the bench with `joint` and `actuator`.
std::string load_error(const std::string& text, const std::string& joint,
                       const std::string& actuator = kGoal) {
  const auto path = test::process_file("MUJOCO_bad", ".json");
  std::ofstream(path) << text;
  const MjModelPtr m = test::load_mjcf(
      mujoco::pendulum_bench_mjcf({0.49, 0.1, 0.0}, 0.0, 0.001, joint, actuator), "bad");
  if (!m) return "no model";
  char error[1000] = "unset";
  const Friction fl(flmj_load(m.get(), path.c_str(), error, sizeof error));
  EXPECT_FALSE(fl) << text;
  std::filesystem::remove(path);
  return error;
}

TEST(MujocoFriction, LoadNamesTheFileTheLineAndTheMjcfName) {
  if (!std::filesystem::exists(kServoDir)) GTEST_SKIP() << "no shared data";
  const std::string m6 = kServoDir + "/reference_params/m6.json";
  const auto source = io::read_actuator_source(m6);
  char armature[128];
  std::snprintf(armature, sizeof armature, "<joint name=\"servo\" armature=\"%.17g\"/>",
                source.setup.params.armature);
  const auto entry = [&](const std::string& keys) {
    return "{\"format\": \"frictionlab-mujoco\", \"version\": 1,\n \"joints\": [\n  {" + keys +
           "}]}\n";
  };
  const std::string good =
      "\"joint\": \"servo\", \"servo\": \"" + m6 + "\", \"goal\": \"goal\", \"kp\": 400";
  // a joint fit with a temperature law (T_ref = 35 degC, kT = -0.012 1/K)
  sim::JointModel law = loaded_rotor({});
  law.load.reset();
  law.temperature = TemperatureDependence<double>{TemperatureLaw::linear, 35.0, -0.012, 0.0};
  const auto warming = test::process_file("law_joint_fit", ".json").string();
  std::ofstream(warming) << R"({"format": "frictionlab-joint-fit", "version": 1, "method": "oe", )"
                         << R"("joint": )" << io::joint_to_json(law).dump() << "}";
  struct Case {
    std::string text, joint, actuator, want;
  };
  const std::vector<Case> cases = {
      {entry("\"joint\": \"elbow\", \"servo\": \"" + m6 + "\", \"goal\": \"goal\", \"kp\": 400"),
       armature, kGoal, ":3: joint 'elbow': not in the MuJoCo model (its joints: servo)"},
      {entry(good), "<joint name=\"servo\" armature=\"0.001\"/>", kGoal,
       "armature=\"0.001\" in the MJCF, but"},
      {entry(good), std::string(armature).replace(7, 0, "damping=\"0.1\" "), kGoal,
       "has damping=\"0.1\" in the MJCF"},
      {entry(good), armature,
       "<actuator><position name=\"goal\" joint=\"servo\" kp=\"5\"/></actuator>",
       "its goal actuator 'goal' applies a force of its own"},
      {entry(good.substr(0, good.find(", \"kp\""))), armature, kGoal,
       "parameter 'kp': missing or not > 0"},
      {entry(good + ", \"kq\": 1"), armature, kGoal, "parameter 'kq': unknown parameter"},
      {entry("\"joint\": \"servo\", \"servo\": \"no_such.json\", \"goal\": \"goal\", \"kp\": 1"),
       armature, kGoal, "no_such.json"},
      {entry("\"joint\": \"servo\", \"friction\": \"" + std::string(FRICTIONLAB_SOURCE_DIR) +
             "/examples/data/dahl.json\""),
       armature, kGoal, "the model 'dahl' of"},
      {entry("\"joint\": \"servo\""), armature, kGoal, "parameter 'friction': missing"},
      {entry("\"joint\": \"servo\", \"friction\": \"m.json\", \"kp\": 3"), armature, kGoal,
       "parameter 'kp': unknown parameter for a friction joint"},
      {entry("\"joint\": \"servo\", \"friction\": \"" + std::string(FRICTIONLAB_SOURCE_DIR) +
             "/examples/data/coulomb_viscous.json\", \"temperature\": 30"),
       armature, kGoal, "parameter 'temperature':"},
      {entry("\"joint\": \"servo\", \"friction\": \"" + warming + "\""), armature, kGoal,
       "parameter 'temperature': missing"},
      {entry("\"joint\": \"servo\", \"friction\": \"" + warming + "\", \"temperature\": 200"),
       armature, kGoal, "has no positive scale at this temperature"},
  };
  for (const Case& c : cases) {
    const std::string message = load_error(c.text, c.joint, c.actuator);
    EXPECT_NE(message.find("MUJOCO_bad"), std::string::npos) << message;
    EXPECT_NE(message.find(c.want), std::string::npos) << message << "\nwanted: " << c.want;
  }
}

}  // namespace
}  // namespace frictionlab
