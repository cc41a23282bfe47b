// fit's input hold (FitOptions::hold, docs/identification.md "Input hold"): a record whose
// velocity was held between samples (zero-order hold) is fitted without bias with hold zoh and
// biased with the default linear hold, and the reliability reasons name the other hold when the
// residuals show its signature; the same the other way round. The records are noise-free (the
// truth's own simulation at the record's samples) unless a test adds noise.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"

namespace frictionlab::identify {
namespace {

/// The set of examples/data/lugre.json (Canudas de Wit et al. 1995).
LuGre<double>::Params truth() { return LuGre<double>::Params{}; }

/// examples/data/sine_velocity.csv's input at 1 kHz: a 1 Hz sine of amplitude 5 mm/s over 2 s,
/// with the LuGre force simulated from rest with the input held (zoh) or linear between samples,
/// plus Gaussian noise of noise_std [N].
data::Record sine_record(Hold hold, double noise_std = 0, unsigned seed = 1) {
  data::Record r;
  r.source = std::string("sine_") + hold_name(hold);
  for (int k = 0; k <= 2000; ++k) {
    r.t.push_back(1e-3 * k);
    r.velocity.push_back(0.005 * std::sin(2 * std::numbers::pi * r.t.back()));
  }
  r.force.resize(r.t.size());
  drive<LuGre<double>>(truth(), LuGre<double>::State{}, r.t.data(), r.velocity.data(),
                       static_cast<long>(r.t.size()), Method::exact, hold, 0.0,
                       [&](long k, double F, const LuGre<double>::State&) {
                         r.force[static_cast<std::size_t>(k)] = F;
                       });
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> e(0, noise_std > 0 ? noise_std : 1);
  if (noise_std > 0)
    for (auto& F : r.force) F += e(rng);
  return r;
}

FitResult fit_with(const data::Record& rec, std::optional<Hold> hold) {
  FitOptions o;
  o.model = parse_model("lugre");
  o.hold = hold;
  return fit(rec, o);
}

/// The reliability reason that names `option` ("--hold zoh"), or "" if none does.
std::string hold_reason(const FitResult& r, const std::string& option) {
  for (const auto& why : r.reliability.reasons)
    if (why.find(option) != std::string::npos) return why;
  return {};
}

double rel_error(const FitResult& r, const std::string& name, double truth_value) {
  return std::abs(parameter(r, name).value - truth_value) / truth_value;
}

TEST(FitHold, ZohRecordFittedWithZohRecoversTheTruth) {
  const FitResult r = fit_with(sine_record(Hold::zoh), Hold::zoh);
  EXPECT_EQ(r.hold, Hold::zoh);
  const auto p = truth();
  for (const auto& [name, value] : {std::pair<std::string, double>{"sigma0", p.sigma0},
                                    {"sigma1", p.sigma1},
                                    {"sigma2", p.sigma2},
                                    {"Fc", p.curve.Fc_pos},
                                    {"Fs", p.curve.Fs_pos},
                                    {"vs", p.curve.vs}})
    EXPECT_LT(rel_error(r, name, value), 1e-4) << name << " = " << parameter(r, name).value;
  EXPECT_EQ(hold_reason(r, "--hold"), "");
}

TEST(FitHold, ZohRecordFittedLinearIsBiasedAndTheReasonsSaySo) {
  const data::Record rec = sine_record(Hold::zoh);
  const FitResult r = fit_with(rec, std::nullopt);
  EXPECT_EQ(r.hold, Hold::linear);
  EXPECT_GT(rel_error(r, "sigma1", truth().sigma1), 0.1) << parameter(r, "sigma1").value;
  EXPECT_FALSE(r.reliability.standard_errors);
  const std::string why = hold_reason(r, "--hold zoh");
  EXPECT_NE(why, "");
  EXPECT_NE(why.find("held between samples"), std::string::npos) << why;
}

TEST(FitHold, LinearRecordFittedWithZohNamesTheLinearHold) {
  const data::Record rec = sine_record(Hold::linear);
  EXPECT_EQ(hold_reason(fit_with(rec, Hold::linear), "--hold"), "");
  const FitResult r = fit_with(rec, Hold::zoh);
  EXPECT_NE(hold_reason(r, "--hold linear"), "");
}

TEST(FitHold, NoHintFromNoiseAlone) {
  // Noise on a record made the fitted way: the residuals are the noise, which does not follow
  // the other hold's change (1 % of the force's range of 3 N, and 1e-4 N).
  for (const double noise : {0.03, 1e-4})
    for (unsigned seed = 1; seed <= 3; ++seed) {
      EXPECT_EQ(
          hold_reason(fit_with(sine_record(Hold::linear, noise, seed), std::nullopt), "--hold"), "")
          << noise << " " << seed;
      EXPECT_EQ(hold_reason(fit_with(sine_record(Hold::zoh, noise, seed), Hold::zoh), "--hold"), "")
          << noise << " " << seed;
    }
}

TEST(FitHold, HintSurvivesNoiseBelowTheHoldsEffect) {
  // The part of the held input's effect the parameters cannot absorb is 2e-4 N RMS here: with
  // noise of 1e-4 N it is still most of the residuals; with 0.03 N it is lost in the noise (and
  // nothing is said).
  for (unsigned seed = 1; seed <= 3; ++seed)
    EXPECT_NE(hold_reason(fit_with(sine_record(Hold::zoh, 1e-4, seed), std::nullopt), "--hold zoh"),
              "")
        << seed;
  EXPECT_EQ(hold_reason(fit_with(sine_record(Hold::zoh, 0.03, 1), std::nullopt), "--hold"), "");
}

TEST(FitHold, GridRefusesLinearAndNamesAreParsed) {
  FitOptions o;
  o.method = FitMethod::grid;
  o.hold = Hold::linear;
  try {
    (void)fit(sine_record(Hold::zoh), o);
    ADD_FAILURE() << "no FitError";
  } catch (const FitError& e) {
    EXPECT_NE(std::string(e.what()).find("hold linear does not apply"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(parse_hold("zoh"), Hold::zoh);
  EXPECT_EQ(parse_hold("linear"), Hold::linear);
  try {
    (void)parse_hold("cubic");
    ADD_FAILURE() << "no FitError";
  } catch (const FitError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown hold 'cubic'; known: linear, zoh");
  }
}

}  // namespace
}  // namespace frictionlab::identify
