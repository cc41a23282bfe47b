// frictionlab: servo actuator on a pendulum test bench, re-simulated in closed loop from a log's
// goal positions, with the friction budgets M1..M6 applied by the stopping-torque rule
// (reference 002, the BAM actuator-modelling package; semantics and sources: docs/actuators.md).
//
// Test bench (bam/testbench.py, Pendulum): a point mass `mass` [kg] at distance `length` [m]
// on an arm of mass `arm_mass` [kg] (a uniform rod), q = 0 hanging down:
//   I_bench   = mass L^2 + arm_mass L^2 / 3                                   [kg m^2]
//   tau_e(q)  = -(mass + arm_mass / 2) g L sin(q + q_offset),  g = 9.80665     [Nm]
// q_offset [rad] is the bench's zero error; the joint inertia adds the apparent rotor inertia
// `armature` [kg m^2]: I = I_bench + armature.
//
// DC motor, joint side (bam/actuator.py): torque constant kt [Nm/A = V s/rad], resistance R [Ohm],
// inductance neglected. Voltage drive: tau_m = (kt V - kt^2 qd) / R (back-EMF kt qd).
// Current drive: tau_m = kt i. A disabled torque (torque_enable false) gives tau_m = 0.
//
// Servo firmware (a position loop computed from the *simulated* state; ACTUATOR.json's "control",
// docs/actuators.md): with e = q_target - q, set to 0 where |e| < deadband,
//   command = error_gain (kp e + kd kd_gain (-qd) + ki ki_gain integral(e dt))
// (law "p": kd = ki terms absent; "pd": no ki term; derivative on the measurement, so a goal step
// gives no derivative kick). kp, kd, ki are the firmware's register values of the log; error_gain
// converts kp rad into duty [1/rad] (voltage drive) or amps [A/rad] (current drive), kd_gain [s]
// and ki_gain [1/s] scale kd and ki relative to kp. The integral stops while the output is
// saturated in the direction of e (conditional integration, no wind-up). With period > 0 the
// output is computed at the step nearest to each multiple of the period and held in between.
// The saturation of the command:
//   voltage drive: duty = command; with max_current > 0 the duty is first
//                  clamped to the current-limit window [(kt qd - R Imax)/vin, (kt qd + R Imax)/vin]
//                  (so that |(duty vin - kt qd)/R| <= Imax where the battery allows it), then to
//                  [-max_pwm, max_pwm]; V = vin duty.
//   current drive: i = command, clamped to the voltage-feasible range
//                  [(-vin - kt qd)/R, (vin - kt qd)/R], then to [-current_limit, current_limit].
//
// One step of length h (bam/simulate.py, Simulator.step), state (q, qd) at the start:
//   tau_m, tau_e as above at (q, qd); budget = friction_budget(model, friction, qd, tau_m, tau_e)
//   tau_f  = stopping_friction(I, h, qd, tau_m + tau_e, budget)     (models/actuator_budgets.hpp)
//   a      = (tau_m + tau_e + tau_f) / I
//   qd+    = clip(qd + a h, -100, 100)                              [rad/s]
//   q+     = q + qd+ h + a h^2 / 2
// The position update uses the *new* velocity plus a h^2/2 (as the reference does; it is not the
// constant-acceleration formula q + qd h + a h^2/2). Friction cannot reverse the velocity within
// a step (stopping_friction).
//
// Temperature (optional: ServoParams::temperature, a law of models/temperature_dependence.hpp):
// with T [degC] the log's temperature at the entry (ServoRunInput::temperature), the step's
// budget is friction_budget_given_factor with level = level_scale(T) and viscous =
// viscous_scale(T): Kv |v| scaled by the one, every other friction term by the other. Without a
// law (the default) the budget is BAM's, bit for bit. Not in BAM.
//
// Closed-loop re-simulation of a log (bam/simulate.py, rollout_log with simulate_control): the
// state starts at the first entry's logged position and speed; for every entry k the simulated
// state (q_k, qd_k) is recorded *before* the step, then the control is computed from the entry's
// goal position and the simulated q_k, and the step is taken with the entry's torque_enable. So
// q_0 equals the logged position and q_k depends on goals 0..k-1. No resets (the whole log in
// one run).
//
// Everything here is header-only, noexcept and allocation-free; the parameter checks with
// messages are in io/servo_json (files) and identify/servo_fit.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>

