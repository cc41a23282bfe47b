// Identifiability flags (identify/identifiability.hpp, docs/identification.md "Identifiability
// flags"): each rule on a hand-made result, then on records built to be unidentifiable (no
// reversal; only high speed, so that the Stribeck term is never seen; two parameters that the
// record cannot separate) and on a rich record, which raises none.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/identifiability.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/sim/model_run.hpp"

namespace frictionlab::identify {
namespace {

bool has(const std::vector<IdentifiabilityFlag>& flags, const std::string& parameter,
         const std::string& kind) {
  for (const auto& f : flags)
    if (f.parameter == parameter && f.kind == kind) return true;
  return false;
}

std::string dump(const std::vector<IdentifiabilityFlag>& flags) {
  std::string s;
  for (const auto& f : flags) s += f.parameter + "/" + f.kind + ": " + f.message + "\n";
  return s;
}

ParameterEstimate estimate(const std::string& name, double value, double se) {
  ParameterEstimate e;
  e.name = e.field = name;
  e.value = value;
  e.std_error = se;
  return e;
}

TEST(Identifiability, EachRuleOnAHandMadeResult) {
  FitResult r;
  r.method = FitMethod::lsq;
  r.data.reversals = 1;
  r.condition_number = 2e8;
  r.parameters = {estimate("Fc", 1.0, 0.01),    estimate("Fs", 1.5, 1.2),
                  estimate("vs", 0.01, 0.001),  estimate("sigma0", 1e5, 1e3),
                  estimate("sigma2", 0.0, 0.0), estimate("alpha", 2, 0)};
  r.parameters[4].at_bound = true;
  r.parameters[5].fixed = true;
  r.correlation.assign(6, std::vector<double>(6, 0.0));
  for (int i = 0; i < 6; ++i) r.correlation[i][i] = 1;
  r.correlation[0][2] = r.correlation[2][0] = -0.97;
  // 1000 samples, 5 of them below 2 vs = 0.02: 0.5 % < 1 %
  std::vector<double> v(1000, 0.5);
  for (int k = 0; k < 5; ++k) v[static_cast<std::size_t>(k)] = 0.001;
  const auto flags = identifiability_flags(r, v);
  EXPECT_TRUE(has(flags, "Fs", "relative_error")) << dump(flags);   // 1.2 / 1.5 = 80 %
  EXPECT_FALSE(has(flags, "Fc", "relative_error")) << dump(flags);  // 1 %
  EXPECT_TRUE(has(flags, "Fc", "correlation")) << dump(flags);      // with vs, |r| = 0.97
  EXPECT_TRUE(has(flags, "sigma2", "bound")) << dump(flags);
  EXPECT_TRUE(has(flags, "sigma0", "reversals")) << dump(flags);  // 1 reversal
  EXPECT_TRUE(has(flags, "Fs", "near_zero") && has(flags, "vs", "near_zero")) << dump(flags);
  EXPECT_FALSE(has(flags, "Fc", "near_zero")) << dump(flags);
  EXPECT_TRUE(has(flags, "", "condition")) << dump(flags);
  EXPECT_FALSE(has(flags, "alpha", "near_zero")) << dump(flags);  // fixed: never flagged
  for (const auto& f : flags)
    if (f.kind == "correlation") {
      EXPECT_EQ(f.other, "vs");
      EXPECT_DOUBLE_EQ(f.value, -0.97);
    }
  // The thresholds are strict: 50 % and 0.95 exactly, 2 reversals, 1 % near zero are not flagged.
  r.parameters[1].std_error = 0.75;
  r.correlation[0][2] = r.correlation[2][0] = 0.95;
  r.data.reversals = 2;
  r.condition_number = 1e8;
  r.parameters[4].at_bound = false;
  r.parameters[4].value = 0.4;
  r.parameters[4].std_error = 0.01;
  for (int k = 0; k < 50; ++k) v[static_cast<std::size_t>(k)] = 0.001;  // 5 % near zero
  EXPECT_TRUE(identifiability_flags(r, v).empty()) << dump(identifiability_flags(r, v));
}

/// A friction record of `truth` driven by v(t): the exact step at 1/20 of the sample interval,
/// plus Gaussian noise of `noise` on the force.
data::Record record_of(const ModelSpec& truth, const std::function<double(double)>& vel,
                       double duration, double noise, unsigned seed = 3) {
  data::Record rec;
  rec.source = "synthetic";
  const double h = 1e-3;
  for (double t = 0; t <= duration + 1e-12; t += h) {
    rec.t.push_back(t);
    rec.velocity.push_back(vel(t));
  }
  const auto run = sim::run_model(truth, rec.t, rec.velocity, Method::exact, Hold::linear, h / 20);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, noise);
  rec.force = run.F;
  for (auto& f : rec.force) f += g(rng);
  return rec;
}

LuGre<double>::Params truth() {
  LuGre<double>::Params p;
  p.sigma0 = 1e4;
  p.sigma1 = 50;
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.02, 2.0);
  return p;
}

