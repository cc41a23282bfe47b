// Output-error refinement of a joint (identify/joint_oe.hpp). Oracle: records simulated by the
// project's own equation of motion with known parameters (at a finer step than the fit uses),
// with white noise on the measured position and velocity; oe started from parameters 20-30 %
// off must come back to the truth within the stated tolerances.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_oe.hpp"
#include "joint_test_models.hpp"

namespace frictionlab::identify {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// A pendulum with gravity and an offset, driven by a multisine torque, sampled at `rate`.
JointData simulate_record(const JointModel& truth, double T, double rate, double noise_q,
                          double noise_qd, unsigned seed) {
  JointData d;
  d.source = "synthetic";
  const long n = std::lround(T * rate);
  for (long k = 0; k <= n; ++k) {
    const double t = static_cast<double>(k) / rate;
    d.t.push_back(t);
    d.tau.push_back(0.7 * std::sin(2 * kPi * 0.5 * t) + 0.35 * std::sin(2 * kPi * 1.3 * t + 1) +
                    0.1 * std::sin(2 * kPi * 3.1 * t + 2));
  }
  const auto tr = sim::simulate_joint_model(truth, d.t, d.tau, {}, {1e-4});
  std::mt19937 rng(seed);
  std::normal_distribution<double> nq(0.0, noise_q), nv(0.0, noise_qd);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    d.q.push_back(tr.q[k] + nq(rng));
    d.qd.push_back(tr.qd[k] + nv(rng));
  }
  d.qdd.assign(d.t.size(), 0.0);  // not used by oe
  return d;
}

TEST(JointOe, RecoversLuGreJointFromPerturbedStart) {
  const JointModel truth = testing::lugre_pendulum();
  const JointData d = simulate_record(truth, 8.0, 250.0, 1e-4, 1e-3, 3);
  const JointModel start = testing::perturbed_start(truth);
  JointOeOptions o = testing::oe_options();
  const auto r = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  const auto& q = std::get<JointLuGre<double>::Params>(r.model.friction);
  const auto& t = std::get<JointLuGre<double>::Params>(truth.friction);
  testing::print_lugre_fit("oe LuGre", r);
  // Measured (8 s at 250 Hz, noise 1e-4 rad / 1e-3 rad/s, 0.25 s segments): I, mgCx, mgCy,
  // offset, Fc, cv[0] within 0.1 %; sigma0 0.3 %, sigma1 0.8 %, Fs[0] 4 %, Omega_s 4 %. The
  // bristle and Stribeck parameters are the weakly excited ones (only around the reversals).
  EXPECT_NEAR(r.model.I, truth.I, 0.002 * truth.I);
  EXPECT_NEAR(r.model.mgCx, truth.mgCx, 0.002);
  EXPECT_NEAR(r.model.mgCy, truth.mgCy, 0.002);
  EXPECT_NEAR(r.model.offset, truth.offset, 0.001);
  EXPECT_NEAR(q.Fc, t.Fc, 0.01 * t.Fc);
  EXPECT_NEAR(q.cv[0], t.cv[0], 0.01 * t.cv[0]);
  EXPECT_NEAR(q.Fs[0], t.Fs[0], 0.1 * t.Fs[0]);
  EXPECT_NEAR(q.Omega_s, t.Omega_s, 0.05 * t.Omega_s);
  EXPECT_NEAR(q.sigma0, t.sigma0, 0.05 * t.sigma0);
  EXPECT_NEAR(q.sigma1, t.sigma1, 0.05 * t.sigma1);
  // The linearised standard errors are of the right size: the truth lies within 4 of them.
  const std::vector<double> truth_values{truth.I,  truth.mgCx, truth.mgCy, truth.offset, t.sigma0,
                                         t.sigma1, t.Fc,       t.Fs[0],    t.Omega_s,    t.cv[0]};
  for (std::size_t i = 0; i < truth_values.size(); ++i)
    EXPECT_LT(std::abs(r.parameters[i].value - truth_values[i]), 4 * r.parameters[i].std_error)
        << r.parameters[i].name;
  for (const auto& e : r.parameters) {
    if (e.fixed) continue;
    EXPECT_TRUE(std::isfinite(e.std_error)) << e.name;
    std::printf("[measured]   %s = %.5g +- %.2g (95 %%: %.5g .. %.5g), HAC +- %.2g\n",
                e.name.c_str(), e.value, e.std_error, e.ci_low, e.ci_high, e.hac_std_error);
  }
  const auto& rel = r.reliability;
  std::printf(
      "[measured] oe LuGre reliability: %s, Ljung-Box p %.3g, acf1 %.3g, HAC lags %d, HAC / "
      "white max %.3g\n",
      rel.standard_errors ? "reliable" : "unreliable", rel.whiteness.ljung_box_p,
      rel.whiteness.acf1, rel.hac_lags, rel.hac_ratio_max);
  for (const auto& why : rel.reasons) std::printf("  %s\n", why.c_str());
  // The measurement noise is white and the model is the truth: the residuals are close to white
  // (measured: acf1 0.019, Ljung-Box p 0.045 on the more coloured channel), nothing makes the
  // standard errors unreliable, and the Newey-West ones estimate the same covariance as the
  // white-noise ones (measured: at most 1.27 times them).
  EXPECT_TRUE(rel.standard_errors);
  EXPECT_TRUE(rel.reasons.empty());
  EXPECT_LT(std::abs(rel.whiteness.acf1), 0.1);
  EXPECT_GT(rel.hac_lags, 0);
  EXPECT_LT(rel.hac_ratio_max, 1.5);
  for (const auto& e : r.parameters)
    if (!e.fixed) {
      EXPECT_GT(e.hac_std_error, 0.7 * e.std_error) << e.name;
    }
}