#include "frictionlab/models/actuator_budgets.hpp"
#include "frictionlab/models/temperature_dependence.hpp"
#include "frictionlab/names.hpp"

namespace frictionlab::sim {

/// Standard gravity used by the reference bench [m/s^2].
inline constexpr double kServoGravity = 9.80665;
/// The reference simulator clips the joint velocity to +-100 rad/s after every step.
inline constexpr double kServoVelocityClip = 100.0;

enum class ServoDrive {
  voltage,  ///< firmware commands a PWM duty cycle (Dynamixel, Feetech)
  current,  ///< firmware commands a motor current
};

/// Which terms the firmware's position loop has.
enum class ServoLaw {
  p,    ///< proportional
  pd,   ///< proportional + derivative (on the measurement)
  pid,  ///< proportional + integral + derivative
};

/// The laws' names (ACTUATOR.json "control.law").
inline constexpr std::array<Named<ServoLaw>, 3> kServoLawNames{
    {{ServoLaw::p, "p"}, {ServoLaw::pd, "pd"}, {ServoLaw::pid, "pid"}}};
static_assert(names_every(kServoLawNames, ServoLaw::pid));

/// Firmware constants of a servo family: known, not identified (an ACTUATOR.json file's drive
/// and "control", io/actuator_file.hpp; a parameter file may give them for a generic servo).
struct ServoConstants {
  ServoDrive drive = ServoDrive::voltage;
  double vin = 12.0;  ///< default supply voltage [V] (a log's "vin" overrides it)
  /// voltage drive: duty per (kp rad) [1/rad]; current drive: current per (kp rad) [A/rad]
  double error_gain = 1.0;
  double max_pwm = 1.0;      ///< |duty| limit [-] (voltage drive), in (0, 1]
  double max_current = 0.0;  ///< firmware current-limit window [A] (voltage drive); 0 = none
  ServoLaw law = ServoLaw::p;
  double kd_gain = 0.0;   ///< weight of kd relative to kp [s] (law pd, pid)
  double ki_gain = 0.0;   ///< weight of ki relative to kp [1/s] (law pid)
  double deadband = 0.0;  ///< position errors below this are 0 [rad], >= 0
  double period = 0.0;    ///< control period [s]; 0: the output is computed at every step
};

/// Pendulum test bench (bam/testbench.py, Pendulum).
struct PendulumBench {
  double mass = 0.0;      ///< point mass at the tip [kg], >= 0
  double length = 0.0;    ///< distance of the mass from the axis [m], > 0
  double arm_mass = 0.0;  ///< mass of the arm (uniform rod of length `length`) [kg], >= 0

