// Temperature-dependent joint friction (models/temperature_dependence.hpp) through idim, the joint
// simulation, validation and joint_fit.json. Oracles: torques generated exactly from the model
// give the coefficients back to rounding under both laws; the reference temperature only
// re-expresses the same model (the linear law's closed-form change of T_ref); with noise, the 95 %
// intervals cover the truth at about their nominal rate over many realisations; the
// temperature-free model is the special case and never fits better; a sliding joint under a
// constant torque follows the closed-form velocity of its linear equation at the scaled levels;
// a record at one temperature gets undetermined flags instead of numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/sim/joint_model.hpp"
#include "joint_excitation.hpp"
#include "joint_test_models.hpp"

namespace frictionlab::identify {
namespace {

using testing::estimate;
std::string message(const std::string& text) { return testing::joint_json_message(text); }

struct Truth {
  double I = 0.0626, mgCx = 0.05, mgCy = -1.0, offset = -0.07, Fv = 0.047, Fc = 0.18;
  TemperatureDependence<double> temp{TemperatureLaw::linear, 35.0, -0.012, -0.02};
};

/// The applied torque of the joint for the motion (q, qd, qdd) at temperature T [degC]: the
/// Coulomb level scaled by s(kT, T - T_ref), the viscous term by s(kT_v, T - T_ref).
double applied_torque(const Truth& tr, double q, double qd, double qdd, double T) {
  const double s = qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
  return tr.I * qdd + tr.mgCx * std::cos(q) - tr.mgCy * std::sin(q) + tr.offset +
         viscous_scale(tr.temp, T) * tr.Fv * qd + level_scale(tr.temp, T) * tr.Fc * s;
}

/// The two-sine excitation (joint_excitation.hpp) while the joint warms from T0 to T1 [degC]
/// linearly over the record; noise of standard deviation `noise` [N m] on the torque.
JointData record(const Truth& tr, double noise = 0, unsigned seed = 1, double T0 = 25.0,
                 double T1 = 45.0, double duration = 10.0) {
  const auto temp = [&](double t) { return T0 + (T1 - T0) * t / duration; };
  return testing::two_sine_record(
      duration,
      [&](const testing::JointMotion& m) {
        return applied_torque(tr, m.q, m.qd, m.qdd, temp(m.t));
      },
      noise, seed, temp);
}

JointIdimResult fit(const JointData& d, std::optional<TemperatureLaw> law,
                    std::optional<double> T_ref = std::nullopt) {
  JointIdimOptions o;
  o.temperature_law = law;
  o.temperature_ref = T_ref;
  return fit_joint_idim(std::span<const JointData>(&d, 1), o);
}

TEST(JointTemperature, IdimRecoversBothLawsExactly) {
  for (const TemperatureLaw law : {TemperatureLaw::linear, TemperatureLaw::exponential}) {
    Truth tr;
    tr.temp.law = law;
    const JointData d = record(tr);
    const auto r = fit(d, law, tr.temp.T_ref);
    EXPECT_NEAR(r.model.I, tr.I, 1e-10);
    EXPECT_NEAR(r.model.mgCy, tr.mgCy, 1e-10);
    EXPECT_NEAR(estimate(r, "Fc").value, tr.Fc, 1e-10);
    EXPECT_NEAR(estimate(r, "Fv").value, tr.Fv, 1e-10);
    EXPECT_NEAR(estimate(r, "kT").value, tr.temp.kT, 1e-10);
    EXPECT_NEAR(estimate(r, "kT_v").value, tr.temp.kT_v, 1e-10);
    ASSERT_TRUE(r.model.temperature.has_value());
    EXPECT_EQ(r.model.temperature->law, law);
    EXPECT_EQ(r.model.temperature->T_ref, tr.temp.T_ref);
    EXPECT_TRUE(r.flags.empty());
    // The model's inverse torque is the record's torque (at each sample's temperature).
    const auto tau_hat = inverse_torque(r.model, d);
    for (std::size_t k = 0; k < d.size(); k += 97) EXPECT_NEAR(tau_hat[k], d.tau[k], 1e-9);
  }
}

TEST(JointTemperature, TheReferenceTemperatureOnlyReexpressesTheModel) {
  // Without a T_ref the fit takes the moving samples' mean temperature; for the linear law the
  // same model at T1 has Fc' = Fc (1 + kT (T1 - T0)) and kT' = kT / (1 + kT (T1 - T0)).
  const Truth tr;
  const JointData d = record(tr, 0, 1, 20.0, 40.0);
  const auto r = fit(d, TemperatureLaw::linear);
  double sum = 0;
  for (double T : d.temperature) sum += T;  // every sample moves (|qd| > 0 throughout)
  const double T1 = r.model.temperature->T_ref, dT = T1 - tr.temp.T_ref;
  EXPECT_NEAR(T1, sum / static_cast<double>(d.size()), 1e-3);
  EXPECT_NEAR(estimate(r, "Fc").value, tr.Fc * (1 + tr.temp.kT * dT), 1e-10);
  EXPECT_NEAR(estimate(r, "kT").value, tr.temp.kT / (1 + tr.temp.kT * dT), 1e-10);
  EXPECT_NEAR(estimate(r, "kT_v").value, tr.temp.kT_v / (1 + tr.temp.kT_v * dT), 1e-10);
}

TEST(JointTemperature, IntervalsCoverTheTruthUnderNoise) {
  // 0.02 N m of white noise on the torque: over 200 realisations each 95 % interval covers the
  // truth in about 95 % of them (the Gauss-Newton covariance at the optimum).
  const Truth tr;
  int covered_kT = 0, covered_kTv = 0, covered_fc = 0;
  const int runs = 200;
  for (int s = 0; s < runs; ++s) {
    const auto r =
        fit(record(tr, 0.02, static_cast<unsigned>(s + 1)), TemperatureLaw::linear, tr.temp.T_ref);
    const auto in = [](const ParameterEstimate& e, double x) {
      return e.ci_low <= x && x <= e.ci_high;
    };
    covered_kT += in(estimate(r, "kT"), tr.temp.kT);
    covered_kTv += in(estimate(r, "kT_v"), tr.temp.kT_v);
    covered_fc += in(estimate(r, "Fc"), tr.Fc);
  }
  std::printf("95 %% intervals covering the truth: kT %d / %d, kT_v %d / %d, Fc %d / %d\n",
              covered_kT, runs, covered_kTv, runs, covered_fc, runs);
  for (int c : {covered_kT, covered_kTv, covered_fc}) {
    EXPECT_GE(c, 180) << "of " << runs;  // 95 % nominal: 190 +- 3 sd of a binomial
    EXPECT_LE(c, 199);
  }
}

TEST(JointTemperature, TheTemperatureFreeModelIsTheSpecialCaseAndNeverFitsBetter) {
  // On temperature-dependent data the temperature model fits better; on temperature-free data
  // it fits no worse, and the coefficients' intervals contain 0.
  for (const bool warm : {true, false}) {
    Truth tr;
    if (!warm) tr.temp.kT = tr.temp.kT_v = 0;
    const JointData d = record(tr, 0.02, 7);
    const auto plain = fit(d, std::nullopt);
    const auto temp = fit(d, TemperatureLaw::exponential);
    EXPECT_LE(temp.training.rmse, plain.training.rmse * (1 + 1e-12));
    if (warm) {
      EXPECT_LT(temp.training.rmse, 0.8 * plain.training.rmse);
    } else {
      for (const char* name : {"kT", "kT_v"}) {
        const auto& e = estimate(temp, name);
        EXPECT_TRUE(e.ci_low <= 0 && 0 <= e.ci_high)
            << name << " = " << e.value << " [" << e.ci_low << ", " << e.ci_high << "]";
      }
    }
  }
}

TEST(JointTemperature, ARecordAtOneTemperatureIsFlaggedNotFitted) {
  const Truth tr;
  JointData d = record(tr, 0, 1, 30.0, 30.5);
  const auto r = fit(d, TemperatureLaw::linear);
  ASSERT_EQ(r.flags.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(r.flags[i].parameter, i == 0 ? "kT" : "kT_v");
    EXPECT_EQ(r.flags[i].kind, "undetermined");
    EXPECT_NE(r.flags[i].message.find("the temperature hardly varies"), std::string::npos)
        << r.flags[i].message;
    EXPECT_NE(r.flags[i].message.find("Record the joint from a cold start until it is warm"),
              std::string::npos);
    const auto& e = estimate(r, r.flags[i].parameter);
    EXPECT_EQ(e.value, 0.0);
    EXPECT_TRUE(e.fixed && e.undetermined);
  }
  EXPECT_EQ(r.model.temperature->kT, 0.0);
  // The rest is the temperature-free fit.
  const auto plain = fit(d, std::nullopt);
  EXPECT_NEAR(estimate(r, "Fc").value, estimate(plain, "Fc").value, 1e-12);

  // No temperature channel: an error naming the record and the option.
  d.temperature.clear();
  try {
    fit(d, TemperatureLaw::linear);
    ADD_FAILURE() << "no error";
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("synthetic: temperature-dependent friction needs a "
                                         "temperature channel (--temperature COLUMN"),
              std::string::npos)
        << e.what();
  }
  // Load and temperature together are refused before any work.
  JointIdimOptions both;
  both.load_dependent = true;
  both.temperature_law = TemperatureLaw::linear;
  EXPECT_THROW(fit_joint_idim(std::span<const JointData>(&d, 1), both), FitError);
}

TEST(JointTemperature, SlidingUnderConstantTorqueFollowsTheClosedFormAtTheScaledLevels) {
  // Horizontal joint from rest at T = 55 degC (T_ref 25): the levels are Fc' = Fc s(kT, 30) and
  // Fv' = Fv s(kT_v, 30), so I qdd = tau - Fc' - Fv' qd and
  // qd(t) = (tau - Fc') / Fv' (1 - exp(-Fv' t / I)).
  sim::JointModel m = testing::horizontal(0.05, testing::coulomb_viscous(0.4, 0.4, 0.1));
  m.temperature = TemperatureDependence<double>{TemperatureLaw::exponential, 25.0, -0.02, -0.01};
  const double Fc = 0.4 * std::exp(-0.02 * 30), Fv = 0.1 * std::exp(-0.01 * 30), tau = 0.5;
  const std::vector<double> t{0.0, 0.5, 1.0}, u(3, tau), T(3, 55.0);
  const auto tr = sim::simulate_joint_model(m, t, u, {}, {.max_step = 1e-5}, T);
  for (std::size_t k = 0; k < t.size(); ++k)
    EXPECT_NEAR(tr.qd[k], (tau - Fc) / Fv * (1 - std::exp(-Fv * t[k] / m.I)), 2e-4) << t[k];
  // At T_ref the level 0.4 N m holds the joint against 0.3 N m; warm, it slides.
  const std::vector<double> small(3, 0.3), cold(3, 25.0);
  EXPECT_EQ(sim::simulate_joint_model(m, t, small, {}, {.max_step = 1e-3}, cold).qd.back(), 0.0);
  EXPECT_GT(sim::simulate_joint_model(m, t, small, {}, {.max_step = 1e-3}, T).qd.back(), 0.01);
  // Without temperature samples the simulation refuses rather than assume T_ref.
  EXPECT_THROW(sim::simulate_joint_model(m, t, small, {}, {.max_step = 1e-3}),
               std::invalid_argument);
  // The linear law beyond T_ref - 1/kT would turn the levels negative: refused.
  m.temperature->law = TemperatureLaw::linear;
  const std::vector<double> hot(3, 80.0);  // 1 - 0.02 * 55 < 0
  EXPECT_THROW(sim::simulate_joint_model(m, t, small, {}, {.max_step = 1e-3}, hot),
               std::invalid_argument);
}

TEST(JointTemperature, JointJsonCarriesTheLawAndRefusesBadOnes) {
  Truth tr;
  tr.temp.law = TemperatureLaw::exponential;
  const auto r = fit(record(tr), TemperatureLaw::exponential);
  const auto j = io::joint_to_json(r.model);
  ASSERT_TRUE(j.contains("temperature"));
  EXPECT_EQ(j["temperature"]["law"], "exponential");
  const io::JointFile back = io::joint_from_json(nlohmann::json::parse(j.dump()), "JOINT.json");
  ASSERT_TRUE(back.model.temperature.has_value());
  EXPECT_EQ(back.model.temperature->law, TemperatureLaw::exponential);
  EXPECT_EQ(back.model.temperature->T_ref, r.model.temperature->T_ref);
  EXPECT_EQ(back.model.temperature->kT, r.model.temperature->kT);
  EXPECT_EQ(back.model.temperature->kT_v, r.model.temperature->kT_v);
  const std::string head =
      R"({"I": 0.1, "friction": {"model": "coulomb", "params": {"Fc": 0.2}}, )";
  EXPECT_NE(message(head + R"("temperature": {"law": "arrhenius", "T_ref": 25, "kT": 0,
                                              "kT_v": 0}})")
                .find("must be \"linear\" or \"exponential\""),
            std::string::npos);
  EXPECT_NE(
      message(head + R"("temperature": {"law": "linear", "T_ref": 25, "kT": 0}})").find("kT_v"),
      std::string::npos);
  const std::string smooth =
      R"({"I": 0.1, "friction": {"model": "stribeck", "params": {"Fc": 0.2, "Fs": 0.3,
          "vs": 0.01, "sigma2": 0.1, "v_smooth": 0.01}}, "temperature": {"law": "linear",
          "T_ref": 25, "kT": 0, "kT_v": 0}})";
  EXPECT_NE(message(smooth).find("need static friction with the exact sign"), std::string::npos)
      << message(smooth);
  // Joint LuGre takes the law too (its levels Fc, Fs[i] and its viscous series).
  const io::JointFile lugre = io::joint_from_json(
      nlohmann::json::parse(
          R"({"I": 0.1, "friction": {"model": "joint-lugre", "params": {"sigma0": 100,
              "sigma1": 1, "Fc": 0.2}}, "temperature": {"law": "exponential", "T_ref": 25,
              "kT": -0.01, "kT_v": 0}})"),
      "JOINT.json");
  ASSERT_TRUE(lugre.model.temperature.has_value());
  EXPECT_EQ(lugre.model.temperature->kT, -0.01);
}

}  // namespace
}  // namespace frictionlab::identify
