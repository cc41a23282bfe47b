// ACTUATOR.json (io/actuator_file.hpp) and what it drives: the built-in families, the errors of
// malformed files (file, line, key), the firmware laws of sim/servo.hpp (PD against the closed
// form of a damped oscillator, PID's zero steady-state error, deadband, control period), a
// made-up servo written from scratch fitted back through the whole path, the motor-current term
// of the loss, and `actuator check` on logs made inconsistent on purpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "expect_message.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/actuator_json.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo.hpp"
#include "frictionlab/workflows/actuator.hpp"

namespace frictionlab {
namespace {

// A made-up servo, written from scratch (not a copy of a built-in). Line numbers matter below.
const std::string kMadeUp = R"({
  "format": "frictionlab-actuator",
  "version": 1,
  "name": "madeup-m1",
  "description": "a made-up voltage-driven servo for the tests",
  "drive": "voltage",
  "supply_voltage": {"value": 12, "unit": "V", "source": "made up"},
  "motor": {
    "torque_constant": {"value": 0.8, "range": [0.2, 2.0], "unit": "Nm/A"},
    "resistance": {"value": 2.5, "range": [0.5, 10.0], "unit": "ohm"},
    "armature": {"range": [0.0005, 0.02], "unit": "kg m^2", "source": "not published: fitted"},
    "gear_ratio": {"value": 200, "unit": "-"}
  },
  "encoder": {"counts_per_turn": 4096},
  "control": {
    "law": "p",
    "error_gain_from": {"kp_divisor": 128, "output_full_scale": 1000},
    "max_pwm": {"value": 0.95, "unit": "-"},
    "period": {"value": 0, "unit": "ms"}
  }
}
)";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

/// The message of the InputError reading `text` as an actuator file throws, or "no error".
std::string parse_error(const std::string& text) {
  return testing::message_or_no_error<io::InputError>(
      [&] { io::parse_actuator(text, "servo.json"); });
}

TEST(ActuatorFile, ReadsTheMadeUpServo) {
  const auto a = io::parse_actuator(kMadeUp, "servo.json");
  EXPECT_EQ(a.name, "madeup-m1");
  EXPECT_EQ(a.origin, "servo.json");
  EXPECT_EQ(a.constants.drive, sim::ServoDrive::voltage);
  EXPECT_EQ(a.constants.vin, 12.0);
  EXPECT_EQ(a.constants.law, sim::ServoLaw::p);
  // 4096 counts per turn, kp / 128, 1000 = full duty: duty per kp rad
  EXPECT_DOUBLE_EQ(a.constants.error_gain, 4096.0 / (2 * std::numbers::pi) / (128.0 * 1000.0));
  EXPECT_EQ(a.constants.max_pwm, 0.95);
  EXPECT_EQ(a.constants.period, 0.0);
  EXPECT_EQ(a.kt.range.lo, 0.2);
  EXPECT_EQ(*a.kt.nominal, 0.8);
  EXPECT_FALSE(a.armature.nominal);
  EXPECT_DOUBLE_EQ(a.armature.nominal_or_middle(), std::sqrt(0.0005 * 0.02));
  EXPECT_EQ(a.gear_ratio, 200.0);
  EXPECT_EQ(a.counts_per_turn, 4096);
  // written and read back: the same description
  const auto b = io::parse_actuator(io::actuator_json(a), "again.json");
  EXPECT_EQ(io::actuator_json(b), io::actuator_json(a));
  EXPECT_EQ(b.constants.error_gain, a.constants.error_gain);
  EXPECT_EQ(b.armature.range.hi, a.armature.range.hi);
}

TEST(ActuatorFile, UnitsAreConverted) {
  auto a = io::parse_actuator(
      replace(
          replace(
              kMadeUp, R"("period": {"value": 0, "unit": "ms"})",
              R"("period": {"value": 2, "unit": "ms"}, "deadband": {"value": 3, "unit": "counts"})"),
          R"("law": "p")", R"("law": "p")"),
      "servo.json");
  EXPECT_DOUBLE_EQ(a.constants.period, 0.002);
  EXPECT_DOUBLE_EQ(a.constants.deadband, 3 * 2 * std::numbers::pi / 4096);
}