  /// Inertia about the axis [kg m^2].
  double inertia() const noexcept {
    return mass * length * length + arm_mass / 3.0 * length * length;
  }
  /// The gravity torque's amplitude: tau_e(q) = gravity_coefficient() sin(q) [Nm].
  double gravity_coefficient() const noexcept {
    return (mass + arm_mass / 2.0) * -kServoGravity * length;
  }
  /// Gravity torque at the joint angle q [rad] (0 = hanging down) [Nm].
  double gravity_torque(double q) const noexcept { return gravity_coefficient() * std::sin(q); }
};

/// Identified parameters of a servo (BAM parameter-file keys in docs/actuators.md).
struct ServoParams {
  double kt = 1.0;             ///< torque constant [Nm/A], > 0
  double R = 1.0;              ///< winding resistance [Ohm], > 0
  double armature = 0.0;       ///< apparent rotor inertia at the joint [kg m^2], >= 0
  double q_offset = 0.0;       ///< bench zero offset [rad]
  double current_limit = 0.0;  ///< current drive only: current cap [A], > 0
  ActuatorModel model = ActuatorModel::M1;
  ActuatorFrictionParams<double> friction;
  /// The friction's temperature law (header): empty, the friction does not depend on the
  /// temperature (BAM's models); else every log simulated needs its temperature per entry.
  std::optional<TemperatureDependence<double>> temperature;
};

struct ServoState {
  double q = 0.0;   ///< joint angle [rad]
  double qd = 0.0;  ///< joint velocity [rad/s]
};

/// The firmware's control output: volts [V] (voltage drive) or amps [A] (current drive), from
/// the target and the simulated state (header).
/// The saturation of a command (duty [-] for a voltage drive, amps for a current drive) into the
/// control output at velocity qd (header).
inline double servo_saturate(const ServoConstants& c, const ServoParams& p, double vin,
                             double command, double qd) noexcept {
  if (c.drive == ServoDrive::voltage) {
    double duty = command;
    if (c.max_current > 0.0) {
      const double center = p.kt * qd / vin, span = p.R * c.max_current / vin;
      duty = std::clamp(duty, center - span, center + span);
    }
    duty = std::clamp(duty, -c.max_pwm, c.max_pwm);
    return vin * duty;
  }
  // current drive: voltage-feasible range first, then the user cap (bam/actuator.py order)
  double i = command;
  const double lo = (-vin - p.kt * qd) / p.R, hi = (vin - p.kt * qd) / p.R;
  i = std::min(std::max(i, lo), hi);
  i = std::min(std::max(i, -p.current_limit), p.current_limit);
  return i;
}

/// A proportional loop's output: servo_saturate of (q_target - q) kp error_gain (header).
inline double servo_control(const ServoConstants& c, const ServoParams& p, double kp, double vin,
                            double q_target, double q, double qd) noexcept {
  return servo_saturate(c, p, vin, (q_target - q) * kp * c.error_gain, qd);
}

/// Motor torque [Nm] produced by the control output at velocity qd (header).
inline double servo_motor_torque(const ServoConstants& c, const ServoParams& p, double control,
                                 bool torque_enable, double qd) noexcept {
  if (!torque_enable) return 0.0;
  if (c.drive == ServoDrive::voltage) return (p.kt * control - p.kt * p.kt * qd) / p.R;
  return p.kt * control;
}

/// Motor current [A] under the control output at velocity qd (header): voltage drive
/// (V - kt qd) / R, current drive the commanded current; 0 with the torque disabled. The motor
/// torque is kt times it.
inline double servo_motor_current(const ServoConstants& c, const ServoParams& p, double control,
                                  bool torque_enable, double qd) noexcept {
  if (!torque_enable) return 0.0;
  if (c.drive == ServoDrive::voltage) return (control - p.kt * qd) / p.R;
  return control;
}

/// Torques of one step, for inspection (servo_step's optional output).
struct ServoStepTorques {
  double motor = 0.0;     ///< tau_m [Nm]
  double external = 0.0;  ///< tau_e (gravity) [Nm]
  double budget = 0.0;    ///< friction budget tau_fm [Nm]
  double friction = 0.0;  ///< applied friction tau_f [Nm]
};

/// The transcendental terms of a step, functions of the state at its start only: the sine of
/// the gravity torque and the Stribeck factor (1 for a model without one). A rollout of several
/// logs computes them for all of them before it finishes any step (servo_rollout_batch).
struct ServoStepTerms {
  double sine = 0.0;      ///< sin(q + q_offset)
  double stribeck = 1.0;  ///< s(qd) = exp(-|qd/vs|^alpha)
  /// the temperature scales of the entry's step (header): level_scale(T) of the dry terms and
  /// viscous_scale(T) of Kv |v| [-]; 1 without a temperature law (servo_temperature_terms)
  double level = 1.0, viscous = 1.0;
  /// the angle q + q_offset of `sine` (NaN: none yet). A step of a joint that sticks leaves q
  /// exactly as it was (a = 0, qd+ = 0), so servo_rollout_batch keeps the terms of a lane from
  /// step to step and recomputes the sine only where the angle changed. (servo_rollout does not:
  /// the fits' loss runs the batch.)
  double angle = std::numeric_limits<double>::quiet_NaN();
};

/// The terms of L states at once, updating t[j] from the previous step's terms of lane j (lanes
/// with active[j] false are left as they are), the calls grouped by function (every sine, then
/// every Stribeck power, then every exponential) so that the processor overlaps them: they are
/// independent across lanes.
template <std::size_t L>
void servo_step_terms(const ServoParams& p, const ServoState (&x)[L], const bool (&active)[L],
                      ServoStepTerms (&t)[L]) noexcept {
  for (std::size_t j = 0; j < L; ++j) {
    const double angle = x[j].q + p.q_offset;
    if (active[j] && angle != t[j].angle) {
      t[j].sine = std::sin(angle);
      t[j].angle = angle;
    }
  }
  if (!model_has_stribeck(p.model)) return;
  double e[L];
  for (std::size_t j = 0; j < L; ++j)
    e[j] = active[j] ? actuator_stribeck_exponent(p.friction, x[j].qd) : 0.0;
  for (std::size_t j = 0; j < L; ++j)
    if (active[j]) t[j].stribeck = actuator_stribeck_factor_of(e[j]);
}

/// The terms of one state (written out, not as the lane form with L = 1: through the arrays the
/// state of a single rollout went through memory, 27 -> 34 us for a 6 s log).
inline ServoStepTerms servo_step_terms(const ServoParams& p, const ServoState& x) noexcept {
  ServoStepTerms t;
  t.angle = x.q + p.q_offset;
  t.sine = std::sin(t.angle);
  if (model_has_stribeck(p.model)) t.stribeck = actuator_stribeck_factor(p.friction, x.qd);
  return t;
}

/// The temperature scales of a step at the temperature T [degC] (header); left at 1 without a
/// temperature law.
inline void servo_temperature_terms(const ServoParams& p, double T, ServoStepTerms& t) noexcept {
  if (!p.temperature) return;
  t.level = level_scale(*p.temperature, T);
  t.viscous = viscous_scale(*p.temperature, T);
}

/// The temperature [degC] of entry k of a run (NaN where the run has none: a law then gives a
/// NaN budget, never a silent T_ref; the callers check, identify/servo_fit.hpp).
inline double servo_entry_temperature(std::span<const double> temperature, std::size_t k) noexcept {
  return k < temperature.size() ? temperature[k] : std::numeric_limits<double>::quiet_NaN();
}

/// What a step needs of the bench, the parameters and the step length, constant over a run:
/// computed once per rollout, not at every step (the same values, so the same steps).
struct ServoStepConstants {
  double h = 0.0;               ///< step [s]
  double gravity = 0.0;         ///< bench.gravity_coefficient() [Nm]
  double inertia = 0.0;         ///< bench.inertia() + armature [kg m^2]
  double inertia_over_h = 0.0;  ///< inertia / h [kg m^2/s]
};

inline ServoStepConstants servo_step_constants(const ServoParams& p, const PendulumBench& bench,
                                               double h) noexcept {
  ServoStepConstants k;
  k.h = h;
  k.gravity = bench.gravity_coefficient();
  k.inertia = bench.inertia() + p.armature;
  k.inertia_over_h = k.inertia / h;
  return k;
}

/// One step from state x under the control output `control`, given the run's constants
/// servo_step_constants(p, bench, h) and the step's terms servo_step_terms(p, x) (header).
inline ServoState servo_step_given(const ServoConstants& c, const ServoParams& p,
                                   const ServoStepConstants& k, ServoState x, double control,
                                   bool torque_enable, const ServoStepTerms& terms,
                                   ServoStepTorques* torques = nullptr) noexcept {
  const double tau_e = k.gravity * terms.sine;
  const double tau_m = servo_motor_torque(c, p, control, torque_enable, x.qd);
  const double budget = friction_budget_given_factor(p.model, p.friction, x.qd, tau_m, tau_e,
                                                     terms.stribeck, terms.level, terms.viscous);
  const double tau_net = tau_m + tau_e;
  const double tau_f = stopping_friction_given_ratio(k.inertia_over_h, x.qd, tau_net, budget);
  const double a = (tau_net + tau_f) / k.inertia;
  const double h = k.h;
  ServoState y;
  y.qd = std::clamp(x.qd + a * h, -kServoVelocityClip, kServoVelocityClip);
  y.q = x.q + y.qd * h + 0.5 * a * h * h;
  if (torques) *torques = {tau_m, tau_e, budget, tau_f};
  return y;
}

/// One step of length h [s] from state x under the control output `control` (header).
inline ServoState servo_step(const ServoConstants& c, const ServoParams& p,
                             const PendulumBench& bench, ServoState x, double control,
                             bool torque_enable, double h,
                             ServoStepTorques* torques = nullptr) noexcept {
  return servo_step_given(c, p, servo_step_constants(p, bench, h), x, control, torque_enable,
                          servo_step_terms(p, x), torques);
}

/// What a closed-loop re-simulation needs from a log (a view: the caller owns the arrays).
struct ServoRunInput {
  double dt = 0.0;   ///< fixed step [s], > 0
  double kp = 0.0;   ///< firmware gain of the log
  double kd = 0.0;   ///< firmware derivative gain of the log (law pd, pid)
  double ki = 0.0;   ///< firmware integral gain of the log (law pid)
  double vin = 0.0;  ///< supply voltage of the log [V]
  PendulumBench bench;
  ServoState initial;                            ///< logged position and speed of entry 0
  std::span<const double> goal;                  ///< goal position per entry [rad]
  std::span<const unsigned char> torque_enable;  ///< per entry (0/1), same length as goal
  /// temperature per entry [degC], same length as goal; empty: none (needed by parameters with
  /// a temperature law)
  std::span<const double> temperature;
};

/// The firmware's memory between steps: its integral and held output.
struct ServoFirmwareState {
  double integral = 0.0;  ///< integral of the position error [rad s]
  double held = 0.0;      ///< the output computed last
  double since = 0.0;     ///< time since that computation [s]
  bool started = false;
  bool saturated = false;  ///< whether that output was limited (duty, current window, supply)
};

/// The firmware's output at a step that starts in state x (the law of the header); updates the
/// firmware state. For a p law without deadband and period it is servo_control, bit for bit
/// (the same operations in the same order) (header).
inline double servo_firmware(const ServoConstants& c, const ServoParams& p, const ServoRunInput& in,
                             double q_target, const ServoState& x, ServoFirmwareState& s) noexcept {
  if (c.period > 0.0 && s.started) {
    s.since += in.dt;
    if (s.since < c.period - 0.5 * in.dt) return s.held;
    s.since -= c.period;
  }
  s.started = true;
  double e = q_target - x.q;
  if (std::abs(e) < c.deadband) e = 0.0;
  double command = e * in.kp;
  if (c.law != ServoLaw::p) command -= in.kd * c.kd_gain * x.qd;
  if (c.law == ServoLaw::pid) command += in.ki * c.ki_gain * s.integral;
  command *= c.error_gain;
  const double u = servo_saturate(c, p, in.vin, command, x.qd);
  const double unsaturated = c.drive == ServoDrive::voltage ? in.vin * command : command;
  s.saturated = u != unsaturated;
  if (c.law == ServoLaw::pid && !(s.saturated && (e > 0.0) == (unsaturated > u)))
    s.integral += e * (c.period > 0.0 ? c.period : in.dt);
  s.held = u;
  return u;
}

/// What the firmware did at one entry (the optional last argument of a rollout's sink; the
/// motor current is servo_motor_current(c, p, control, enabled, qd)).
struct ServoStepInfo {
  double control = 0.0;    ///< firmware output: volts (voltage drive) or amps (current drive)
  bool enabled = false;    ///< torque enabled at this entry
  bool saturated = false;  ///< the output was limited (ServoFirmwareState::saturated)
};

/// Closed-loop re-simulation (header): calls sink(k, state_k) for every entry k = 0..N-1 with
/// the simulated state recorded before entry k's step. The sink may return void or bool (false
/// stops the run early). A sink that takes a third argument gets the entry's ServoStepInfo.
template <class Sink>
void servo_rollout(const ServoConstants& c, const ServoParams& p, const ServoRunInput& in,
                   Sink&& sink) {
  ServoState x = in.initial;
  ServoFirmwareState fw;
  const ServoStepConstants sk = servo_step_constants(p, in.bench, in.dt);
  const std::size_t n = in.goal.size();
  for (std::size_t k = 0; k < n; ++k) {
    const double u = servo_firmware(c, p, in, in.goal[k], x, fw);
    const bool enabled = in.torque_enable[k] != 0;
    if constexpr (std::is_invocable_v<Sink&, std::size_t, ServoState, ServoStepInfo>) {
      const ServoStepInfo info{u, enabled, fw.saturated};
      if constexpr (std::is_same_v<decltype(sink(k, x, info)), bool>) {
        if (!sink(k, x, info)) return;
      } else {
        sink(k, x, info);
      }
    } else if constexpr (std::is_same_v<decltype(sink(k, x)), bool>) {
      if (!sink(k, x)) return;
    } else {
      sink(k, x);
    }
    ServoStepTerms terms = servo_step_terms(p, x);
    servo_temperature_terms(p, servo_entry_temperature(in.temperature, k), terms);
    x = servo_step_given(c, p, sk, x, u, enabled, terms);
  }
}

/// Closed-loop re-simulation of several logs at once (header): the logs are taken in groups of
/// `Lanes` and the entries of a group are stepped in lockstep, entry k of every log of the group
/// before entry k + 1. Every log gets exactly the arithmetic of servo_rollout (the same states,
/// bit for bit); interleaving independent logs lets the processor overlap their step-to-step
/// dependency chains (the sine, power and exponential of a step wait for the previous step).
/// Calls sink(i, k, state_k) for log i (index into `in`) and its entries k = 0..N_i-1 in
/// increasing k per log; the order between logs of a group is interleaved. A sink that takes a
/// fourth argument gets the entry's ServoStepInfo.
template <std::size_t Lanes = 4, class Sink>
void servo_rollout_batch(const ServoConstants& constants, const ServoParams& params,
                         std::span<const ServoRunInput> in, Sink&& sink) {
  static_assert(Lanes >= 1);
  const ServoConstants c = constants;
  const ServoParams p = params;
  for (std::size_t first = 0; first < in.size(); first += Lanes) {
    const std::size_t lanes = std::min(Lanes, in.size() - first);
    ServoState x[Lanes];
    ServoFirmwareState fw[Lanes];
    ServoStepConstants sk[Lanes];
    std::size_t n[Lanes];
    std::size_t longest = 0;
    for (std::size_t j = 0; j < Lanes; ++j) {
      x[j] = j < lanes ? in[first + j].initial : ServoState{};
      n[j] = j < lanes ? in[first + j].goal.size() : 0;
      if (j < lanes) sk[j] = servo_step_constants(p, in[first + j].bench, in[first + j].dt);
      longest = std::max(longest, n[j]);
    }
    ServoStepTerms terms[Lanes];
    for (std::size_t k = 0; k < longest; ++k) {
      // the transcendental terms of every lane first: independent calls that the processor
      // overlaps (each lane's step waits for them, the other lanes' calls do not)
      bool active[Lanes];
      for (std::size_t j = 0; j < Lanes; ++j) active[j] = k < n[j];
      servo_step_terms(p, x, active, terms);
      for (std::size_t j = 0; j < Lanes; ++j) {
        if (!active[j]) continue;
        const ServoRunInput& r = in[first + j];
        servo_temperature_terms(p, servo_entry_temperature(r.temperature, k), terms[j]);
        const double u = servo_firmware(c, p, r, r.goal[k], x[j], fw[j]);
        const bool enabled = r.torque_enable[k] != 0;
        if constexpr (std::is_invocable_v<Sink&, std::size_t, std::size_t, ServoState,
                                          ServoStepInfo>)
          sink(first + j, k, x[j], ServoStepInfo{u, enabled, fw[j].saturated});
        else
          sink(first + j, k, x[j]);
        x[j] = servo_step_given(c, p, sk[j], x[j], u, enabled, terms[j]);
      }
    }
  }
}

}  // namespace frictionlab::sim
