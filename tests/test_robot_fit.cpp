// Arm identification (identify/robot_fit.hpp): a synthetic Panda with known mass properties and
// friction identified back (noise-free to 1e-6, noisy within its intervals), and the real Panda
// record of Gaz et al. 2019 (../shared/data/robot_panda) against the paper's Table III.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "frictionlab/workflows/robot.hpp"

namespace fs = std::filesystem;
using namespace frictionlab;

namespace {

const fs::path kPanda = fs::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data" / "robot_panda";

struct Truth {
  robot::RobotModel model;
  std::map<std::string, double> values;  ///< every standard parameter by name
};

/// Joint j's ten standard inertial parameters, under their names "<parameter>_<joint>".
void add_inertial_values(Truth& t, const robot::Joint& j) {
  const auto p = robot::standard_parameters(j.inertial);
  for (int k = 0; k < 10; ++k)
    t.values[std::string(robot::kInertialParameterNames[static_cast<std::size_t>(k)]) + "_" +
             j.name] = p(k);
}

/// The Panda's kinematics with made-up but physical mass properties and friction.
Truth synthetic_panda(std::mt19937& rng) {
  Truth t{io::read_robot((kPanda / "panda_dh.json").string()).model, {}};
  std::uniform_real_distribution<double> u(0, 1);
  for (auto& j : t.model.joints) {
    j.inertial.mass = 1 + 3 * u(rng);
    j.inertial.com = 0.08 * Eigen::Vector3d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
    const double a = 0.01 + 0.05 * u(rng), b = 0.01 + 0.05 * u(rng);
    j.inertial.inertia = Eigen::Vector3d(a, b, 0.5 * (a + b)).asDiagonal();
    add_inertial_values(t, j);
    t.values["Fv_" + j.name] = 0.05 + 0.2 * u(rng);
    t.values["Fc_" + j.name] = 0.1 + 0.3 * u(rng);
    t.values["offset_" + j.name] = 0.2 * (u(rng) - 0.5);
  }
  return t;
}

/// A 5-harmonic Fourier trajectory per joint (as excitation trajectories are built) at 500 Hz
/// over 20 s, with its exact derivatives, and the torques of `truth` plus Gaussian noise.
data::ArmSamples excite(const Truth& truth, double noise, std::mt19937& rng) {
  const int n = truth.model.dof();
  const double wf = 0.15 * M_PI;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::array<double, 10>> ab(static_cast<std::size_t>(n));
  for (auto& c : ab)
    for (double& x : c) x = 0.25 * u(rng);
  data::ArmSamples s;
  s.q.assign(static_cast<std::size_t>(n), {});
  s.qd = s.qdd = s.effort = s.q;
  robot::RigidBodyDynamics<double> dyn(truth.model);
  Eigen::VectorXd pi(10 * n), q(n), qd(n), qdd(n), tau(n);
  for (int i = 0; i < n; ++i)
    pi.segment<10>(10 * i) =
        robot::standard_parameters(truth.model.joints[static_cast<std::size_t>(i)].inertial);
  std::normal_distribution<double> e(0, noise);
  for (int k = 0; k < 10000; ++k) {
    const double t = k / 500.0;
    for (int j = 0; j < n; ++j) {
      q(j) = qd(j) = qdd(j) = 0;
      for (int l = 1; l <= 5; ++l) {
        const double a = ab[static_cast<std::size_t>(j)][static_cast<std::size_t>(l - 1)];
        const double b = ab[static_cast<std::size_t>(j)][static_cast<std::size_t>(l + 4)];
        const double w = l * wf;
        q(j) += a / w * std::sin(w * t) - b / w * std::cos(w * t);
        qd(j) += a * std::cos(w * t) + b * std::sin(w * t);
        qdd(j) += -a * w * std::sin(w * t) + b * w * std::cos(w * t);
      }
    }
    dyn.inverse_dynamics(q.data(), qd.data(), qdd.data(), pi.data(), tau.data());
    s.t.push_back(t);
    for (int j = 0; j < n; ++j) {
      const std::string& name = truth.model.joints[static_cast<std::size_t>(j)].name;
      const double f = truth.values.at("Fv_" + name) * qd(j) +
                       truth.values.at("Fc_" + name) * (qd(j) > 0 ? 1 : (qd(j) < 0 ? -1 : 0)) +
                       truth.values.at("offset_" + name);
      const auto jj = static_cast<std::size_t>(j);
      s.q[jj].push_back(q(j));
      s.qd[jj].push_back(qd(j));
      s.qdd[jj].push_back(qdd(j));
      s.effort[jj].push_back(tau(j) + f + (noise > 0 ? e(rng) : 0));
    }
  }
  return s;
}

/// The UR10e of ../shared/data/robot_ur10e (its URDF's mass properties) with made-up friction.
Truth synthetic_ur10e(std::mt19937& rng) {
  const fs::path urdf =
      fs::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data" / "robot_ur10e" / "ur10e.urdf";
  Truth t{io::read_robot(urdf.string()).model, {}};
  std::uniform_real_distribution<double> u(0, 1);
  for (const auto& j : t.model.joints) {
    add_inertial_values(t, j);
    t.values["Fv_" + j.name] = 1 + 3 * u(rng);
    t.values["Fc_" + j.name] = 2 + 6 * u(rng);
    t.values["offset_" + j.name] = u(rng) - 0.5;
  }
  return t;
}

/// The samples as the record an arm would log (time, q, qd, tau), for the workflow.
data::ArmRecord as_record(const data::ArmSamples& s, const robot::RobotModel& m,
                          const std::string& source) {
  data::ArmRecord r;
  r.source = source;
  for (const auto& j : m.joints) r.joints.push_back(j.name);
  r.t = s.t;
  r.q = s.q;
  r.qd = s.qd;
  r.tau = s.effort;
  return r;
}

double true_value(const identify::RobotParameter& p, const Truth& t) {
  double v = 0;
  for (const auto& [name, c] : p.terms) v += c * t.values.at(name);
  return v;
}

}  // namespace

