// frictionlab (private to src/io): strict reading of JSON objects for MODEL.json / SYSTEM.json.
//
// JsonFields wraps one JSON object whose keys are checked against an allowed list; every typed
// getter throws io::InputError naming the key as a parameter ("FILE: [CONTEXT: ]parameter 'KEY':
// expected a number, got string"). parse_json_text turns nlohmann's syntax errors into
// "FILE:LINE:COLUMN: JSON syntax error: ..." and rejects duplicate keys.
#pragma once

#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::io::detail {

using nlohmann::json;

/// A JSON value's type for messages: "number", "string", "boolean", "array", "object", "null".
std::string type_of(const json& j);

/// Parse JSON text strictly (syntax errors with line and column, duplicate keys, number overflow).
json parse_json_text(std::string_view text, const std::string& file);

class JsonFields {
 public:
  /// `obj` may be null (treated as an empty object). `owner` completes the message for unknown
  /// keys, e.g. "model 'lugre'". Throws InputError for a key not in `allowed`.
  JsonFields(const json* obj, std::string file, std::string context, std::string owner,
             std::vector<std::string> allowed);

  bool has(const std::string& key) const;
  double number(const std::string& key, double def) const;
  bool boolean(const std::string& key, bool def) const;
  int integer(const std::string& key, int def) const;
  std::string string(const std::string& key, const std::string& def) const;
  /// A non-empty array of numbers.
  std::vector<double> numbers(const std::string& key) const;

  /// Throw InputError::parameter for `key`.
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  const std::string& file() const { return file_; }
  const std::string& context() const { return context_; }

 private:
  const json& at(const std::string& key) const;
  const json* obj_;
  std::string file_, context_, owner_;
  std::vector<std::string> allowed_;
};

/// The 1-based line of every key of a JSON text, by JSON pointer: "/control/error_gain", array
/// elements by index ("/entries/3/position"). For messages that name the line of a key that is
/// well-formed JSON but wrong. Give it text that parse_json_text accepted.
class JsonKeyLines {
 public:
  explicit JsonKeyLines(std::string_view text);
  /// The line of the key at `pointer`; for a pointer without a key (a missing key), the line of
  /// its nearest existing parent key; 0 for the top level.
  long line(std::string pointer) const;

 private:
  std::vector<std::pair<std::string, long>> lines_;  // sorted by pointer
};

/// The kinds of JSON document frictionlab reads or writes (docs/file-formats.md).
enum class JsonKind {
  unknown,           ///< none of the below (a reader then reports what is wrong with it)
  model,             ///< MODEL.json: {"model": "lugre", "params": {...}}
  system,            ///< SYSTEM.json: {"system": ..., "friction": ...}
  joint,             ///< JOINT.json: {"joint": {...}} without "format"
  joint_fit,         ///< joint_fit.json, "format": "frictionlab-joint-fit"
  joint_eval,        ///< joint_eval.json, "format": "frictionlab-joint-eval"
  controller,        ///< CONTROLLER.json: {"kp", "kd", ...}
  fit,               ///< fit.json, "format": "frictionlab-fit"
  compare,           ///< compare.json, "format": "frictionlab-compare"
  estimator,         ///< ESTIMATOR.json, "format": "frictionlab-estimator"
  servo_params,      ///< actuator parameter file: {"model": "m1".."m6", "actuator", BAM's keys}
  servo_log,         ///< BAM log: {"entries": [...], "mass", "length", "kp", ...}
  actuator_summary,  ///< fit-actuator's summary.json: {"models": [...], "recommended", ...}
  actuator,          ///< ACTUATOR.json, "format": "frictionlab-actuator"
  robot_fit,         ///< robot_fit.json, "format": "frictionlab-robot-fit"
  mujoco_friction,   ///< MUJOCO.json, "format": "frictionlab-mujoco"
  actuator_eval,     ///< eval-actuator --json, "format": "frictionlab-actuator-eval" (or the
                     ///< label-keyed file of before: {LABEL: {"file", "per_log", "mean"}, ...})
};

/// The kind of a parsed JSON document, told by its "format" key or else by its shape (the keys
/// only that kind has); JsonKind::unknown when it matches none.
JsonKind json_kind(const json& j);

/// The kind in words for messages, e.g. "a fit.json from `fit`".
std::string describe(JsonKind kind);

/// Throw InputError "FILE: this is DESCRIBE(json_kind(j)), not DESCRIBE(accepted...)" when `j`
/// is a known kind other than the `accepted` ones; nothing for an accepted or unknown kind.
/// Every reader of a top-level document calls it before reading its keys, so a file of the
/// wrong kind is named as such rather than reported as a missing or mistyped key.
void require_kind(const json& j, const std::string& file, std::initializer_list<JsonKind> accepted);

/// A path a JSON file names (a parameter file, a torque record, a model): a relative one is
/// relative to the JSON file's folder, an absolute one stays as it is.
std::string path_beside(const std::string& json_file, const std::string& path);

/// Throw InputError "FILE: key 'KEY': message" (a top-level key of fit.json, ESTIMATOR.json).
[[noreturn]] void fail_key(const std::string& file, const std::string& key,
                           const std::string& message);

/// obj[key]; fail_key(file, key, "missing") if absent.
const json& member(const json& obj, const std::string& file, const std::string& key);

/// One base parameter of a robot_fit.json: its value, what it stands for, and whether it is its
/// own standard parameter alone (one term) rather than a grouping of several.
struct RobotFitParameter {
  double value = 0;
  std::string expression;
  bool own = true;
};

/// robot_fit.json's "parameters" by name (every export of an arm fit reads them here).
std::map<std::string, RobotFitParameter> robot_fit_parameters(const json& j,
                                                              const std::string& file);

/// Throw InputError "FILE: [CONTEXT: ]message".
[[noreturn]] void fail_file(const std::string& file, const std::string& context,
                            const std::string& message);

}  // namespace frictionlab::io::detail
