// Load-dependent joint friction (models/load_dependence.hpp) through idim, the joint simulation,
// validation and joint_fit.json. Oracles: torques generated exactly from the model (the load
// equation solved in closed form) give the coefficients back to rounding; with noise, the 95 %
// intervals cover the truth at about their nominal rate over many realisations; the load-free
// model is the special case and never fits better; a sliding joint under a constant torque
// follows the closed-form velocity of its linear equation; a record that does not vary the load
// gets an undetermined flag instead of a number.
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

constexpr double kPi = 3.14159265358979323846;

struct Truth {
  double I = 0.0626, mgCx = 0.05, mgCy = -1.0, offset = -0.07, Fv = 0.047, Fc = 0.18,
         mu_drive = 0.08, mu_back = 0.08;
};

/// The applied torque of the load-dependent joint (models/load_dependence.hpp) for the motion
/// (q, qd, qdd): with r the load-free torque, tau = r + sgn(qd) mu |tau| has the solution
/// tau = r / (1 - mu_drive) when r qd > 0 (the motor drives) and r / (1 + mu_back) otherwise.
double applied_torque(const Truth& tr, double q, double qd, double qdd) {
  const double s = qd > 0 ? 1.0 : (qd < 0 ? -1.0 : 0.0);
  const double r = tr.I * qdd + tr.mgCx * std::cos(q) - tr.mgCy * std::sin(q) + tr.offset +
                   tr.Fv * qd + tr.Fc * s;
  if (s == 0) return r;
  return r * qd > 0 ? r / (1 - tr.mu_drive) : r / (1 + tr.mu_back);
}

/// The two-sine excitation (joint_excitation.hpp) with the load-dependent joint's torque; noise
/// of standard deviation `noise` [N m] on the torque.
JointData record(const Truth& tr, double noise = 0, unsigned seed = 1, double T = 8.0) {
  return testing::two_sine_record(
      T, [&](const testing::JointMotion& m) { return applied_torque(tr, m.q, m.qd, m.qdd); }, noise,
      seed);
}

JointIdimResult fit(const JointData& d, bool load) {
  JointIdimOptions o;
  o.load_dependent = load;
  return fit_joint_idim(std::span<const JointData>(&d, 1), o);
}

TEST(JointLoad, IdimRecoversTheLoadCoefficientExactly) {
  const Truth tr;
  const auto r = fit(record(tr), true);
  EXPECT_NEAR(r.model.I, tr.I, 1e-10);
  EXPECT_NEAR(r.model.mgCy, tr.mgCy, 1e-10);
  EXPECT_NEAR(estimate(r, "Fc").value, tr.Fc, 1e-10);
  EXPECT_NEAR(estimate(r, "Fv").value, tr.Fv, 1e-10);
  EXPECT_NEAR(estimate(r, "mu").value, tr.mu_drive, 1e-10);
  ASSERT_TRUE(r.model.load.has_value());
  EXPECT_NEAR(r.model.load->mu_drive, tr.mu_drive, 1e-10);
  EXPECT_EQ(r.model.load->mu_back, r.model.load->mu_drive);
  EXPECT_TRUE(r.flags.empty());
  // The model's inverse torque is the record's torque.
  const JointData d = record(tr);
  const auto tau_hat = inverse_torque(r.model, d);
  for (std::size_t k = 0; k < d.size(); k += 97) EXPECT_NEAR(tau_hat[k], d.tau[k], 1e-9);
}

TEST(JointLoad, ATorqueRecordDeterminesOnlyTheRatioOfDriveToBackDrive) {
  // Data of separate coefficients (mu_drive 0.08, mu_back 0.03) are reproduced exactly by the one
  // coefficient mu = (mu_drive + mu_back) / (2 + mu_back - mu_drive) with every other parameter
  // scaled by c = (1 + mu) / (1 + mu_back) (joint_idim.hpp): the split is not in the record.
  Truth tr;
  tr.mu_back = 0.03;
  const auto r = fit(record(tr), true);
  const double mu = (tr.mu_drive + tr.mu_back) / (2 + tr.mu_back - tr.mu_drive);
  const double c = (1 + mu) / (1 + tr.mu_back);
  EXPECT_NEAR(estimate(r, "mu").value, mu, 1e-10);
  EXPECT_NEAR(r.model.I, c * tr.I, 1e-10);
  EXPECT_NEAR(estimate(r, "Fc").value, c * tr.Fc, 1e-10);
  EXPECT_LT(r.sigma, 1e-10);
}