FitOptions options(const std::string& model) {
  FitOptions o;
  o.problem = ProblemKind::friction;
  o.model = parse_model(model);
  o.lsq.starts = 1;
  return o;
}

TEST(Identifiability, RichRecordRaisesNone) {
  SyntheticOptions so;
  so.noise_std = 0.01;
  const auto rec = synthetic_friction_record(truth(), so);
  const FitResult r = fit(rec, options("lugre"));
  EXPECT_TRUE(r.identifiability.empty()) << dump(r.identifiability);
}

TEST(Identifiability, NoReversalFlagsThePreSlidingTerms) {
  const auto rec = record_of(
      truth(), [](double t) { return 0.3 + 0.25 * std::sin(2 * std::numbers::pi * 0.5 * t); }, 10,
      0.01);
  const FitResult r = fit(rec, options("lugre"));
  EXPECT_EQ(r.data.reversals, 0);
  EXPECT_TRUE(has(r.identifiability, "sigma0", "reversals")) << dump(r.identifiability);
  EXPECT_TRUE(has(r.identifiability, "sigma1", "reversals")) << dump(r.identifiability);
}

TEST(Identifiability, OnlyHighSpeedFlagsTheStribeckTerms) {
  // |v| >= 0.5 = 25 vs everywhere: the velocity jumps through zero between two samples.
  const auto rec = record_of(
      truth(),
      [](double t) {
        const double s = std::sin(2 * std::numbers::pi * 0.5 * t);
        return (s >= 0 ? 1.0 : -1.0) * (0.5 + 0.3 * std::abs(s));
      },
      10, 0.01);
  const FitResult r = fit(rec, options("stribeck"));
  EXPECT_GE(r.data.reversals, 5);
  EXPECT_TRUE(has(r.identifiability, "Fs", "near_zero")) << dump(r.identifiability);
  EXPECT_TRUE(has(r.identifiability, "vs", "near_zero")) << dump(r.identifiability);
  EXPECT_FALSE(has(r.identifiability, "Fc", "near_zero")) << dump(r.identifiability);
}

TEST(Identifiability, InseparableParametersAreFlaggedAsCorrelated) {
  // coulomb-viscous at an almost constant velocity: Fc sign(v) + sigma2 v is (almost) Fc + 0.5
  // sigma2, so the record determines Fc + 0.5 sigma2 and not Fc and sigma2 apart.
  const auto rec = record_of(
      truth(), [](double t) { return 0.5 + 0.01 * std::sin(2 * std::numbers::pi * t); }, 10, 0.01);
  const FitResult r = fit(rec, options("coulomb-viscous"));
  const bool flagged = has(r.identifiability, "sigma2", "correlation") ||
                       has(r.identifiability, "Fc", "correlation");
  EXPECT_TRUE(flagged) << dump(r.identifiability);
  EXPECT_GT(std::abs(r.correlation[0][1]), 0.95);
}

}  // namespace
}  // namespace frictionlab::identify
