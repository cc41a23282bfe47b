// Experiment design for arm identification (identify/robot_excite.hpp): the Fourier trajectory
// and its derivatives, the limits and the rest start every design keeps, the Panda design
// against the Panda record of Gaz et al. 2019 (../shared/data/robot_panda), and the check's
// flags on trajectories that leave parameters unexcited.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/robot_description.hpp"

namespace fs = std::filesystem;
using namespace frictionlab;

namespace {

const fs::path kPanda = fs::path(FRICTIONLAB_SOURCE_DIR) / ".." / "shared" / "data" / "robot_panda";

robot::RobotModel panda() { return io::read_robot((kPanda / "panda_dh.json").string()).model; }

identify::ExcitationOptions panda_options() {
  identify::ExcitationOptions o;
  o.period = 2 / 0.15;  // the record's wf = 0.15 pi rad/s, 5 harmonics
  o.harmonics = 5;
  o.evaluations = 1500;
  o.threads = 2;
  return o;
}

bool contains(const std::vector<std::string>& flags, const std::string& text) {
  for (const auto& f : flags)
    if (f.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(RobotExcite, SeriesDerivativesAreExact) {
  identify::FourierTrajectory f;
  f.period = 7;
  f.q0 = {0.3, -1};
  f.a = {{0.2, -0.1, 0.05}, {0.4, 0.0, -0.3}};
  f.b = {{-0.3, 0.2, 0.1}, {0.1, 0.25, 0.0}};
  const double h = 1e-5;
  for (double t : {0.0, 1.3, 4.9}) {
    double q[2], qd[2], qdd[2], qp[2], qm[2], vp[2], vm[2], ap[2], am[2];
    f.evaluate(t, q, qd, qdd);
    f.evaluate(t + h, qp, vp, ap);
    f.evaluate(t - h, qm, vm, am);
    for (int j = 0; j < 2; ++j) {
      EXPECT_NEAR((qp[j] - qm[j]) / (2 * h), qd[j], 1e-8);
      EXPECT_NEAR((vp[j] - vm[j]) / (2 * h), qdd[j], 1e-8);
    }
    f.evaluate(t + f.period, qp, vp, ap);  // periodic
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(qp[j], q[j], 1e-12);
  }
}

TEST(RobotExcite, PandaDesignKeepsLimitsStartsAtRestAndBeatsTheRecord) {
  const robot::RobotModel m = panda();
  const identify::ExcitationOptions o = panda_options();
  const identify::ExcitationDesign d = identify::design_excitation(m, o);
  // At rest at t = 0 and within margin x every limit on a fine grid.
  const data::ArmSamples fine = d.trajectory.sample(200);
  for (int j = 0; j < m.dof(); ++j) {
    const auto jj = static_cast<std::size_t>(j);
    const auto& lim = m.joints[jj].limits;
    EXPECT_NEAR(fine.qd[jj][0], 0, 1e-12);
    EXPECT_NEAR(fine.qdd[jj][0], 0, 1e-12);
    EXPECT_NEAR(fine.q[jj][0], d.start[jj], 1e-12);
    const double slack = 1.002 * o.margin;  // the limits are met on a grid: within 0.12 %
    for (std::size_t k = 0; k < fine.size(); ++k) {
      EXPECT_LE(fine.q[jj][k], lim.upper + 1e-12);
      EXPECT_GE(fine.q[jj][k], lim.lower - 1e-12);
      EXPECT_LE(std::abs(fine.qd[jj][k]), slack * lim.velocity);
      EXPECT_LE(std::abs(fine.qdd[jj][k]), slack * lim.acceleration);
    }
  }
  // The record the paper identified from (its base regressor as fit_robot sees it).
  std::vector<std::string> names;
  for (const auto& j : m.joints) names.push_back(j.name);
  data::PreprocessOptions pre;
  pre.resample_rate = 1000;
  pre.lowpass_cutoff = 10;
  const data::ArmSamples rec =
      data::preprocess_arm(io::read_arm_record((kPanda / "excitation_1.csv").string(), names), pre);
  const identify::ExcitationCheck own = identify::check_excitation(m, rec);
  const identify::ExcitationCheck designed = identify::check_excitation(m, fine);
  std::printf(
      "Panda: designed trajectory's condition number %.1f (%ld evaluations, %.1f s), the "
      "record's %.1f (paper 121.88)\n",
      designed.condition_number, d.evaluations, d.seconds, own.condition_number);
  EXPECT_EQ(designed.rank, 64);
  EXPECT_LE(designed.condition_number, own.condition_number);
  EXPECT_NEAR(designed.condition_number, d.check.condition_number, 0.05 * d.check.condition_number);
  EXPECT_TRUE(designed.flags.empty()) << designed.flags.front();
  for (int r : designed.reversals) EXPECT_GE(r, 2);
}

TEST(RobotExcite, CheckFlagsWhatATrajectoryDoesNotExcite) {
  const robot::RobotModel m = panda();
  identify::ExcitationOptions o = panda_options();
  o.evaluations = 200;
  identify::FourierTrajectory f = identify::design_excitation(m, o).trajectory;
  // Joint 7 held still: its link's parameters and its friction are not excited.
  std::fill(f.a[6].begin(), f.a[6].end(), 0.0);
  std::fill(f.b[6].begin(), f.b[6].end(), 0.0);
  const identify::ExcitationCheck c = identify::check_excitation(m, f.sample(20));
  EXPECT_TRUE(std::isinf(c.condition_number));
  EXPECT_TRUE(contains(c.flags, "not excited at all")) << c.flags.size();
  EXPECT_TRUE(contains(c.flags, "Fv_q7"));
  EXPECT_TRUE(contains(c.flags,
                       "never changes sign (Coulomb friction and offset cannot be told "
                       "apart): q7"));
  // Joint 3 moving in one direction only (never reverses): Fc_q3 and offset_q3 are one column.
  identify::FourierTrajectory g = identify::design_excitation(m, o).trajectory;
  data::ArmSamples s = g.sample(20);
  for (std::size_t k = 0; k < s.size(); ++k) {
    s.q[2][k] = 0.5 * s.t[k] - (0.1 / 0.3) * std::cos(0.3 * s.t[k]);
    s.qd[2][k] = 0.5 + 0.1 * std::sin(0.3 * s.t[k]);
    s.qdd[2][k] = 0.03 * std::cos(0.3 * s.t[k]);
  }
  const identify::ExcitationCheck c3 = identify::check_excitation(m, s);
  EXPECT_TRUE(contains(c3.flags,
                       "never changes sign (Coulomb friction and offset cannot be told "
                       "apart): q3"));
  const auto at = [&](const std::string& name) {
    for (std::size_t i = 0; i < c3.parameters.size(); ++i)
      if (c3.parameters[i] == name) return c3.separation[i];
    ADD_FAILURE() << name;
    return 1.0;
  };
  EXPECT_LT(at("Fc_q3"), 1e-6);
  EXPECT_GT(at("Fv_q1"), identify::kPoorSeparation);
}

TEST(RobotExcite, MissingLimitsAndBadOptionsAreRefused) {
  robot::RobotModel m = panda();
  m.joints[3].limits.acceleration = std::numeric_limits<double>::infinity();
  try {
    identify::design_excitation(m, panda_options());
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("joint 'q4': no acceleration limit"), std::string::npos)
        << e.what();
  }
  identify::ExcitationOptions o = panda_options();
  o.harmonics = 1;
  EXPECT_THROW(identify::design_excitation(panda(), o), std::invalid_argument);
  o = panda_options();
  o.margin = 1.5;
  EXPECT_THROW(identify::design_excitation(panda(), o), std::invalid_argument);
}