TEST(ActuatorFile, MalformedFilesNameFileLineAndKey) {
  // missing constant
  EXPECT_EQ(
      parse_error(replace(kMadeUp,
                          R"(    "resistance": {"value": 2.5, "range": [0.5, 10.0], "unit": "ohm"},
)",
                          "")),
      "servo.json:8: key 'motor.resistance': missing (a motor constant is required)");
  EXPECT_EQ(parse_error(replace(
                kMadeUp, R"(  "supply_voltage": {"value": 12, "unit": "V", "source": "made up"},
)",
                "")),
            "servo.json:1: key 'supply_voltage': missing (a constant is required: {\"value\": X, "
            "\"unit\": U})");
  // A missing key of the top-level object: the line where that object starts (here after two
  // lines of white space, so line 3), as a missing nested key gets its parent's line.
  const auto top_missing = [](const std::string& line) {
    return parse_error("\n  \n" + replace(kMadeUp, line, ""));
  };
  EXPECT_EQ(
      top_missing(
          "  \"supply_voltage\": {\"value\": 12, \"unit\": \"V\", \"source\": \"made up\"},\n"),
      "servo.json:3: key 'supply_voltage': missing (a constant is required: {\"value\": X, "
      "\"unit\": U})");
  EXPECT_EQ(top_missing("  \"name\": \"madeup-m1\",\n"),
            "servo.json:3: key 'name': missing (a string is required)");
  EXPECT_EQ(top_missing("  \"drive\": \"voltage\",\n"),
            "servo.json:3: key 'drive': missing (a string is required)");
  EXPECT_EQ(top_missing("  \"format\": \"frictionlab-actuator\",\n"),
            "servo.json:3: key 'format': missing (a string is required)");
  EXPECT_EQ(top_missing("  \"version\": 1,\n"), "servo.json:3: key 'version': missing (1)");
  // negative resistance (range and value)
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("value": 2.5, "range": [0.5, 10.0])",
                                R"("value": -2.5, "range": [-5, 10.0])")),
            "servo.json:10: key 'motor.resistance': a physical constant: the range [-5, 10] must "
            "lie within the plausible range [1e-06, 1e+06] ohm");
  // unknown drive
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("drive": "voltage")", R"("drive": "pwm")")),
            "servo.json:6: key 'drive': unknown drive 'pwm' (voltage: the firmware commands a "
            "PWM duty; current: a current)");
  // wrong units field
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("unit": "ohm")", R"("unit": "kohm")")),
            "servo.json:10: key 'motor.resistance.unit': unit 'kohm' is not accepted here (one "
            "of 'ohm', 'Ohm')");
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("max_pwm": {"value": 0.95, "unit": "-"})",
                                R"("max_pwm": {"value": 0.95})")),
            "servo.json:18: key 'control.max_pwm.unit': missing (one of '-')");
  // a known constant given a range; an unknown key; a value outside its range; law and gains
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("max_pwm": {"value": 0.95, "unit": "-"})",
                                R"("max_pwm": {"value": 0.95, "range": [0.5, 1], "unit": "-"})")),
            "servo.json:18: key 'control.max_pwm.range': this constant is known, not "
            "identified: give its \"value\" only");
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("law": "p",)", R"("law": "p", "kp": 3,)")),
            "servo.json:16: key 'control.kp': unknown key (expected one of: law, error_gain, "
            "error_gain_from, kd_gain, ki_gain, deadband, max_pwm, max_current, period)");
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("value": 0.8, "range")", R"("value": 3.8, "range")")),
            "servo.json:9: key 'motor.torque_constant.value': the value 3.8 lies outside its "
            "range [0.2, 2]");
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("law": "p",)",
                                R"("law": "p", "kd_gain": {"value": 0.01, "unit": "s"},)")),
            "servo.json:16: key 'control.kd_gain': law 'p' has no derivative term (use law 'pd' "
            "or 'pid')");
  EXPECT_EQ(
      parse_error(replace(kMadeUp, R"("version": 1)", R"("version": 2)")),
      "servo.json:3: key 'version': unsupported version 2 (this frictionlab reads version 1)");
  // JSON syntax: line and column
  EXPECT_EQ(parse_error(replace(kMadeUp, R"("law": "p",)", R"("law": "p" "x",)")).substr(0, 16),
            "servo.json:16:18");
}

