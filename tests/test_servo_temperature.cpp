// Tests of the temperature-dependent friction of the servo models
// (models/temperature_dependence.hpp in sim/servo.hpp, identify/servo_fit.hpp,
// workflows/actuator.hpp; docs/actuators.md, "Temperature-dependent friction"):
// - the budget's scales: 1 gives BAM's budget bit for bit; otherwise Kv |v| scaled by the viscous
//   scale and every other term by the level scale;
// - a law with kT = kT_v = 0 re-simulates exactly as the plain model (the nested rule's base), the
//   batched rollout equals the serial one with a law;
// - synthetic recovery: kT of a known linear and exponential law from logs whose temperature
//   varies, with the XL330's encoder resolution on the positions;
// - the nested rule: every "m+T" fit's training loss <= its plain model's;
// - the identifiability flags: undetermined on a constant temperature, confounded with kp;
// - the errors: a log without 'temp' (naming the file), the linear law outside its domain;
// - the parameter file's keys round trip, with their errors; the MuJoCo and BAM exports keep the
//   friction at T_ref and say so, and frictionlab's friction inside MuJoCo refuses such a file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/mujoco_friction.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "servo_synthetic.hpp"

namespace frictionlab::identify {
namespace {

using servo_test::synthetic;
using servo_test::truth_m3;
using servo_test::warming;
using servo_test::xl330;

/// EXPECT that f() throws an E whose message contains `part`.
#define EXPECT_MESSAGE(call, E, part)                                           \
  do {                                                                          \
    const std::string message_ = testing::message_of<E>([&] { (void)(call); }); \
    EXPECT_NE(message_.find(part), std::string::npos) << message_;              \
  } while (false)

/// truth_m3 with a temperature law about T_ref = 33 degC (the mean of warm_set's temperatures).
sim::ServoParams warm_truth(TemperatureLaw law, double kT) {
  auto p = truth_m3();
  p.temperature = TemperatureDependence<double>{law, 33.0, kT, 0.0};
  return p;
}

/// Four logs of the truth warming up as a bench does (26 .. 40 degC, rising with kp; midpoints
/// 28, 32, 35, 37: T_ref 33 degC).
std::vector<data::ServoLog> warm_set(const sim::ServoParams& p) {
  const auto plain = truth_m3();  // the goals (the law needs the temperatures first)
  return {
      warming(synthetic(0, 100, plain), 26, 30, p), warming(synthetic(1, 100, plain), 30, 34, p),
      warming(synthetic(0, 400, plain), 33, 37, p), warming(synthetic(1, 800, plain), 35, 39, p)};
}

/// The positions rounded to the XL330's encoder resolution (4096 counts per turn): the noise of
/// a real log's positions.
std::vector<data::ServoLog> quantised(std::vector<data::ServoLog> logs) {
  const double count = 2.0 * std::numbers::pi / 4096.0;
  for (auto& l : logs)
    for (double& q : l.position) q = count * std::round(q / count);
  return logs;
}

ServoFitOptions long_fit(TemperatureLaw law) {
  ServoFitOptions o = servo_test::converging_fit(8000);
  o.temperature = ServoTemperatureFit{law, false};
  return o;
}

TEST(ServoTemperature, TheScalesActOnTheViscousAndTheDryTermsAndOneIsTheBamBudget) {
  ActuatorFrictionParams<double> p;
  p.Kv = 0.01;
  p.Kc = 0.02;
  p.Kcs = 0.015;
  p.vs = 0.4;
  p.Kl = 0.1;
  p.Kls = 0.05;
  p.Km = 0.07;
  p.Ke = 0.03;
  p.Kms = 0.02;
  p.Kes = 0.06;
  p.Kmq = 0.004;
  p.Keq = 0.002;
  for (int mi = 0; mi < 6; ++mi) {
    const auto m = static_cast<ActuatorModel>(mi);
    for (const double v : {0.0, 0.3, -1.7})
      for (const double tau_m : {0.2, -0.35}) {
        const double tau_e = -0.12, s = actuator_stribeck_factor(p, v);
        const double plain = friction_budget(m, p, v, tau_m, tau_e);
        EXPECT_EQ(friction_budget_given_factor(m, p, v, tau_m, tau_e, s, 1.0, 1.0), plain);
        // viscous 0.5 halves Kv |v|; level 0.8 scales everything else
        auto dry = p;
        dry.Kv = 0.0;
        const double expected =
            0.5 * p.Kv * std::abs(v) + 0.8 * friction_budget(m, dry, v, tau_m, tau_e);
        EXPECT_NEAR(friction_budget_given_factor(m, p, v, tau_m, tau_e, s, 0.8, 0.5), expected,
                    1e-15)
            << "M" << mi + 1;
      }
  }
}

TEST(ServoTemperature, ALawAtZeroIsThePlainModelBitForBitAndTheBatchIsTheSerialRollout) {
  auto plain = truth_m3();
  const auto logs = warm_set(warm_truth(TemperatureLaw::linear, -0.02));
  const auto& c = xl330().constants;
  for (const auto law : {TemperatureLaw::linear, TemperatureLaw::exponential}) {
    auto zero = plain;
    zero.temperature = TemperatureDependence<double>{law, 31.7, 0.0, 0.0};
    EXPECT_EQ(servo_loss(c, zero, logs, {}), servo_loss(c, plain, logs, {}));
  }
  // a law that acts: servo_loss (the batch) pools servo_log_error (the serial rollout) exactly
  auto law = warm_truth(TemperatureLaw::exponential, 0.03);
  law.temperature->kT_v = -0.04;
  double sum = 0.0;
  std::size_t n = 0;
  for (const auto& l : logs) {
    const auto e = servo_log_error(c, law, l);
    sum += e.position_mae * static_cast<double>(e.samples);
    n += e.samples;
  }
  EXPECT_NEAR(servo_loss(c, law, logs, {}), sum / static_cast<double>(n), 1e-15);
  EXPECT_GT(servo_loss(c, law, logs, {}), 1e-4);  // the law changes the motion
}

// Synthetic recovery. The positions carry the encoder's quantisation (1.5e-3 rad steps: a
// uniform error, 3.8e-4 rad mean absolute, the loss's floor); the law changes the levels by
// +14 % .. -12 % over the logs (26 .. 39 degC), and leaving it out costs 2.6 times that floor
// (plain M3: 9.9e-4 rad). Measured: kT = -0.01995 (linear) and -0.01910 (exponential), the same
// for seeds 1 to 5 (the optimum of the quantised logs, not the optimiser's scatter); Kc, Kl, Kv
// within 1.2 %. The tolerance, 10 % of kT, is twice the quantisation's bias on the exponential
// law's kT.
TEST(ServoTemperature, RecoversKtOfAKnownLawFromLogsWhoseTemperatureVaries) {
  for (const auto law : {TemperatureLaw::linear, TemperatureLaw::exponential}) {
    const auto truth = warm_truth(law, -0.02);
    const auto logs = quantised(warm_set(truth));
    EXPECT_DOUBLE_EQ(servo_reference_temperature(logs), 33.0);
    const auto r =
        fit_servo_model(xl330(), xl330().constants, ActuatorModel::M3, logs, {}, long_fit(law));
    ASSERT_TRUE(r.params.temperature.has_value());
    const auto& t = *r.params.temperature;
    EXPECT_EQ(t.law, law);
    EXPECT_EQ(t.T_ref, 33.0);
    EXPECT_NEAR(t.kT, -0.02, 0.002) << temperature_law_name(law);
    EXPECT_EQ(t.kT_v, 0.0);  // not fitted: held at 0
    EXPECT_EQ(r.keys.back(), "kT");
    EXPECT_NEAR(r.params.friction.Kc, truth.friction.Kc, 0.05 * truth.friction.Kc);
    EXPECT_NEAR(r.params.friction.Kl, truth.friction.Kl, 0.05 * truth.friction.Kl);
    EXPECT_LT(r.loss, 1e-3);  // rad: the quantisation's floor is about 3.8e-4
  }
}

TEST(ServoTemperature, TheTemperatureModelNeverFitsWorseThanThePlainOne) {
  // a short budget, so that neither fit converges: the nested rule must hold all the same
  const auto logs = warm_set(warm_truth(TemperatureLaw::linear, -0.015));
  ServoFitOptions o;
  o.cmaes.max_evals = 150;
  o.cmaes.threads = 2;
  o.temperature = ServoTemperatureFit{TemperatureLaw::exponential, true};
  ServoValidation v;
  v.kind = ServoValidation::Kind::kp;
  v.kp = 800;
  const auto sel =
      fit_and_select_servo_models({ActuatorModel::M1, ActuatorModel::M2, ActuatorModel::M3},
                                  xl330(), xl330().constants, logs, v, o, 0.02);
  ASSERT_EQ(sel.models.size(), 6u);
  for (std::size_t i = 0; i < 6; i += 2) {
    const auto &plain = sel.models[i], &warm = sel.models[i + 1];
    EXPECT_FALSE(plain.temperature);
    EXPECT_TRUE(warm.temperature);
    EXPECT_EQ(warm.model, plain.model);
    EXPECT_EQ(warm.parameters, plain.parameters + 2);  // kT and kT_v
    EXPECT_LE(warm.fit.loss, plain.fit.loss) << servo_model_label(warm.model, true);
    EXPECT_LE(warm.train_mae, plain.train_mae);
    EXPECT_FALSE(plain.fit.params.temperature.has_value());
    ASSERT_TRUE(warm.fit.params.temperature.has_value());
    EXPECT_EQ(warm.fit.params.temperature->T_ref, 31.67);  // the training logs' mean, rounded
  }
  EXPECT_EQ(servo_model_label(ActuatorModel::M3, true), "m3+T");
}

TEST(ServoTemperature, ChecksTheSpreadAndTheConfoundingWithKp) {
  const auto truth = truth_m3();
  // rising with kp (as on the XL330 bench): confounded
  auto logs = warm_set(truth);
  auto c = servo_temperature_check(logs);
  EXPECT_FALSE(c.undetermined);
  EXPECT_GT(c.spread, 9.0);
  EXPECT_TRUE(c.confounded);
  EXPECT_NEAR(c.kp_correlation, 0.8727, 1e-4);  // midpoints 28, 32, 35, 37 at kp 100, 100, 400, 800
  EXPECT_NEAR(c.within_kp_spread, 0.9 * 8.0, 0.01);  // kp 100: 26 .. 34 degC, 5th to 95th
  EXPECT_EQ(c.T_min, 26.0);
  EXPECT_EQ(c.T_max, 39.0);
  // the same temperatures at kp 400, 100, 800, 100: they do not follow kp
  logs[0].kp = 400;
  logs[2].kp = 800;
  logs[3].kp = 100;
  c = servo_temperature_check(logs);
  EXPECT_FALSE(c.confounded);
  EXPECT_LT(std::abs(c.kp_correlation), 0.2);
  // one temperature within 1 K: undetermined
  auto flat = std::vector<data::ServoLog>{warming(synthetic(0, 100, truth), 29.5, 30.2, truth),
                                          warming(synthetic(1, 400, truth), 30.0, 30.4, truth)};
  c = servo_temperature_check(flat);
  EXPECT_TRUE(c.undetermined);
  EXPECT_LT(c.spread, kTemperatureMinSpread);
}

TEST(ServoTemperature, ALogSetAtOneTemperatureGetsNoTemperatureModelAndTheVerdictSaysWhy) {
  const auto truth = truth_m3();
  workflows::FitActuatorOptions o;
  o.actuator = xl330();
  o.models = {ActuatorModel::M1, ActuatorModel::M3};
  o.validation.kind = ServoValidation::Kind::none;
  o.trials = 60;
  o.threads = 1;
  o.temperature = ServoTemperatureFit{};
  const auto out = workflows::fit_actuator({warming(synthetic(0, 100, truth), 29.5, 30.2, truth),
                                            warming(synthetic(1, 400, truth), 30.0, 30.4, truth)},
                                           o);
  EXPECT_TRUE(out.temperature.undetermined);
  EXPECT_EQ(out.temperature.law, "linear");
  ASSERT_EQ(out.models.size(), 2u);  // m1, m3: no m1+T, m3+T
  for (const auto& m : out.models) EXPECT_FALSE(m.temperature) << m.name;
  const auto reason = std::find_if(out.verdict.reasons.begin(), out.verdict.reasons.end(),
                                   [](const auto& r) { return r.rule == "temperature"; });
  ASSERT_NE(reason, out.verdict.reasons.end());
  EXPECT_EQ(reason->grade, workflows::Grade::doubtful);
  EXPECT_EQ(reason->text.rfind("undetermined: the training logs' temperature spans 0.", 0), 0u)
      << reason->text;
  EXPECT_NE(reason->hint.find("record the same kp and trajectories over a wider temperature"),
            std::string::npos);
}

TEST(ServoTemperature, ALogWithoutTempIsAnErrorNamingItsFile) {
  const auto truth = warm_truth(TemperatureLaw::linear, -0.02);
  auto logs = warm_set(truth);
  logs[2].temp.clear();
  logs[2].file = "logs/cold.json";
  const auto& c = xl330().constants;
  const std::string head = "logs/cold.json: no 'temp' in the log: ";
  EXPECT_MESSAGE(servo_log_error(c, truth, logs[2]), FitError, head);
  EXPECT_MESSAGE(servo_loss(c, truth, logs, {}), FitError, head);
  EXPECT_MESSAGE(
      fit_servo_model(xl330(), c, ActuatorModel::M1, logs, {}, long_fit(TemperatureLaw::linear)),
      FitError, head + "a temperature law is fitted to logs that record");
  // the plain model does not need it
  EXPECT_NO_THROW(servo_log_error(c, truth_m3(), logs[2]));
  // the workflow names it before any fit
  workflows::FitActuatorOptions o;
  o.actuator = xl330();
  o.models = {ActuatorModel::M1};
  o.validation.kind = ServoValidation::Kind::none;
  o.trials = 10;
  o.temperature = ServoTemperatureFit{};
  EXPECT_MESSAGE(workflows::fit_actuator(logs, o), FitError, head);
}

TEST(ServoTemperature, TheLinearLawOutsideItsDomainIsAnErrorAndAnInfiniteLoss) {
  auto p = warm_truth(TemperatureLaw::linear, -0.2);  // scale 1 - 0.2 (T - 33) <= 0 from 38 degC
  const auto logs = warm_set(truth_m3());
  const auto& c = xl330().constants;
  // 35 .. 39 degC over 400 entries: 38 degC at entry 299.25
  EXPECT_MESSAGE(servo_log_error(c, p, logs[3]), FitError,
                 "synthetic_1_800.json: entry 300: at T = 38.0075 degC the linear temperature "
                 "law (kT = -0.2 1/K, kT_v = 0 1/K, T_ref = 33 degC) gives a scale <= 0");
  EXPECT_EQ(servo_loss(c, p, logs, {}), std::numeric_limits<double>::infinity());
  p.temperature->law = TemperatureLaw::exponential;  // always positive
  EXPECT_TRUE(std::isfinite(servo_loss(c, p, logs, {})));
  // the fit's ranges keep the linear scale >= 0.1 from 20 to 60 degC (the logs: 26 .. 39) about
  // T_ref 33: k >= -0.9 / 27 (narrower than the default -0.05), k <= min(0.9 / 13, 0.05)
  const auto b = servo_temperature_bounds(ServoTemperatureFit{TemperatureLaw::linear, true, 20, 60},
                                          33.0, logs, {});
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].key, "kT_v");
  EXPECT_DOUBLE_EQ(b[0].lo, -0.9 / 27.0);
  EXPECT_DOUBLE_EQ(b[0].hi, 0.05);
  EXPECT_DOUBLE_EQ(b[1].lo, -0.9 / 27.0);
  EXPECT_MESSAGE(servo_temperature_bounds(ServoTemperatureFit{}, 33.0, logs, {{"kT", 0.2, 0.3}}),
                 FitError, "range of 'kT': nothing left where the linear law's scale");
}

