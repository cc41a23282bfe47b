// Tests of the servo simulator (sim/servo.hpp) and the stopping-torque rule
// (models/actuator_budgets.hpp): the rule's invariants (a joint sticks when the budget covers the
// stopping torque; friction never reverses the velocity within a step), the budgets against a
// direct transcription of the reference implementation's friction computation (bam/model.py,
// Model.compute_frictions, including the M6 sign gate), the firmware control laws, one step and
// one rollout against hand computations, and the frictionless pendulum's period against the
// closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/sim/servo.hpp"
#include "frictionlab/sim/servo_actuators.hpp"

namespace frictionlab::sim {
namespace {

TEST(StoppingTorque, SticksWhenTheBudgetCoversItAndNeverReversesTheMotion) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int stuck = 0, slipping = 0;
  for (int k = 0; k < 20000; ++k) {
    const double I = 1e-3 + 0.01 * std::abs(u(rng));
    const double h = 1e-4 + 0.01 * std::abs(u(rng));
    const double v = 2.0 * u(rng) * (k % 5 == 0 ? 0.0 : 1.0);  // some start at rest
    const double tau_net = 0.5 * u(rng);
    const double budget = 0.3 * std::abs(u(rng));
    const double tau_stop = stopping_torque(I, h, v, tau_net);
    const double tau_f = stopping_friction(I, h, v, tau_net, budget);
    const double v_free = v + h * tau_net / I;  // the step without friction
    const double v_next = v + h * (tau_net + tau_f) / I;
    EXPECT_LE(std::abs(tau_f), budget);
    if (std::abs(tau_stop) <= budget) {
      ++stuck;
      EXPECT_NEAR(v_next, 0.0, 1e-12 * (std::abs(v) + std::abs(v_free) + 1.0));
    } else {
      ++slipping;
      // friction opposes the stopping torque with its full budget: the velocity keeps the sign
      // of the frictionless step and shrinks towards 0, it never crosses it
      EXPECT_EQ(std::abs(tau_f), budget);
      EXPECT_GT(v_next * v_free, 0.0);
      EXPECT_LE(std::abs(v_next), std::abs(v_free));
    }
    // never reverses a motion that the other torques do not reverse
    if (v != 0.0 && v_free * v > 0.0) {
      EXPECT_GE(v_next * v, -1e-15);
    }
  }
  EXPECT_GT(stuck, 1000);
  EXPECT_GT(slipping, 1000);
}

// Direct transcription of bam/model.py Model.compute_frictions (frictionloss + damping |v|),
// written from the reference's structure (flags load_dependent, directional, stribeck, quadratic)
// rather than from the M1..M6 formulas.
double bam_budget(int model, const ActuatorFrictionParams<double>& p, double tm, double te,
                  double v) {
  const bool load = model >= 3, directional = model >= 5, stribeck = model == 2 || model >= 4,
             quadratic = model == 6;
  auto sign = [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); };
  double gear = 0, gear_s = 0, s = 0;
  if (directional) {
    gear = std::abs(te * p.Ke - tm * p.Km);
    if (stribeck) gear_s = std::abs(te * p.Kes - tm * p.Kms);
  } else {
    gear = std::abs(te - tm);
  }
  if (stribeck) s = std::exp(-std::pow(std::abs(v / p.vs), p.alpha));
  double loss = p.Kc;
  if (load) loss += directional ? gear : p.Kl * gear;
  if (stribeck) {
    loss += s * p.Kcs;
    if (load) {
      loss += directional ? gear_s * s : p.Kls * gear * s;
      if (quadratic) {
        const bool enable = sign(te) != sign(tm);
        const double dm = std::abs(te) < std::abs(tm) ? 1.0 : 0.0;
        const double de = std::abs(te) > std::abs(tm) ? 1.0 : 0.0;
        loss += s * (dm * p.Keq * te * te + de * p.Kmq * tm * tm) * (enable ? 1.0 : 0.0);
      }
    }
  }
  return loss + p.Kv * std::abs(v);
}

TEST(ServoBudgets, EqualADirectTranscriptionOfTheReferenceImplementation) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 3000; ++k) {
    ActuatorFrictionParams<double> p;
    p.Kv = 0.1 * u(rng);
    p.Kc = 0.1 * u(rng);
    p.Kcs = 0.1 * u(rng);
    p.vs = 0.05 + 2.0 * u(rng);
    p.alpha = 1.0 + 9.0 * u(rng);
    p.Kl = u(rng);
    p.Kls = u(rng);
    p.Km = u(rng);
    p.Ke = u(rng);
    p.Kms = u(rng);
    p.Kes = u(rng);
    p.Keq = 0.01 * u(rng);
    p.Kmq = 0.01 * u(rng);
    // torques of either sign, sometimes exactly 0 or tied, as the sign gate cares
    auto torque = [&](int i) { return i % 7 == 0 ? 0.0 : 2.0 * (u(rng) - 0.5); };
    const double tm = torque(k), te = k % 11 == 0 ? -tm : torque(k + 3);
    const double v = k % 13 == 0 ? 0.0 : 3.0 * (u(rng) - 0.5);
    for (int m = 1; m <= 6; ++m)
      EXPECT_NEAR(friction_budget(static_cast<ActuatorModel>(m - 1), p, v, tm, te),
                  bam_budget(m, p, tm, te, v), 1e-14)
          << "M" << m << " tm=" << tm << " te=" << te << " v=" << v;
  }
}

