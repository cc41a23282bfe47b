// Identification statistics and names: Student-t quantiles against closed forms (nu = 1, 2) and
// the normal limit, metrics and information criteria against their formulas, model names.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/stats.hpp"

namespace frictionlab::identify {
namespace {

constexpr double kPi = std::numbers::pi;

TEST(StudentT, CdfMatchesClosedForms) {
  for (double t : {-30.0, -3.0, -1.0, -0.2, 0.0, 0.5, 1.0, 2.5, 12.0, 100.0}) {
    // nu = 1: Cauchy, F(t) = 1/2 + atan(t)/pi.
    EXPECT_NEAR(student_t_cdf(t, 1), 0.5 + std::atan(t) / kPi, 1e-13) << t;
    // nu = 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)).
    EXPECT_NEAR(student_t_cdf(t, 2), 0.5 + t / (2 * std::sqrt(2 + t * t)), 1e-13) << t;
  }
}

TEST(StudentT, QuantileMatchesClosedForms) {
  for (double p : {0.6, 0.9, 0.95, 0.975, 0.995, 0.025}) {
    EXPECT_NEAR(student_t_quantile(p, 1), std::tan(kPi * (p - 0.5)),
                1e-9 * std::abs(std::tan(kPi * (p - 0.5))) + 1e-12);
    const double q = 2 * p - 1;
    EXPECT_NEAR(student_t_quantile(p, 2), q * std::sqrt(2 / (1 - q * q)), 1e-10);
  }
  // Large nu: the normal quantile z(0.975) = 1.959963984540054.
  EXPECT_NEAR(student_t_quantile(0.975, 1e9), 1.959963984540054, 1e-7);
  // Monotone in nu between the two limits.
  EXPECT_GT(student_t_quantile(0.975, 10), student_t_quantile(0.975, 100));
  EXPECT_GT(student_t_quantile(0.975, 100), 1.959963984540054);
  // Round trip.
  for (double nu : {3.0, 7.5, 30.0, 2000.0})
    EXPECT_NEAR(student_t_cdf(student_t_quantile(0.975, nu), nu), 0.975, 1e-12);
}

TEST(Metrics, SmallExample) {
  const std::vector<double> y{1, 2, 3, 4}, pred{1, 2.5, 2.5, 4};
  const Metrics m = compute_metrics(y, pred);
  EXPECT_EQ(m.n, 4);
  EXPECT_DOUBLE_EQ(m.ssr, 0.5);
  EXPECT_DOUBLE_EQ(m.rmse, std::sqrt(0.5 / 4));
  EXPECT_DOUBLE_EQ(m.nrmse, std::sqrt(0.5 / 4) / 3);
  EXPECT_DOUBLE_EQ(m.r2, 1 - 0.5 / 5);
  EXPECT_DOUBLE_EQ(m.max_abs, 0.5);
  const Metrics m2 = compute_metrics(y, pred, 2);  // the last two samples only
  EXPECT_EQ(m2.n, 2);
  EXPECT_DOUBLE_EQ(m2.ssr, 0.25);
  // The same metrics from the residuals y - pred of the samples k >= first (a fit's last
  // evaluation): those of the prediction, checked against the closed forms above.
  const auto same = [](const Metrics& a, const Metrics& b) {
    EXPECT_EQ(a.n, b.n);
    for (const auto f :
         {&Metrics::ssr, &Metrics::rmse, &Metrics::nrmse, &Metrics::r2, &Metrics::max_abs})
      EXPECT_DOUBLE_EQ(a.*f, b.*f);
  };
  same(metrics_of_residuals(y, {0, -0.5, 0.5, 0}), m);
  same(metrics_of_residuals(y, {0.5, 0}, 2), m2);  // residuals[k - 2]
}

TEST(InformationCriteria, Formulas) {
  const double ssr = 3.0;
  const long n = 100;
  const int p = 4;
  const double k = 5;  // p + 1 (the noise variance)
  EXPECT_NEAR(aicc(ssr, n, p), n * std::log(ssr / n) + 2 * k + 2 * k * (k + 1) / (n - k - 1),
              1e-12);
  EXPECT_NEAR(bic(ssr, n, p), n * std::log(ssr / n) + k * std::log(double(n)), 1e-12);
}

TEST(ModelNames, RoundTrip) {
  for (const auto& name : fit_model_names()) {
    const ModelChoice m = parse_model(name);
    std::string expect = name;
    if (name == "maxwell-slip" || name == "gms") expect += ":3";  // the default element count
    EXPECT_EQ(model_name(m), expect);
  }
  EXPECT_EQ(model_name(parse_model("gms:5")), "gms:5");
  EXPECT_EQ(parse_model("lugre-asym").asymmetric, true);
  EXPECT_EQ(parse_model("lugre-rational").shape, StribeckShape::rational);
  EXPECT_EQ(parse_model("lugre-rational-asym").asymmetric, true);
  EXPECT_THROW(parse_model("lugre2"), FitError);
  EXPECT_THROW(parse_model("dahl-asym"), FitError);
  EXPECT_THROW(parse_model("gms:0"), FitError);
  EXPECT_THROW(parse_model("gms:13"), FitError);
  EXPECT_THROW(parse_model("lugre:3"), FitError);
  try {
    parse_model("frobnicate");
    FAIL();
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("known: coulomb"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_method("two-stage"), FitMethod::two_stage);
  EXPECT_EQ(method_name(FitMethod::grid), "grid");
  EXPECT_THROW(parse_method("newton"), FitError);
}

}  // namespace
}  // namespace frictionlab::identify
