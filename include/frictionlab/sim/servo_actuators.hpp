// frictionlab: what the simulator and the fits know of a servo family: its firmware constants
// (sim/servo.hpp, ServoConstants), the identification ranges and nominal values of its motor
// constants, and the documentation fields of its description. Descriptions are ACTUATOR.json
// files (format and the built-in families: io/actuator_file.hpp, docs/actuators.md); this header
// is the plain data they are read into.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/sim/servo.hpp"

namespace frictionlab::sim {

/// A closed interval [lo, hi].
struct ServoRange {
  double lo = 0.0, hi = 0.0;
};

/// A motor constant of a description: identified within `range`; `nominal` is the value a
/// source gives (empty: not published), used by `actuator check` and as a fit's starting point.
struct ServoConstant {
  ServoRange range;
  std::optional<double> nominal;
  /// The nominal value, else the geometric mean of the range (both ends > 0), else its middle.
  double nominal_or_middle() const noexcept {
    if (nominal) return *nominal;
    if (range.lo > 0.0 && range.hi > 0.0) return std::sqrt(range.lo * range.hi);
    return 0.5 * (range.lo + range.hi);
  }
};

/// A servo family (one ACTUATOR.json).
struct ServoActuator {
  std::string name;         ///< e.g. "xl330", "sts3215"
  std::string description;  ///< free text
  /// Where it was read from: "built in" or the file's path (for messages).
  std::string origin;
  ServoConstants constants;
  ServoConstant kt;        ///< torque constant at the joint [Nm/A]
  ServoConstant R;         ///< winding resistance [Ohm]
  ServoConstant armature;  ///< apparent rotor inertia at the joint [kg m^2]
  double gear_ratio = 0.0;  ///< motor turns per output turn (documentation; 0 = not given)
  long counts_per_turn = 0;  ///< position encoder resolution (0 = not given)
  /// The cited source of each quantity that has one, by key ("motor.resistance", ...).
  std::vector<std::pair<std::string, std::string>> sources;
};

/// Identification ranges for a "generic" servo, one whose constants come from the command line
/// or a parameter file: wide, for any small servo (kt [0.01, 10] Nm/A, R [0.1, 50] Ohm,
/// armature [1e-5, 0.1] kg m^2).
inline ServoActuator generic_servo_actuator(const ServoConstants& constants) {
  ServoActuator a;
  a.name = "generic";
  a.origin = "built in";
  a.description = "a servo whose firmware constants are given by the user";
  a.constants = constants;
  a.kt.range = {0.01, 10.0};
  a.R.range = {0.1, 50.0};
  a.armature.range = {1e-5, 0.1};
  return a;
}

}  // namespace frictionlab::sim