ServoParams params_m1() {
  ServoParams p;
  p.kt = 0.4;
  p.R = 4.0;
  p.armature = 0.002;
  p.q_offset = 0.03;
  p.model = ActuatorModel::M1;
  p.friction.Kc = 0.013;
  p.friction.Kv = 0.004;
  return p;
}

TEST(ServoControl, VoltageDutyClampAndCurrentWindow) {
  ServoConstants c;
  c.error_gain = 0.003;
  c.max_pwm = 0.9;
  ServoParams p = params_m1();
  // duty = 0.003 * 200 * 0.5 = 0.3 -> 7.4 * 0.3 V
  EXPECT_NEAR(servo_control(c, p, 200, 7.4, 0.5, 0.0, 0.0), 7.4 * 0.3, 1e-14);
  // saturated at max_pwm
  EXPECT_NEAR(servo_control(c, p, 200, 7.4, 5.0, 0.0, 0.0), 7.4 * 0.9, 1e-14);
  EXPECT_NEAR(servo_control(c, p, 200, 7.4, -5.0, 0.0, 0.0), -7.4 * 0.9, 1e-14);
  // current-limit window: |(duty vin - kt qd)/R| <= Imax; qd = 2 -> centre kt qd / vin
  c.max_current = 0.5;
  const double qd = 2.0, center = 0.4 * 2.0 / 7.4, span = 4.0 * 0.5 / 7.4;
  EXPECT_NEAR(servo_control(c, p, 200, 7.4, 5.0, 0.0, qd), 7.4 * std::min(0.9, center + span),
              1e-14);
  EXPECT_NEAR(servo_control(c, p, 200, 7.4, -5.0, 0.0, qd), 7.4 * (center - span), 1e-14);
  const double volts = servo_control(c, p, 200, 7.4, -5.0, 0.0, qd);
  EXPECT_NEAR(std::abs((volts - p.kt * qd) / p.R), 0.5, 1e-12);  // at the current limit
  // motor torque: (kt V - kt^2 qd)/R; disabled: 0
  EXPECT_NEAR(servo_motor_torque(c, p, 3.0, true, 1.5), (0.4 * 3.0 - 0.16 * 1.5) / 4.0, 1e-15);
  EXPECT_EQ(servo_motor_torque(c, p, 3.0, false, 1.5), 0.0);
}

TEST(ServoControl, CurrentDriveClampsToTheSupplyThenTheUserLimit) {
  ServoConstants c;
  c.drive = ServoDrive::current;
  c.error_gain = 0.01;
  ServoParams p = params_m1();
  p.current_limit = 1.5;
  // i = 0.01 * 100 * 0.4 = 0.4 A, inside both limits
  EXPECT_NEAR(servo_control(c, p, 100, 12.0, 0.4, 0.0, 0.0), 0.4, 1e-15);
  // large error: the user's cap
  EXPECT_NEAR(servo_control(c, p, 100, 12.0, 40.0, 0.0, 0.0), 1.5, 1e-15);
  // fast motion: the supply bound (vin - kt qd)/R = (12 - 0.4*25)/4 = 0.5 A comes first
  EXPECT_NEAR(servo_control(c, p, 100, 12.0, 40.0, 0.0, 25.0), 0.5, 1e-15);
  EXPECT_NEAR(servo_motor_torque(c, p, 0.5, true, 25.0), 0.2, 1e-15);
}

TEST(ServoStep, OneStepByHand) {
  const ServoConstants c = io::builtin_actuator("xl330")->constants;
  const ServoParams p = params_m1();
  const PendulumBench b{0.49, 0.1, 0.0};
  const ServoState x{0.2, 0.5};
  const double h = 0.005, volts = 2.0;
  ServoStepTorques t;
  const ServoState y = servo_step(c, p, b, x, volts, true, h, &t);
  const double I = 0.49 * 0.01 + 0.002;
  const double tau_e = -0.49 * 9.80665 * 0.1 * std::sin(0.23);
  const double tau_m = (0.4 * 2.0 - 0.16 * 0.5) / 4.0;
  const double budget = 0.013 + 0.004 * 0.5;
  const double tau_stop = I / h * 0.5 + tau_m + tau_e;
  ASSERT_GT(std::abs(tau_stop), budget);  // sliding
  const double a = (tau_m + tau_e - budget * (tau_stop > 0 ? 1 : -1)) / I;
  EXPECT_NEAR(t.external, tau_e, 1e-15);
  EXPECT_NEAR(t.motor, tau_m, 1e-15);
  EXPECT_NEAR(t.budget, budget, 1e-15);
  EXPECT_NEAR(y.qd, 0.5 + a * h, 1e-14);
  EXPECT_NEAR(y.q, 0.2 + (0.5 + a * h) * h + 0.5 * a * h * h, 1e-14);
}