TEST(ActuatorFile, BuiltInsAreValidAndNamedAfterTheirFiles) {
  const auto names = io::builtin_actuator_names();
  EXPECT_EQ(names, (std::vector<std::string>{"mx106", "mx64", "sts3215", "sts3215-12v",
                                             "xc330m288t", "xl320", "xl330"}));
  for (const auto& n : names) {
    const auto a = io::builtin_actuator(n);
    ASSERT_TRUE(a) << n;
    EXPECT_EQ(a->name, n);
    EXPECT_EQ(a->origin, "built in");
    EXPECT_TRUE(io::check_actuator(*a).empty()) << n;
    // every motor constant cites a source
    for (const char* key : {"motor.torque_constant", "motor.resistance", "motor.armature"}) {
      bool cited = false;
      for (const auto& [k, s] : a->sources) cited = cited || (k == key && !s.empty());
      EXPECT_TRUE(cited) << n << " " << key;
    }
  }
  // the Feetech STS3215: 4096 counts, 1:345, a 1-count deadband
  const auto sts = *io::builtin_actuator("sts3215");
  EXPECT_EQ(sts.counts_per_turn, 4096);
  EXPECT_EQ(sts.gear_ratio, 345.0);
  EXPECT_DOUBLE_EQ(sts.constants.deadband, 2 * std::numbers::pi / 4096);
  EXPECT_EQ(io::builtin_actuator("sts3215-12v")->constants.vin, 12.0);
}

TEST(ActuatorFile, ReferencesByNameOrPath) {
  const auto dir = std::filesystem::temp_directory_path() / "frictionlab_actuator_ref";
  std::filesystem::create_directories(dir / "servos");
  std::ofstream(dir / "servos" / "madeup.json") << kMadeUp;
  const auto a = io::resolve_actuator("servos/madeup.json", dir.string(), "log.json: key 'motor'");
  EXPECT_EQ(a.name, "madeup-m1");
  EXPECT_EQ(io::resolve_actuator("xl330", "", "x").name, "xl330");
  try {
    io::resolve_actuator("servos/none.json", dir.string(), "log.json: key 'motor'");
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()), "log.json: key 'motor': actuator file '" +
                                         (dir / "servos/none.json").string() + "' does not exist");
  }
  // a directory is named as one, not as missing
  std::filesystem::create_directories(dir / "servos" / "dir.json");
  try {
    io::resolve_actuator("servos/dir.json", dir.string(), "log.json: key 'motor'");
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "servos/dir.json").string() +
                                         ": is a directory, expected an ACTUATOR.json file");
  }
  // a parameter file of that actuator carries its description and reads back anywhere
  sim::ServoSetup setup;
  setup.actuator = a;
  setup.params.model = ActuatorModel::M1;
  setup.params.kt = 0.7;
  setup.params.R = 2.0;
  setup.params.armature = 0.002;
  setup.params.friction.Kc = 0.01;
  const std::string text = io::servo_params_json(setup);
  const auto back = io::parse_servo_params(text, "elsewhere/m1.json");
  EXPECT_EQ(back.actuator.name, "madeup-m1");
  EXPECT_EQ(io::actuator_json(back.actuator), io::actuator_json(a));
  EXPECT_EQ(back.params.kt, 0.7);
  std::filesystem::remove_all(dir);
}

// ---- the firmware's laws (sim/servo.hpp) ----

// A servo without gravity (no tip mass), inertia = armature, without friction: the closed loop
// of a P or PD law is a damped oscillator.
struct Oscillator {
  sim::ServoConstants c{sim::ServoDrive::voltage, 12.0, 0.05, 1.0, 0.0};
  sim::ServoParams p;
  sim::ServoRunInput in;
  std::vector<double> goal;
  std::vector<unsigned char> enable;
  Oscillator(double dt, std::size_t n, double target) {
    p.kt = 0.2;
    p.R = 2.0;
    p.armature = 0.002;
    p.friction.Kc = 0.0;
    p.friction.Kv = 0.0;
    goal.assign(n, target);
    enable.assign(n, 1);
    in.dt = dt;
    in.kp = 10.0;
    in.vin = 12.0;
    in.bench = {0.0, 0.1, 0.0};
    in.goal = goal;
    in.torque_enable = enable;
  }
  std::vector<double> run() const {
    std::vector<double> q;
    sim::servo_rollout(c, p, in, [&](std::size_t, const sim::ServoState& x) { q.push_back(x.q); });
    return q;
  }
};

