// Identification of the static models: exact recovery from noise-free data, agreement with an
// independent closed-form ordinary least-squares solution (estimates and standard errors),
// calibrated 95 % intervals over noise seeds, robust loss against outliers.
//
// Records: the default synthetic excitation (identify/synthetic.hpp: 20 s at 1 kHz, v_max =
// 1 rad/s, plateaus then decaying oscillation), force = the static model + Gaussian noise.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"

namespace frictionlab::identify {
namespace {

StaticFriction<double>::Params cv_truth() {
  StaticFriction<double>::Params p;
  p.curve = StribeckCurve<double>::symmetric(1.2, 1.2, 1.0, 2.0);
  p.sigma2 = 0.4;
  return p;
}

StaticFriction<double>::Params stribeck_truth() {
  StaticFriction<double>::Params p;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0);
  p.sigma2 = 0.5;
  return p;
}

const ParameterEstimate& param(const FitResult& r, const std::string& name) {
  return parameter(r, name);
}

data::Record record(const StaticFriction<double>::Params& p, double noise, unsigned seed,
                    double duration = 20) {
  SyntheticOptions so;
  so.noise_std = noise;
  so.seed = seed;
  so.excitation.duration = duration;
  return synthetic_friction_record(StaticSpec{StaticKind::stribeck, p}, so);
}

TEST(IdentifyStatic, LinearModelsExactFromNoiseFreeData) {
  const auto rec = record(cv_truth(), 0.0, 1);
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  auto r = fit(rec, fo);
  EXPECT_NEAR(param(r, "Fc").value, 1.2, 1e-12);
  EXPECT_NEAR(param(r, "sigma2").value, 0.4, 1e-12);
  EXPECT_LT(r.training.rmse, 1e-12);

  fo.model = parse_model("coulomb");
  StaticFriction<double>::Params c;
  c.curve = StribeckCurve<double>::symmetric(0.7, 0.7, 1.0, 2.0);
  r = fit(record(c, 0.0, 1), fo);
  EXPECT_NEAR(param(r, "Fc").value, 0.7, 1e-12);

  fo.model = parse_model("viscous");
  StaticFriction<double>::Params v;
  v.curve = StribeckCurve<double>::symmetric(0, 0, 1.0, 2.0);
  v.sigma2 = 0.9;
  r = fit(record(v, 0.0, 1), fo);
  EXPECT_NEAR(param(r, "sigma2").value, 0.9, 1e-12);

  fo.model = parse_model("coulomb-viscous-asym");
  StaticFriction<double>::Params a = cv_truth();
  a.curve.Fc_neg = a.curve.Fs_neg = 0.8;
  r = fit(record(a, 0.0, 1), fo);
  EXPECT_NEAR(param(r, "Fc_pos").value, 1.2, 1e-12);
  EXPECT_NEAR(param(r, "Fc_neg").value, 0.8, 1e-12);
  EXPECT_NEAR(param(r, "sigma2").value, 0.4, 1e-12);
}

TEST(IdentifyStatic, StribeckExactFromNoiseFreeData) {
  const auto rec = record(stribeck_truth(), 0.0, 1);
  FitOptions fo;
  fo.model = parse_model("stribeck");  // alpha estimated (friction problem default)
  const auto r = fit(rec, fo);
  EXPECT_NEAR(param(r, "Fc").value, 1.0, 1e-8);
  EXPECT_NEAR(param(r, "Fs").value, 1.5, 1e-8);
  EXPECT_NEAR(param(r, "vs").value, 0.1, 1e-8);
  EXPECT_NEAR(param(r, "alpha").value, 2.0, 1e-7);
  EXPECT_NEAR(param(r, "sigma2").value, 0.5, 1e-8);
  EXPECT_TRUE(r.converged);
}

// The lsq estimate and its standard errors equal the closed-form OLS solution
// beta = (X^T X)^-1 X^T y, se = sqrt(s^2 diag (X^T X)^-1), s^2 = SSR/(N - 2), X = [v, sgn v].
TEST(IdentifyStatic, CoulombViscousMatchesClosedFormOls) {
  const auto rec = record(cv_truth(), 0.05, 7);
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (std::size_t k = 0; k < rec.t.size(); ++k) {
    const double v = rec.velocity[k], s = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0), y = rec.force[k];
    a11 += v * v;
    a12 += v * s;
    a22 += s * s;
    b1 += v * y;
    b2 += s * y;
  }
  const double det = a11 * a22 - a12 * a12;
  const double i11 = a22 / det, i12 = -a12 / det, i22 = a11 / det;
  const double sigma2 = i11 * b1 + i12 * b2, Fc = i12 * b1 + i22 * b2;
  double ssr = 0;
  for (std::size_t k = 0; k < rec.t.size(); ++k) {
    const double v = rec.velocity[k], s = v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
    const double e = rec.force[k] - sigma2 * v - Fc * s;
    ssr += e * e;
  }
  const double s2 = ssr / double(rec.t.size() - 2);
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  const auto r = fit(rec, fo);
  EXPECT_NEAR(param(r, "sigma2").value, sigma2, 1e-10);
  EXPECT_NEAR(param(r, "Fc").value, Fc, 1e-10);
  EXPECT_NEAR(param(r, "sigma2").std_error, std::sqrt(s2 * i11), 1e-6 * std::sqrt(s2 * i11));
  EXPECT_NEAR(param(r, "Fc").std_error, std::sqrt(s2 * i22), 1e-6 * std::sqrt(s2 * i22));
  EXPECT_NEAR(r.sigma, std::sqrt(s2), 1e-9);
  EXPECT_NEAR(r.correlation[0][1], i12 / std::sqrt(i11 * i22), 1e-6);
  EXPECT_EQ(r.num_estimated, 2);
  // The interval is value -+ t(0.975, N - 2) se (t ~ 1.96 for N = 20001).
  const auto& e = param(r, "Fc");
  EXPECT_NEAR((e.ci_high - e.value) / e.std_error, 1.96, 0.01);
}

