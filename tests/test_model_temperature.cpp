// A registry model's levels at a temperature (models/<model>/temperature.hpp,
// sim::at_temperature, sim::run_model with a TemperatureInput) and a MODEL.json's temperature
// law, read only where it runs (io::ModelTemperature).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/sim/model_run.hpp"
#include "frictionlab/workflows/simulate.hpp"

namespace frictionlab {
namespace {

const std::string kData = FRICTIONLAB_SOURCE_DIR "/examples/data/";

/// Every example model file of a registry model.
const std::vector<std::string> kModelFiles = {
    "coulomb.json",           "viscous.json",      "coulomb_viscous.json",
    "stribeck.json",          "lugre.json",        "dahl.json",
    "elasto_plastic.json",    "maxwell_slip.json", "gms.json",
    "modified_stribeck.json", "joint_lugre.json"};

ModelSpec model(const std::string& file) { return io::read_model_file(kData + file).spec; }

/// kT and kT_v of -1 %/K and -2 %/K about 25 degC.
TemperatureDependence<double> law(TemperatureLaw kind = TemperatureLaw::linear) {
  return {kind, 25.0, -0.01, -0.02};
}

/// A 1 Hz sine of amplitude `amplitude` sampled at `rate` for `seconds`.
struct Input {
  std::vector<double> t, v;
};
Input sine(double amplitude, double rate, double seconds) {
  Input in;
  for (int k = 0; k <= static_cast<int>(seconds * rate); ++k) {
    in.t.push_back(k / rate);
    in.v.push_back(amplitude * std::sin(2 * M_PI * in.t.back()));
  }
  return in;
}

double max_abs(const std::vector<double>& x) {
  double m = 0;
  for (const double y : x) m = std::max(m, std::abs(y));
  return m;
}

TEST(ModelTemperature, EveryModelAtItsReferenceTemperatureIsItself) {
  for (const auto& file : kModelFiles) {
    const ModelSpec spec = model(file);
    EXPECT_EQ(io::to_json_text(sim::at_temperature(spec, law(), 25.0)), io::to_json_text(spec))
        << file;
  }
}

TEST(ModelTemperature, ALawScalesTheLevelsAndTheViscousTermTheModelNames) {
  // 10 K above T_ref: levels x 0.9, viscous x 0.8; stiffnesses and shapes unchanged.
  const auto lugre = std::get<LuGre<double>::Params>(model("lugre.json"));
  const auto warm = std::get<LuGre<double>::Params>(sim::at_temperature(lugre, law(), 35.0));
  EXPECT_DOUBLE_EQ(warm.curve.Fc_pos, 0.9 * lugre.curve.Fc_pos);
  EXPECT_DOUBLE_EQ(warm.curve.Fs_neg, 0.9 * lugre.curve.Fs_neg);
  EXPECT_DOUBLE_EQ(warm.sigma2, 0.8 * lugre.sigma2);
  EXPECT_EQ(warm.sigma0, lugre.sigma0);
  EXPECT_EQ(warm.sigma1, lugre.sigma1);
  EXPECT_EQ(warm.curve.vs, lugre.curve.vs);

  const auto maxwell =
      std::get<MaxwellSlip<double, kSpecElements>::Params>(model("maxwell_slip.json"));
  const auto warm_maxwell = std::get<MaxwellSlip<double, kSpecElements>::Params>(
      sim::at_temperature(maxwell, law(), 35.0));
  for (int i = 0; i < maxwell.n; ++i) {  // each slip force k_i Delta_i scales with the levels
    const auto u = static_cast<std::size_t>(i);
    EXPECT_DOUBLE_EQ(warm_maxwell.Delta[u], 0.9 * maxwell.Delta[u]);
    EXPECT_EQ(warm_maxwell.k[u], maxwell.k[u]);
  }

  const auto ep = std::get<ElastoPlastic<double>::Params>(model("elasto_plastic.json"));
  const auto warm_ep =
      std::get<ElastoPlastic<double>::Params>(sim::at_temperature(ep, law(), 35.0));
  EXPECT_DOUBLE_EQ(warm_ep.z_ba, 0.9 * ep.z_ba);  // stays below the steady deflection g/sigma0
}

TEST(ModelTemperature, AtAConstantTemperatureARunIsTheModelAtIt) {
  const Input in = sine(0.005, 100.0, 2.0);
  const std::vector<double> T(in.t.size(), 40.0);
  for (const auto& file : kModelFiles) {
    const ModelSpec spec = model(file);
    for (const Hold hold : {Hold::linear, Hold::zoh}) {
      const sim::ModelRun with_law = sim::run_model(spec, sim::TemperatureInput{law(), T}, in.t,
                                                    in.v, Method::exact, hold, 0.0);
      const sim::ModelRun at_40 = sim::run_model(sim::at_temperature(spec, law(), 40.0), in.t, in.v,
                                                 Method::exact, hold, 0.0);
      double worst = 0;
      for (std::size_t k = 0; k < in.t.size(); ++k)
        worst = std::max(worst, std::abs(with_law.F[k] - at_40.F[k]));
      EXPECT_LE(worst, 1e-12 * max_abs(at_40.F)) << file;
      EXPECT_EQ(with_law.bound_exceeded, -1) << file;
    }
  }
}

TEST(ModelTemperature, WhileAJointWarmsItsSlidingFrictionFollowsTheLevelsAtEachTemperature) {
  // LuGre sliding at a constant 0.1 m/s (far above vs) while the temperature rises from 25 to
  // 45 degC over 10 s: after the bristles' transient its force is the steady force at each
  // sample's temperature, Fc s(kT) + sigma2 s(kT_v) v: each interval steps the bristles
  // (relaxing in 0.1 ms) at its end's temperature, so they meet the force's levels there.
  // Stepping each interval at its midpoint's temperature instead leaves them half an interval's
  // drift behind, which sigma1 turns into 4.7e-4 of F.
  const ModelSpec spec = model("lugre.json");
  const auto p = std::get<LuGre<double>::Params>(spec);
  std::vector<double> t, v, T;
  for (int k = 0; k <= 10000; ++k) {
    t.push_back(k * 1e-3);
    v.push_back(0.1);
    T.push_back(25.0 + 2.0 * t.back());
  }
  for (const auto kind : {TemperatureLaw::linear, TemperatureLaw::exponential}) {
    const auto l = law(kind);
    const sim::ModelRun run =
        sim::run_model(spec, sim::TemperatureInput{l, T}, t, v, Method::exact, Hold::linear, 0.0);
    double worst = 0;
    for (std::size_t k = 100; k < t.size(); ++k) {
      const double steady =
          p.curve.Fc_pos * level_scale(l, T[k]) + p.sigma2 * viscous_scale(l, T[k]) * v[k];
      worst = std::max(worst, std::abs(run.F[k] - steady) / steady);
    }
    std::printf("[measured] warming LuGre, %s law: |F - steady force| <= %.2e of F\n",
                temperature_law_name(kind).data(), worst);
    EXPECT_LT(worst, 1e-6) << temperature_law_name(kind);
    // the friction has fallen by about a fifth between 25 and 45 degC
    EXPECT_LT(run.F.back(), 0.85 * run.F[100]);
  }
}

TEST(ModelTemperature, ATemperatureBeyondTheLinearLawsReachIsRefusedBeforeAnyWork) {
  const ModelSpec spec = model("lugre.json");
  const Input in = sine(0.005, 100.0, 1.0);
  std::vector<double> T(in.t.size(), 30.0);
  T[42] = 200.0;  // 1 + kT_v (T - T_ref) = 1 - 0.02 * 175 < 0
  try {
    (void)sim::run_model(spec, sim::TemperatureInput{law(), T}, in.t, in.v, Method::exact,
                         Hold::linear, 0.0);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sample 42"), std::string::npos) << e.what();
  }
  T.pop_back();
  EXPECT_THROW((void)sim::run_model(spec, sim::TemperatureInput{law(), T}, in.t, in.v,
                                    Method::exact, Hold::linear, 0.0),
               std::invalid_argument);
}

TEST(ModelTemperature, TheWorkflowNamesTheInputsLineAndRefusesATemperatureWithoutALaw) {
  workflows::ModelInput in;
  const Input s = sine(0.005, 100.0, 1.0);
  in.t = s.t;
  in.v = s.v;
  in.source = "warming.csv";
  for (std::size_t k = 0; k < in.t.size(); ++k) in.lines.push_back(static_cast<long>(k) + 3);
  in.temperature.assign(in.t.size(), 30.0);
  in.temperature[7] = std::nan("");
  workflows::SimulateModelOptions opt;
  opt.temperature = law();
  const ModelSpec spec = model("lugre.json");
  try {
    (void)workflows::simulate_model(spec, in, opt);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("warming.csv line 10"), std::string::npos) << e.what();
  }
  in.temperature[7] = 30.0;
  EXPECT_NO_THROW((void)workflows::simulate_model(spec, in, opt));
  opt.temperature.reset();  // a temperature the model would not use
  EXPECT_THROW((void)workflows::simulate_model(spec, in, opt), std::invalid_argument);
  opt.temperature = law();
  in.temperature.clear();  // a law without the input's temperature
  EXPECT_THROW((void)workflows::simulate_model(spec, in, opt), std::invalid_argument);
}

TEST(ModelTemperature, AModelFilesTemperatureLawIsReadOnlyWhereItRuns) {
  const std::string text = R"({"model": "coulomb-viscous", "params": {"Fc": 1, "sigma2": 0.5},
      "temperature": {"law": "exponential", "T_ref": 30, "kT": -0.01, "kT_v": -0.02}})";
  try {
    (void)io::parse_model_json(text, "warm.json");
    ADD_FAILURE() << "no error";
  } catch (const io::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("warm.json"), std::string::npos) << what;
    EXPECT_NE(what.find("key 'temperature'"), std::string::npos) << what;
    EXPECT_NE(what.find("simulate"), std::string::npos) << what;
  }
  const io::ModelFile mf = io::parse_model_json(text, "warm.json", io::ModelTemperature::taken);
  ASSERT_TRUE(mf.temperature);
  EXPECT_EQ(mf.temperature->law, TemperatureLaw::exponential);
  EXPECT_EQ(mf.temperature->T_ref, 30.0);
  EXPECT_EQ(mf.temperature->kT_v, -0.02);
  const std::string missing =
      R"({"model": "lugre", "temperature": {"law": "linear", "T_ref": 30}})";
  try {
    (void)io::parse_model_json(missing, "warm.json", io::ModelTemperature::taken);
    ADD_FAILURE() << "no error";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kT"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(io::read_model_file(kData + "lugre_warming.json", io::ModelTemperature::taken)
                  .temperature.has_value());
}

}  // namespace
}  // namespace frictionlab