// q(t) of I q'' = K (target - q) - D q' from rest at 0 (underdamped).
double oscillator(double I, double K, double D, double target, double t) {
  EXPECT_LT(D * D, 4 * K * I);  // underdamped
  const double w = std::sqrt(K / I), z = D / (2 * std::sqrt(K * I)), wd = w * std::sqrt(1 - z * z);
  return target * (1 - std::exp(-z * w * t) * (std::cos(wd * t) + z * w / wd * std::sin(wd * t)));
}

TEST(ServoLaw, PdIsADampedOscillatorWithTheDerivativeOnTheMeasurement) {
  const double dt = 2e-5, target = 0.05;
  Oscillator o(dt, 10000, target);
  o.c.law = sim::ServoLaw::pd;
  o.c.kd_gain = 0.05;  // [s]
  o.in.kd = 5.0;
  const auto q = o.run();
  const double per_volt = o.p.kt / o.p.R;
  const double K = per_volt * o.in.vin * o.in.kp * o.c.error_gain;
  const double D =
      o.p.kt * o.p.kt / o.p.R + per_volt * o.in.vin * o.c.error_gain * o.in.kd * o.c.kd_gain;
  double worst = 0.0, worst_p = 0.0;
  auto p_only = o;
  p_only.c.law = sim::ServoLaw::p;
  p_only.c.kd_gain = 0.0;
  const auto qp = p_only.run();
  for (std::size_t k = 0; k < q.size(); ++k) {
    const double t = static_cast<double>(k) * dt;
    worst = std::max(worst, std::abs(q[k] - oscillator(o.p.armature, K, D, target, t)));
    worst_p = std::max(worst_p, std::abs(qp[k] - oscillator(o.p.armature, K, D, target, t)));
  }
  // first-order integration of the reference step: error O(dt); the P law is far off
  EXPECT_LT(worst, 2e-3 * target);
  EXPECT_GT(worst_p, 0.1 * target);
}

TEST(ServoLaw, PidRemovesTheSteadyErrorThatGravityLeavesToP) {
  // pendulum of 0.2 kg at 0.1 m held at 0.6 rad
  const double dt = 1e-3, target = 0.6;
  Oscillator o(dt, 20000, target);
  o.in.bench = {0.2, 0.1, 0.0};
  o.p.friction.Kv = 0.01;
  const auto qp = o.run();
  // P: K e = m g L sin(q) at rest (closed form of the steady state)
  const double K = o.p.kt / o.p.R * o.in.vin * o.in.kp * o.c.error_gain;
  const double e = target - qp.back();
  EXPECT_NEAR(K * e, 0.2 * sim::kServoGravity * 0.1 * std::sin(qp.back()), 1e-9);
  EXPECT_GT(e, 0.01);
  o.c.law = sim::ServoLaw::pid;
  o.c.ki_gain = 2.0;
  o.in.ki = 5.0;
  const auto qi = o.run();
  EXPECT_LT(std::abs(target - qi.back()), 1e-6);
}

TEST(ServoLaw, DeadbandAndPeriod) {
  Oscillator o(1e-3, 200, 0.004);
  o.c.deadband = 0.005;  // the error 0.004 is inside: no output, no motion
  for (double q : o.run()) EXPECT_EQ(q, 0.0);
  // period 5 ms at 1 ms steps: the output changes only every fifth step
  Oscillator h(1e-3, 200, 0.3);
  h.c.period = 0.005;
  std::vector<double> u;
  sim::servo_rollout(h.c, h.p, h.in,
                     [&](std::size_t, const sim::ServoState&, const sim::ServoStepInfo& s) {
                       u.push_back(s.control);
                     });
  int changes = 0;
  for (std::size_t k = 1; k < u.size(); ++k)
    if (u[k] != u[k - 1]) {
      ++changes;
      EXPECT_EQ(k % 5, 0u) << k;
    }
  EXPECT_GT(changes, 30);
  // and the plain P law is servo_control, bit for bit
  Oscillator plain(1e-3, 50, 0.3);
  sim::servo_rollout(plain.c, plain.p, plain.in,
                     [&](std::size_t k, const sim::ServoState& x, const sim::ServoStepInfo& s) {
                       EXPECT_EQ(s.control,
                                 sim::servo_control(plain.c, plain.p, plain.in.kp, plain.in.vin,
                                                    plain.goal[k], x.q, x.qd));
                     });
}

// ---- a made-up servo through the whole path ----

sim::ServoParams madeup_truth() {
  sim::ServoParams p;
  p.model = ActuatorModel::M1;
  p.kt = 0.9;
  p.R = 3.0;
  p.armature = 0.004;
  p.q_offset = 0.01;
  p.friction.Kc = 0.03;
  p.friction.Kv = 0.02;
  return p;
}

