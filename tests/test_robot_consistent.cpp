// Physically consistent inertials of an arm fit (identify/robot_consistent.hpp): the synthetic
// Panda of real bodies is consistent as fitted, the Panda record's fit is moved to the nearest
// consistent set, and every link found is a realisable body.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <filesystem>
#include <random>

#include "frictionlab/identify/robot_consistent.hpp"
#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/robot/dynamics.hpp"
#include "robot_panda.hpp"
#include "robot_synthetic.hpp"

using namespace frictionlab;

namespace {

robot::RobotModel panda() { return frictionlab::testing::panda_model(); }

/// A realisable body: mass > 0 and principal moments about the centre of mass that are
/// positive and satisfy the triangle inequality (pseudo-inertia positive definite).
void expect_real_body(const robot::Inertial& b, const std::string& what) {
  EXPECT_GT(b.mass, 0) << what;
  const Eigen::Vector3d d = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(b.inertia).eigenvalues();
  EXPECT_GT(d.minCoeff(), 0) << what;
  EXPECT_LE(d(2), d(0) + d(1) + 1e-12) << what;
}

}  // namespace

TEST(RobotConsistent, SyntheticArmOfRealBodiesIsConsistentAsFitted) {
  robot::RobotModel m = panda();
  std::mt19937 rng(5);
  frictionlab::testing::made_up_inertials(m, rng);
  data::ArmSamples s = frictionlab::testing::designed_excitation(m, 200, 100);
  frictionlab::testing::add_torques(
      s, m, frictionlab::testing::standard_parameters(m),
      [](int, double v) { return 0.1 * v + 0.2 * ((v > 0) - (v < 0)); }, 0.01, rng);
  const identify::RobotFitResult fit = identify::fit_robot(m, s);
  const identify::ConsistentResult c = identify::physically_consistent(m, fit);
  std::printf("synthetic: distance %.3f standard errors, %d iterations\n", c.distance,
              c.iterations);
  EXPECT_LT(c.distance, 3);  // real bodies: consistent within the noise
  for (std::size_t l = 0; l < c.links.size(); ++l)
    expect_real_body(c.links[l], "link " + std::to_string(l));
}

TEST(RobotConsistent, PandaRecordMovesToTheNearestConsistentSet) {
  const robot::RobotModel m = panda();
  const data::ArmSamples s = frictionlab::testing::panda_record(m);
  const identify::RobotFitResult fit = identify::fit_robot(m, s);
  const auto t0 = std::chrono::steady_clock::now();
  const identify::ConsistentResult c = identify::physically_consistent(m, fit);
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  identify::RobotFitResult moved = fit;
  for (std::size_t i = 0; i < moved.parameters.size(); ++i) moved.parameters[i].value = c.base[i];
  const double e = identify::predict_robot(m, moved, s).relative_error_percent;
  std::printf(
      "Panda: distance %.2f standard errors, %d iterations, %.3f s; torque error %.3f %% "
      "(least squares %.3f %%)\n",
      c.distance, c.iterations, sec, e, fit.relative_error_percent);
  for (std::size_t l = 0; l < c.links.size(); ++l) {
    expect_real_body(c.links[l], m.joints[l].name);
    std::printf("  %s: m %.3f kg, c (%.3f %.3f %.3f) m\n", m.joints[l].name.c_str(),
                c.links[l].mass, c.links[l].com.x(), c.links[l].com.y(), c.links[l].com.z());
  }
  EXPECT_TRUE(c.converged);
  EXPECT_LT(e, fit.relative_error_percent + 0.5);
  // The first link turns about the base's fixed z axis: only its Izz enters the torques.
  const auto& u = c.undetermined;
  EXPECT_NE(std::find(u.begin(), u.end(), "m_q1"), u.end());
  EXPECT_EQ(std::find(u.begin(), u.end(), "Izz_q1"), u.end());
}
