// Forward sensitivities of the joint simulation (sim/joint_model.hpp,
// simulate_joint_model_sensitivity, bristle_state_sensitivity) against central differences of
// the plain simulation, parameter by parameter, on records that stick, slip and reverse: the
// pendulum of tests/joint_test_models.hpp (model A, one Stribeck term), a model B (tanh, K > 0)
// joint with two Stribeck terms of opposite signs and a cubic viscous term, and the pendulum
// under a PD controller. Also: the trajectory is the plain simulation's bit for bit, and static
// friction is refused. Measured agreement (relative to each column's largest entry): dz 2e-10 to
// 3e-9, dq and dqd 1e-9 to 3e-6 (the central differences' own truncation and the Newton
// tolerance); the bounds are 1e-7 and 1e-5.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "frictionlab/sim/joint_model.hpp"
#include "joint_test_models.hpp"

namespace frictionlab {
namespace {

using sim::JointModel;
using LG = JointLuGre<double>;

struct Record {
  std::vector<double> t, tau, qd;
};

/// 2 s at 1 kHz of a torque that swings the pendulum through rest and reverses it, and a
/// measured-like velocity for the bristle state (a smooth sweep through zero).
Record record(double amplitude) {
  Record r;
  for (int k = 0; k <= 2000; ++k) {
    const double t = 1e-3 * k;
    r.t.push_back(t);
    r.tau.push_back(amplitude * std::sin(2 * M_PI * 0.8 * t) + 0.3 * std::sin(2 * M_PI * 3.1 * t));
    r.qd.push_back(0.6 * std::sin(2 * M_PI * 0.9 * t) - 0.05);
  }
  return r;
}

/// The parameter of joint_sensitivity_parameters' name in m.
double& param(JointModel& m, const std::string& name) {
  auto& p = std::get<LG::Params>(m.friction);
  if (name == "I") return m.I;
  if (name == "mgCx") return m.mgCx;
  if (name == "mgCy") return m.mgCy;
  if (name == "offset") return m.offset;
  if (name == "sigma0") return p.sigma0;
  if (name == "sigma1") return p.sigma1;
  if (name == "Fc") return p.Fc;
  if (name == "Omega_s") return p.Omega_s;
  const auto i = static_cast<std::size_t>(name[name.size() - 2] - '0');
  if (name.rfind("Fs[", 0) == 0) return p.Fs[i];
  if (name.rfind("cv[", 0) == 0) return p.cv[i];
  throw std::logic_error("unknown parameter " + name);
}

/// Every column of the sensitivities against central differences of the simulation, with
/// z0 = the bristle state at sample k0 of the velocity record (its derivative from
/// bristle_state_sensitivity) and the simulation started there.
void check_against_central_differences(const JointModel& m, const Record& r,
                                       const sim::JointSimOptions& opt, std::size_t k0) {
  const std::size_t n = r.t.size() - k0;
  const auto t = std::span(r.t).subspan(k0, n);
  const auto tau = std::span(r.tau).subspan(k0, n);
  const sim::JointState x0{0.2, -0.1, sim::bristle_state(m, r.t, r.qd)[k0]};
  const std::vector<std::string> names = sim::joint_sensitivity_parameters(m);
  const auto P = names.size();
  const std::vector<double> dz = sim::bristle_state_sensitivity(m, r.t, r.qd);
  ASSERT_EQ(dz.size(), r.t.size() * P);
  const std::vector<double> dz0(dz.begin() + static_cast<std::ptrdiff_t>(k0 * P),
                                dz.begin() + static_cast<std::ptrdiff_t>((k0 + 1) * P));
  sim::JointSensitivity s;
  const sim::JointTrajectory tr = sim::simulate_joint_model_sensitivity(m, t, tau, x0, dz0, opt, s);
  ASSERT_EQ(s.columns, static_cast<int>(P) + 2);
  ASSERT_EQ(s.names.size(), P + 2);

  // The trajectory is the plain simulation's, bit for bit.
  const sim::JointTrajectory plain = sim::simulate_joint_model(m, t, tau, x0, opt);
  ASSERT_EQ(tr.q, plain.q);
  ASSERT_EQ(tr.qd, plain.qd);

  // The bristle state's derivative against central differences of bristle_state.
  for (std::size_t c = 0; c < P; ++c) {
    JointModel mp = m, mm = m;
    const double v = param(mp, names[c]);
    const double h = 1e-6 * std::max(std::abs(v), 1e-3);
    param(mp, names[c]) = v + h;
    param(mm, names[c]) = v - h;
    const auto zp = sim::bristle_state(mp, r.t, r.qd), zm = sim::bristle_state(mm, r.t, r.qd);
    double scale = 0, err = 0;
    for (std::size_t k = 0; k < r.t.size(); ++k) {
      const double cd = (zp[k] - zm[k]) / (2 * h);
      scale = std::max(scale, std::abs(cd));
      err = std::max(err, std::abs(dz[k * P + c] - cd));
    }
    EXPECT_LE(err, 1e-7 * scale) << "dz/d" << names[c] << " (largest " << scale << ")";
  }

  for (std::size_t c = 0; c < P + 2; ++c) {
    sim::JointTrajectory tp, tm;
    double h = 0;
    if (c < P) {
      JointModel mp = m, mm = m;
      const double v = param(mp, names[c]);
      h = 1e-6 * std::max(std::abs(v), 1e-3);
      param(mp, names[c]) = v + h;
      param(mm, names[c]) = v - h;
      // z0 follows the parameter through the bristle state, as in oe's segments.
      sim::JointState xp = x0, xm = x0;
      xp.z = sim::bristle_state(mp, r.t, r.qd)[k0];
      xm.z = sim::bristle_state(mm, r.t, r.qd)[k0];
      tp = sim::simulate_joint_model(mp, t, tau, xp, opt);
      tm = sim::simulate_joint_model(mm, t, tau, xm, opt);
    } else {
      sim::JointState xp = x0, xm = x0;
      h = 1e-7;
      (c == P ? xp.q : xp.qd) += h;
      (c == P ? xm.q : xm.qd) -= h;
      tp = sim::simulate_joint_model(m, t, tau, xp, opt);
      tm = sim::simulate_joint_model(m, t, tau, xm, opt);
    }
    double sq = 0, sqd = 0, eq = 0, eqd = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double cq = (tp.q[k] - tm.q[k]) / (2 * h), cqd = (tp.qd[k] - tm.qd[k]) / (2 * h);
      sq = std::max(sq, std::abs(cq));
      sqd = std::max(sqd, std::abs(cqd));
      eq = std::max(eq, std::abs(s.dq[k * (P + 2) + c] - cq));
      eqd = std::max(eqd, std::abs(s.dqd[k * (P + 2) + c] - cqd));
    }
    EXPECT_GT(sq + sqd, 0) << s.names[c];
    EXPECT_LE(eq, 1e-5 * sq + 1e-12) << "dq/d" << s.names[c] << " (largest " << sq << ")";
    EXPECT_LE(eqd, 1e-5 * sqd + 1e-12) << "dqd/d" << s.names[c] << " (largest " << sqd << ")";
  }
}

TEST(JointSensitivity, PendulumModelAAgreesWithCentralDifferences) {
  const JointModel m = testing::lugre_pendulum();
  EXPECT_EQ(sim::joint_sensitivity_parameters(m),
            (std::vector<std::string>{"I", "mgCx", "mgCy", "offset", "sigma0", "sigma1", "Fc",
                                      "Fs[0]", "Omega_s", "cv[0]"}));
  check_against_central_differences(m, record(1.4), {}, 0);
  check_against_central_differences(m, record(1.4), {}, 700);
}

TEST(JointSensitivity, ModelBWithMixedStribeckTermsAgreesWithCentralDifferences) {
  JointModel m = testing::lugre_pendulum();
  m.structure.gravity = false;
  m.offset = 0.02;
  auto& p = std::get<LG::Params>(m.friction);
  p.K = 200;
  p.n_stribeck = 2;
  p.Fs = {0.1, -0.03};
  p.delta = {2.0, 0.7};
  p.n_viscous = 3;
  p.cv = {0.05, 0.004, 0.01};
  EXPECT_EQ(sim::joint_sensitivity_parameters(m),
            (std::vector<std::string>{"I", "offset", "sigma0", "sigma1", "Fc", "Fs[0]", "Fs[1]",
                                      "Omega_s", "cv[0]", "cv[1]", "cv[2]"}));
  check_against_central_differences(m, record(0.4), {2e-3, 0, 0}, 500);
}

TEST(JointSensitivity, ClosedLoopAgreesWithCentralDifferences) {
  check_against_central_differences(testing::lugre_pendulum(), record(0.5), {1e-3, 8.0, 0.5}, 300);
}

TEST(JointSensitivity, RefusesStaticFrictionAndAWrongDz0) {
  JointModel m = testing::lugre_pendulum();
  const Record r = record(1.0);
  sim::JointSensitivity s;
  EXPECT_THROW(
      sim::simulate_joint_model_sensitivity(m, r.t, r.tau, {}, std::vector<double>(3), {}, s),
      std::invalid_argument);
  m.friction = StaticFriction<double>::Params{};
  EXPECT_TRUE(sim::joint_sensitivity_parameters(m).empty());
  EXPECT_THROW(sim::simulate_joint_model_sensitivity(m, r.t, r.tau, {}, {}, {}, s),
               std::invalid_argument);
  EXPECT_THROW(sim::bristle_state_sensitivity(m, r.t, r.qd), std::invalid_argument);
}

}  // namespace
}  // namespace frictionlab
