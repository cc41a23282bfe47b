// What a fit may claim (docs/identification.md "Nested models" and "Results"):
//  - chi_square_sf against its closed forms for 1, 2 and 4 degrees of freedom;
//  - residual_whiteness: white noise passes, AR(1) noise is detected with its lag-1 coefficient;
//  - HAC standard errors against the Monte Carlo spread of the estimates under AR(1) noise (the
//    white-noise ones understate it by about sqrt((1 + rho) / (1 - rho))), and the fit says so;
//  - a model that contains another never ends worse on the training record (lugre-asym vs lugre
//    on the sensorless record of the demo, maxwell-slip:3 vs :2, gms:2 vs :1).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/stats.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "lugre_test_record.hpp"

namespace frictionlab::identify {
namespace {

const ParameterEstimate& param(const FitResult& r, const std::string& name) {
  return parameter(r, name);
}

TEST(FitTrust, ChiSquareSurvivalMatchesClosedForms) {
  for (double x : {0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 80.0}) {
    EXPECT_NEAR(chi_square_sf(x, 2), std::exp(-x / 2), 1e-14 + 1e-12 * std::exp(-x / 2)) << x;
    EXPECT_NEAR(chi_square_sf(x, 1), std::erfc(std::sqrt(x / 2)), 1e-13) << x;
    EXPECT_NEAR(chi_square_sf(x, 4), std::exp(-x / 2) * (1 + x / 2), 1e-13) << x;
  }
  EXPECT_EQ(chi_square_sf(0, 3), 1.0);
  EXPECT_EQ(chi_square_sf(-1, 3), 1.0);
}

std::vector<double> ar1(double rho, long n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, 1);
  std::vector<double> e(static_cast<std::size_t>(n));
  double x = g(rng) / std::sqrt(1 - rho * rho);
  for (auto& v : e) {
    x = rho * x + g(rng);
    v = x * std::sqrt(1 - rho * rho);  // unit variance
  }
  return e;
}

TEST(FitTrust, WhitenessTellsWhiteFromColouredNoise) {
  int rejected = 0;
  for (unsigned s = 1; s <= 40; ++s) {
    const auto w = residual_whiteness(ar1(0.0, 5000, s));
    EXPECT_EQ(w.lags, 20);
    if (w.ljung_box_p < 0.01) ++rejected;
  }
  EXPECT_LE(rejected, 3);  // 1 % expected: 0.4 of 40; 3 or more has probability < 1 %
  const auto w = residual_whiteness(ar1(0.9, 5000, 7));
  EXPECT_LT(w.ljung_box_p, 1e-12);
  EXPECT_NEAR(w.acf1, 0.9, 0.02);
}

// coulomb-viscous (linear in its parameters) on the default synthetic record with AR(1) noise.
TEST(FitTrust, HacStandardErrorsMatchTheSpreadUnderColouredNoise) {
  StaticFriction<double>::Params p;
  p.curve = StribeckCurve<double>::symmetric(1.2, 1.2, 1.0, 2.0);
  p.sigma2 = 0.4;
  SyntheticOptions so;
  so.excitation.duration = 10;
  const data::Record clean =
      synthetic_friction_record(StaticSpec{StaticKind::coulomb_viscous, p}, so);
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  constexpr double rho = 0.95, noise = 0.05;
  constexpr int runs = 60;
  std::vector<double> fc;
  double white = 0, hac = 0;
  int flagged = 0;
  for (int s = 0; s < runs; ++s) {
    data::Record rec = clean;
    const auto e = ar1(rho, static_cast<long>(rec.force.size()), 100 + static_cast<unsigned>(s));
    for (std::size_t k = 0; k < rec.force.size(); ++k) rec.force[k] += noise * e[k];
    const FitResult r = fit(rec, fo);
    fc.push_back(param(r, "Fc").value);
    white += param(r, "Fc").std_error / runs;
    hac += param(r, "Fc").hac_std_error / runs;
    if (!r.reliability.standard_errors) ++flagged;
  }
  double mean = 0, var = 0;
  for (double x : fc) mean += x / runs;
  for (double x : fc) var += (x - mean) * (x - mean) / (runs - 1);
  const double spread = std::sqrt(var);
  // The standard deviation of a 60-sample standard deviation is ~9 %: 35 % covers the HAC
  // estimator's own bias at this bandwidth with room; the white one is off by ~sqrt(39) = 6.2.
  EXPECT_NEAR(hac / spread, 1.0, 0.35) << "hac " << hac << " spread " << spread;
  EXPECT_LT(white / spread, 0.35) << "white " << white << " spread " << spread;
  EXPECT_EQ(flagged, runs);  // every fit says its white-noise errors are unreliable
}

/// A coulomb-viscous record (Fc 1.2 N, sigma2 0.4 N s/m, 10 s) with white noise of 0.05 N.
data::Record white_noise_record() {
  StaticFriction<double>::Params p;
  p.curve = StribeckCurve<double>::symmetric(1.2, 1.2, 1.0, 2.0);
  p.sigma2 = 0.4;
  SyntheticOptions so;
  so.excitation.duration = 10;
  so.noise_std = 0.05;
  return synthetic_friction_record(StaticSpec{StaticKind::coulomb_viscous, p}, so);
}

TEST(FitTrust, WhiteNoiseFitIsNotFlagged) {
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  const FitResult r = fit(white_noise_record(), fo);
  EXPECT_TRUE(r.reliability.standard_errors)
      << (r.reliability.reasons.empty() ? "" : r.reliability.reasons[0]);
  EXPECT_NEAR(param(r, "Fc").hac_std_error / param(r, "Fc").std_error, 1.0, 0.2);
}

TEST(FitTrust, OneSpikeIsFlaggedAndARobustLossIsNamed) {
  // One sample x10 on a white-noise record: its square pulls the least-squares fit; the result
  // says so (and names the remedy), a robust loss fit of the same record does not need it.
  data::Record rec = white_noise_record();
  rec.force[rec.force.size() / 2] *= 10;
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  const FitResult r = fit(rec, fo);
  EXPECT_FALSE(r.reliability.standard_errors);
  bool named = false;
  for (const auto& why : r.reliability.reasons)
    named = named || (why.rfind("1 of ", 0) == 0 && why.find("outliers") != std::string::npos &&
                      why.find("--loss huber") != std::string::npos);
  EXPECT_TRUE(named) << (r.reliability.reasons.empty() ? "" : r.reliability.reasons[0]);
  fo.lsq.loss = LossKind::huber;
  const FitResult robust = fit(rec, fo);
  for (const auto& why : robust.reliability.reasons)
    EXPECT_EQ(why.find("outliers"), std::string::npos) << why;
}

// The sensorless LuGre record of the demo (workflows/demo: synthetic_sensorless_record with the
// demo's truth and seed): lugre-asym contains lugre and must not end worse.
TEST(FitTrust, NestedModelsNeverEndWorse) {
  const LuGre<double>::Params truth = testing::reference_lugre();
  SyntheticOptions so;
  so.noise_std = 0.02;
  so.seed = 1;  // the demo's training record
  const auto rec = synthetic_sensorless_record(truth, 2.0, so);
  FitOptions fo;
  fo.lsq.starts = 1;  // the data-driven start (plus, for a nesting model, the nested optimum)
  fo.problem = ProblemKind::sensorless;
  fo.model = parse_model("lugre");
  const FitResult sym = fit(rec, fo);
  fo.model = parse_model("lugre-asym");
  const FitResult asym = fit(rec, fo);
  EXPECT_EQ(asym.nested_model, "lugre");
  EXPECT_LE(asym.training.ssr, sym.training.ssr * (1 + 1e-9));
  EXPECT_NEAR(param(asym, "Fs_pos").value, 1.5, 0.05);
  EXPECT_NEAR(param(asym, "Fs_neg").value, 1.5, 0.05);

  const GMS<double>::Params g{.n = 2,
                              .k = {300, 100},
                              .nu = {0.4, 0.6},
                              .C = 20,
                              .sigma2 = 0.5,
                              .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0)};
  SyntheticOptions s2;
  s2.noise_std = 0.01;
  s2.excitation.duration = 10;
  const auto grec = synthetic_friction_record(g, s2);
  for (const char* pair : {"maxwell-slip", "gms"}) {
    fo = FitOptions{};
    fo.lsq.starts = 1;
    fo.model = parse_model(std::string(pair) + ":1");
    const FitResult one = fit(grec, fo);
    fo.model = parse_model(std::string(pair) + ":2");
    const FitResult two = fit(grec, fo);
    EXPECT_EQ(two.nested_model, std::string(pair) + ":1");
    // The embedded start differs from the nested optimum by a 1e-6 weight or a 1e-9 stiffness.
    EXPECT_LE(two.training.ssr, one.training.ssr * (1 + 1e-5)) << pair;
  }
}

}  // namespace
}  // namespace frictionlab::identify
