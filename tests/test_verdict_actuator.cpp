// The actuator verdict rules (workflows/verdict.hpp, "Actuator rules") on outcomes built by hand
// on each side of every documented threshold, and the choice of a built-in description from the
// logged supply and its aliases (io::servo_actuator_for_logs, io::builtin_actuator_name).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {
namespace {

const VerdictReason* find_rule(const Verdict& v, const std::string& rule) {
  for (const auto& r : v.reasons)
    if (r.rule == rule) return &r;
  return nullptr;
}

ActuatorModelOutcome model(ActuatorModel m, int n, double train, double validation) {
  ActuatorModelOutcome r;
  r.model = m;
  r.name = std::string(sim::actuator_model_name(m));
  r.n_parameters = n;
  r.train_mae = train;
  r.validation_mae = validation;
  return r;
}

ActuatorLogSeries log_of(const std::string& name, const std::string& role, double mae,
                         double range) {
  ActuatorLogSeries l;
  l.log = name;
  l.role = role;
  l.mae = mae;
  l.range = range;
  return l;
}

// m1 (6 parameters) and m3 (7), validated on kp=200; two training and two validation logs of
// 1 rad of motion, each log's error the pooled one. m3 is recommended unless said otherwise.
FitActuatorOutcome fit(double train, double validation) {
  FitActuatorOutcome s;
  s.actuator = "xl330";
  s.validation = "kp=200";
  s.validated = true;
  s.models = {model(ActuatorModel::M1, 6, 2 * train, 2 * validation),
              model(ActuatorModel::M3, 7, train, validation)};
  s.recommended = ActuatorModel::M3;
  s.recommended_series = {log_of("a", "training", train, 1.0), log_of("b", "training", train, 1.0),
                          log_of("c", "validation", validation, 1.0),
                          log_of("d", "validation", validation, 1.0)};
  return s;
}

TEST(ActuatorVerdict, GoodWhenTheErrorIsSmallAgainstTheMotion) {
  const auto v = actuator_fit_verdict(fit(0.04, 0.05));
  EXPECT_EQ(v.grade, Grade::good) << v.line();
  EXPECT_EQ(v.line(), "good");
}

TEST(ActuatorVerdict, ErrorRelativeToTheRangeOfMotion) {
  // validation e = 0.11 (> 0.1): doubtful; 0.26 (> 0.25): bad; the validation logs decide
  auto v = actuator_fit_verdict(fit(0.09, 0.11));
  EXPECT_EQ(v.grade, Grade::doubtful) << v.line();
  ASSERT_NE(find_rule(v, "error"), nullptr);
  EXPECT_EQ(find_rule(v, "error")->text,
            "m3 does not reproduce the motion of the validation logs: MAE 0.11 rad is 11 % of the "
            "mean range of motion (1 rad)");
  v = actuator_fit_verdict(fit(0.2, 0.26));
  EXPECT_EQ(v.grade, Grade::bad) << v.line();
  // the same errors on logs of 3 rad of motion: good
  auto wide = fit(0.2, 0.26);
  for (auto& l : wide.recommended_series) l.range = 3.0;
  EXPECT_EQ(actuator_fit_verdict(wide).grade, Grade::good) << actuator_fit_verdict(wide).line();
}

TEST(ActuatorVerdict, OneLogNotReproducedIsDoubtful) {
  auto s = fit(0.04, 0.05);
  s.recommended_series[1].range = 0.1;  // 0.04 rad of error on 0.1 rad of motion: e = 0.4
  const auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::doubtful) << v.line();
  EXPECT_EQ(v.reasons[0].text,
            "m3 does not reproduce 1 log of 4 (MAE over 35 % of the log's range of motion): b: MAE "
            "0.04 rad, 40 % of 0.1 rad");
  // several: one reason, the worst first
  s.recommended_series[2].range = 0.05;  // 0.05 / 0.05: 100 %
  const auto two = actuator_fit_verdict(s);
  ASSERT_EQ(two.reasons.size(), 1u) << two.line();
  EXPECT_EQ(
      two.reasons[0].text,
      "m3 does not reproduce 2 logs of 4 (MAE over 35 % of the log's range of motion): c: MAE "
      "0.05 rad, 100 % of 0.05 rad, b: MAE 0.04 rad, 40 % of 0.1 rad");
  s.recommended_series[2].range = 1.0;
  s.recommended_series[1].range = 0.12;  // e = 0.33 < 0.35
  EXPECT_EQ(actuator_fit_verdict(s).grade, Grade::good);
}

