// Drive gains identified with the base parameters (identify/robot_gains.hpp): synthetic UR10e
// records (the URDF's mass properties, made-up friction, the controller's current-to-torque
// constants as the truth) without and with a 2.805 kg payload, currents with noise.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_gains.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "frictionlab/workflows/robot.hpp"
#include "robot_synthetic.hpp"

namespace fs = std::filesystem;
using namespace frictionlab;

namespace {

const fs::path kUr10e =
    fs::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data" / "robot_ur10e" / "ur10e.urdf";
const std::vector<double> kGains = {11.976, 11.976, 9.839, 10.763, 10.763, 10.5};  // [N m/A]

/// The record of `traj` on `model` with `pi` (standard parameters, 10 per link): currents
/// (torque + friction) / K + Gaussian noise [A].
data::ArmSamples record(const robot::RobotModel& model, const Eigen::VectorXd& pi,
                        data::ArmSamples s, double noise, std::mt19937& rng) {
  frictionlab::testing::add_torques(
      s, model, pi,
      [](int j, double v) { return (1 + 0.5 * j) * v + (3 + j) * ((v > 0) - (v < 0)) + 0.2; }, 0,
      rng);
  std::normal_distribution<double> e(0, noise);
  for (std::size_t j = 0; j < s.effort.size(); ++j)
    for (double& x : s.effort[j]) x = x / kGains[j] + e(rng);
  s.effort_is_current = true;
  return s;
}

/// The samples as a UR e-Series real-time log (no header: t, q, qd, currents), 4 decimals of
/// the currents as the controller writes them.
void write_ur_log(const data::ArmSamples& s, const fs::path& path) {
  std::ofstream f(path);
  f.precision(10);
  for (std::size_t k = 0; k < s.size(); ++k) {
    f << 1017.78 + s.t[k];
    for (const auto* c : {&s.q, &s.qd, &s.effort})
      for (const auto& j : *c) f << "," << j[k];
    f << "\n";
  }
}

struct Ur10eRecords {
  robot::RobotModel model;
  data::ArmSamples unloaded, loaded;
};

/// The UR10e with its URDF inertials, a 2.805 kg payload off the flange axis, a designed
/// excitation at 200 Hz over two periods, currents with 0.02 A noise.
Ur10eRecords ur10e_records() {
  Ur10eRecords r{io::read_robot(kUr10e.string()).model, {}, {}};
  const int n = r.model.dof();
  const Eigen::VectorXd pi = frictionlab::testing::standard_parameters(r.model);
  robot::Inertial payload;
  payload.mass = 2.805;
  payload.com = Eigen::Vector3d(0.01, -0.02, 0.06);
  payload.inertia = Eigen::Vector3d(0.004, 0.005, 0.003).asDiagonal();
  Eigen::VectorXd pi_loaded = pi;
  pi_loaded.segment<10>(10 * (n - 1)) += robot::standard_parameters(payload);
  identify::ExcitationOptions eo;
  eo.period = 10;
  eo.evaluations = 300;
  eo.acceleration_limits.assign(static_cast<std::size_t>(n), 3.0);
  const data::ArmSamples traj = identify::design_excitation(r.model, eo).trajectory.sample(200, 2);
  std::mt19937 rng(11);
  r.unloaded = record(r.model, pi, traj, 0.02, rng);
  r.loaded = record(r.model, pi_loaded, traj, 0.02, rng);
  return r;
}

}  // namespace

TEST(RobotGains, WorkflowReadsUrLogsAsTheyAre) {
  const Ur10eRecords r = ur10e_records();
  const fs::path dir = fs::temp_directory_path() / "frictionlab_ur_gains";
  fs::create_directories(dir);
  write_ur_log(r.unloaded, dir / "unloaded.csv");
  write_ur_log(r.loaded, dir / "loaded.csv");
  std::vector<std::string> names;
  for (const auto& j : r.model.joints) names.push_back(j.name);
  io::ArmRecordSpec spec;
  spec.layout = "ur";
  workflows::FitRobotOptions o;
  o.preprocess.lowpass_cutoff = 20;  // the record's derivatives are exact: a mild filter
  const workflows::FitRobotOutcome w = workflows::fit_robot_gains(
      r.model, io::read_arm_record((dir / "unloaded.csv").string(), names, spec),
      io::read_arm_record((dir / "loaded.csv").string(), names, spec), 2.805, o);
  ASSERT_EQ(w.drive_gains.size(), 6u);
  for (std::size_t j = 0; j < 6; ++j)
    EXPECT_NEAR(w.drive_gains[j].value, kGains[j], 0.02 * kGains[j]) << w.drive_gains[j].name;
  EXPECT_EQ(w.payload_mass, 2.805);
  bool noted = false;
  for (const auto& reason : w.verdict.reasons) noted = noted || reason.rule == "gains";
  EXPECT_TRUE(noted);
  fs::remove_all(dir);
}

TEST(RobotGains, SyntheticUr10eGainsWithinTheirIntervals) {
  const Ur10eRecords rec = ur10e_records();
  const robot::RobotModel& m = rec.model;
  const int n = m.dof();
  const data::ArmSamples &unloaded = rec.unloaded, &loaded = rec.loaded;
  identify::DriveGainOptions o;
  o.payload_mass = 2.805;
  const identify::DriveGainResult r = identify::fit_robot_gains(m, unloaded, loaded, o);
  for (int j = 0; j < n; ++j) {
    const auto& g = r.gains[static_cast<std::size_t>(j)];
    const auto& ls = r.least_squares_gains[static_cast<std::size_t>(j)];
    const double truth = kGains[static_cast<std::size_t>(j)];
    std::printf("  %s %.4f +- %.4f (least squares %.4f +- %.4f), truth %.3f\n", g.name.c_str(),
                g.value, g.std_error, ls.value, ls.std_error, truth);
    EXPECT_NEAR(g.value, truth, 3 * g.std_error) << g.name;
    EXPECT_LT(g.relative_std_error_percent, 1) << g.name;
  }
  // The noise in the currents biases plain least squares (errors in variables): on the wrist
  // joints, whose currents are smallest, by far more than its standard errors.
  const auto& ls = r.least_squares_gains.back();
  EXPECT_GT(std::abs(ls.value - kGains.back()), 10 * ls.std_error);
  EXPECT_LT(r.fit.relative_error_percent, 5);
}

TEST(RobotGains, TorqueRecordsAndBadMassesAreRefused) {
  const robot::RobotModel m = io::read_robot(kUr10e.string()).model;
  data::ArmSamples s;
  s.q.assign(6, {0.0});
  s.qd = s.qdd = s.effort = s.q;
  s.t = {0};
  identify::DriveGainOptions o;
  o.payload_mass = 2;
  EXPECT_THROW(identify::fit_robot_gains(m, s, s, o), std::invalid_argument);  // torques
  s.effort_is_current = true;
  o.payload_mass = 0;
  EXPECT_THROW(identify::fit_robot_gains(m, s, s, o), std::invalid_argument);
}