TEST(RobotFit, NoiseFreeSyntheticPandaIsRecovered) {
  std::mt19937 rng(2);
  const Truth truth = synthetic_panda(rng);
  const data::ArmSamples s = excite(truth, 0, rng);
  const identify::RobotFitResult r = identify::fit_robot(truth.model, s);
  EXPECT_EQ(r.standard_parameters, 91);
  EXPECT_EQ(r.rank, 43 + 21);  // the Panda's 43 base rigid-body parameters, 3 friction per joint
  double worst = 0;
  for (const auto& p : r.parameters) {
    const double v = true_value(p, truth);
    worst = std::max(worst, std::abs(p.value - v) / std::max(1e-3, std::abs(v)));
  }
  EXPECT_LT(worst, 1e-6);
  EXPECT_LT(r.relative_error_percent, 1e-6);
}

TEST(RobotFit, NoisySyntheticPandaIsWithinItsIntervals) {
  std::mt19937 rng(3);
  const Truth truth = synthetic_panda(rng);
  const data::ArmSamples s = excite(truth, 0.05, rng);
  const identify::RobotFitResult r = identify::fit_robot(truth.model, s);
  int inside = 0;
  for (const auto& p : r.parameters)
    inside += std::abs(p.value - true_value(p, truth)) <= 3 * p.std_error;
  // Under Gaussian noise 99.7 % of the 3-sigma intervals hold the truth; allow one miss.
  EXPECT_GE(inside, static_cast<int>(r.parameters.size()) - 1) << inside;
  for (double sigma : r.sigma) EXPECT_NEAR(sigma, 0.05, 0.005);
}

TEST(RobotFit, PandaRecordAgainstThePaper) {
  const io::RobotDescription robot = io::read_robot((kPanda / "panda_dh.json").string());
  std::vector<std::string> names;
  for (const auto& j : robot.model.joints) names.push_back(j.name);
  const data::ArmRecord record = io::read_arm_record((kPanda / "excitation_1.csv").string(), names);
  data::PreprocessOptions pre;
  pre.resample_rate = 1000;
  pre.lowpass_cutoff = 10;
  const data::ArmSamples s = data::preprocess_arm(record, pre);
  const identify::RobotFitResult r = identify::fit_robot(robot.model, s);
  EXPECT_EQ(r.rank, 43 + 21);
  std::printf(
      "Panda: %d samples, condition number %.2f (paper 121.88), relative error %.3f %% "
      "(paper 1.41 %%)\n",
      r.samples, r.condition_number, r.relative_error_percent);
  const std::map<std::string, double> paper_fc = {{"q1", 0.2450}, {"q2", 0.1523}, {"q3", 0.1827},
                                                  {"q4", 0.3591}, {"q5", 0.2669}, {"q6", 0.1658},
                                                  {"q7", 0.2109}};
  for (const auto& p : r.parameters)
    if (p.name.rfind("Fc_", 0) == 0) {
      const double paper = paper_fc.at(p.name.substr(3));
      std::printf("  %s %.4f N m (paper %.4f), %.2f %%sigma\n", p.name.c_str(), p.value, paper,
                  p.relative_std_error_percent);
      EXPECT_NEAR(p.value, paper, 0.1) << p.name;
    }
  EXPECT_GT(r.relative_error_percent, 0.3);
  EXPECT_LT(r.relative_error_percent, 3);
}