TEST(ServoTemperature, TheParameterFileCarriesTheLawAndItsErrorsNameTheKey) {
  sim::ServoSetup f;
  f.actuator = xl330();
  f.params = warm_truth(TemperatureLaw::exponential, -0.0125);
  f.params.temperature->kT_v = 0.004;
  const std::string text = io::servo_params_json(f);
  EXPECT_NE(text.find("\"temperature_law\": \"exponential\",\n    \"T_ref\": 33.0,\n    \"kT\": "
                      "-0.0125,\n    \"kT_v\": 0.004,\n    \"model\": \"m3\""),
            std::string::npos)
      << text;
  const auto back = io::parse_servo_params(text, "m3+T.json");
  ASSERT_TRUE(back.params.temperature.has_value());
  EXPECT_EQ(back.params.temperature->law, TemperatureLaw::exponential);
  EXPECT_EQ(back.params.temperature->T_ref, 33.0);
  EXPECT_EQ(back.params.temperature->kT, -0.0125);
  EXPECT_EQ(back.params.temperature->kT_v, 0.004);
  // without the law: no keys, and a file without them has none
  f.params.temperature.reset();
  EXPECT_EQ(io::servo_params_json(f).find("kT"), std::string::npos);
  EXPECT_FALSE(io::parse_servo_params(io::servo_params_json(f), "m3.json").params.temperature);
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  EXPECT_MESSAGE(io::parse_servo_params(with("\"kT_v\": 0.004,", ""), "f.json"), io::InputError,
                 "f.json: parameter 'kT_v': missing (a temperature law needs temperature_law, "
                 "T_ref, kT and kT_v; given: temperature_law, T_ref, kT)");
  EXPECT_MESSAGE(io::parse_servo_params(with("\"exponential\"", "\"arrhenius\""), "f.json"),
                 io::InputError,
                 "f.json: parameter 'temperature_law': expected \"linear\" or \"exponential\", "
                 "got \"arrhenius\"");
  EXPECT_MESSAGE(io::parse_servo_params(with("\"kT\": -0.0125", "\"kT\": 50"), "f.json"),
                 io::InputError, "f.json: parameter 'kT': 50 1/K is outside the plausible range");
}

