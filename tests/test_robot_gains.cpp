// Drive gains identified with the base parameters (identify/robot_gains.hpp): synthetic UR10e
// records (the URDF's mass properties, made-up friction, the controller's current-to-torque
// constants as the truth) without and with a 2.805 kg payload, currents with noise.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_gains.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"

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
  robot::RigidBodyDynamics<double> dyn(model);
  const int n = model.dof();
  Eigen::VectorXd q(n), qd(n), qdd(n), tau(n);
  std::normal_distribution<double> e(0, noise);
  s.effort.assign(static_cast<std::size_t>(n), {});
  s.effort_is_current = true;
  for (std::size_t k = 0; k < s.size(); ++k) {
    for (int j = 0; j < n; ++j) {
      const auto jj = static_cast<std::size_t>(j);
      q(j) = s.q[jj][k], qd(j) = s.qd[jj][k], qdd(j) = s.qdd[jj][k];
    }
    dyn.inverse_dynamics(q.data(), qd.data(), qdd.data(), pi.data(), tau.data());
    for (int j = 0; j < n; ++j) {
      const double friction = (1 + 0.5 * j) * qd(j) + (3 + j) * ((qd(j) > 0) - (qd(j) < 0)) + 0.2;
      s.effort[static_cast<std::size_t>(j)].push_back(
          (tau(j) + friction) / kGains[static_cast<std::size_t>(j)] + e(rng));
    }
  }
  return s;
}

}  // namespace

TEST(RobotGains, SyntheticUr10eGainsWithinTheirIntervals) {
  const robot::RobotModel m = io::read_robot(kUr10e.string()).model;
  const int n = m.dof();
  Eigen::VectorXd pi(10 * n);
  for (int i = 0; i < n; ++i)
    pi.segment<10>(10 * i) =
        robot::standard_parameters(m.joints[static_cast<std::size_t>(i)].inertial);
  // The payload: 2.805 kg on the flange, its centre of mass off the axis.
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
  const data::ArmSamples traj = identify::design_excitation(m, eo).trajectory.sample(200, 2);
  std::mt19937 rng(11);
  const data::ArmSamples unloaded = record(m, pi, traj, 0.02, rng);
  const data::ArmSamples loaded = record(m, pi_loaded, traj, 0.02, rng);
  identify::DriveGainOptions o;
  o.payload_mass = payload.mass;
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