// Logs of the made-up servo (4 trajectories x 2 kp) simulated with the truth, with the motor
// current in mA.
std::vector<data::ServoLog> madeup_logs(const sim::ServoActuator& a,
                                        const sim::ServoParams& truth) {
  std::vector<data::ServoLog> logs;
  for (double kp : {400.0, 1200.0})
    for (int shape = 0; shape < 4; ++shape) {
      data::ServoLog l;
      l.file =
          "madeup_" + std::to_string(shape) + "_" + std::to_string(static_cast<int>(kp)) + ".json";
      l.mass = 0.5;
      l.length = 0.15;
      l.kp = kp;
      l.dt = 0.005;
      l.motor = "madeup-m1";
      const int n = 600;
      for (int k = 0; k < n; ++k) {
        const double t = 0.005 * k;
        const double f = 0.3 + 0.25 * shape;
        l.timestamp.push_back(t);
        l.goal_position.push_back(shape == 3
                                      ? (t < 1.5 ? 1.2 : 0.0)
                                      : 0.8 * std::sin(2 * std::numbers::pi * f * t) +
                                            0.3 * std::sin(2 * std::numbers::pi * 3 * f * t));
        l.torque_enable.push_back(shape == 3 && t > 2.2 ? 0 : 1);
      }
      l.position.assign(n, 0.0);
      l.speed.assign(n, 0.0);
      const auto in = data::servo_run_input(l, a.constants.vin);
      std::vector<double> q, qd, i;
      sim::servo_rollout(a.constants, truth, in,
                         [&](std::size_t, const sim::ServoState& x, const sim::ServoStepInfo& s) {
                           q.push_back(x.q);
                           qd.push_back(x.qd);
                           i.push_back(1000 * sim::servo_motor_current(a.constants, truth,
                                                                       s.control, s.enabled, x.qd));
                         });
      l.position = q;
      l.speed = qd;
      l.current = i;
      l.current_unit = "mA";
      logs.push_back(std::move(l));
    }
  return logs;
}

TEST(ActuatorFile, CombinedLossIsPositionPlusWeightedCurrentError) {
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  const auto truth = madeup_truth();
  const auto logs = madeup_logs(a, truth);
  identify::ServoLossOptions o;
  o.current_weight = 0.7;
  EXPECT_LT(identify::servo_loss(a.constants, truth, logs, o), 1e-15);  // mA -> A rounding
  auto other = truth;
  other.kt = 1.1;
  double ep = 0, ei = 0, n = 0;
  for (const auto& l : logs) {
    const auto e = identify::servo_log_error(a.constants, other, l);
    const double m = static_cast<double>(e.samples);
    ep += e.position_mae * m;
    ei += e.current_mae * m;
    n += m;
  }
  EXPECT_NEAR(identify::servo_loss(a.constants, other, logs, o), ep / n + 0.7 * ei / n, 1e-12);
  // the automatic weight: spread of the positions over that of the currents (in A)
  double sq = 0, si = 0, mq = 0, mi = 0;
  for (const auto& l : logs)
    for (std::size_t k = 0; k < l.size(); ++k) {
      mq += l.position[k] / n;
      mi += 1e-3 * l.current[k] / n;
    }
  for (const auto& l : logs)
    for (std::size_t k = 0; k < l.size(); ++k) {
      sq += (l.position[k] - mq) * (l.position[k] - mq);
      si += (1e-3 * l.current[k] - mi) * (1e-3 * l.current[k] - mi);
    }
  EXPECT_NEAR(identify::servo_current_weight(logs), std::sqrt(sq / si), 1e-9 * std::sqrt(sq / si));
  auto no_unit = logs;
  for (auto& l : no_unit) l.current_unit.clear();
  EXPECT_EQ(identify::servo_current_weight(no_unit), 0.0);
  EXPECT_THROW(identify::servo_loss(a.constants, truth, no_unit, o), identify::FitError);
}