// Coverage: over 20 noise seeds the truth lies inside the reported 95 % interval in at least
// 15 (binomial(20, 0.95): P(< 15) = 3e-4), and every error is within 4 standard errors.
TEST(IdentifyStatic, IntervalsCalibratedOverSeeds) {
  for (const char* name : {"coulomb-viscous", "stribeck"}) {
    const bool strib = std::string(name) == "stribeck";
    const auto truth = strib ? stribeck_truth() : cv_truth();
    const std::vector<std::pair<std::string, double>> want =
        strib ? std::vector<std::pair<std::string, double>>{{"Fc", 1.0},
                                                            {"Fs", 1.5},
                                                            {"vs", 0.1},
                                                            {"alpha", 2.0},
                                                            {"sigma2", 0.5}}
              : std::vector<std::pair<std::string, double>>{{"Fc", 1.2}, {"sigma2", 0.4}};
    std::vector<int> inside(want.size(), 0);
    for (unsigned seed = 1; seed <= 20; ++seed) {
      FitOptions fo;
      fo.model = parse_model(name);
      fo.lsq.starts = 1;
      const auto r = fit(record(truth, 0.05, seed, strib ? 10 : 5), fo);
      for (std::size_t j = 0; j < want.size(); ++j) {
        const auto& e = param(r, want[j].first);
        if (e.ci_low <= want[j].second && want[j].second <= e.ci_high) ++inside[j];
        EXPECT_LT(std::abs(e.value - want[j].second), 4 * e.std_error)
            << name << " " << want[j].first << " seed " << seed;
      }
    }
    for (std::size_t j = 0; j < want.size(); ++j)
      EXPECT_GE(inside[j], 15) << name << " " << want[j].first << ": " << inside[j] << "/20";
  }
}

// Robust losses: gross outliers (4 N in the direction of motion) on 3 % of the samples bias
// plain least squares by ~0.12 N in Fc; the Huber and Cauchy fits stay near the truth.
TEST(IdentifyStatic, RobustLossResistsOutliers) {
  auto rec = record(cv_truth(), 0.02, 3);
  for (std::size_t k = 0; k < rec.force.size(); k += 33)
    rec.force[k] += rec.velocity[k] > 0 ? 4.0 : (rec.velocity[k] < 0 ? -4.0 : 0.0);
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  const auto plain = fit(rec, fo);
  fo.lsq.loss = LossKind::huber;
  const auto huber = fit(rec, fo);
  fo.lsq.loss = LossKind::cauchy;
  const auto cauchy = fit(rec, fo);
  EXPECT_GT(std::abs(param(plain, "Fc").value - 1.2), 0.05);
  EXPECT_LT(std::abs(param(huber, "Fc").value - 1.2), 0.01);
  EXPECT_LT(std::abs(param(cauchy, "Fc").value - 1.2), 0.005);
  EXPECT_LT(std::abs(param(cauchy, "sigma2").value - 0.4), 0.005);
}

TEST(IdentifyStatic, SteadyCurveAndEvaluate) {
  const auto rec = record(stribeck_truth(), 0.02, 5);
  FitOptions fo;
  fo.model = parse_model("stribeck");
  const auto r = fit(rec, fo);
  // The fitted static curve, evaluate() on the training record reproduces the training metrics
  // (evaluate simulates the fitted parameter struct with drive(), an independent code path).
  for (double v : {-1.0, -0.1, 0.05, 0.3})
    EXPECT_NEAR(steady_force(r, v), StaticFriction<double>::steady_force(stribeck_truth(), v),
                0.01);
  const auto m = evaluate(r, rec);
  EXPECT_NEAR(m.rmse, r.training.rmse, 1e-12);
  EXPECT_NEAR(m.r2, r.training.r2, 1e-12);
  // A validation record with another seed: RMSE close to the noise level.
  const auto val = evaluate(r, record(stribeck_truth(), 0.02, 99));
  EXPECT_NEAR(val.rmse, 0.02, 0.001);
}

}  // namespace
}  // namespace frictionlab::identify
