// Tests of the actuator workflows (workflows/actuator.hpp) and their JSON (io/actuator_json.hpp):
// - fit_actuator on a synthetic log set simulated with a known M3 (servo_synthetic.hpp) (the
// documented truth):
//   M3 is recommended, its fitted parameters reproduce the logs, and every number equals the
//   lower-level identify::fit_and_select_servo_models result on the same logs and options;
// - eval_actuator's per-log errors are identify::servo_log_error's, the truth's are exactly 0;
// - the parse functions (models, validation, ranges, log filters) and their error texts;
// - prepare_servo_logs: selection, resampling (data::resample_servo_log), warnings, errors;
// - cancellation (Cancelled, nothing returned) and progress reports;
// - summary.json and eval JSON read back hold the outcome's values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "expect_message.hpp"
#include "frictionlab/io/actuator_json.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo_actuators.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "servo_synthetic.hpp"

namespace frictionlab::workflows {
namespace {

using K = identify::ServoValidation::Kind;

using servo_test::truth_m3;
using servo_test::xl330;

// The shared synthetic logs of the truth, with a directory in their names and a "motor".
data::ServoLog synthetic(int shape, double kp, const sim::ServoParams& p) {
  auto l = servo_test::synthetic(shape, kp, p);
  l.file = "dir/" + l.file;
  l.motor = "xl330";
  return l;
}

std::vector<data::ServoLog> synthetic_set() {
  const auto p = truth_m3();
  return {synthetic(0, 100, p), synthetic(1, 100, p), synthetic(0, 400, p), synthetic(1, 400, p)};
}

FitActuatorOptions small_fit() {
  FitActuatorOptions o;
  o.models = {ActuatorModel::M1, ActuatorModel::M3};
  o.validation = {K::kp, 400.0, 4};
  o.trials = 1500;
  o.threads = 2;
  o.seed = 3;
  o.actuator = xl330();
  return o;
}

TEST(WorkflowActuator, FitRecommendsTheTruthAndEqualsTheLibraryCall) {
  const auto logs = synthetic_set();
  auto o = small_fit();
  o.actuator = io::servo_actuator_for_logs("", {}, logs);  // the logs' "motor"
  int reports = 0;
  Progress progress;
  progress.report = [&](const ProgressEvent&) { ++reports; };
  const auto out = fit_actuator(logs, o, progress);
  EXPECT_GT(reports, 0);
  EXPECT_EQ(out.actuator, "xl330");
  EXPECT_EQ(out.validation, "kp=400");
  EXPECT_TRUE(out.validated);
  EXPECT_EQ(out.threads, 2);
  ASSERT_EQ(out.logs.size(), 4u);
  EXPECT_EQ(out.logs[0], "synthetic_0_100.json");
  ASSERT_EQ(out.models.size(), 2u);
  EXPECT_EQ(out.models[1].name, "m3");
  EXPECT_EQ(out.recommended, ActuatorModel::M3);
  // the truth is M3: it reproduces the held-out logs far better than M1 can
  EXPECT_LT(out.models[1].validation_mae, 0.2 * out.models[0].validation_mae);
  EXPECT_LT(out.models[1].train_mae, 1e-3);  // rad; the logs swing over about 1 rad

  // the same numbers as the library's own call on the same logs and options
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = o.trials;
  fo.cmaes.seed = o.seed;
  fo.cmaes.sigma0 = o.sigma0;
  fo.cmaes.max_restarts = o.restarts;
  fo.cmaes.threads = o.threads;
  const auto sel = identify::fit_and_select_servo_models(o.models, xl330(), xl330().constants, logs,
                                                         o.validation, fo, o.tolerance);
  ASSERT_EQ(sel.models.size(), out.models.size());
  for (std::size_t i = 0; i < sel.models.size(); ++i) {
    const auto& a = out.models[i];
    const auto& b = sel.models[i];
    EXPECT_EQ(a.model, b.model);
    EXPECT_EQ(a.n_parameters, b.parameters);
    ASSERT_EQ(a.parameters.size(), static_cast<std::size_t>(b.parameters));
    EXPECT_EQ(a.parameters[0].name, "kt");
    EXPECT_EQ(a.parameters[0].unit, "N m/A");
    EXPECT_EQ(a.parameters[0].value, b.fit.params.kt);
    EXPECT_EQ(a.train_mae, b.train_mae);
    EXPECT_EQ(a.validation_mae, b.validation_mae);
    EXPECT_EQ(a.evaluations, b.evals);
    EXPECT_EQ(a.at_bound, b.fit.at_bound);
    EXPECT_EQ(a.params.actuator.name, "xl330");
    EXPECT_EQ(a.params.actuator.constants.error_gain, xl330().constants.error_gain);
    for (auto key : sim::servo_param_keys(a.model, sim::ServoDrive::voltage))
      EXPECT_EQ(sim::servo_param(a.params.params, key), sim::servo_param(b.fit.params, key)) << key;
  }
  EXPECT_EQ(out.reason, sel.reason);
  // train MAE: the pooled error of the delivered parameters on the training logs (kp 100)
  const std::vector<data::ServoLog> train{logs[0], logs[1]};
  EXPECT_DOUBLE_EQ(out.models[1].train_mae,
                   identify::servo_loss(xl330().constants, out.models[1].params.params, train, {}));

  // summary.json read back
  const auto s = nlohmann::json::parse(io::fit_actuator_summary_json(out));
  EXPECT_EQ(s["actuator"], "xl330");
  EXPECT_EQ(s["validation"], "kp=400");
  EXPECT_EQ(s["logs"].size(), 4u);
  EXPECT_EQ(s["recommended"], "m3");
  EXPECT_EQ(s["reason"], out.reason);
  ASSERT_EQ(s["models"].size(), 2u);
  EXPECT_EQ(s["models"][1]["model"], "m3");
  EXPECT_EQ(s["models"][1]["params_file"], "m3.json");
  EXPECT_EQ(s["models"][1]["train_mae"].get<double>(), out.models[1].train_mae);
  EXPECT_EQ(s["models"][1]["validation_mae"].get<double>(), out.models[1].validation_mae);
  EXPECT_EQ(s["models"][0]["evaluations"].get<long>(), out.models[0].evaluations);
  EXPECT_EQ(s["models"][1]["n_parameters"], 7);
  EXPECT_EQ(s["models"][1]["parameters"][0]["name"], "kt");
  EXPECT_EQ(s["models"][1]["parameters"][0]["unit"], "N m/A");
  EXPECT_EQ(s["verdict"]["grade"], grade_name(out.verdict.grade));
  EXPECT_EQ(s["verdict"]["line"], out.verdict.line());

  // per log: the role in the recommended model's fit, its error and range of motion; the mean
  // of the per-log errors by role (eval-actuator's measure)
  ASSERT_EQ(out.recommended_series.size(), 4u);
  double train_sum = 0.0;
  for (std::size_t i = 0; i < 4; ++i) {
    const auto& l = out.recommended_series[i];
    EXPECT_EQ(l.role, logs[i].kp == 400 ? "validation" : "training") << l.log;
    EXPECT_EQ(l.mae,
              identify::servo_log_error(xl330().constants, out.models[1].params.params, logs[i])
                  .position_mae);
    EXPECT_GT(l.range, 0.5);  // rad
    if (l.role == "training") train_sum += l.mae;
  }
  EXPECT_DOUBLE_EQ(out.train_log_mean, train_sum / 2);
  EXPECT_TRUE(std::isfinite(out.validation_log_mean));
  EXPECT_EQ(s["report"]["logs"][2]["role"], "validation");
}

TEST(WorkflowActuator, FitWithoutValidationHasNoValidationColumn) {
  auto o = small_fit();
  o.validation = {K::none, 0.0, 4};
  o.models = {ActuatorModel::M1};
  o.trials = 100;
  const auto out = fit_actuator(synthetic_set(), o);
  EXPECT_FALSE(out.validated);
  EXPECT_EQ(out.validation, "none");
  EXPECT_LT(out.models[0].validation_mae, 0.0);
  EXPECT_FALSE(nlohmann::json::parse(io::fit_actuator_summary_json(out))["models"][0].contains(
      "validation_mae"));
}

TEST(WorkflowActuator, FitOptionErrors) {
  const auto logs = synthetic_set();
  auto o = small_fit();
  auto message = [&](const FitActuatorOptions& opt, const std::vector<data::ServoLog>& l) {
    return testing::message_or_no_error<std::invalid_argument>([&] { fit_actuator(l, opt); });
  };
  // the actuator is resolved by io before the workflow (names, files, generic constants)
  auto resolve = [&](const std::string& ref, const sim::ServoConstants& generic,
                     const std::vector<data::ServoLog>& l) {
    return testing::message_or_no_error<std::exception>(
        [&] { io::servo_actuator_for_logs(ref, generic, l); });
  };
  sim::ServoConstants generic{sim::ServoDrive::voltage, 0.0, 0.0, 1.0, 0.0};
  const std::string known =
      "(built in: mx106, mx64, sts3215, sts3215-12v, xc330m288t, xl320, xl330)";
  EXPECT_EQ(resolve("xl999", generic, logs),
            "--actuator: unknown actuator 'xl999' " + known +
                "; to add one, write an ACTUATOR.json (docs/actuators.md, \"ACTUATOR.json\") and "
                "give its path instead of a name");
  EXPECT_EQ(resolve("generic", generic, logs), "--actuator generic needs --error-gain > 0");
  generic.error_gain = 0.3;
  generic.max_pwm = 1.5;
  EXPECT_EQ(resolve("generic", generic, logs),
            "--max-pwm: 1.5 is outside the plausible range [1e-06, 1]");
  generic.max_pwm = 1.0;
  generic.vin = 1e300;  // the supply: 0.1 .. 1000 V
  EXPECT_EQ(resolve("generic", generic, logs),
            "--vin: |1e+300| is beyond the limit 1e+15 of any number (SI units)");
  generic.vin = 5000;
  EXPECT_EQ(resolve("generic", generic, logs),
            "--vin: 5000 V is outside the plausible range [0.1, 1000] V");
  generic.vin = 0.0;
  generic.max_pwm = 1.5;
  auto mixed = logs;
  mixed[2].motor = "mx64";
  EXPECT_EQ(
      resolve("", generic, mixed),
      "--actuator: not given and the logs do not name one actuator ('motor': 'mx64', 'xl330')");
  auto unknown = logs;
  for (auto& l : unknown) l.motor = "sts9999";
  EXPECT_EQ(resolve("", generic, unknown),
            unknown[0].file + ": key 'motor': unknown actuator 'sts9999' " + known +
                "; to add one, write an ACTUATOR.json (docs/actuators.md, \"ACTUATOR.json\") and "
                "give its path instead of a name");
  o.ranges = {{"Kcs", 0.0, 1.0}};  // a Stribeck key: not in M1 or M3
  EXPECT_EQ(message(o, logs), "--range: 'Kcs' is not a parameter of the models fitted");
  // both ends within the key's plausible range (sim/servo_limits.hpp): kt 1e300 overflows kt^2
  o.ranges = {{"kt", 1.0, 1e300}};
  EXPECT_EQ(message(o, logs),
            "--range kt=1:1e+300: |1e+300| is beyond the limit 1e+15 of any number (SI units)");
  o.ranges = {{"kt", 1.0, 5000.0}};
  EXPECT_EQ(message(o, logs),
            "--range kt=1:5000: 5000 N m/A is outside the plausible range [1e-06, 1000] N m/A");
  o.ranges = {{"R", 5e-324, 1.0}};
  EXPECT_EQ(message(o, logs),
            "--range R=5e-324:1: 5e-324 ohm is outside the plausible range [1e-06, 1e+06] ohm");
  o.ranges.clear();
  o.actuator = {};
  EXPECT_EQ(message(o, logs), "--actuator: none given");
}

TEST(WorkflowActuator, CancellationStopsTheFitAndTheEvaluation) {
  const auto logs = synthetic_set();
  int reports = 0;
  Progress p;
  p.report = [&](const ProgressEvent&) { ++reports; };
  p.cancel = [&] { return reports >= 2; };  // after the header and the first fit's start
  EXPECT_THROW(fit_actuator(logs, small_fit(), p), Cancelled);
  EXPECT_EQ(reports, 2);
  reports = 0;
  const std::vector<ServoParamSet> sets{{"truth", "truth.json", {xl330(), truth_m3()}}};
  EXPECT_THROW(eval_actuator(logs, sets, p), Cancelled);
  EXPECT_EQ(reports, 2);
}

TEST(WorkflowActuator, EvalIsTheLibrarysPerLogError) {
  const auto logs = synthetic_set();
  auto other = truth_m3();
  other.model = ActuatorModel::M1;
  other.friction.Kl = 0.0;
  const std::vector<ServoParamSet> sets{{"truth", "a/truth.json", {xl330(), truth_m3()}},
                                        {"m1", "b/m1.json", {xl330(), other}}};
  std::vector<double> fractions;
  Progress p;
  p.report = [&](const ProgressEvent& e) { fractions.push_back(e.fraction); };
  const auto ev = eval_actuator(logs, sets, p);
  ASSERT_EQ(fractions.size(), logs.size());
  EXPECT_EQ(fractions[0], 0.0);
  ASSERT_EQ(ev.logs.size(), logs.size());
  ASSERT_EQ(ev.params.size(), 2u);
  EXPECT_EQ(ev.logs[3].name, "synthetic_1_400.json");
  EXPECT_EQ(ev.logs[3].kp, 400.0);
  EXPECT_EQ(ev.logs[3].trajectory, "lift_and_drop");
  double sum = 0.0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    EXPECT_EQ(ev.params[0].mae[i], 0.0);  // the logs are the truth's simulation
    const double e = identify::servo_log_error(xl330().constants, other, logs[i]).position_mae;
    EXPECT_EQ(ev.params[1].mae[i], e);
    EXPECT_GT(e, 0.0);
    sum += e;
  }
  EXPECT_DOUBLE_EQ(ev.params[1].mean, sum / 4.0);
  // pooled: the error over all entries, fit-actuator's measure (servo_loss)
  EXPECT_DOUBLE_EQ(ev.params[1].pooled, identify::servo_loss(xl330().constants, other, logs, {}));
  EXPECT_EQ(ev.logs[0].samples, logs[0].position.size());
  const auto [lo, hi] = std::minmax_element(logs[0].position.begin(), logs[0].position.end());
  EXPECT_EQ(ev.logs[0].range, *hi - *lo);
  EXPECT_EQ(ev.verdict.line(), "good");  // the truth reproduces its logs exactly
  EXPECT_EQ(ev.best, 0u);                // the truth
  const auto j = nlohmann::json::parse(io::eval_actuator_json(ev));
  EXPECT_EQ(j["format"], "frictionlab-actuator-eval");
  EXPECT_EQ(j["params"][1]["label"], "m1");
  EXPECT_EQ(j["params"][1]["file"], "b/m1.json");
  EXPECT_EQ(j["logs"][2]["log"], "synthetic_0_400.json");
  EXPECT_EQ(j["params"][1]["mae"][2].get<double>(), ev.params[1].mae[2]);
  EXPECT_EQ(j["params"][1]["mean"].get<double>(), ev.params[1].mean);
  EXPECT_EQ(j["params"][0]["mean"].get<double>(), 0.0);
  EXPECT_EQ(j["best"], "truth");
  // The report's series: the truth's re-simulation is the log itself (to 7 digits), the other
  // set's differs; one simulated series per set, as long as the time axis.
  ASSERT_EQ(ev.series.size(), logs.size());
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const auto& s = ev.series[i];
    ASSERT_EQ(s.simulated.size(), 2u);
    ASSERT_EQ(s.simulated[0].size(), s.t.size());
    ASSERT_EQ(s.position.size(), s.t.size());
    ASSERT_GT(s.t.size(), 10u);
    double diff_truth = 0.0, diff_other = 0.0;
    for (std::size_t k = 0; k < s.t.size(); ++k) {
      diff_truth = std::max(diff_truth, std::abs(s.simulated[0][k] - s.position[k]));
      diff_other = std::max(diff_other, std::abs(s.simulated[1][k] - s.position[k]));
    }
    EXPECT_LE(diff_truth, 1e-6 * (1.0 + std::abs(s.position.back())));
    EXPECT_GT(diff_other, 1e-4);
  }
  EXPECT_THROW(eval_actuator({}, sets), std::invalid_argument);
  EXPECT_THROW(eval_actuator(logs, {}), std::invalid_argument);
}