TEST(ActuatorFile, MadeUpServoIsFittedBackThroughTheWorkflow) {
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  const auto truth = madeup_truth();
  const auto logs = madeup_logs(a, truth);
  workflows::FitActuatorOptions o;
  o.actuator = a;
  o.models = {ActuatorModel::M1};
  o.validation = {identify::ServoValidation::Kind::none, 0.0, 4};
  o.trials = 6000;
  o.threads = 2;
  const auto out = workflows::fit_actuator(logs, o);
  EXPECT_GT(out.current_weight, 0.0);  // automatic: the logs have a current in mA
  const auto& p = out.models[0].params.params;
  EXPECT_NEAR(p.kt, truth.kt, 0.02 * truth.kt);
  EXPECT_NEAR(p.R, truth.R, 0.02 * truth.R);
  EXPECT_NEAR(p.armature, truth.armature, 0.02 * truth.armature);
  EXPECT_NEAR(p.friction.Kc, truth.friction.Kc, 0.05 * truth.friction.Kc);
  EXPECT_NEAR(p.friction.Kv, truth.friction.Kv, 0.05 * truth.friction.Kv);
  EXPECT_NEAR(p.q_offset, truth.q_offset, 2e-3);
  EXPECT_LT(out.models[0].train_mae, 2e-3);
  EXPECT_EQ(out.models[0].params.actuator.name, "madeup-m1");
}

TEST(ActuatorFile, MadeUpServoThroughFiles) {
  // the whole path a user takes: ACTUATOR.json and logs on disk, the logs naming the file in
  // "motor" (relative to their directory), fit, parameter file written and read back elsewhere
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / "frictionlab_madeup_servo";
  fs::remove_all(dir);
  fs::create_directories(dir / "logs");
  std::ofstream(dir / "madeup.json") << kMadeUp;
  const auto a = io::read_actuator((dir / "madeup.json").string());
  for (const auto& l : madeup_logs(a, madeup_truth())) {
    nlohmann::json j{
        {"mass", l.mass},       {"length", l.length},        {"kp", l.kp},
        {"dt", l.dt},           {"motor", "../madeup.json"}, {"trajectory", "synthetic"},
        {"current_unit", "mA"}, {"actuator_id", 3}};
    for (std::size_t k = 0; k < l.size(); ++k)
      j["entries"].push_back({{"timestamp", l.timestamp[k]},
                              {"position", l.position[k]},
                              {"speed", l.speed[k]},
                              {"goal_position", l.goal_position[k]},
                              {"torque_enable", l.torque_enable[k] != 0},
                              {"current", l.current[k]},
                              {"torque", 1.0}});
    std::ofstream(dir / "logs" / l.file) << j.dump();
  }
  const auto set = io::read_servo_log_set({(dir / "logs").string()});
  ASSERT_EQ(set.logs.size(), 8u);
  EXPECT_EQ(set.warnings,
            (std::vector<std::string>{
                "keys the models do not use, in 8 logs: actuator_id, entries[].torque"}));
  workflows::FitActuatorOptions o;
  o.actuator = io::servo_actuator_for_logs("", {}, set.logs);  // the logs' "motor"
  EXPECT_EQ(o.actuator.name, "madeup-m1");
  o.models = {ActuatorModel::M1};
  o.validation = {identify::ServoValidation::Kind::none, 0.0, 4};
  o.trials = 6000;
  o.threads = 2;
  const auto out = workflows::fit_actuator(set.logs, o);
  io::write_fit_actuator((dir / "fit").string(), out);
  fs::create_directories(dir / "elsewhere");
  fs::copy_file(dir / "fit" / "m1.json", dir / "elsewhere" / "m1.json");
  const auto back = io::read_servo_params((dir / "elsewhere" / "m1.json").string());
  EXPECT_EQ(back.actuator.name, "madeup-m1");
  const auto truth = madeup_truth();
  EXPECT_NEAR(back.params.kt, truth.kt, 0.02 * truth.kt);
  EXPECT_NEAR(back.params.R, truth.R, 0.02 * truth.R);
  EXPECT_NEAR(back.params.friction.Kv, truth.friction.Kv, 0.05 * truth.friction.Kv);
  fs::remove_all(dir);
}

// ---- actuator check ----

bool has_warning(const workflows::ActuatorCheckOutcome& out, const std::string& check) {
  for (const auto& f : out.findings)
    if (f.check == check && f.warning) return true;
  return false;
}