TEST(ActuatorVerdict, ALogWithoutMotion) {
  // reproduced exactly: nothing to say; any error on it: not reproduced
  auto s = fit(0.04, 0.05);
  s.recommended_series[0].range = 0.0;
  s.recommended_series[0].mae = 0.0;
  EXPECT_EQ(actuator_fit_verdict(s).line(), "good");
  s.recommended_series[0].mae = 0.01;
  auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::doubtful);
  EXPECT_EQ(v.reasons[0].text,
            "m3 does not reproduce 1 log of 4 (MAE over 35 % of the log's range of motion): a: MAE "
            "0.01 rad, no motion");
  // no log moves: the error cannot be judged against the motion (doubtful, never bad)
  for (auto& l : s.recommended_series) l.range = 0.0;
  v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::doubtful);
  EXPECT_EQ(v.reasons[0].text,
            "m3's MAE of 0.05 rad on the validation logs cannot be judged against their motion: "
            "their measured position does not change");
}

TEST(ActuatorVerdict, ValidationFarAboveTrainingIsDoubtful) {
  // 0.08 > 1.5 x 0.05 and e = 0.08 > 0.05
  auto v = actuator_fit_verdict(fit(0.05, 0.08));
  ASSERT_NE(find_rule(v, "generalises"), nullptr) << v.line();
  EXPECT_EQ(v.grade, Grade::doubtful);
  // 0.07 < 1.5 x 0.05
  EXPECT_EQ(find_rule(actuator_fit_verdict(fit(0.05, 0.07)), "generalises"), nullptr);
  // ratio 2 but e = 0.04 < 0.05: small against the motion
  EXPECT_EQ(find_rule(actuator_fit_verdict(fit(0.02, 0.04)), "generalises"), nullptr);
}

TEST(ActuatorVerdict, ParametersAtARangeEndAreDoubtful) {
  auto s = fit(0.04, 0.05);
  s.models[1].at_bound = {"kt", "armature"};
  const auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::doubtful);
  ASSERT_NE(find_rule(v, "bounds"), nullptr);
  EXPECT_EQ(find_rule(v, "bounds")->text, "m3: kt, armature at an end of the search range");
}

TEST(ActuatorVerdict, MarginNotes) {
  // m1 within 2 % of the recommended m3: not separated (a note, the grade stays good)
  auto s = fit(0.04, 0.05);
  s.models[0].validation_mae = 0.0509;
  auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::good);
  ASSERT_NE(find_rule(v, "margin"), nullptr);
  EXPECT_EQ(find_rule(v, "margin")->text,
            "m3 is not clearly better than m1: their validation MAE is within 2 % of its 0.05 rad: "
            "the logs do not separate them (the fewest parameters are recommended)");
  // m1 recommended by parsimony (a tolerance of 5 %) while m3 is 3 % lower: said so
  s.recommended = ActuatorModel::M1;
  s.models[0].validation_mae = 0.05;
  s.models[1].validation_mae = 0.0485;
  v = actuator_fit_verdict(s);
  ASSERT_NE(find_rule(v, "margin"), nullptr);
  EXPECT_EQ(find_rule(v, "margin")->text,
            "m3 has a 3 % lower validation MAE (0.0485 against 0.05 rad) with 7 parameters instead "
            "of 6: within the tolerance, the simpler model is recommended");
  // clearly better (m1 twice the error): no note
  EXPECT_EQ(find_rule(actuator_fit_verdict(fit(0.04, 0.05)), "margin"), nullptr);
}

TEST(ActuatorVerdict, FailedModelsAndNoRecommendation) {
  auto s = fit(0.04, 0.05);
  s.models[0].failed = "its validation MAE is nan";
  EXPECT_EQ(actuator_fit_verdict(s).grade, Grade::doubtful);
  s.recommended.reset();
  s.reason = "none: no model has a finite validation error (...)";
  const auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.grade, Grade::bad);
  EXPECT_EQ(v.reasons[0].rule, "failed");
}