TEST(ServoStep, VelocityClipAndStickingUnderGravity) {
  const ServoConstants c = io::builtin_actuator("xl330")->constants;
  ServoParams p = params_m1();
  p.q_offset = 0.0;
  const PendulumBench b{0.49, 0.1, 0.0};
  // gravity torque at q = 0.02 rad: 0.0961 N m sin(0.02) = 0.00192 < Kc: the joint sticks
  ServoState x{0.02, 0.0};
  for (int k = 0; k < 100; ++k) x = servo_step(c, p, b, x, 0.0, false, 0.005);
  EXPECT_EQ(x.q, 0.02);
  EXPECT_EQ(x.qd, 0.0);
  // an absurd voltage drives the velocity to the reference's clip of 100 rad/s
  p.friction = {};
  p.armature = 1e-6;
  ServoState y{0.0, 99.0};
  y = servo_step(c, p, b, y, 1e6, true, 0.005);
  EXPECT_EQ(y.qd, kServoVelocityClip);
}

TEST(ServoStep, FrictionlessSmallSwingHasThePendulumPeriod) {
  // No friction, torque disabled, small swing: period 2 pi sqrt(I / (m g L)) (closed form of the
  // linearised pendulum), measured by zero crossings over 10 periods at h = 0.1 ms.
  const ServoConstants c = io::builtin_actuator("xl330")->constants;
  ServoParams p;
  p.kt = 0.4;
  p.R = 4.0;
  p.armature = 0.001;
  p.model = ActuatorModel::M1;
  const PendulumBench b{0.3, 0.15, 0.1};
  const double I = b.inertia() + p.armature;
  const double mgl = (0.3 + 0.05) * kServoGravity * 0.15;
  const double period = 2.0 * std::numbers::pi * std::sqrt(I / mgl);
  const double h = 1e-4;
  ServoState x{0.01, 0.0};
  std::vector<double> crossings;
  double t = 0.0;
  while (crossings.size() < 21) {
    const ServoState y = servo_step(c, p, b, x, 0.0, false, h);
    if (x.q > 0 && y.q <= 0) crossings.push_back(t + h * x.q / (x.q - y.q));
    if (x.q < 0 && y.q >= 0) crossings.push_back(t + h * x.q / (x.q - y.q));
    x = y;
    t += h;
  }
  EXPECT_NEAR((crossings[20] - crossings[0]) / 10.0, period, 1e-4 * period);
}

TEST(ServoRollout, RecordsTheStateBeforeEachStepAndUsesTheSimulatedPosition) {
  const ServoConstants c = io::builtin_actuator("xl330")->constants;
  const ServoParams p = params_m1();
  std::vector<double> goal{0.1, 0.3, 0.3, -0.2};
  std::vector<unsigned char> en{1, 1, 0, 1};
  ServoRunInput in;
  in.dt = 0.005;
  in.kp = 400;
  in.vin = 7.4;
  in.bench = {0.49, 0.1, 0.0};
  in.initial = {0.05, 0.2};
  in.goal = goal;
  in.torque_enable = en;
  std::vector<ServoState> seen;
  servo_rollout(c, p, in, [&](std::size_t k, const ServoState& x) {
    EXPECT_EQ(k, seen.size());
    seen.push_back(x);
  });
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0].q, 0.05);
  EXPECT_EQ(seen[0].qd, 0.2);
  ServoState x = in.initial;
  for (std::size_t k = 0; k + 1 < 4; ++k) {
    const double u = servo_control(c, p, 400, 7.4, goal[k], x.q, x.qd);
    x = servo_step(c, p, in.bench, x, u, en[k] != 0, 0.005);
    EXPECT_EQ(seen[k + 1].q, x.q);
    EXPECT_EQ(seen[k + 1].qd, x.qd);
  }
  // early stop through a bool sink
  int calls = 0;
  servo_rollout(c, p, in, [&](std::size_t, const ServoState&) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
}