// The Jacobian by forward sensitivities (the default) and by central differences are two
// independent derivatives of the same residuals: from the same start both must reach the same
// optimum (the least-squares cost to 1e-9, every parameter to a hundredth of its standard
// error), and the standard errors, which J^T J at the optimum gives, must agree to 1e-3.
TEST(JointOe, SensitivityAndCentralDifferenceJacobiansReachTheSameOptimum) {
  const JointModel truth = testing::lugre_pendulum();
  const JointData d = simulate_record(truth, 4.0, 250.0, 1e-4, 1e-3, 5);
  const JointModel start = testing::perturbed_start(truth);
  JointOeOptions o = testing::oe_options();
  const auto sens = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  o.jacobian = JointOeOptions::Jacobian::central_differences;
  const auto cd = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  std::printf(
      "[measured] oe cost %.12g (sensitivities, %d iterations) vs %.12g (central "
      "differences, %d iterations)\n",
      sens.final_cost, sens.iterations, cd.final_cost, cd.iterations);
  ASSERT_TRUE(sens.converged);
  ASSERT_TRUE(cd.converged);
  EXPECT_NEAR(sens.final_cost, cd.final_cost, 1e-9 * cd.final_cost);
  ASSERT_EQ(sens.parameters.size(), cd.parameters.size());
  for (std::size_t i = 0; i < cd.parameters.size(); ++i) {
    const auto& a = sens.parameters[i];
    const auto& b = cd.parameters[i];
    if (b.fixed) continue;
    std::printf("[measured]   %-8s %.8g +- %.3g vs %.8g +- %.3g\n", a.name.c_str(), a.value,
                a.std_error, b.value, b.std_error);
    EXPECT_NEAR(a.value, b.value, 0.01 * b.std_error) << a.name;
    EXPECT_NEAR(a.std_error, b.std_error, 1e-3 * b.std_error) << a.name;
  }
}

