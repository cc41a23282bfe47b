// The adaptive torque estimator (include/frictionlab/estimator/adaptive_estimator.h) on a
// simulated joint whose friction falls by 30 % over 10 minutes as it warms up (LuGre levels
// scaled by 1 - 0.3 t/600 s, 25 -> 45 degC; frictionlab's LuGre step, 1 kHz), moving 20 s and
// resting 5 s in turn under a known load torque, with current and reference noise: the adaptive
// estimator stays within 2x the noise floor while the fixed one drifts; started on the warm joint,
// with kT frozen or seeded from a temperature fit; long standstills; frozen parameters; float
// against double; the options' checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "estimator_fixtures.hpp"
#include "frictionlab/estimator/adaptive_estimator.h"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/models/lugre.hpp"

namespace frictionlab {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDt = 1e-3;      // [s]
constexpr double kNoise = 0.005;  // torque noise of the current and of the reference [Nm]

/// The joint of tests/estimator_fixtures.hpp, the fit the estimators start from.
fl_estimator_params_f64 nominal() {
  return estimator::to_c_params<fl_estimator_params_f64>(test::joint_params());
}

/// One sample of the simulated joint.
struct Sample {
  double t, v, current, temperature, tau_ref, tau_true;
};

/// The warming joint: `seconds` at 1 kHz; `rest_from` on, the joint stands still.
std::vector<Sample> warming_joint(double seconds, double rest_from = 1e300, unsigned seed = 7) {
  const fl_estimator_params_f64 n = nominal();
  LuGre<double>::Params truth;
  truth.sigma0 = n.sigma0;
  truth.sigma1 = n.sigma1;
  truth.sigma2 = n.sigma2;
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, kNoise);
  std::vector<Sample> out;
  LuGre<double>::State z{};
  double v_prev = 0;
  const auto steps = static_cast<long>(std::lround(seconds / kDt));
  for (long k = 0; k <= steps; ++k) {
    const double t = static_cast<double>(k) * kDt;
    const double kappa = 1.0 - 0.3 * std::min(t, 600.0) / 600.0;
    truth.curve = {
        kappa * n.Fc_pos, kappa * n.Fc_neg,          kappa * n.Fs_pos, kappa * n.Fs_neg, n.vs,
        n.alpha,          StribeckShape::exponential};
    const bool moving = std::fmod(t, 25.0) < 20.0 && t < rest_from;
    const double v =
        moving ? 0.8 * std::sin(2 * kPi * 0.25 * t) + 0.3 * std::sin(2 * kPi * 1.1 * t) : 0.0;
    if (k > 0) z = LuGre<double>::step_linear(truth, z, v_prev, v, kDt);
    v_prev = v;
    const double tau = 0.4 * std::sin(2 * kPi * 0.3 * t);  // the load the joint carries [Nm]
    const double F = LuGre<double>::force(truth, z, v);
    out.push_back({t, v, (tau + F) / n.Km + noise(rng) / n.Km,
                   25.0 + 20.0 * std::min(t, 600.0) / 600.0, tau + noise(rng), tau});
  }
  return out;
}

/// RMS of the torque error against the true load over each window of `window` samples.
template <class Step>
std::vector<double> window_rms(const std::vector<Sample>& s, Step step, int window = 10000) {
  std::vector<double> rms;
  double sum = 0;
  int n = 0;
  for (const Sample& x : s) {
    const double e = step(x) - x.tau_true;
    sum += e * e;
    if (++n == window) {
      rms.push_back(std::sqrt(sum / n));
      sum = 0;
      n = 0;
    }
  }
  return rms;
}