TEST(ServoRollout, BatchGivesEveryLogTheStatesOfItsOwnRollout) {
  // five logs of different lengths, kp, benches and enable patterns: a group of four and one
  // of one (Lanes = 4), a log shorter than the others of its group, an empty one
  const ServoConstants c = io::builtin_actuator("xl330")->constants;
  ServoParams p = params_m1();
  p.model = ActuatorModel::M6;  // every budget term (Stribeck, directional, quadratic) active
  auto& f = p.friction;
  f.Kcs = 0.02;
  f.vs = 0.3;
  f.alpha = 1.7;
  f.Km = 0.1;
  f.Ke = 0.05;
  f.Kms = 0.2;
  f.Kes = 0.1;
  f.Kmq = 0.004;
  f.Keq = 0.003;
  const std::size_t lengths[] = {300, 120, 300, 0, 257};
  std::vector<std::vector<double>> goals;
  std::vector<std::vector<unsigned char>> enables;
  std::vector<ServoRunInput> in;
  for (std::size_t i = 0; i < 5; ++i) {
    std::vector<double> g(lengths[i]);
    std::vector<unsigned char> e(lengths[i]);
    for (std::size_t k = 0; k < g.size(); ++k) {
      g[k] = 0.8 * std::sin(0.03 * static_cast<double>(k * (i + 1)));
      e[k] = (k / 90 + i) % 3 != 0;
    }
    goals.push_back(std::move(g));
    enables.push_back(std::move(e));
  }
  for (std::size_t i = 0; i < 5; ++i) {
    ServoRunInput r;
    r.dt = 0.005 + 0.001 * static_cast<double>(i);
    r.kp = 100.0 * static_cast<double>(i + 1);
    r.vin = 7.4;
    r.bench = {0.3 + 0.1 * static_cast<double>(i), 0.1, 0.02};
    r.initial = {0.1 * static_cast<double>(i), -0.2};
    r.goal = goals[i];
    r.torque_enable = enables[i];
    in.push_back(r);
  }
  std::vector<std::vector<ServoState>> batch(5);
  servo_rollout_batch(c, p, std::span<const ServoRunInput>(in),
                      [&](std::size_t i, std::size_t k, const ServoState& x) {
                        ASSERT_LT(i, 5u);
                        EXPECT_EQ(k, batch[i].size());  // increasing k per log
                        batch[i].push_back(x);
                      });
  // The batch keeps a lane's sine where the angle did not change (a stuck joint), both rollouts
  // compute the run's constants once; the reference here is the plain loop of servo_firmware
  // and servo_step, every term computed afresh at every step.
  std::size_t stuck = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    std::vector<ServoState> own, plain;
    servo_rollout(c, p, in[i], [&](std::size_t, const ServoState& x) { own.push_back(x); });
    ServoState x = in[i].initial;
    ServoFirmwareState fw;
    for (std::size_t k = 0; k < lengths[i]; ++k) {
      plain.push_back(x);
      const double u = servo_firmware(c, p, in[i], goals[i][k], x, fw);
      const ServoState y = servo_step(c, p, in[i].bench, x, u, enables[i][k] != 0, in[i].dt);
      stuck += y.q == x.q ? 1 : 0;
      x = y;
    }
    ASSERT_EQ(batch[i].size(), lengths[i]) << "log " << i;
    ASSERT_EQ(own.size(), lengths[i]) << "log " << i;
    for (std::size_t k = 0; k < own.size(); ++k) {
      ASSERT_EQ(batch[i][k].q, own[k].q) << "log " << i << ", entry " << k;  // bit for bit
      ASSERT_EQ(batch[i][k].qd, own[k].qd) << "log " << i << ", entry " << k;
      ASSERT_EQ(own[k].q, plain[k].q) << "log " << i << ", entry " << k;
      ASSERT_EQ(own[k].qd, plain[k].qd) << "log " << i << ", entry " << k;
    }
  }
  EXPECT_GT(stuck, 50u);  // the kept sine is used, not only computed
}

TEST(ServoActuators, Xl330ErrorGainAndRegistry) {
  // data/actuators/xl330.json derives it: (4096 / 2 pi) / (256 * 885)
  ASSERT_TRUE(io::builtin_actuator("xl330"));
  EXPECT_NEAR(io::builtin_actuator("xl330")->constants.error_gain, 0.0028773775022263564, 1e-18);
  EXPECT_EQ(io::builtin_actuator("xl330")->constants.vin, 7.4);
  EXPECT_FALSE(io::builtin_actuator("nope"));
  for (const auto& name : io::builtin_actuator_names()) {
    const auto a = *io::builtin_actuator(name);
    EXPECT_EQ(a.name, name);
    EXPECT_LT(a.kt.range.lo, a.kt.range.hi) << a.name;
    EXPECT_LT(a.R.range.lo, a.R.range.hi) << a.name;
    EXPECT_LT(a.armature.range.lo, a.armature.range.hi) << a.name;
  }
}

}  // namespace
}  // namespace frictionlab::sim
