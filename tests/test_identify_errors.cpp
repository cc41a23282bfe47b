// Error paths of identify::fit: unusable input is a FitError whose message says what, where and
// what is needed; a dynamic model on a record without velocity reversals is fitted with a
// warning (documented in docs/identification.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "lugre_test_record.hpp"

namespace frictionlab::identify {
namespace {

data::Record small_record(long n) {
  data::Record r;
  r.source = "small.csv";
  for (long k = 0; k < n; ++k) {
    const double t = 0.001 * double(k);
    r.t.push_back(t);
    r.velocity.push_back(std::sin(20 * t));
    r.force.push_back(r.velocity.back() > 0 ? 1.0 : -1.0);
  }
  return r;
}

std::string fit_error(const data::Record& rec, const FitOptions& fo) {
  try {
    fit(rec, fo);
  } catch (const FitError& e) {
    return e.what();
  }
  return "";
}

void expect_contains(const std::string& msg, const std::string& part) {
  EXPECT_NE(msg.find(part), std::string::npos) << "message: '" << msg << "' lacks '" << part << "'";
}

TEST(IdentifyErrors, TooFewSamples) {
  FitOptions fo;
  fo.model = parse_model("lugre");
  const auto msg = fit_error(small_record(12), fo);
  expect_contains(msg, "small.csv: too few samples: 12");
  expect_contains(msg, "need at least 35");  // 7 estimated parameters x 5
  fo.model = parse_model("coulomb");
  expect_contains(fit_error(small_record(12), fo), "need at least 20");
  // The warm-up counts: 1000 samples, 0.99 s warm-up leaves 10.
  fo.warmup_s = 0.99;
  expect_contains(fit_error(small_record(1000), fo), "after the warm-up");
}

TEST(IdentifyErrors, NonFiniteAndInconsistentData) {
  FitOptions fo;
  fo.model = parse_model("coulomb-viscous");
  auto r = small_record(200);
  r.velocity[57] = std::numeric_limits<double>::quiet_NaN();
  expect_contains(fit_error(r, fo), "non-finite value (nan) in channel 'velocity' at sample 57");
  r = small_record(200);
  r.force[3] = std::numeric_limits<double>::infinity();
  expect_contains(fit_error(r, fo), "channel 'force' at sample 3");
  r = small_record(200);
  r.t[10] = r.t[9];
  expect_contains(fit_error(r, fo), "time is not strictly increasing at sample 10");
  r = small_record(200);
  r.force.pop_back();
  expect_contains(fit_error(r, fo), "channel 'force' has 199 samples, the time channel 200");
  r = small_record(200);
  r.velocity.clear();
  expect_contains(fit_error(r, fo), "no 'velocity' channel");
  r = small_record(200);
  fo.problem = ProblemKind::sensorless;
  expect_contains(fit_error(r, fo), "no 'current' channel");
  fo.problem = ProblemKind::friction;
  for (auto& v : r.velocity) v = 0;
  expect_contains(fit_error(r, fo), "the velocity is zero everywhere");
}

TEST(IdentifyErrors, NoReversalIsAWarning) {
  // Velocity always positive: LuGre is still fitted; a warning names the problem.
  LuGre<double>::Params p = testing::reference_lugre();
  data::Record rec;
  for (long k = 0; k <= 5000; ++k) {
    rec.t.push_back(0.001 * double(k));
    rec.velocity.push_back(0.3 + 0.25 * std::sin(3 * rec.t.back()));
  }
  rec.force.resize(rec.t.size());
  drive<LuGre<double>>(
      p, {}, rec.t.data(), rec.velocity.data(), long(rec.t.size()), Method::exact, Hold::linear,
      0.0, [&](long k, double f, const LuGre<double>::State&) { rec.force[std::size_t(k)] = f; });
  FitOptions fo;
  fo.model = parse_model("lugre");
  fo.lsq.starts = 1;
  const auto r = fit(rec, fo);
  bool warned = false;
  for (const auto& w : r.warnings)
    warned = warned || w.find("never changes sign") != std::string::npos;
  EXPECT_TRUE(warned);
  EXPECT_EQ(r.data.reversals, 0);
}

TEST(IdentifyErrors, MethodNotAvailable) {
  SyntheticOptions so;
  so.excitation.duration = 5;
  StaticFriction<double>::Params sp;
  sp.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 2.0);
  const auto rec = synthetic_friction_record(StaticSpec{StaticKind::stribeck, sp}, so);
  FitOptions fo;
  fo.method = FitMethod::grid;
  fo.model = parse_model("stribeck");
  expect_contains(fit_error(rec, fo), "model lugre only");
  fo.model = parse_model("lugre-asym");
  expect_contains(fit_error(rec, fo), "got lugre-asym");
  fo.method = FitMethod::two_stage;
  fo.model = parse_model("dahl");
  expect_contains(fit_error(rec, fo), "needs a dynamic model with a Stribeck curve");
}

TEST(IdentifyErrors, TwoStageTooFewSegments) {
  // Oscillation only (no plateaus): no constant-velocity segment.
  SyntheticOptions so;
  so.excitation.duration = 5;
  so.excitation.plateau_fraction = 0;
  LuGre<double>::Params p;
  p.sigma0 = 500;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0);
  const auto rec = synthetic_sensorless_record(p, 2.0, so);
  FitOptions fo;
  fo.problem = ProblemKind::sensorless;
  fo.model = parse_model("lugre");
  fo.method = FitMethod::two_stage;
  const auto msg = fit_error(rec, fo);
  expect_contains(msg, "two-stage: found 0 constant-velocity segments");
  expect_contains(msg, "need at least 6 (one more than the 5 static parameters)");
}

TEST(IdentifyErrors, EvaluateNeedsTheProblemChannels) {
  SyntheticOptions so;
  so.excitation.duration = 5;
  LuGre<double>::Params p;
  p.sigma0 = 500;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0);
  auto rec = synthetic_sensorless_record(p, 2.0, so);
  FitOptions fo;
  fo.problem = ProblemKind::sensorless;
  fo.model = parse_model("coulomb-viscous");
  const auto r = fit(rec, fo);
  rec.current.clear();
  EXPECT_THROW(evaluate(r, rec), FitError);
}

}  // namespace
}  // namespace frictionlab::identify
