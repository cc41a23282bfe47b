// frictionlab: the robot configuration's LUGRE group from a fit.json or a joint_fit.json
// (docs/file-formats.md, "LUGRE group (XML)"; reference 000: the estimated values are copied into
// the LUGRE section of the robot's hardware/motorControl .xml files).
//
//   <group name="LUGRE">
//       <param name="Km">       2 </param>
//       ...
//   </group>
//
// One value per parameter: the file describes one joint; a robot's file has one column per
// joint, so the user merges the columns of several exports. Values are fit.json's, unconverted,
// in shortest round-trip form.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace frictionlab::io {

/// The nine values of the LUGRE group (reference 000's names), in fit.json's units:
/// Km [Nm/A], Kw [Nm/(rad/s)], S0 [Nm/rad], S1 [Nm/(rad/s)], Vth [rad/s], Fc_*, Fs_* [Nm].
struct LugreGroup {
  double Km = 0, Kw = 0, S0 = 0, S1 = 0, Vth = 0;
  double Fc_pos = 0, Fc_neg = 0, Fs_pos = 0, Fs_neg = 0;
  std::string model_name;  ///< fit.json's model_name ("lugre", "lugre-asym")
  std::string method;      ///< fit.json's method
  /// Accepted with a warning, formatted "FILE: key 'KEY': message".
  std::vector<std::string> warnings;
  /// What a joint_fit.json holds that the group cannot (joint_fit_notes: inertia, gravity,
  /// offset); written into the XML comment. Empty for a fit.json.
  std::vector<std::string> notes;
};

/// The LUGRE group of a parsed fit.json object; `file` names it in messages. `Km` [Nm/A] (> 0,
/// the CLI's --km) gives or overrides the torque constant. Throws InputError "FILE: message" /
/// "FILE: key 'KEY': message" when the object is not a fit.json (version 1), when its model is
/// not a LuGre model the group can express (exponential Stribeck curve, exponent 1, constant
/// sigma1), when no Km is given and its problem is not `sensorless` (the group needs Km), or
/// when a value is missing or invalid.
LugreGroup lugre_group_from_fit_json(const nlohmann::json& fit, const std::string& file,
                                     std::optional<double> Km = std::nullopt);

/// The LUGRE group of fit.json text (lugre_group_from_fit_json) or of joint_fit.json text: its
/// friction read as by read_friction_source (a joint-lugre set as its lugre form), which must be
/// a LuGre model the group can express (Stribeck exponent delta 1 or no Stribeck term); a joint
/// fit has no Km, so `Km` is required (InputError otherwise). JSON syntax errors:
/// "FILE:LINE:COLUMN: ...".
LugreGroup parse_lugre_group(std::string_view text, const std::string& file,
                             std::optional<double> Km = std::nullopt);

/// Read a fit.json or joint_fit.json file (InputError "FILE: cannot open: ..." if it cannot be
/// read).
LugreGroup read_lugre_group(const std::string& path, std::optional<double> Km = std::nullopt);

/// The XML text: a comment naming `source` (the fit.json), the model, the units and the notes,
/// then the group, one `<param>` line per value, ending with a newline.
std::string lugre_group_xml(const LugreGroup& g, const std::string& source);

}  // namespace frictionlab::io