std::string parse_error(const std::function<void()>& f) {
  return testing::message_or_no_error<std::invalid_argument>(f);
}

TEST(WorkflowActuator, ParsesModelsValidationRangesAndFilters) {
  using M = ActuatorModel;
  EXPECT_EQ(parse_actuator_models("m1..m3, M6"), (std::vector<M>{M::M1, M::M2, M::M3, M::M6}));
  EXPECT_EQ(parse_error([] { parse_actuator_models("m1,m9"); }),
            "--models: unknown model 'm9' (m1 .. m6)");
  EXPECT_EQ(parse_error([] { parse_actuator_models("m3..m1"); }),
            "--models: bad range 'm3..m1' (e.g. m1..m6)");
  EXPECT_EQ(parse_error([] { parse_actuator_models("m1..m3,m2"); }), "--models: m2 listed twice");
  EXPECT_EQ(parse_error([] { parse_actuator_models("m1,,m2"); }), "empty item in list 'm1,,m2'");

  for (const std::string s : {"none", "leave-kp-out", "kp=200", "kp=12.5", "kfold=3"})
    EXPECT_EQ(servo_validation_name(parse_servo_validation(s)), s);
  const auto v = parse_servo_validation("kfold=7");
  EXPECT_EQ(v.kind, K::kfold);
  EXPECT_EQ(v.folds, 7);
  EXPECT_EQ(parse_servo_validation("kp=2e2").kp, 200.0);
  EXPECT_EQ(parse_error([] { parse_servo_validation("kp"); }),
            "--validate: expected kp=VALUE, leave-kp-out, kfold=K or none, got 'kp'");
  EXPECT_EQ(parse_error([] { parse_servo_validation("kfold=2.5"); }),
            "--validate kfold=K: K must be an integer >= 2");
  EXPECT_EQ(parse_error([] { parse_servo_validation("kp=x"); }),
            "--validate kp=: expected a number, got 'x'");

  const auto b = parse_servo_bound("kt=0.1:2.5");
  EXPECT_EQ(b.key, "kt");
  EXPECT_EQ(b.lo, 0.1);
  EXPECT_EQ(b.hi, 2.5);
  EXPECT_EQ(parse_error([] { parse_servo_bound("kt:1"); }),
            "--range: expected KEY=LO:HI, got 'kt:1'");
  EXPECT_EQ(parse_error([] { parse_servo_bound("kt=1:inf"); }),
            "--range kt: expected a number, got 'inf'");

  const auto f = parse_servo_log_filter("100, 400", "sin_sin", "a.json,b.json");
  EXPECT_EQ(f.kp, (std::vector<double>{100.0, 400.0}));
  EXPECT_EQ(f.trajectory, (std::vector<std::string>{"sin_sin"}));
  EXPECT_EQ(f.files, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_TRUE(parse_servo_log_filter("", "", "").kp.empty());
  EXPECT_EQ(parse_error([] { parse_servo_log_filter("1x", "", ""); }),
            "--kp: expected a number, got '1x'");
}

TEST(WorkflowActuator, PrepareSelectsResamplesAndWarns) {
  const auto logs = synthetic_set();
  std::vector<data::ServoLog> reads = logs;
  ServoLogPreparation prep;
  prep.filter = parse_servo_log_filter("400", "", "");
  auto out = prepare_servo_logs(reads, prep);
  ASSERT_EQ(out.logs.size(), 2u);
  EXPECT_EQ(out.logs[0].file, logs[2].file);
  EXPECT_EQ(out.logs[0].position, logs[2].position);
  EXPECT_TRUE(out.warnings.empty());

  prep.resample = 0.01;
  out = prepare_servo_logs(reads, prep);
  ASSERT_EQ(out.warnings.size(), 1u);  // one line for the run
  EXPECT_EQ(out.warnings[0],
            "2 of 2 logs already at a fixed step (dt = 0.005) resampled again to "
            "0.01: " +
                logs[2].file + ", " + logs[3].file);
  const auto expected = data::resample_servo_log(logs[2], 0.01);
  EXPECT_EQ(out.logs[0].dt, 0.01);
  EXPECT_EQ(out.logs[0].position, expected.position);

  // a raw log needs a step; nothing selected; negative step
  reads[2].dt = 0.0;
  prep.resample = 0.0;
  const std::string raw =
      testing::message_of<std::invalid_argument>([&] { prepare_servo_logs(reads, prep); });
  EXPECT_NE(raw.find(logs[2].file), std::string::npos) << raw;
  EXPECT_NE(raw.find("raw log (no 'dt')"), std::string::npos) << raw;
  prep.filter = parse_servo_log_filter("250", "", "");
  EXPECT_EQ(parse_error([&] { prepare_servo_logs(reads, prep); }),
            "no log left after the selection");
  prep.resample = -1.0;
  EXPECT_EQ(parse_error([&] { prepare_servo_logs(reads, prep); }), "--resample: must be > 0");
}

// ---- non-finite errors are never ranked (docs/file-formats.md, "Magnitude limits") ----

TEST(WorkflowActuator, EvalNeverNamesANonFiniteMeanTheLowest) {
  const auto logs = synthetic_set();
  auto absurd = truth_m3();
  absurd.kt = 1e300;  // the readers refuse it; here it reaches the simulation: kt^2 overflows
  auto other = truth_m3();
  other.friction.Kv += 0.01;
  const auto ev = eval_actuator(
      logs, {{"absurd", "a.json", {xl330(), absurd}}, {"other", "b.json", {xl330(), other}}});
  ASSERT_FALSE(std::isfinite(ev.params[0].mean)) << ev.params[0].mean;  // NaN or inf
  ASSERT_TRUE(std::isfinite(ev.params[1].mean));
  EXPECT_EQ(ev.best, std::optional<std::size_t>(1));
  EXPECT_EQ(nlohmann::json::parse(io::eval_actuator_json(ev))["best"], "other");
  // every set non-finite: no lowest (null in the JSON), not the first one
  const auto none = eval_actuator(logs, {{"absurd", "a.json", {xl330(), absurd}}});
  EXPECT_FALSE(none.best.has_value());
  EXPECT_TRUE(nlohmann::json::parse(io::eval_actuator_json(none))["best"].is_null());
}

identify::ServoModelReport report(ActuatorModel m, int parameters, double validation_mae) {
  identify::ServoModelReport r;
  r.model = m;
  r.parameters = parameters;
  r.train_mae = 0.01;
  r.validation_mae = validation_mae;
  return r;
}

TEST(WorkflowActuator, RecommendationSkipsNaNAndInfAndSaysWhenNoneIsFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = HUGE_VAL;
  identify::ServoSelection sel;
  // NaN compares false with everything: it must not become the best nor pass the tolerance
  sel.models = {report(ActuatorModel::M1, 6, nan), report(ActuatorModel::M3, 7, 0.05),
                report(ActuatorModel::M4, 9, 0.0495), report(ActuatorModel::M5, 5, inf)};
  identify::recommend_servo_model(sel, true, 0.02);
  EXPECT_EQ(sel.recommended, std::optional<ActuatorModel>(ActuatorModel::M3));
  EXPECT_EQ(sel.models[0].failed, "its validation MAE is nan");
  EXPECT_EQ(sel.models[3].failed, "its validation MAE is inf");
  EXPECT_TRUE(sel.models[1].failed.empty());
  EXPECT_NE(sel.reason.find("m1 not ranked: its validation MAE is nan"), std::string::npos)
      << sel.reason;
  // none finite: no recommendation, and the reason says so
  sel.models = {report(ActuatorModel::M1, 6, nan), report(ActuatorModel::M3, 7, inf)};
  identify::recommend_servo_model(sel, true, 0.02);
  EXPECT_FALSE(sel.recommended.has_value());
  EXPECT_EQ(sel.reason,
            "none: no model has a finite validation error (m1: its validation MAE is nan; m3: its "
            "validation MAE is inf)");
}

TEST(WorkflowActuator, AFitWhoseLossIsInfiniteFailsAndIsNotRecommended) {
  // kt in [1e200, 1e300]: every point overflows (the workflow refuses such a --range; the
  // identify layer below it must still not recommend the result)
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = 40;
  fo.cmaes.threads = 1;
  fo.bounds = {{"kt", 1e200, 1e300}};
  const auto sel =
      identify::fit_and_select_servo_models({ActuatorModel::M1}, xl330(), xl330().constants,
                                            synthetic_set(), {K::none, 0.0, 4}, fo, 0.02);
  ASSERT_EQ(sel.models.size(), 1u);
  EXPECT_FALSE(std::isfinite(sel.models[0].fit.loss));
  EXPECT_EQ(sel.models[0].fit.failed.rfind("the loss is inf at every one of the ", 0), 0u)
      << sel.models[0].fit.failed;
  EXPECT_EQ(sel.models[0].failed.rfind("its fit [all] failed: the loss is inf", 0), 0u)
      << sel.models[0].failed;
  EXPECT_FALSE(sel.recommended.has_value());
  EXPECT_EQ(sel.reason.rfind("none: no model has a finite training error (m1: its fit", 0), 0u)
      << sel.reason;
}

}  // namespace
}  // namespace frictionlab::workflows