TEST(ActuatorVerdict, TheActuatorChoiceIsANote) {
  auto s = fit(0.04, 0.05);
  s.actuator_choice = "chosen";
  const auto v = actuator_fit_verdict(s);
  EXPECT_EQ(v.line(), "good");
  ASSERT_NE(find_rule(v, "actuator"), nullptr);
  EXPECT_EQ(find_rule(v, "actuator")->grade, Grade::good);
}

TEST(ActuatorVerdict, Evaluation) {
  EvalActuatorOutcome s;
  s.logs = {{"a", 100, "sin", 1.0, 10}, {"b", 200, "sin", 0.5, 10}};
  s.params = {{"m1", "m1.json", {0.05, 0.05}, 0.05, 0.05},
              {"m3", "m3.json", {0.04, 0.04}, 0.04, 0.04}};
  s.best = 1;
  EXPECT_EQ(actuator_eval_verdict(s).line(), "good");
  // within 2 % of the lowest: a note
  s.params[0].mean = 0.0405;
  auto v = actuator_eval_verdict(s);
  EXPECT_EQ(v.grade, Grade::good);
  ASSERT_NE(find_rule(v, "margin"), nullptr);
  // the mean over the mean range: 0.1 / 0.75 = 0.13 > 0.1
  s.params[1].mean = 0.1;
  s.params[1].mae = {0.1, 0.1};
  v = actuator_eval_verdict(s);
  EXPECT_EQ(v.grade, Grade::doubtful) << v.line();
  // no finite set: bad
  s.params[0].mean = s.params[1].mean = std::nan("");
  s.best.reset();
  EXPECT_EQ(actuator_eval_verdict(s).grade, Grade::bad);
}

data::ServoLog sts_log(double volts) {
  data::ServoLog l;
  l.file = "logs/a.json";
  l.motor = "sts3215";
  if (volts > 0) l.input_volts = {volts - 0.05, volts + 0.05};
  return l;
}

TEST(ActuatorChoice, TheLoggedSupplyChoosesTheVersion) {
  std::string choice;
  auto a = io::servo_actuator_for_logs("", {}, {sts_log(11.95)}, &choice);
  EXPECT_EQ(a.name, "sts3215-12v");
  EXPECT_EQ(choice,
            "the logs' motor 'sts3215' names versions for several supplies (7.4 V 'sts3215', 12 V "
            "'sts3215-12v'); their input_volts average 11.95 V: 'sts3215-12v' is used");
  a = io::servo_actuator_for_logs("", {}, {sts_log(7.6)}, &choice);
  EXPECT_EQ(a.name, "sts3215");
  EXPECT_NE(choice.find("average 7.6 V: 'sts3215' is used"), std::string::npos) << choice;
  a = io::servo_actuator_for_logs("", {}, {sts_log(0)}, &choice);
  EXPECT_EQ(a.name, "sts3215");
  EXPECT_NE(choice.find("and no log has input_volts: 'sts3215' (7.4 V) is used"), std::string::npos)
      << choice;
  // named on the command line: as named, no choice
  choice.clear();
  EXPECT_EQ(io::servo_actuator_for_logs("sts3215", {}, {sts_log(11.95)}, &choice).name, "sts3215");
  EXPECT_TRUE(choice.empty());
}

TEST(ActuatorChoice, AliasesAndSpellings) {
  EXPECT_EQ(io::builtin_actuator_name("sts3215v12"), "sts3215-12v");
  EXPECT_EQ(io::builtin_actuator_name("STS3215_12V"), "sts3215-12v");
  EXPECT_EQ(io::builtin_actuator_name("MX-64"), "mx64");
  EXPECT_EQ(io::builtin_actuator_name("XC330-M288-T"), "xc330m288t");
  EXPECT_EQ(io::builtin_actuator_name("ax12"), "");
  EXPECT_EQ(io::resolve_actuator("sts3215v12", "", "p.json").name, "sts3215-12v");
  auto log = sts_log(11.95);
  log.motor = "sts3215v12";
  std::string choice;
  EXPECT_EQ(io::servo_actuator_for_logs("", {}, {log}, &choice).name, "sts3215-12v");
  EXPECT_TRUE(choice.empty());
}

}  // namespace
}  // namespace frictionlab::workflows