TEST(JointOe, RecoversCoulombViscousJoint) {
  JointModel truth = testing::lugre_pendulum();
  StaticFriction<double>::Params f;
  f.curve = StribeckCurve<double>{0.15, 0.15, 0.15, 0.15, 1.0, 1.0, StribeckShape::exponential};
  f.sigma2 = 0.05;
  truth.friction = f;
  const JointData d = simulate_record(truth, 8.0, 250.0, 1e-4, 1e-3, 5);
  JointModel start = truth;
  start.I *= 0.8;
  start.mgCy *= 1.2;
  auto& g = std::get<StaticFriction<double>::Params>(start.friction);
  g.curve.Fc_pos = g.curve.Fc_neg = g.curve.Fs_pos = g.curve.Fs_neg = 0.2;
  g.sigma2 = 0.07;
  JointOeOptions o;
  o.threads = 2;
  const auto r = fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
  const auto& q = std::get<StaticFriction<double>::Params>(r.model.friction);
  std::printf(
      "[measured] oe Coulomb+viscous: I %.5g mgCy %.5g offset %.4g Fc %.4g Fv %.4g; %d "
      "iterations\n",
      r.model.I, r.model.mgCy, r.model.offset, q.curve.Fc_pos, q.sigma2, r.iterations);
  EXPECT_NEAR(r.model.I, truth.I, 0.02 * truth.I);
  EXPECT_NEAR(r.model.mgCy, truth.mgCy, 0.02);
  EXPECT_NEAR(q.curve.Fc_pos, 0.15, 0.01);
  EXPECT_EQ(q.curve.Fc_neg, q.curve.Fc_pos);
  EXPECT_NEAR(q.sigma2, 0.05, 0.01);
}

// The segments' simulations run on `threads` threads (joint_oe.cpp, SegmentEvaluator) while
// Ceres sums in one fixed order: the result, bit for bit, does not depend on the thread count
// (with Ceres's own threads it did: tests/test_trust_dfki.cpp failed intermittently).
TEST(JointOe, ResultDoesNotDependOnTheThreadCount) {
  const JointModel truth = testing::lugre_pendulum();
  const JointData d = simulate_record(truth, 4.0, 250.0, 1e-4, 1e-3, 7);
  const JointModel start = testing::perturbed_start(truth);
  std::vector<JointOeResult> runs;
  for (const int threads : {1, 2, 5}) {
    JointOeOptions o = testing::oe_options(4);
    o.threads = threads;
    runs.push_back(fit_joint_oe(std::span<const JointData>(&d, 1), start, o));
  }
  for (std::size_t k = 1; k < runs.size(); ++k) {
    EXPECT_EQ(runs[k].iterations, runs[0].iterations);
    EXPECT_EQ(runs[k].final_cost, runs[0].final_cost);
    ASSERT_EQ(runs[k].parameters.size(), runs[0].parameters.size());
    for (std::size_t i = 0; i < runs[0].parameters.size(); ++i) {
      EXPECT_EQ(runs[k].parameters[i].value, runs[0].parameters[i].value)
          << runs[0].parameters[i].name;
      EXPECT_EQ(runs[k].parameters[i].std_error, runs[0].parameters[i].std_error)
          << runs[0].parameters[i].name;
    }
  }
  // The fit moved (a comparison of three copies of the start would pass trivially).
  EXPECT_LT(runs[0].final_cost, 0.5 * runs[0].initial_cost);
}

TEST(JointOe, ErrorsNameTheProblem) {
  const JointModel truth = testing::lugre_pendulum();
  const JointData d = simulate_record(truth, 1.0, 100.0, 0, 0, 1);
  auto message = [&](const JointModel& m, const JointOeOptions& o) {
    try {
      fit_joint_oe(std::span<const JointData>(&d, 1), m, o);
    } catch (const FitError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  JointModel bad = truth;
  bad.I = -1;
  EXPECT_EQ(message(bad, {}),
            "oe: the initial model is not valid: joint model: parameter 'I' must be > 0 (got -1)");
  JointOeOptions o;
  o.segment_s = -1;
  EXPECT_EQ(message(truth, o), "oe: segment length must be a finite number >= 0 s, got -1");
}

}  // namespace
}  // namespace frictionlab::identify
