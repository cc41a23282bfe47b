// Load-dependent joint LuGre friction (sim/joint_model.hpp, JointModel::load with LuGre: the
// bristles' elastic force scaled by 1 + mu |tau| / g, so the sliding level is g + mu |tau|,
// mu_drive while the motor drives, mu_back while the joint is back-driven) through the simulation,
// the torque prediction from measured motion and oe. Oracles: with mu = 0 nothing changes, bit for
// bit; a joint sliding under a constant torque settles at the closed-form velocity of the raised
// level, driven and back-driven; the torque solved from the model's own force reproduces the torque
// that made it; a coefficient that could raise the friction faster than the torque is refused; the
// torque predicted along a simulated motion returns the simulation's input; oe recovers mu from a
// simulated record within its interval and fits it better than the load-free model; a record that
// is never back-driven holds mu with an undetermined flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/identify/joint_oe.hpp"
#include "joint_test_models.hpp"

namespace frictionlab::identify {
namespace {

using LG = JointLuGre<double>;

/// The pendulum of joint_test_models.hpp with a load-dependent level.
JointModel loaded_pendulum(double mu_drive, double mu_back) {
  JointModel m = testing::lugre_pendulum();
  m.load = LoadDependence<double>{mu_drive, mu_back};
  return m;
}

struct Drive {
  std::vector<double> t, tau;
};

/// The multisine torque (testing::multisine_torque) sampled at `rate` [Hz] over `duration` [s],
/// around `bias` [N m].
Drive multisine(double duration, double rate, double bias = 0) {
  Drive d;
  const long n = std::lround(duration * rate);
  for (long k = 0; k <= n; ++k) {
    const double t = static_cast<double>(k) / rate;
    d.t.push_back(t);
    d.tau.push_back(bias + testing::multisine_torque(t));
  }
  return d;
}

TEST(JointLuGreLoad, ZeroCoefficientsChangeNothing) {
  const Drive d = multisine(4.0, 250.0);
  const JointModel plain = testing::lugre_pendulum();
  const auto a = sim::simulate_joint_model(plain, d.t, d.tau, {}, {2e-3});
  const auto b = sim::simulate_joint_model(loaded_pendulum(0, 0), d.t, d.tau, {}, {2e-3});
  EXPECT_EQ(a.q, b.q);
  EXPECT_EQ(a.qd, b.qd);
  EXPECT_EQ(a.tau_f, b.tau_f);
  std::vector<double> qdd(d.t.size(), 0.5);
  const auto ia = sim::inverse_dynamics(plain, d.t, a.q, a.qd, qdd);
  const auto ib = sim::inverse_dynamics(loaded_pendulum(0, 0), d.t, a.q, a.qd, qdd);
  EXPECT_EQ(ia.z, ib.z);
  for (std::size_t k = 0; k < d.t.size(); ++k) ASSERT_NEAR(ia.tau[k], ib.tau[k], 1e-14) << k;
}

TEST(JointLuGreLoad, SlidingSettlesAtTheRaisedLevelDrivenAndBackDriven) {
  // A horizontal joint with a constant offset torque -1 N m (it pushes the joint forward:
  // I qdd = tau - offset - F). Steady sliding (zdot = 0) forward: F = Fc + mu |tau| + cv qd =
  // tau + 1. Driven by tau = 0.3 > 0: qd = (1.3 - Fc - 0.3 mu_drive) / cv; with tau = -0.3 the
  // motor holds back (back-driven): qd = (0.7 - Fc - 0.3 mu_back) / cv.
  JointModel m;
  m.structure = {false, true};
  m.I = 0.05;
  m.offset = -1.0;
  m.friction = LG::Params{.sigma0 = 1e3, .sigma1 = 1.0, .Fc = 0.4, .n_viscous = 1, .cv = {0.5}};
  m.load = LoadDependence<double>{0.3, 0.1};
  const std::vector<double> t{0.0, 5.0, 10.0};
  for (const double tau : {0.3, -0.3}) {
    const std::vector<double> u(3, tau);
    const auto tr = sim::simulate_joint_model(m, t, u, {}, {1e-3});
    const double mu = tau > 0 ? 0.3 : 0.1;
    EXPECT_NEAR(tr.qd.back(), (tau + 1 - 0.4 - mu * 0.3) / 0.5, 1e-9) << tau;
    // The torque predicted at the end state is the applied torque.
    EXPECT_NEAR(sim::applied_torque(m, 0.0, tr.qd.back(), 0.0, tr.z.back()), tau, 1e-9) << tau;
  }
}

TEST(JointLuGreLoad, TheSolvedTorqueReproducesTheForceThatMadeIt) {
  // For random states and torques: the acceleration the loaded model gives under tau (the
  // bristles' elastic force scaled by 1 + rise / g, the rise on the side of the motion, at rest
  // on the side tau pushes towards), then sim::applied_torque of that motion: tau back.
  const JointModel m = loaded_pendulum(0.2, 0.05);
  const auto& p = std::get<LG::Params>(m.friction);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uq(-1, 1), uqd(-3, 3), uz(-1, 1), ut(-2, 2);
  double worst = 0;
  int back_driven = 0;
  for (int i = 0; i < 2000; ++i) {
    const double q = uq(rng), qd = i % 10 == 0 ? 0.0 : uqd(rng), tau = ut(rng);
    const double z = uz(rng) * LG::state_bound(p);
    const bool driving = qd != 0 ? tau * qd > 0 : true;
    back_driven += driving ? 0 : 1;
    const double rise = (driving ? 0.2 : 0.05) * std::abs(tau);
    const double F = LG::force(p, LG::State{z}, qd) + rise * p.sigma0 * z / LG::g(p, qd);
    const double qdd = (tau - sim::gravity_torque(m, q) - m.offset - F) / m.I;
    worst = std::max(worst, std::abs(sim::applied_torque(m, q, qd, qdd, z) - tau));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(back_driven, 500);
}

TEST(JointLuGreLoad, ACoefficientThatCouldOutgrowTheTorqueIsRefused) {
  // g_max / g_min = (0.15 + 0.08) / 0.15: mu must stay below 0.652.
  JointModel m = loaded_pendulum(0.66, 0.0);
  EXPECT_THROW(sim::check_joint_model(m), std::invalid_argument);
  m.load = LoadDependence<double>{0.0, 0.66};
  EXPECT_THROW(sim::check_joint_model(m), std::invalid_argument);
  m.load = LoadDependence<double>{0.64, 0.64};
  EXPECT_NO_THROW(sim::check_joint_model(m));
}

/// ||tau_hat - tau|| / ||tau|| of model `fit`'s torque along the motion that `truth` simulates
/// under the multisine sampled at `rate` [Hz] (the exact states and accelerations at the
/// samples).
double inverse_error(const JointModel& truth, const JointModel& fit, double rate = 1000.0) {
  const Drive d = multisine(6.0, rate);
  const auto tr = sim::simulate_joint_model(truth, d.t, d.tau, {}, {1e-4});
  std::vector<double> qdd(d.t.size());
  for (std::size_t k = 0; k < qdd.size(); ++k)
    qdd[k] =
        (d.tau[k] - sim::gravity_torque(truth, tr.q[k]) - truth.offset - tr.tau_f[k]) / truth.I;
  const auto inv = sim::inverse_dynamics(fit, d.t, tr.q, tr.qd, qdd);
  double e = 0, rms = 0;
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    e += std::pow(inv.tau[k] - d.tau[k], 2);
    rms += d.tau[k] * d.tau[k];
  }
  return std::sqrt(e / rms);
}

TEST(JointLuGreLoad, TheTorquePredictedAlongASimulatedMotionIsItsInput) {
  // What is left is the bristle state's integration from the sampled velocity (linear between
  // samples), which the load-free joint's own prediction carries too.
  const JointModel m = loaded_pendulum(0.2, 0.05);
  JointModel free = m;
  free.load.reset();
  const double loaded = inverse_error(m, m), plain = inverse_error(m, free),
               own = inverse_error(free, free);
  std::printf(
      "[measured] torque from a loaded LuGre joint's simulated motion: ||e||/||tau|| %.3g "
      "(the load-free model %.3g; the load-free joint's own %.3g)\n",
      loaded, plain, own);
  EXPECT_LT(loaded, 2 * own);
  EXPECT_GT(plain, 1000 * loaded);
}

/// The loaded pendulum's motion under the drive (around `bias`), `duration` [s] at 250 Hz
/// (testing::measured_motion).
JointData loaded_record(const JointModel& truth, double duration, double bias = 0) {
  Drive dr = multisine(duration, 250.0, bias);
  return testing::measured_motion(truth, std::move(dr.t), std::move(dr.tau));
}

using testing::estimate;

TEST(JointLuGreLoad, OeRecoversMuAndBeatsTheLoadFreeFit) {
  const JointModel truth = loaded_pendulum(0.15, 0.15);
  const JointData d = loaded_record(truth, 10.0);
  const JointOeOptions o = testing::oe_options();
  // Started from the load-free joint (mu = 0), the rigid body 15 % off.
  JointModel start = truth;
  start.load = LoadDependence<double>{};
  start.I *= 1.15;
  start.mgCy *= 0.85;
  const auto r = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  JointModel plain_start = start;
  plain_start.load.reset();
  const auto plain = fit_joint_oe(std::span<const JointData>(&d, 1), plain_start, o);
  const auto& mu = estimate(r, "mu");
  std::printf(
      "[measured] oe of a loaded LuGre joint: mu %.5g (se %.2g, HAC %.2g; truth 0.15); "
      "cost %.4g against %.4g without the load\n",
      mu.value, mu.std_error, mu.hac_std_error, r.final_cost, plain.final_cost);
  EXPECT_NEAR(mu.value, 0.15, 0.02 * 0.15);
  EXPECT_NEAR(mu.value, 0.15, 3 * mu.hac_std_error);
  EXPECT_EQ(r.model.load->mu_back, r.model.load->mu_drive);
  EXPECT_LT(r.final_cost, 0.1 * plain.final_cost);
  for (const auto& f : r.flags) ADD_FAILURE() << f.kind << " " << f.parameter << ": " << f.message;
}

TEST(JointLuGreLoad, ARecordNeverBackDrivenHoldsMuWithAFlag) {
  // A horizontal joint pushed forward by a positive torque only: every moving sample is driven.
  JointModel truth = loaded_pendulum(0.15, 0.15);
  truth.structure = {false, false};
  const JointData d = loaded_record(truth, 3.0, 1.3);
  const JointOeOptions o = testing::oe_options(1);
  JointModel start = truth;
  start.load = LoadDependence<double>{};
  const auto r = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  EXPECT_EQ(r.model.load->mu_drive, 0.0);
  EXPECT_TRUE(estimate(r, "mu").undetermined && estimate(r, "mu").fixed);
  // (The Stribeck term, never crossed at speed here, may make J^T J singular too: another flag.)
  const auto flag = std::find_if(r.flags.begin(), r.flags.end(), [](const auto& f) {
    return f.parameter == "mu" && f.kind == "undetermined";
  });
  ASSERT_NE(flag, r.flags.end());
  EXPECT_NE(flag->message.find("1 back-driven"), std::string::npos) << flag->message;
}

}  // namespace
}  // namespace frictionlab::identify
