// frictionlab: the built-in servo families (firmware constants and the identification ranges of
// their motor parameters), from the BAM actuator-modelling package (reference 002). Sources, per
// family, in docs/actuators.md ("Actuator families").
//
// A parameter file names its family in "actuator"; the name "generic" means a voltage- or
// current-driven servo whose firmware constants are given in the parameter file itself
// (io/servo_json.hpp).
#pragma once

#include <array>
#include <cmath>
#include <numbers>
#include <string_view>

#include "frictionlab/sim/servo.hpp"

namespace frictionlab::sim {

/// A closed interval [lo, hi].
struct ServoRange {
  double lo = 0.0, hi = 0.0;
};

struct ServoActuator {
  std::string_view name;
  ServoConstants constants;
  /// Identification ranges of kt [Nm/A], R [Ohm], armature [kg m^2] (BAM's Parameter bounds).
  ServoRange kt, R, armature;
};

/// Dynamixel XL330: duty = kp * error_gain * error with error_gain = (4096 / 2 pi) / (256 * 885):
/// 4096 encoder counts per turn, the firmware divides kp by 256 (observed by BAM's authors; the
/// manual says 128) and the default PWM limit register is 885 (bam/xl330/actuator.py).
inline constexpr double kXl330ErrorGain = (4096.0 / (2.0 * std::numbers::pi)) / (256.0 * 885.0);

inline constexpr std::array<ServoActuator, 5> kServoActuators{{
    {"xl330", {ServoDrive::voltage, 7.4, kXl330ErrorGain, 1.0, 0.0},
     {0.3, 3.0}, {0.5, 5.0}, {1e-4, 0.05}},
    {"mx64", {ServoDrive::voltage, 15.0, 0.158, 0.9625, 0.0},
     {1.0, 3.0}, {1.0, 5.0}, {1e-3, 0.05}},
    {"mx106", {ServoDrive::voltage, 15.0, 0.158, 0.9625, 0.0},
     {1.0, 3.0}, {1.0, 5.0}, {1e-3, 0.05}},
    {"xl320", {ServoDrive::voltage, 7.5, 0.05048199, 1.0, 0.0},
     {0.7, 1.5}, {7.0, 40.0}, {1e-4, 0.01}},
    {"xc330m288t", {ServoDrive::voltage, 5.1, 0.00575504, 1.0, 0.0},
     {1.0, 3.0}, {1.0, 5.0}, {1e-4, 1e-3}},
}};

/// The built-in family `name`, or nullptr.
inline const ServoActuator* find_servo_actuator(std::string_view name) noexcept {
  for (const auto& a : kServoActuators)
    if (a.name == name) return &a;
  return nullptr;
}

/// Identification ranges for a "generic" servo (kt, R, armature): wide, for any small servo.
inline constexpr ServoActuator kGenericServo{
    "generic", {}, {0.01, 10.0}, {0.1, 50.0}, {1e-5, 0.1}};

}  // namespace frictionlab::sim
