// Tests of the actuator friction budgets M1..M6 (reference 002 and the BAM implementation
// bam/model.py): hand-computed values for every model, both M6 branches, the M6 sign gate of the
// reference implementation versus the documentation's formula, and invariants (non-negative,
// even in v, Stribeck term vanishing at high speed).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frictionlab/models/actuator_budgets.hpp"

namespace frictionlab {
namespace {

using P = ActuatorFrictionParams<double>;

P params() {
  P p;
  p.Kv = 0.1;
  p.Kc = 0.05;
  p.Kcs = 0.03;
  p.vs = 0.2;
  p.alpha = 1.35;
  p.Kl = 0.1;
  p.Kls = 0.2;
  p.Km = 0.1;
  p.Ke = 0.2;
  p.Kms = 0.05;
  p.Kes = 0.3;
  p.Keq = 0.01;
  p.Kmq = 0.02;
  return p;
}

// At v = vs the Stribeck factor is exp(-1) for any alpha.
const double e1 = std::exp(-1.0);

TEST(ActuatorBudgets, HandComputedM1ToM5) {
  const auto p = params();
  const double v = 0.2, tm = 2.0, te = -1.0;
  // base = Kv |v| + Kc = 0.02 + 0.05 = 0.07; |tm - te| = 3.
  EXPECT_NEAR(friction_budget(ActuatorModel::M1, p, v, tm, te), 0.07, 1e-15);
  EXPECT_NEAR(friction_budget(ActuatorModel::M2, p, v, tm, te), 0.07 + e1 * 0.03, 1e-15);
  EXPECT_NEAR(friction_budget(ActuatorModel::M3, p, v, tm, te), 0.07 + 0.3, 1e-15);
  EXPECT_NEAR(friction_budget(ActuatorModel::M4, p, v, tm, te), 0.37 + e1 * (0.03 + 0.6), 1e-15);
  // |Km tm - Ke te| = |0.2 + 0.2| = 0.4; |Kms tm - Kes te| = |0.1 + 0.3| = 0.4.
  EXPECT_NEAR(friction_budget(ActuatorModel::M5, p, v, tm, te), 0.07 + 0.4 + e1 * (0.03 + 0.4),
              1e-15);
  // At rest the Stribeck factor is 1: M2 = Kc + Kcs.
  EXPECT_NEAR(friction_budget(ActuatorModel::M2, p, 0.0, tm, te), 0.08, 1e-15);
  // Negative velocity: same budget (even in v).
  EXPECT_NEAR(friction_budget(ActuatorModel::M4, p, -v, tm, te), 0.37 + e1 * 0.63, 1e-15);
}

TEST(ActuatorBudgets, M6BranchesAndTheReferenceSignGate) {
  auto p = params();
  const double v = 0.2;
  auto m5 = [&](double tm, double te) { return friction_budget(ActuatorModel::M5, p, v, tm, te); };
  auto m6 = [&](double tm, double te) { return friction_budget(ActuatorModel::M6, p, v, tm, te); };
  for (bool gate : {true, false}) {
    p.quadratic_sign_gate = gate;
    // Opposite signs, |tm| > |te|: Q = Keq te^2 = 0.01 (both forms).
    EXPECT_NEAR(m6(2.0, -1.0) - m5(2.0, -1.0), e1 * 0.01, 1e-15) << gate;
    // Opposite signs, |tm| < |te|: Q = Kmq tm^2 = 0.02 (both forms).
    EXPECT_NEAR(m6(1.0, -2.0) - m5(1.0, -2.0), e1 * 0.02, 1e-15) << gate;
  }
  // Same signs: the reference implementation switches Q off, the documentation does not.
  p.quadratic_sign_gate = true;
  EXPECT_NEAR(m6(2.0, 1.0) - m5(2.0, 1.0), 0.0, 1e-15);
  EXPECT_NEAR(m6(-1.0, -2.0) - m5(-1.0, -2.0), 0.0, 1e-15);
  p.quadratic_sign_gate = false;
  EXPECT_NEAR(m6(2.0, 1.0) - m5(2.0, 1.0), e1 * 0.01 * 1.0, 1e-15);
  EXPECT_NEAR(m6(-1.0, -2.0) - m5(-1.0, -2.0), e1 * 0.02 * 1.0, 1e-15);
  // Tie |tm| = |te| (opposite signs): reference 0 (both strict comparisons fail), doc Kmq tm^2.
  p.quadratic_sign_gate = true;
  EXPECT_NEAR(m6(1.5, -1.5) - m5(1.5, -1.5), 0.0, 1e-15);
  p.quadratic_sign_gate = false;
  EXPECT_NEAR(m6(1.5, -1.5) - m5(1.5, -1.5), e1 * 0.02 * 2.25, 1e-15);
  // Absolute hand value of M6 at rest, gated, opposite signs, |tm| > |te|:
  // 0.05 + 0.4 + (0.03 + 0.4 + 0.01) = 0.89.
  p.quadratic_sign_gate = true;
  EXPECT_NEAR(friction_budget(ActuatorModel::M6, p, 0.0, 2.0, -1.0), 0.89, 1e-15);
}

TEST(ActuatorBudgets, InvariantsOverRandomInputs) {
  const auto p = params();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-5, 5);
  for (int k = 0; k < 2000; ++k) {
    const double v = u(rng), tm = u(rng), te = u(rng);
    for (auto m : {ActuatorModel::M1, ActuatorModel::M2, ActuatorModel::M3, ActuatorModel::M4,
                   ActuatorModel::M5, ActuatorModel::M6}) {
      const double b = friction_budget(m, p, v, tm, te);
      EXPECT_GE(b, p.Kc);
      EXPECT_EQ(b, friction_budget(m, p, -v, tm, te));
    }
    // The hierarchy: M2 >= M1, M4 >= M3 >= M1, M6 >= M5 (added terms are non-negative).
    EXPECT_GE(friction_budget(ActuatorModel::M2, p, v, tm, te),
              friction_budget(ActuatorModel::M1, p, v, tm, te));
    EXPECT_GE(friction_budget(ActuatorModel::M4, p, v, tm, te),
              friction_budget(ActuatorModel::M3, p, v, tm, te));
    EXPECT_GE(friction_budget(ActuatorModel::M6, p, v, tm, te),
              friction_budget(ActuatorModel::M5, p, v, tm, te));
  }
  // Far above vs the Stribeck terms vanish: M4 -> M3, M6 -> Kv|v| + Kc + |Km tm - Ke te|.
  EXPECT_NEAR(friction_budget(ActuatorModel::M4, p, 20.0, 1.0, 0.5),
              friction_budget(ActuatorModel::M3, p, 20.0, 1.0, 0.5), 1e-12);
  EXPECT_NEAR(friction_budget(ActuatorModel::M6, p, 20.0, 1.0, -0.5), 2.0 + 0.05 + 0.2, 1e-12);
}

TEST(ActuatorBudgets, ClipFrictionAndFloat) {
  EXPECT_EQ(clip_friction(0.3, 0.5), 0.3);
  EXPECT_EQ(clip_friction(0.7, 0.5), 0.5);
  EXPECT_EQ(clip_friction(-0.7, 0.5), -0.5);
  ActuatorFrictionParams<float> pf;
  pf.Kv = 0.1f;
  pf.Kc = 0.05f;
  pf.Kcs = 0.03f;
  pf.vs = 0.2f;
  EXPECT_NEAR(friction_budget(ActuatorModel::M2, pf, 0.2f, 0.0f, 0.0f), float(0.07 + e1 * 0.03),
              1e-7);
}

}  // namespace
}  // namespace frictionlab
