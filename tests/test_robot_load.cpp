// Load-dependent Coulomb levels on an arm (identify/robot_fit.hpp, RobotFitOptions::load): a
// synthetic Panda whose joints' Coulomb levels rise with the torque they carry identified back
// (noise-free to 1e-6, noisy within its intervals), the rule for a joint whose record cannot
// determine it, and the real Panda record with the fit's verdict on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/models/stribeck.hpp"
#include "frictionlab/workflows/robot.hpp"
#include "robot_panda.hpp"
#include "robot_synthetic.hpp"

using namespace frictionlab;

namespace {

/// A synthetic Panda: made-up inertials, Coulomb Fc_j = 0.05 + 0.05 (6 - j) and viscous Fv_j =
/// 0.02 + 0.02 (6 - j) [N m, N m s/rad] (j = 0 the base joint: distal joints carry smaller links
/// and have smaller friction, so that their links' torques back-drive them too) with load
/// coefficients mu_j, on a designed excitation at 500 Hz over two 10 s periods.
struct Arm {
  robot::RobotModel model;
  data::ArmSamples samples;
};

double coulomb_of(int j) { return 0.05 + 0.05 * (6 - j); }
double viscous_of(int j) { return 0.02 + 0.02 * (6 - j); }

Arm synthetic_arm(const std::vector<double>& mu, double noise, unsigned seed) {
  Arm a{frictionlab::testing::panda_model(), {}};
  std::mt19937 rng(seed);
  frictionlab::testing::made_up_inertials(a.model, rng);
  a.samples = frictionlab::testing::designed_excitation(a.model, 300, 500, 2);
  frictionlab::testing::add_torques(
      a.samples, a.model, frictionlab::testing::standard_parameters(a.model),
      [](int j, double v) {
        return coulomb_of(j) * (v > 0 ? 1 : (v < 0 ? -1 : 0)) + viscous_of(j) * v;
      },
      noise, rng, mu);
  return a;
}

const identify::RobotParameter* find(const identify::RobotFitResult& r, const std::string& name) {
  for (const auto& p : r.parameters)
    if (p.name == name) return &p;
  return nullptr;
}

identify::RobotFitOptions with_load() {
  identify::RobotFitOptions o;
  o.offset = false;  // the synthetic torques have none
  o.load = true;
  return o;
}

const std::vector<double> kMu = {0.02, 0.05, 0.03, 0.08, 0.04, 0.06, 0.05};

/// Samples [k0, k1) of s.
data::ArmSamples slice(const data::ArmSamples& s, std::size_t k0, std::size_t k1) {
  data::ArmSamples out;
  const auto cut = [&](const std::vector<double>& v) {
    return std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(k0),
                               v.begin() + static_cast<std::ptrdiff_t>(k1));
  };
  out.t = cut(s.t);
  for (const auto* from : {&s.q, &s.qd, &s.qdd, &s.effort}) {
    auto& to = from == &s.q     ? out.q
               : from == &s.qd  ? out.qd
               : from == &s.qdd ? out.qdd
                                : out.effort;
    for (const auto& v : *from) to.push_back(cut(v));
  }
  return out;
}

}  // namespace

TEST(RobotLoad, NoiseFreeSyntheticArmIsRecovered) {
  const Arm a = synthetic_arm(kMu, 0, 11);
  const identify::RobotFitResult r = identify::fit_robot(a.model, a.samples, with_load());
  EXPECT_TRUE(r.load_converged) << r.load_rounds;
  for (const auto& n : r.load_notes) ADD_FAILURE() << n;
  for (const auto& f : r.flags) ADD_FAILURE() << f;
  for (int j = 0; j < 7; ++j) {
    const std::string name = a.model.joints[static_cast<std::size_t>(j)].name;
    const auto* mu = find(r, "mu_" + name);
    ASSERT_NE(mu, nullptr) << name;
    EXPECT_NEAR(mu->value, kMu[static_cast<std::size_t>(j)], 1e-6) << name;
    EXPECT_NEAR(find(r, "Fc_" + name)->value, coulomb_of(j), 1e-6) << name;
  }
  EXPECT_LT(r.relative_error_percent, 1e-6);
  // The prediction is the load model's own: the torques back to 1e-6 of their scale.
  const auto p = identify::predict_robot(a.model, r, a.samples, with_load());
  EXPECT_LT(p.relative_error_percent, 1e-6);
  // Without the load terms the same record leaves an error the load explains.
  identify::RobotFitOptions plain = with_load();
  plain.load = false;
  EXPECT_GT(identify::fit_robot(a.model, a.samples, plain).relative_error_percent, 1.0);
}

TEST(RobotLoad, NoisySyntheticArmIsWithinItsIntervals) {
  int inside = 0, total = 0;
  for (unsigned seed : {21u, 22u, 23u}) {
    const Arm a = synthetic_arm(kMu, 0.05, seed);
    const identify::RobotFitResult r = identify::fit_robot(a.model, a.samples, with_load());
    EXPECT_TRUE(r.load_converged);
    identify::RobotFitOptions plain = with_load();
    plain.load = false;
    // The nested rule: the load-free model is the special case mu = 0, never the better fit.
    EXPECT_LT(r.relative_error_percent,
              identify::fit_robot(a.model, a.samples, plain).relative_error_percent);
    for (int j = 0; j < 7; ++j) {
      const auto* mu = find(r, "mu_" + a.model.joints[static_cast<std::size_t>(j)].name);
      ASSERT_NE(mu, nullptr);
      inside += std::abs(mu->value - kMu[static_cast<std::size_t>(j)]) <= 3 * mu->std_error;
      ++total;
    }
  }
  EXPECT_GE(inside, total - 1) << inside << " of " << total;
}