TEST(ActuatorCheck, ConsistentLogsPassAndInjectedFaultsAreNamed) {
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  const auto truth = madeup_truth();
  workflows::ActuatorCheckOptions o;
  o.threads = 2;
  const auto good = workflows::check_actuator(a, madeup_logs(a, truth), o);
  EXPECT_EQ(good.warnings, 0u);
  EXPECT_LT(good.fitted_mae, good.nominal_mae);
  // kp logged in other units: the firmware ran at the logged kp / 64
  auto scaled = madeup_logs(a, truth);
  for (auto& l : scaled) l.kp *= 64;
  const auto kp = workflows::check_actuator(a, scaled, o);
  EXPECT_TRUE(has_warning(kp, "kp"));
  // the zero of the position at the top: gravity reversed
  auto top = truth;
  top.q_offset = std::numbers::pi;
  EXPECT_TRUE(has_warning(workflows::check_actuator(a, madeup_logs(a, top), o), "gravity"));
  // a zero 0.3 rad off
  auto off = truth;
  off.q_offset = 0.3;
  EXPECT_TRUE(has_warning(workflows::check_actuator(a, madeup_logs(a, off), o), "offset"));
  // a D gain the law has not; a supply that is not the logged one
  auto logs = madeup_logs(a, truth);
  logs[0].kd = 32;
  logs[1].vin = 15.0;
  logs[1].input_volts.assign(logs[1].size(), 12.0);
  const auto misc = workflows::check_actuator(a, logs, o);
  EXPECT_TRUE(has_warning(misc, "gains"));
  EXPECT_TRUE(has_warning(misc, "supply"));
}

TEST(ActuatorFile, UnpublishedConstantsAreNoted) {
  // sts3215-12v borrows max_pwm from the 7.4 V version's measurement: one note; the 7.4 V
  // version's own value is published (BAM's oscilloscope): none.
  const auto v12 = sim::unpublished_constant_notes(*io::builtin_actuator("sts3215-12v"));
  ASSERT_EQ(v12.size(), 1u);
  EXPECT_EQ(v12[0].rfind("control.max_pwm = 0.97 - of actuator 'sts3215-12v' is not published for "
                         "this servo (not published for the 12 V version: borrowed from BAM's",
                         0),
            0u)
      << v12[0];
  EXPECT_TRUE(sim::unpublished_constant_notes(*io::builtin_actuator("sts3215")).empty());
  EXPECT_TRUE(sim::unpublished_constant_notes(io::parse_actuator(kMadeUp, "m.json")).empty());
  // any known constant whose source says so, in SI units
  const auto a = io::parse_actuator(
      replace(kMadeUp, R"("period": {"value": 0, "unit": "ms"})",
              R"("period": {"value": 2, "unit": "ms", "source": "not published: assumed"})"),
      "m.json");
  const auto n = sim::unpublished_constant_notes(a);
  ASSERT_EQ(n.size(), 1u);
  EXPECT_EQ(n[0],
            "control.period = 0.002 s of actuator 'madeup-m1' is not published for this "
            "servo (not published: assumed); a constant of the description, not fitted");
  // actuator check notes it; fit-actuator lists it among its warnings
  const auto logs = madeup_logs(io::parse_actuator(kMadeUp, "m.json"), madeup_truth());
  workflows::ActuatorCheckOptions o;
  o.threads = 2;
  o.evaluations = 50;
  const auto chk = workflows::check_actuator(a, logs, o);
  bool noted = false;
  for (const auto& f : chk.findings)
    noted = noted || (f.check == "unpublished" && !f.warning && f.message == n[0]);
  EXPECT_TRUE(noted);
  workflows::FitActuatorOptions fo;
  fo.actuator = a;
  fo.models = {ActuatorModel::M1};
  fo.validation = workflows::parse_servo_validation("none");
  fo.trials = 30;
  fo.threads = 1;
  const auto fit = workflows::fit_actuator(logs, fo);
  EXPECT_NE(std::find(fit.warnings.begin(), fit.warnings.end(), n[0]), fit.warnings.end());
}

TEST(ActuatorCheck, AlwaysSaturatedIsNamed) {
  // The logs of the made-up servo checked against a description whose PWM limit is 0.02: the
  // output the firmware asks for (duty kp error_gain e) is above 0.02 at almost every entry.
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  const auto logs = madeup_logs(a, madeup_truth());
  const auto weak =
      io::parse_actuator(replace(kMadeUp, R"("max_pwm": {"value": 0.95, "unit": "-"})",
                                 R"("max_pwm": {"value": 0.02, "unit": "-"})"),
                         "weak.json");
  workflows::ActuatorCheckOptions o;
  o.threads = 2;
  o.evaluations = 100;
  const auto out = workflows::check_actuator(weak, logs, o);
  EXPECT_TRUE(has_warning(out, "saturation"));
  std::size_t saturated = 0;  // the logs above 90 %, counted here from the per-log table
  for (const auto& l : out.logs) saturated += l.saturated > 0.9 ? 1 : 0;
  ASSERT_GT(saturated, 0u);
  for (const auto& f : out.findings)
    if (f.check == "saturation") {
      EXPECT_EQ(f.logs.size(), saturated) << f.message;
    }
  // as described, the same logs are not always saturated
  EXPECT_FALSE(has_warning(workflows::check_actuator(a, logs, o), "saturation"));
}