TEST(AdaptiveEstimator, FollowsAJointThatWarmsUpWhileTheFixedOneDrifts) {
  const auto joint = warming_joint(720.0);
  const fl_estimator_params_f64 p = nominal();
  fl_estimator_f64 fixed;
  ASSERT_EQ(fl_estimator_f64_init(&fixed, &p), FL_ESTIMATOR_OK);
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  fl_adaptive_f64 a;
  ASSERT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  const auto fixed_rms = window_rms(joint, [&](const Sample& x) {
    return fl_estimator_f64_step(&fixed, x.current, x.v, kDt, 0.0).torque;
  });
  const auto adaptive_rms = window_rms(joint, [&](const Sample& x) {
    return fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1).torque;
  });
  // The noise floor: the error of an estimator with the true model, Km * the current's noise.
  const double floor = kNoise;
  double worst = 0;
  for (const double w : adaptive_rms) worst = std::max(worst, w);
  std::printf(
      "[measured] 10 s windows, RMS torque error [Nm]: fixed %.4f -> %.4f, adaptive "
      "%.4f -> %.4f (worst %.4f, floor %.4f); kappa_pos %.3f kappa_neg %.3f (truth "
      "0.700), sigma2 %.4f, offset %.4f\n",
      fixed_rms.front(), fixed_rms.back(), adaptive_rms.front(), adaptive_rms.back(), worst, floor,
      a.theta[FL_ADAPT_KAPPA_POS], a.theta[FL_ADAPT_KAPPA_NEG], a.theta[FL_ADAPT_SIGMA2],
      a.theta[FL_ADAPT_OFFSET]);
  EXPECT_GT(fixed_rms.back(), 4 * floor) << "the drift the fixed estimator does not follow";
  EXPECT_LT(worst, 2 * floor);
  EXPECT_NEAR(a.theta[FL_ADAPT_KAPPA_POS], 0.7, 0.05);
  EXPECT_NEAR(a.theta[FL_ADAPT_KAPPA_NEG], 0.7, 0.05);
}

/// On the warm joint (from 600 s: levels at 0.7 of the fit's, 45 degC), started from the cold fit
/// with theta[kT] = kT0 at T_ref 25 degC (kT adapting with variance P0_kT when kT0 != 0): the time
/// [s] until every later 2 s window's RMS torque error is under 2x the noise floor, and the first
/// window's and the last window's RMS [Nm].
struct Settling {
  double settled, first, last;
};
Settling settle_time(const std::vector<Sample>& warm, double kT0, double P0_kT) {
  const fl_estimator_params_f64 p = nominal();
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  if (kT0 != 0) {
    o.adapt |= 1u << FL_ADAPT_KT;
    o.P0[FL_ADAPT_KT] = P0_kT;
  }
  fl_adaptive_f64 a;
  EXPECT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  a.theta[FL_ADAPT_KT] = kT0;  // what export c --adaptive --temperature bakes into init
  const auto rms = window_rms(
      warm,
      [&](const Sample& x) {
        return fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1).torque;
      },
      2000);
  double settled = 0;
  for (std::size_t w = 0; w < rms.size(); ++w)
    if (rms[w] >= 2 * kNoise) settled = 2.0 * static_cast<double>(w + 1);
  return {settled, rms.front(), rms.back()};
}

TEST(AdaptiveEstimator, ReturnsWithinTwiceTheNoiseFloorWhenStartedOnAWarmJoint) {
  // Started from the cold fit on the joint warmed up (its levels at 0.7 of the fit's, 45 degC):
  // the time until every later 2 s window is under 2x the noise floor.
  const auto all = warming_joint(900.0);
  const std::vector<Sample> warm(all.begin() + 600000, all.end());
  const Settling r = settle_time(warm, 0.0, 0.0);
  std::printf(
      "[measured] started on the warm joint: first 2 s window %.4f Nm, every window "
      "under 2x the floor (%.4f Nm) after %.0f s of 300; last %.4f Nm\n",
      r.first, 2 * kNoise, r.settled, r.last);
  EXPECT_GT(r.first, 2 * kNoise);
  EXPECT_LT(r.settled, 60.0);
}