TEST(ServoTemperature, TheExportsKeepTheFrictionAtTRefAndSaySo) {
  io::ActuatorSource src;
  src.file = "m3+T.json";
  src.setup.actuator = xl330();
  src.setup.params = warm_truth(TemperatureLaw::linear, -0.0125);
  const std::string note =
      "the friction's linear temperature law (kT = -0.0125 1/K, kT_v = 0 1/K): ";
  const auto bam = io::export_actuator_bam(src);
  EXPECT_EQ(bam.text.find("kT"), std::string::npos);
  EXPECT_FALSE(io::parse_servo_params(bam.text, "bam.json").params.temperature);
  ASSERT_FALSE(bam.notes.empty());
  EXPECT_EQ(bam.notes.back(), note +
                                  "BAM's friction models are independent of the temperature; "
                                  "the friction exported is that at T_ref = 33 degC");
  io::ActuatorMujocoOptions o;
  o.kp = 400;
  const auto mj = io::export_actuator_mujoco(src, o);
  EXPECT_NE(std::find(mj.notes.begin(), mj.notes.end(),
                      note + "MuJoCo's frictionloss and damping are independent of the "
                             "temperature; the friction exported is that at T_ref = 33 degC"),
            mj.notes.end());
  // frictionlab's friction inside MuJoCo runs the law at the joint's temperature, which the
  // MUJOCO.json entry must give (MuJoCo has none); a folder unique to this process (ctest runs a
  // file's tests in parallel)
  const auto dir = std::filesystem::path(::testing::TempDir()) /
                   ("servo_temperature_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  io::write_servo_params((dir / "m3+T.json").string(), src.setup);
  EXPECT_MESSAGE(io::parse_mujoco_friction(
                     R"({"format": "frictionlab-mujoco", "version": 1, "joints": [{"joint": )"
                     R"("servo", "servo": "m3+T.json", "goal": "goal", "kp": 400}]})",
                     (dir / "MUJOCO.json").string()),
                 io::InputError,
                 "m3+T.json has a temperature law (T_ref = 33 degC); give the joint's "
                 "temperature at the start [degC]");
  const io::MujocoFriction with = io::parse_mujoco_friction(
      R"({"format": "frictionlab-mujoco", "version": 1, "joints": [{"joint": )"
      R"("servo", "servo": "m3+T.json", "goal": "goal", "kp": 400, "temperature": 40}]})",
      (dir / "MUJOCO.json").string());
  ASSERT_EQ(with.servos.size(), 1u);
  EXPECT_EQ(with.servos[0].temperature, 40.0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace frictionlab::identify