TEST(RobotFit, ValidationRecordsArePredictedAndJudged) {
  std::mt19937 rng(4);
  const Truth truth = synthetic_panda(rng);
  const data::ArmRecord train = as_record(excite(truth, 0.05, rng), truth.model, "train.csv");
  const data::ArmRecord other = as_record(excite(truth, 0.05, rng), truth.model, "other.csv");
  data::ArmRecord scaled = other;  // a record of another robot: torques three times larger
  scaled.source = "scaled.csv";
  for (auto& joint : scaled.tau)
    for (double& x : joint) x *= 3;
  workflows::FitRobotOptions o;
  o.choose_lowpass = false;  // exact derivatives: no filter
  const workflows::FitRobotOutcome good = workflows::fit_robot(truth.model, train, o, {other});
  ASSERT_EQ(good.validation.size(), 1u);
  const double ev = good.validation[0].prediction.relative_error_percent;
  EXPECT_LT(ev, 1.5 * good.result.relative_error_percent) << ev;
  for (std::size_t j = 0; j < 7; ++j)
    EXPECT_NEAR(good.validation[0].prediction.rms_error[j], 0.05, 0.01);
  const workflows::FitRobotOutcome bad = workflows::fit_robot(truth.model, train, o, {scaled});
  EXPECT_NE(bad.verdict.line().find("scaled.csv"), std::string::npos) << bad.verdict.line();
  EXPECT_NE(bad.verdict.grade, workflows::Grade::good);
}

TEST(RobotFit, UrLogWithGivenDriveGains) {
  // A UR e-Series log as the controller writes it: no header, time from 1017.78 s, q, qd,
  // currents = torque / K, then target currents and torques (not read).
  const std::vector<double> K = {11.976, 11.976, 9.839, 10.763, 10.763, 10.5};
  std::mt19937 rng(8);
  const Truth truth = synthetic_ur10e(rng);
  const data::ArmSamples s = excite(truth, 0, rng);
  const fs::path log = fs::temp_directory_path() / "frictionlab_ur_log.csv";
  {
    std::ofstream f(log);
    f.precision(17);
    for (std::size_t k = 0; k < s.size(); ++k) {
      f << 1017.78 + s.t[k];
      for (const auto* c : {&s.q, &s.qd})
        for (const auto& j : *c) f << "," << j[k];
      for (std::size_t j = 0; j < 6; ++j) f << "," << s.effort[j][k] / K[j];
      for (int extra = 0; extra < 12; ++extra) f << ",0";
      f << "\n";
    }
  }
  std::vector<std::string> names;
  for (const auto& j : truth.model.joints) names.push_back(j.name);
  io::ArmRecordSpec spec;
  spec.layout = "ur";
  const data::ArmRecord record = io::read_arm_record(log.string(), names, spec);
  ASSERT_EQ(record.current.size(), 6u);
  EXPECT_TRUE(record.tau.empty());
  workflows::FitRobotOptions o;
  o.choose_lowpass = false;
  EXPECT_THROW(workflows::fit_robot(truth.model, record, o), std::invalid_argument);
  o.drive_gains = K;
  const workflows::FitRobotOutcome r = workflows::fit_robot(truth.model, record, o);
  EXPECT_EQ(r.result.rank, 36 + 18);  // the UR10e's 36 rigid-body base parameters
  // Velocities are read, accelerations differentiated: close to, not exactly, the truth.
  for (const auto& p : r.result.parameters) {
    if (p.name.rfind("Fc_", 0) != 0) continue;
    EXPECT_NEAR(p.value, truth.values.at(p.name), 0.02 * truth.values.at(p.name)) << p.name;
  }
  // With each joint's armature (the data set's model has rotor inertias): 40 base parameters,
  // as the data set's README reports from its own QR.
  o.fit.armature = true;
  EXPECT_EQ(workflows::fit_robot(truth.model, record, o).result.rank, 40 + 18);
  fs::remove(log);
}