TEST(AdaptiveEstimator, AKtSeededFromATemperatureFitSettlesAtOnce) {
  // The simulated joint's levels scale by 1 - 0.015 (T - 25): kT = -0.015 1/K at T_ref 25 degC.
  // Seeded with it (a fit's value, variance (1.7e-4)^2 as fit-joint's on joint_warming.csv), with
  // a slope 20 % off (-0.012), and frozen at 0 (the C API's default start).
  const auto all = warming_joint(900.0);
  const std::vector<Sample> warm(all.begin() + 600000, all.end());
  const double P0 = 1.7e-4 * 1.7e-4;
  const Settling seeded = settle_time(warm, -0.015, P0);
  const Settling off = settle_time(warm, -0.012, P0);
  const Settling frozen = settle_time(warm, 0.0, 0.0);
  std::printf(
      "[measured] warm joint, every 2 s window under 2x the floor after: kT seeded %.0f s "
      "(first window %.4f Nm), seeded 20 %% off %.0f s (%.4f Nm), kT frozen at 0 %.0f s "
      "(%.4f Nm)\n",
      seeded.settled, seeded.first, off.settled, off.first, frozen.settled, frozen.first);
  EXPECT_LT(seeded.settled, frozen.settled);
  EXPECT_LT(seeded.first, 2 * kNoise);
  EXPECT_LE(off.settled, frozen.settled);
}

TEST(AdaptiveEstimator, LongStandstillsNeitherUpdateNorDiverge) {
  // 100 s of motion, then 10 minutes at rest with noisy current and reference: no update at
  // rest (the dead zone), theta and P as they were; the bound on trace(P) holds throughout.
  const auto joint = warming_joint(700.0, 100.0);
  const fl_estimator_params_f64 p = nominal();
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  fl_adaptive_f64 a;
  ASSERT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  fl_adaptive_f64 at_rest{};
  long updates_at_rest = 0;
  for (const Sample& x : joint) {
    const auto r = fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1);
    ASSERT_TRUE(r.ok);
    double trace = 0;
    for (int j = 0; j < FL_ADAPT_COUNT; ++j) trace += a.P[j * FL_ADAPT_COUNT + j];
    ASSERT_LE(trace, o.trace_max * (1 + 1e-12));
    if (x.t == 100.0) at_rest = a;
    if (x.t > 100.0) updates_at_rest += r.updated;
  }
  EXPECT_EQ(updates_at_rest, 0);
  for (int j = 0; j < FL_ADAPT_COUNT; ++j) EXPECT_EQ(a.theta[j], at_rest.theta[j]) << j;
  for (int j = 0; j < FL_ADAPT_COUNT * FL_ADAPT_COUNT; ++j) EXPECT_EQ(a.P[j], at_rest.P[j]) << j;
}

TEST(AdaptiveEstimator, FrozenParametersKeepTheirValueAndDisabledLearnsNothing) {
  const auto joint = warming_joint(60.0);
  const fl_estimator_params_f64 p = nominal();
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  fl_adaptive_f64 a;
  ASSERT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  ASSERT_EQ(fl_adaptive_f64_freeze(&a, 1u << FL_ADAPT_KAPPA_POS), 0);
  for (const Sample& x : joint)
    (void)fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1);
  EXPECT_NE(a.theta[FL_ADAPT_KAPPA_POS], 1.0);
  EXPECT_EQ(a.theta[FL_ADAPT_KAPPA_NEG], 1.0);
  EXPECT_EQ(a.theta[FL_ADAPT_SIGMA2], p.sigma2);
  EXPECT_EQ(a.theta[FL_ADAPT_OFFSET], 0.0);
  for (int j = 0; j < FL_ADAPT_COUNT; ++j) {
    if (j != FL_ADAPT_KAPPA_POS) {
      EXPECT_EQ(a.P[j * FL_ADAPT_COUNT + j], 0.0) << j;
    }
  }
  // freed again: restarts from its variance P0
  ASSERT_EQ(fl_adaptive_f64_freeze(&a, o.adapt), 0);
  EXPECT_EQ(a.P[FL_ADAPT_KAPPA_NEG * FL_ADAPT_COUNT + FL_ADAPT_KAPPA_NEG],
            o.P0[FL_ADAPT_KAPPA_NEG]);
  EXPECT_EQ(fl_adaptive_f64_freeze(&a, 1u << FL_ADAPT_COUNT), FL_ADAPTIVE_BAD_MASK);
  fl_adaptive_f64_enable(&a, 0);
  const fl_adaptive_f64 before = a;
  for (const Sample& x : joint) {
    const auto r = fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1);
    EXPECT_FALSE(r.updated);
  }
  for (int j = 0; j < FL_ADAPT_COUNT; ++j) EXPECT_EQ(a.theta[j], before.theta[j]);
}

