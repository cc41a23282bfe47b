// frictionlab: ACTUATOR.json, the description of a servo family (docs/actuators.md,
// "ACTUATOR.json"): its drive, supply voltage, motor constants (torque constant, resistance,
// armature: each identified within a range, with the published value where there is one), gear
// ratio, encoder resolution and the firmware's position loop (law, gain scaling, deadband,
// saturation, current window, control period). Every quantity carries its unit and may carry its
// source. The built-in families are such files, shipped in data/actuators/ and compiled in.
//
// Errors are io::InputError: JSON syntax with FILE:LINE:COLUMN; content with
// "FILE:LINE: key 'motor.resistance': message" (LINE of that key, or of its nearest parent
// when it is missing).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/sim/servo_actuators.hpp"

namespace frictionlab::io {

/// Parse an ACTUATOR.json text (`file` names it in messages; `origin` of the result).
sim::ServoActuator parse_actuator(std::string_view text, const std::string& file);
/// Read an ACTUATOR.json file (InputError if it cannot be read).
sim::ServoActuator read_actuator(const std::string& path);

/// The names of the built-in descriptions, sorted ("mx106", ..., "sts3215", "xl330").
std::vector<std::string> builtin_actuator_names();
/// The built-in name that `reference` spells, or empty: a built-in name compared without case
/// and without '-', '_', '.' and spaces ("STS3215", "MX-64", "sts3215_12v"), or another tool's
/// name for one ("sts3215v12", the kscalelabs tools' 12 V STS3215: "sts3215-12v").
std::string builtin_actuator_name(std::string_view reference);
/// The shipped text of a built-in description (a name or alias: builtin_actuator_name), or
/// empty if there is none of that name.
std::string_view builtin_actuator_text(std::string_view name);
/// A built-in description (a name or alias; its name is the built-in one), or empty.
std::optional<sim::ServoActuator> builtin_actuator(std::string_view name);

/// What a log's "motor", a parameter file's "actuator" or a command line's --actuator names: a
/// built-in name, or the path of an ACTUATOR.json (a reference that ends in ".json" or contains
/// a '/'), relative paths taken from `base_dir` (empty: the working directory). `where` names
/// the referring place in messages, e.g. "logs/a.json: key 'motor'". InputError for an unknown
/// name, listing the built-in ones and how to add a file, or the file's own errors.
sim::ServoActuator resolve_actuator(const std::string& reference, const std::string& base_dir,
                                    const std::string& where);

/// The description as ACTUATOR.json text (2-space indent, trailing newline): what
/// parse_actuator reads back to the same description.
std::string actuator_json(const sim::ServoActuator& a);

/// The problems of a description's values, each naming its key (empty: none). parse_actuator
/// reports the first of them with its line.
std::vector<std::pair<std::string, std::string>> check_actuator(const sim::ServoActuator& a);

}  // namespace frictionlab::io
