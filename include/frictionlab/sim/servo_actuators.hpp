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

#include "frictionlab/format.hpp"
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
  ServoConstant kt;          ///< torque constant at the joint [Nm/A]
  ServoConstant R;           ///< winding resistance [Ohm]
  ServoConstant armature;    ///< apparent rotor inertia at the joint [kg m^2]
  double gear_ratio = 0.0;   ///< motor turns per output turn (documentation; 0 = not given)
  long counts_per_turn = 0;  ///< position encoder resolution (0 = not given)
  /// The cited source of each quantity that has one, by key ("motor.resistance", ...).
  std::vector<std::pair<std::string, std::string>> sources;
};

/// The known constants of a description whose value is not published for this servo (its
/// `source` starts with "not published": borrowed from another servo or assumed), one note
/// each: "control.max_pwm = 0.97 -: not published for this servo (SOURCE); a constant of the
/// description, not fitted". Such a constant is not a parameter of the models M1..M6 (they
/// identify kt, R, armature, q_offset and the friction), so a fit cannot correct it;
/// fit-actuator and `actuator check` print these notes (docs/actuators.md, ACTUATOR.json).
inline std::vector<std::string> unpublished_constant_notes(const ServoActuator& a) {
  const ServoConstants& c = a.constants;
  struct Known {
    const char* key;
    double value;
    const char* unit;
  };
  const Known known[] = {
      {"supply_voltage", c.vin, "V"},
      {"control.error_gain", c.error_gain, c.drive == ServoDrive::voltage ? "1/rad" : "A/rad"},
      {"control.max_pwm", c.max_pwm, "-"},
      {"control.max_current", c.max_current, "A"},
      {"control.kd_gain", c.kd_gain, "s"},
      {"control.ki_gain", c.ki_gain, "1/s"},
      {"control.deadband", c.deadband, "rad"},
      {"control.period", c.period, "s"},
      {"motor.gear_ratio", a.gear_ratio, "-"}};
  std::vector<std::string> notes;
  for (const auto& [key, source] : a.sources) {
    if (source.rfind("not published", 0) != 0) continue;
    for (const auto& k : known)
      if (key == k.key) {
        std::string note = key;
        note += " = " + format_exact(k.value);
        note += ' ';
        note += k.unit;
        note += " of actuator '" + a.name + "' is not published for this servo (" + source;
        note += "); a constant of the description, not fitted";
        notes.push_back(std::move(note));
      }
  }
  return notes;
}

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