TEST(ActuatorCheck, FindingsSharedByLogsAreOneLineWithCounts) {
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  auto logs = madeup_logs(a, madeup_truth());
  const std::size_t n = logs.size();
  ASSERT_GT(n, 3u);
  // every log: vin 15 V logged while input_volts reads 11.9 .. 12.1 V, a current without a unit,
  // a max_torque of 50; one log alone has kd = 32
  for (std::size_t i = 0; i < n; ++i) {
    logs[i].vin = 15.0;
    logs[i].input_volts.assign(logs[i].size(),
                               11.9 + 0.2 * static_cast<double>(i) / static_cast<double>(n - 1));
    logs[i].current_unit.clear();
    logs[i].max_torque = 50.0;
  }
  logs[2].kd = 32;
  workflows::ActuatorCheckOptions o;
  o.threads = 2;
  o.evaluations = 100;
  const auto out = workflows::check_actuator(a, logs, o);
  auto findings = [&](const std::string& check) {
    std::vector<workflows::ActuatorFinding> r;
    for (const auto& f : out.findings)
      if (f.check == check) r.push_back(f);
    return r;
  };
  const std::string head = "in " + std::to_string(n) + " of " + std::to_string(n) + " logs (" +
                           logs[0].file + ", " + logs[1].file + ", " + logs[2].file + ", ...): ";
  for (const char* check : {"supply", "current", "max_torque"}) {
    const auto f = findings(check);
    ASSERT_EQ(f.size(), 1u) << check;
    EXPECT_TRUE(f[0].warning);
    EXPECT_EQ(f[0].log, "");
    EXPECT_EQ(f[0].logs.size(), n);
    EXPECT_EQ(f[0].message.rfind(head, 0), 0u) << f[0].message;
  }
  EXPECT_NE(findings("supply")[0].message.find("input_volts average 11.9 .. 12.1 V"),
            std::string::npos)
      << findings("supply")[0].message;
  EXPECT_NE(findings("max_torque")[0].message.find("max_torque = 50"), std::string::npos);
  // a finding of one log keeps its name
  const auto gains = findings("gains");
  ASSERT_EQ(gains.size(), 1u);
  EXPECT_EQ(gains[0].log, logs[2].file);
  EXPECT_EQ(gains[0].message.rfind("the log has kd = 32", 0), 0u) << gains[0].message;
  // max_torque 100 (the full output) is what the simulation assumes: nothing to say
  for (auto& l : logs) l.max_torque = 100.0;
  const auto full = workflows::check_actuator(a, logs, o);
  for (const auto& f : full.findings) EXPECT_NE(f.check, "max_torque") << f.message;
}

TEST(ServoLogs, ResamplingProcessedLogsAgainIsOneWarning) {
  const auto a = io::parse_actuator(kMadeUp, "madeup.json");
  const auto logs = madeup_logs(a, madeup_truth());
  workflows::ServoLogPreparation prep;
  prep.resample = 0.01;
  const auto out = workflows::prepare_servo_logs(logs, prep);
  ASSERT_EQ(out.logs.size(), logs.size());
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0], std::to_string(logs.size()) + " of " + std::to_string(logs.size()) +
                                 " logs already at a fixed step (dt = 0.005) resampled again to "
                                 "0.01: " +
                                 logs[0].file + ", " + logs[1].file + ", " + logs[2].file +
                                 ", ...");
  // one log: its own line, as before
  const auto one = workflows::prepare_servo_logs({logs[0]}, prep);
  ASSERT_EQ(one.warnings.size(), 1u);
  EXPECT_EQ(one.warnings[0], logs[0].file +
                                 ": already at a fixed step (dt = 0.005), resampled "
                                 "again to 0.01");
}

}  // namespace
}  // namespace frictionlab