TEST(AdaptiveEstimator, FloatFollowsDouble) {
  const auto joint = warming_joint(300.0);
  const fl_estimator_params_f64 p = nominal();
  const auto pf = estimator::to_c_params<fl_estimator_params_f32>(test::joint_params());
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  fl_adaptive_options_f32 of;
  fl_adaptive_f32_default_options(&of);
  fl_adaptive_f64 a;
  fl_adaptive_f32 af;
  ASSERT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  ASSERT_EQ(fl_adaptive_f32_init(&af, &pf, &of), FL_ESTIMATOR_OK);
  double worst = 0;
  for (const Sample& x : joint) {
    const auto r = fl_adaptive_f64_step(&a, x.current, x.v, kDt, x.temperature, x.tau_ref, 1);
    const auto rf = fl_adaptive_f32_step(
        &af, static_cast<float>(x.current), static_cast<float>(x.v), static_cast<float>(kDt),
        static_cast<float>(x.temperature), static_cast<float>(x.tau_ref), 1);
    worst = std::max(worst, std::abs(rf.torque - r.torque));
  }
  std::printf(
      "[measured] float against double over 300 s: largest torque difference %.2g Nm, "
      "kappa_pos %.5f / %.5f\n",
      worst, static_cast<double>(af.theta[FL_ADAPT_KAPPA_POS]), a.theta[FL_ADAPT_KAPPA_POS]);
  EXPECT_LT(worst, 0.2 * kNoise);
}

TEST(AdaptiveEstimator, BadOptionsAndInputsAreRefused) {
  const fl_estimator_params_f64 p = nominal();
  fl_adaptive_options_f64 o;
  fl_adaptive_f64_default_options(&o);
  fl_adaptive_f64 a;
  auto bad = [&](auto change, int code) {
    fl_adaptive_options_f64 b = o;
    change(b);
    EXPECT_EQ(fl_adaptive_f64_init(&a, &p, &b), code);
  };
  bad([](auto& b) { b.memory_s = 0; }, FL_ADAPTIVE_BAD_MEMORY);
  bad([](auto& b) { b.v_min = -1; }, FL_ADAPTIVE_BAD_V_MIN);
  bad([](auto& b) { b.trace_max = NAN; }, FL_ADAPTIVE_BAD_TRACE);
  bad([](auto& b) { b.P0[3] = -1; }, FL_ADAPTIVE_BAD_P0);
  bad([](auto& b) { b.T_ref = INFINITY; }, FL_ADAPTIVE_BAD_T_REF);
  bad([](auto& b) { b.adapt = 1u << 6; }, FL_ADAPTIVE_BAD_MASK);
  fl_estimator_params_f64 q = p;
  q.sigma0 = 0;
  EXPECT_EQ(fl_adaptive_f64_init(&a, &q, &o), FL_ESTIMATOR_BAD_SIGMA0);
  ASSERT_EQ(fl_adaptive_f64_init(&a, &p, &o), FL_ESTIMATOR_OK);
  const fl_adaptive_f64 before = a;
  EXPECT_FALSE(fl_adaptive_f64_step(&a, NAN, 0.1, kDt, 25, 0, 1).ok);
  EXPECT_FALSE(fl_adaptive_f64_step(&a, 0.1, 0.1, -kDt, 25, 0, 1).ok);
  EXPECT_FALSE(fl_adaptive_f64_step(&a, 0.1, 0.1, kDt, 25, NAN, 1).ok);
  EXPECT_TRUE(fl_adaptive_f64_step(&a, 0.1, 0.1, kDt, 25, NAN, 0).ok) << "no reference: not read";
  EXPECT_EQ(before.theta[1], a.theta[1]);
}

}  // namespace
}  // namespace frictionlab