TEST(JointLoad, IntervalsCoverTheTruthUnderNoise) {
  // 0.02 N m of white noise on the torque (which is also the regressor's load): over 200
  // realisations each 95 % interval covers the truth in about 95 % of them. The noise in the
  // regressor biases mu towards 0 by var(noise) / var(|tau|) ~ 1e-3 of mu: far inside the
  // intervals, so coverage stays near nominal.
  const Truth tr;
  int covered_mu = 0, covered_fc = 0;
  const int runs = 200;
  for (int s = 0; s < runs; ++s) {
    const auto r = fit(record(tr, 0.02, static_cast<unsigned>(s + 1)), true);
    const auto in = [](const ParameterEstimate& e, double x) {
      return e.ci_low <= x && x <= e.ci_high;
    };
    covered_mu += in(estimate(r, "mu"), tr.mu_drive);
    covered_fc += in(estimate(r, "Fc"), tr.Fc);
  }
  std::printf("95 %% intervals covering the truth: mu %d / %d, Fc %d / %d\n", covered_mu, runs,
              covered_fc, runs);
  for (int c : {covered_mu, covered_fc}) {
    EXPECT_GE(c, 180) << "of " << runs;  // 95 % nominal: 190 +- 3 sd of a binomial
    EXPECT_LE(c, 199);
  }
}

TEST(JointLoad, TheLoadFreeModelIsTheSpecialCaseAndNeverFitsBetter) {
  // On load-dependent data the load model fits better; on load-free data it fits no worse, and
  // its load coefficients' intervals contain 0.
  for (const bool loaded : {true, false}) {
    Truth tr;
    if (!loaded) tr.mu_drive = tr.mu_back = 0;
    const JointData d = record(tr, 0.02, 7);
    const auto plain = fit(d, false);
    const auto load = fit(d, true);
    EXPECT_LE(load.training.rmse, plain.training.rmse * (1 + 1e-12));
    if (loaded) {
      EXPECT_LT(load.training.rmse, 0.8 * plain.training.rmse);
    } else {
      const auto& e = estimate(load, "mu");
      EXPECT_TRUE(e.at_bound || (e.ci_low <= 0 && 0 <= e.ci_high))
          << "mu = " << e.value << " [" << e.ci_low << ", " << e.ci_high << "]";
    }
  }
}

TEST(JointLoad, ARecordThatDoesNotVaryTheLoadIsFlaggedNotFitted) {
  // A horizontal joint driven forward at a nearly constant speed: always driven, never
  // back-driven, so mu is held at 0 with an undetermined flag saying what to record, and the
  // rest is the load-free fit. With back-driven motion but a load that does not vary (constant
  // speed forward and back, no gravity): flagged for the load's spread.
  JointData d;
  d.source = "constant-speed";
  for (long k = 0; k <= 4000; ++k) {
    const double t = static_cast<double>(k) * 1e-3;
    const double qd = 1.0 + 0.01 * std::sin(2 * kPi * t);
    const double qdd = 0.01 * 2 * kPi * std::cos(2 * kPi * t);
    d.t.push_back(t);
    d.q.push_back(t);
    d.qd.push_back(qd);
    d.qdd.push_back(qdd);
    d.tau.push_back(0.05 * qdd + 0.2 * qd + 0.3);
  }
  JointIdimOptions o;
  o.structure = {false, false};
  o.load_dependent = true;
  const auto r = fit_joint_idim(std::span<const JointData>(&d, 1), o);
  ASSERT_EQ(r.flags.size(), 1u);
  EXPECT_EQ(r.flags[0].parameter, "mu");
  EXPECT_EQ(r.flags[0].kind, "undetermined");
  EXPECT_NE(r.flags[0].message.find("4001 moving samples are driven by the motor and 0 "
                                    "back-driven"),
            std::string::npos)
      << r.flags[0].message;
  EXPECT_NE(r.flags[0].message.find("Record motion where the load also drives the joint"),
            std::string::npos);
  const auto& e = estimate(r, "mu");
  EXPECT_EQ(e.value, 0.0);
  EXPECT_TRUE(e.fixed && e.undetermined);
  EXPECT_NEAR(estimate(r, "Fc").value, 0.3, 1e-9);
  EXPECT_EQ(r.model.load->mu_drive, 0.0);

  // Driven and back-driven samples, but a load of one size: |tau| = 0.5 N m throughout (the
  // torque a quarter period ahead of the velocity).
  JointData flat;
  flat.source = "flat-load";
  for (long k = 0; k <= 8000; ++k) {
    const double t = static_cast<double>(k) * 1e-3;
    flat.t.push_back(t);
    flat.q.push_back(-std::cos(2 * kPi * 0.25 * t));
    flat.qd.push_back(std::sin(2 * kPi * 0.25 * t));
    flat.qdd.push_back(std::cos(2 * kPi * 0.25 * t));
    flat.tau.push_back(std::sin(2 * kPi * 0.25 * t + 0.5) > 0 ? 0.5 : -0.5);
  }
  const auto rf = fit_joint_idim(std::span<const JointData>(&flat, 1), o);
  ASSERT_FALSE(rf.flags.empty());  // (the square-wave torque also holds a friction term at 0)
  EXPECT_EQ(rf.flags[0].parameter, "mu");
  EXPECT_NE(rf.flags[0].message.find("the load |tau| hardly varies"), std::string::npos)
      << rf.flags[0].message;
  EXPECT_NE(rf.flags[0].message.find("Record the joint against loads of different size"),
            std::string::npos);
}