TEST(RobotLoad, LoadFreeJointsAreHeldAtZeroWithANote) {
  // No joint's level rises: every mu is 0 within its interval or, below 0, held with a note.
  const Arm a = synthetic_arm(std::vector<double>(7, 0.0), 0.05, 31);
  const identify::RobotFitResult r = identify::fit_robot(a.model, a.samples, with_load());
  for (const auto& j : a.model.joints) {
    const auto* mu = find(r, "mu_" + j.name);
    if (mu == nullptr) {
      EXPECT_TRUE(std::any_of(r.load_notes.begin(), r.load_notes.end(), [&](const std::string& n) {
        return n.find("mu_" + j.name + " came out at -") == 0 &&
               n.find("no Coulomb level rising with the load; held at 0") != std::string::npos;
      })) << j.name;
    } else {
      EXPECT_GE(mu->value, 0) << j.name;
      EXPECT_LE(mu->value, 3 * mu->std_error) << j.name;
    }
  }
}

TEST(RobotLoad, AJointNeverBackDrivenIsUndetermined) {
  // The last joint's friction far above its link's torques: the motor always drives it.
  Arm a = synthetic_arm(kMu, 0, 41);
  std::mt19937 rng(41);
  for (std::size_t k = 0; k < a.samples.size(); ++k) {
    const double v = a.samples.qd[6][k];
    a.samples.effort[6][k] += 20 * (v > 0 ? 1 : (v < 0 ? -1 : 0)) + 5 * v;
  }
  const identify::RobotFitResult r = identify::fit_robot(a.model, a.samples, with_load());
  const std::string name = a.model.joints[6].name;
  EXPECT_EQ(find(r, "mu_" + name), nullptr);
  EXPECT_TRUE(std::any_of(r.flags.begin(), r.flags.end(), [&](const std::string& f) {
    return f.find("the load coefficient mu_" + name + " is not determined by the record") == 0 &&
           f.find("back-driven") != std::string::npos && f.find("held at 0") != std::string::npos;
  }));
  EXPECT_NE(find(r, "mu_" + a.model.joints[5].name), nullptr);
}

TEST(RobotLoad, PandaRecordGetsAVerdictOnItsLoadCoefficients) {
  const robot::RobotModel m = frictionlab::testing::panda_model();
  const data::ArmSamples s = frictionlab::testing::panda_record(m);
  identify::RobotFitOptions o;
  o.load = true;
  const identify::RobotFitResult r = identify::fit_robot(m, s, o);
  identify::RobotFitOptions plain;
  const double e0 = identify::fit_robot(m, s, plain).relative_error_percent;
  std::printf(
      "Panda, load-dependent Coulomb levels: relative error %.3f %% (load-free %.3f %%), "
      "%d rounds\n",
      r.relative_error_percent, e0, r.load_rounds);
  for (const auto& j : m.joints)
    if (const auto* mu = find(r, "mu_" + j.name))
      std::printf("  mu_%s = %.4f +- %.4f\n", j.name.c_str(), mu->value, mu->std_error);
  for (const auto& n : r.load_notes) std::printf("  %s\n", n.c_str());
  EXPECT_TRUE(r.load_converged);
  // Every joint either has its coefficient with a finite interval, or a note why it is held.
  for (const auto& j : m.joints) {
    const auto* mu = find(r, "mu_" + j.name);
    if (mu != nullptr) {
      EXPECT_TRUE(std::isfinite(mu->std_error)) << j.name;
      EXPECT_GE(mu->value, 0) << j.name;
    } else {
      EXPECT_EQ(std::count_if(r.load_notes.begin(), r.load_notes.end(),
                              [&](const std::string& n) { return n.find("mu_" + j.name) == 0; }) +
                    std::count_if(r.flags.begin(), r.flags.end(),
                                  [&](const std::string& f) {
                                    return f.find("mu_" + j.name) != std::string::npos;
                                  }),
                1)
          << j.name;
    }
  }
  EXPECT_LT(r.relative_error_percent, e0 + 1e-9);
  // Validation: fitted on the first 70 % of the record, predicting the last 30 %.
  const std::size_t cut = s.size() * 7 / 10;
  const data::ArmSamples train = slice(s, 0, cut), rest = slice(s, cut, s.size());
  const double v_load =
      identify::predict_robot(m, identify::fit_robot(m, train, o), rest, o).relative_error_percent;
  const double v_plain =
      identify::predict_robot(m, identify::fit_robot(m, train, plain), rest, plain)
          .relative_error_percent;
  std::printf("  validation on the last 30 %%: %.3f %% (load-free %.3f %%)\n", v_load, v_plain);
  EXPECT_LT(v_load, 1.01 * v_plain);  // never a worse prediction than the load-free fit's
}
