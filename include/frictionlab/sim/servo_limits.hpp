// frictionlab: the plausible ranges of every servo quantity read from a BAM log, an actuator
// parameter file, an ACTUATOR.json or a command-line option (the policy: frictionlab/limits.hpp;
// the table with the reasons: docs/file-formats.md, "Limits"). Generous but finite:
// each range holds every hobby servo and industrial joint drive we know of by orders of
// magnitude, and excludes what would overflow the simulation (kt^2 qd / R, 1 / dt).
#pragma once

#include <string_view>

#include "frictionlab/limits.hpp"

namespace frictionlab::sim::servo_limits {

// ---- a log's header and entries (data::check_servo_log) ----
inline constexpr Limit kMass{0.0, 1e4, "kg"};         ///< mass, arm_mass
inline constexpr Limit kLength{1e-6, 1e3, "m"};       ///< pendulum length
inline constexpr Limit kKp{1e-6, 1e6, "-"};           ///< firmware gain (register units)
inline constexpr Limit kKdKi{0.0, 1e6, "-"};          ///< firmware kd, ki (register units)
inline constexpr Limit kSupply{0.1, 1000.0, "V"};     ///< vin, supply_voltage, --vin
inline constexpr Limit kStep{1e-6, 10.0, "s"};        ///< dt, --resample, control.period
inline constexpr Limit kTimestamp{-1e10, 1e10, "s"};  ///< entries[].timestamp (epoch fits)
inline constexpr Limit kAngle{-1e6, 1e6, "rad"};      ///< position, goal_position
inline constexpr Limit kSpeed{-1e5, 1e5, "rad/s"};    ///< entries[].speed
inline constexpr Limit kCurrent{-1e4, 1e4, "A"};      ///< entries[].current (in amps)
/// entries[].temp, T_ref: from absolute zero to beyond any servo's (a log in kelvin also fits:
/// the laws use temperature differences only)
inline constexpr Limit kTemperature{-273.15, 1000.0, "degC"};

// ---- model parameters (BAM keys; check_servo_params, --range) ----
inline constexpr Limit kTorqueConstant{1e-6, 1e3, "N m/A"};  ///< kt
inline constexpr Limit kResistance{1e-6, 1e6, "ohm"};        ///< R
inline constexpr Limit kArmature{0.0, 1e3, "kg m^2"};        ///< armature
inline constexpr Limit kOffset{-100.0, 100.0, "rad"};        ///< q_offset
inline constexpr Limit kCurrentLimit{1e-6, 1e4, "A"};        ///< current_limit
inline constexpr Limit kFrictionTorque{0.0, 1e4, "N m"};     ///< friction_base, friction_stribeck
inline constexpr Limit kViscous{0.0, 1e4, "N m s/rad"};      ///< friction_viscous
inline constexpr Limit kLoadRatio{0.0, 1e3, "-"};            ///< load_friction_* (not _quad)
inline constexpr Limit kLoadQuad{0.0, 1e3, "1/(N m)"};       ///< load_friction_*_quad
inline constexpr Limit kStribeckSpeed{1e-6, 1e4, "rad/s"};   ///< dtheta_stribeck
inline constexpr Limit kAlpha{0.01, 100.0, "-"};             ///< alpha

/// kT, kT_v of a temperature law (a level that changed by 1000 % per kelvin is no friction law)
inline constexpr Limit kTemperatureSlope{-10.0, 10.0, "1/K"};

// ---- an actuator's firmware and motor (ACTUATOR.json, generic actuator options) ----
inline constexpr Limit kErrorGain{1e-12, 1e6, "1/rad or A/rad"};  ///< control.error_gain
inline constexpr Limit kMaxPwm{1e-6, 1.0, "-"};                   ///< control.max_pwm
inline constexpr Limit kMaxCurrent{0.0, 1e4, "A"};                ///< control.max_current (0: none)
inline constexpr Limit kKdGain{0.0, 1e3, "s"};                    ///< control.kd_gain
inline constexpr Limit kKiGain{0.0, 1e6, "1/s"};                  ///< control.ki_gain
inline constexpr Limit kDeadband{0.0, 1.0, "rad"};                ///< control.deadband
inline constexpr Limit kGearRatio{1e-3, 1e5, "-"};                ///< motor.gear_ratio
inline constexpr Limit kCountsPerTurn{1.0, 1e9, "-"};             ///< encoder.counts_per_turn
inline constexpr Limit kScale{1e-6, 1e9, "-"};  ///< error_gain_from: kp_divisor, output_full_scale

/// The plausible range of a parameter named by its BAM key (sim::servo_param_keys); kAnyNumber
/// for a key that is not one.
inline Limit param_limit(std::string_view key) noexcept {
  if (key == "kt") return kTorqueConstant;
  if (key == "R") return kResistance;
  if (key == "armature") return kArmature;
  if (key == "q_offset") return kOffset;
  if (key == "current_limit") return kCurrentLimit;
  if (key == "friction_base" || key == "friction_stribeck") return kFrictionTorque;
  if (key == "friction_viscous") return kViscous;
  if (key == "dtheta_stribeck") return kStribeckSpeed;
  if (key == "alpha") return kAlpha;
  if (key == "load_friction_motor_quad" || key == "load_friction_external_quad") return kLoadQuad;
  if (key.starts_with("load_friction_")) return kLoadRatio;
  if (key == "kT" || key == "kT_v") return kTemperatureSlope;
  if (key == "T_ref") return kTemperature;
  return kAnyNumber;
}

}  // namespace frictionlab::sim::servo_limits