TEST(JointLoad, SlidingUnderConstantTorqueFollowsTheClosedForm) {
  // Horizontal joint from rest, constant applied torque tau > Fc / (1 - mu_drive): it slides
  // forward, driven, with I qdd = tau (1 - mu_drive) - Fc - Fv qd, so
  // qd(t) = a / Fv (1 - exp(-Fv t / I)), a = tau (1 - mu_drive) - Fc.
  sim::JointModel m = testing::horizontal(0.05, testing::coulomb_viscous(0.2, 0.2, 0.1));
  m.load = LoadDependence<double>{0.3, 0.1};
  const double tau = 1.0, a = tau * (1 - 0.3) - 0.2;
  const std::vector<double> t{0.0, 0.5, 1.0}, u(3, tau);
  const auto tr = sim::simulate_joint_model(m, t, u, {}, {.max_step = 1e-5});
  for (std::size_t k = 0; k < t.size(); ++k)
    EXPECT_NEAR(tr.qd[k], a / 0.1 * (1 - std::exp(-0.1 * t[k] / m.I)), 2e-4) << t[k];
  // Below the loaded level it sticks: 0.25 N m < 0.2 + 0.3 * 0.25 (the load-free joint slides).
  const std::vector<double> small(3, 0.25);
  const auto stuck = sim::simulate_joint_model(m, t, small, {}, {.max_step = 1e-3});
  EXPECT_EQ(stuck.qd.back(), 0.0);
  sim::JointModel free = m;
  free.load.reset();
  EXPECT_GT(sim::simulate_joint_model(free, t, small, {}, {.max_step = 1e-3}).qd.back(), 0.1);
}

TEST(JointLoad, JointJsonCarriesTheLoadAndRefusesBadOnes) {
  const auto r = fit(record(Truth{}), true);
  const auto j = io::joint_to_json(r.model);
  ASSERT_TRUE(j.contains("load"));
  const io::JointFile back = io::joint_from_json(nlohmann::json::parse(j.dump()), "JOINT.json");
  ASSERT_TRUE(back.model.load.has_value());
  EXPECT_EQ(back.model.load->mu_drive, r.model.load->mu_drive);
  EXPECT_EQ(back.model.load->mu_back, r.model.load->mu_back);
  const std::string head =
      R"({"I": 0.1, "friction": {"model": "coulomb", "params": {"Fc": 0.2}}, )";
  EXPECT_NE(message(head + R"("load": {"mu_drive": -0.1, "mu_back": 0}})").find("mu_drive"),
            std::string::npos);
  EXPECT_NE(message(head + R"("load": {"mu_drive": 0.1}})").find("mu_back"), std::string::npos);
  const std::string smooth =
      R"({"I": 0.1, "friction": {"model": "coulomb", "params": {"Fc": 0.2, "v_smooth": 0.01}},
          "load": {"mu_drive": 0.1, "mu_back": 0}})";
  EXPECT_NE(message(smooth).find("needs static friction with the exact sign"), std::string::npos)
      << message(smooth);
  // The simulation refuses what the file reader refuses.
  sim::JointModel m = r.model;
  m.load->mu_drive = 1.0;
  EXPECT_THROW(sim::check_joint_model(m), std::invalid_argument);
}

}  // namespace
}  // namespace frictionlab::identify
