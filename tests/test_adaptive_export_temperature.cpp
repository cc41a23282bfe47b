// `frictionlab export c --adaptive --temperature` (docs/estimator.md, "Online adaptation"): the
// adaptive estimator's start seeded from a joint fit's temperature law. The baked start is the
// rule (kT the relative slope of the levels at T_ref, its variance, T_ref, kT adapting) for the
// linear law at and away from the fit's T_ref and for the exponential law; the code generated at
// build time (tests/estimator.cmake: sensorless_fit.json with fit-joint's linear law on
// examples/data/joint_warming.csv, --temperature-ref 30) is the C API's adaptive estimator with
// the same options and kT start, output for output; and the option and file errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "estimator_fixtures.hpp"
#include "expect_message.hpp"
#include "frictionlab/estimator/adaptive_estimator.h"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "warm_f32.h"
#include "warm_f64.h"

namespace frictionlab {
namespace {

const std::string kJointFit = FRICTIONLAB_WARM_JOINT_FIT_JSON;
const std::string kParams =
    std::string(FRICTIONLAB_SOURCE_DIR) + "/examples/data/sensorless_fit.json";
constexpr double kTref = 30;  // the --temperature-ref of the generated code [degC]
constexpr std::size_t kKT = 5;

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The start of sensorless_fit.json seeded with `t` (at temperature_ref if given).
io::AdaptiveStart seeded(const io::TemperatureFit& t, std::optional<double> temperature_ref) {
  const auto src = io::read_friction_source(kParams);
  return io::adaptive_start(src, io::estimator_params(src, {}), &t, temperature_ref);
}

/// The fit's JSON with its law renamed: the same numbers read as the exponential law.
io::TemperatureFit as_exponential() {
  nlohmann::json j = nlohmann::json::parse(file_text(kJointFit));
  j["joint"]["temperature"]["law"] = "exponential";
  return io::parse_temperature_fit(j.dump(), "exp_fit.json");
}

TEST(AdaptiveExportTemperature, LinearLawAtTheFitsTref) {
  const io::TemperatureFit t = io::read_temperature_fit(kJointFit);
  ASSERT_EQ(t.law.law, TemperatureLaw::linear);
  ASSERT_LT(t.law.kT, 0);  // the warming joint's levels fall
  const io::AdaptiveStart a = seeded(t, std::nullopt);
  EXPECT_EQ(a.kT, t.law.kT);
  EXPECT_EQ(a.T_ref, t.law.T_ref);
  EXPECT_EQ(a.P0[kKT], t.se_kT * t.se_kT);
  EXPECT_EQ(a.adapt, 0x3eu);  // the default mask with kT's bit
  ASSERT_TRUE(t.se_kT_v);
  std::string all;
  for (const auto& n : a.notes) all += n + "\n";
  EXPECT_NE(all.find("kT_v = " + format_number(t.law.kT_v) + " 1/K"), std::string::npos) << all;
  EXPECT_NE(all.find("is not carried"), std::string::npos) << all;
  EXPECT_NE(all.find("T_ref = " + format_number(t.law.T_ref) + " degC"), std::string::npos) << all;
  EXPECT_EQ(all.find("first order"), std::string::npos) << all;
}

TEST(AdaptiveExportTemperature, LinearLawAwayFromTheFitsTrefIsTheRelativeSlopeThere) {
  const io::TemperatureFit t = io::read_temperature_fit(kJointFit);
  const io::AdaptiveStart a = seeded(t, kTref);
  // s = 1 + kT0 (T - T_ref0) = c (1 + kT (T - T_ref)) with c = s(T_ref): kT = kT0 / c
  const double c = 1 + t.law.kT * (kTref - t.law.T_ref);
  EXPECT_DOUBLE_EQ(a.kT, t.law.kT / c);
  EXPECT_NE(a.kT, t.law.kT);
  EXPECT_EQ(a.T_ref, kTref);
  EXPECT_DOUBLE_EQ(a.P0[kKT], (t.se_kT / c) * (t.se_kT / c));
  EXPECT_EQ(a.adapt, 0x3eu);
  // the seeded law reproduces the fit's levels relative to those at T_ref at any temperature
  for (const double T : {20.0, 45.0})
    EXPECT_NEAR(1 + a.kT * (T - a.T_ref), (1 + t.law.kT * (T - t.law.T_ref)) / c, 1e-14);
}

TEST(AdaptiveExportTemperature, ExponentialLawIsCarriedToFirstOrder) {
  const io::TemperatureFit t = as_exponential();
  for (const std::optional<double> ref : {std::optional<double>(), std::optional<double>(kTref)}) {
    const io::AdaptiveStart a = seeded(t, ref);
    EXPECT_EQ(a.kT, t.law.kT);  // exp(kT dT)'s relative slope is kT at every temperature
    EXPECT_EQ(a.P0[kKT], t.se_kT * t.se_kT);
    EXPECT_EQ(a.T_ref, ref.value_or(t.law.T_ref));
    std::string all;
    for (const auto& n : a.notes) all += n + "\n";
    const double gap = std::exp(t.law.kT * 10) - (1 + t.law.kT * 10);
    EXPECT_NE(all.find("first order"), std::string::npos) << all;
    EXPECT_NE(all.find(format_number(100 * gap, 2) + " % at +10 K"), std::string::npos) << all;
  }
}

TEST(AdaptiveExportTemperature, TheBakedDefaultsAreTheStart) {
  const io::AdaptiveStart a = seeded(io::read_temperature_fit(kJointFit), kTref);
  warm_f64_adaptive_options o;
  warm_f64_adaptive_default_options(&o);
  EXPECT_EQ(o.T_ref, kTref);
  EXPECT_EQ(o.adapt, 0x3eu);
  EXPECT_EQ(o.P0[kKT], a.P0[kKT]);
  warm_f64_adaptive g;
  ASSERT_EQ(warm_f64_adaptive_init(&g, &o), 0);
  EXPECT_EQ(g.theta[kKT], a.kT);
  warm_f32_adaptive_options of;
  warm_f32_adaptive_default_options(&of);
  EXPECT_EQ(of.T_ref, static_cast<float>(kTref));
  EXPECT_EQ(of.P0[kKT], static_cast<float>(a.P0[kKT]));
  warm_f32_adaptive gf;
  ASSERT_EQ(warm_f32_adaptive_init(&gf, &of), 0);
  EXPECT_EQ(gf.theta[kKT], static_cast<float>(a.kT));
}

// The generated estimator against the C API's, initialised with the generated defaults and the
// same kT start, on the recorded motion with a reference torque and a warming temperature.
template <class T, class Gen, class Options, class Api, class ApiOptions, class ApiParams,
          class GenInit, class GenStep, class GenDefaults, class ApiInit, class ApiStep>
void compare(GenDefaults gen_defaults, GenInit gen_init, GenStep gen_step, ApiInit api_init,
             ApiStep api_step) {
  const auto p = io::estimator_params(io::read_friction_source(kParams), {});
  const auto rec = test::pendulum_record(p.Km);
  Options go;
  gen_defaults(&go);
  Gen g;
  ASSERT_EQ(gen_init(&g, &go), 0);
  ApiOptions ao{go.memory_s, go.v_min, go.trace_max, go.T_ref, {}, go.adapt};
  for (std::size_t j = 0; j < 6; ++j) ao.P0[j] = go.P0[j];
  const auto c = estimator::to_c_params<ApiParams>(p);
  Api a;
  ASSERT_EQ(api_init(&a, &c, &ao), 0);
  const T kT0 = g.theta[kKT];
  a.theta[kKT] = kT0;
  const double duration = rec.t.back() - rec.t.front();
  long updates = 0;
  for (std::size_t k = 1; k < rec.t.size(); ++k) {
    const T dt = T(rec.t[k] - rec.t[k - 1]);
    const T temp = T(25 + 20 * (rec.t[k] - rec.t.front()) / duration);  // 25 -> 45 degC
    const T tau_ref = T(0.9 * p.Km * rec.i[k]);
    const auto ro = gen_step(&g, T(rec.i[k]), T(rec.v[k]), dt, temp, tau_ref, 1);
    const auto ra = api_step(&a, T(rec.i[k]), T(rec.v[k]), dt, temp, tau_ref, 1);
    ASSERT_EQ(ro.torque, ra.torque) << k;
    ASSERT_EQ(ro.updated, ra.updated) << k;
    updates += ro.updated;
  }
  EXPECT_GT(updates, 1000);
  EXPECT_NE(g.theta[kKT], kT0);  // kT adapted
  for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(g.theta[j], a.theta[j]) << j;
}

TEST(AdaptiveExportTemperature, GeneratedCodeIsTheCApiWithTheSameStart) {
  compare<float, warm_f32_adaptive, warm_f32_adaptive_options, fl_adaptive_f32,
          fl_adaptive_options_f32, fl_estimator_params_f32>(
      warm_f32_adaptive_default_options, warm_f32_adaptive_init, warm_f32_adaptive_step,
      fl_adaptive_f32_init, fl_adaptive_f32_step);
  compare<double, warm_f64_adaptive, warm_f64_adaptive_options, fl_adaptive_f64,
          fl_adaptive_options_f64, fl_estimator_params_f64>(
      warm_f64_adaptive_default_options, warm_f64_adaptive_init, warm_f64_adaptive_step,
      fl_adaptive_f64_init, fl_adaptive_f64_step);
}

using testing::message_of;

TEST(AdaptiveExportTemperature, OptionErrorsNameTheOption) {
  const auto src = io::read_friction_source(kParams);
  io::CExportOptions o;
  o.temperature = io::read_temperature_fit(kJointFit);
  const auto run = [&] { io::export_c(src, o); };
  EXPECT_NE(message_of<std::invalid_argument>(run).find("--temperature (Python temperature=)"),
            std::string::npos);  // without adaptive
  o.adaptive = true;
  o.temperature_ref = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of<std::invalid_argument>(run).find("--temperature-ref"), std::string::npos);
  o.temperature_ref = 150;  // 1 + kT (150 - 35) < 0 for kT = -0.012 1/K
  const std::string scale = message_of<io::InputError>(run);
  EXPECT_NE(scale.find(kJointFit + ": joint: temperature"), std::string::npos) << scale;
  o.temperature.reset();
  o.temperature_ref = 30;
  EXPECT_NE(message_of<std::invalid_argument>(run).find("give --temperature too"),
            std::string::npos);
  o.temperature_ref.reset();
  EXPECT_NO_THROW(io::export_c(src, o));
}

TEST(AdaptiveExportTemperature, FileErrorsNameTheFileAndTheKey) {
  const auto bad = [](const std::string& text) {
    return message_of<io::InputError>([&] { io::parse_temperature_fit(text, "t.json"); });
  };
  EXPECT_NE(bad(file_text(kParams)).find("t.json: key 'format'"), std::string::npos)
      << bad(file_text(kParams));
  EXPECT_NE(bad(file_text(kParams)).find("fit.json"), std::string::npos);
  nlohmann::json j = nlohmann::json::parse(file_text(kJointFit));
  nlohmann::json no_law = j;
  no_law["joint"].erase("temperature");
  EXPECT_NE(bad(no_law.dump()).find("t.json: joint: temperature: missing"), std::string::npos)
      << bad(no_law.dump());
  for (auto& e : j["parameters"])
    if (e["name"] == "kT") e["undetermined"] = true;
  EXPECT_NE(bad(j.dump()).find("t.json: parameters: kT: undetermined"), std::string::npos)
      << bad(j.dump());
  for (auto& e : j["parameters"])
    if (e["name"] == "kT") e = {{"name", "kT"}, {"value", -0.01}, {"std_error", nullptr}};
  EXPECT_NE(bad(j.dump()).find("parameters: kT: no finite std_error"), std::string::npos)
      << bad(j.dump());
}

TEST(AdaptiveExportTemperature, TheJointFitItselfIsRefusedWithTheWayToShipIt) {
  const std::string m = message_of<io::InputError>([] { io::read_friction_source(kJointFit); });
  EXPECT_NE(m.find("export c --adaptive --temperature " + kJointFit), std::string::npos) << m;
}

}  // namespace
}  // namespace frictionlab
