// frictionlab: the JSON files of the BAM actuator-modelling package (reference 002): servo logs
// (raw or processed) and parameter files (same keys as BAM, so existing fits can be used and
// frictionlab's fits can be used by BAM). Formats and rules: docs/actuators.md.
//
// Errors are io::InputError: JSON syntax errors with FILE:LINE:COLUMN; schema errors with
// "FILE: entry N: key 'K': ..." (log entries, 0-based N), "FILE: key 'K': ..." (log header) or
// "FILE: parameter 'K': ..." (parameter files).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/sim/servo_params.hpp"

namespace frictionlab::io {

/// How logs are read.
struct ServoLogReadOptions {
  /// The unit of entries[].current for logs that do not say ("current_unit"): "A", "mA", or
  /// empty (such a log's current is then not used, and reported among the unused keys).
  std::string current_unit;
};

/// A log and what the reader did not use.
struct ServoLogRead {
  data::ServoLog log;
  /// Keys present in the file that frictionlab does not use (header keys, and entry keys listed
  /// once), e.g. "entries[].current". Reported as warnings by the CLI; never an error because
  /// BAM's recorders of other actuators add channels of their own.
  std::vector<std::string> ignored_keys;
};

/// Parse a log (text of a .json file; `file` names it in messages). Header: mass, length, kp
/// (numbers, required), kd, ki, arm_mass, vin, dt (numbers), motor (a built-in actuator name or
/// the path of an ACTUATOR.json), trajectory (strings), entries (required, an array of
/// objects). Entries: position, goal_position, timestamp (numbers), torque_enable (true/false or
/// 0/1), all required; speed, current, load, input_volts, temp (numbers), each either in
/// every entry or in none; "current_unit" ("A" or "mA", else options.current_unit) says what
/// the current is in. Then data::check_servo_log.
ServoLogRead parse_servo_log(std::string_view text, const std::string& file,
                             const ServoLogReadOptions& options = {});
ServoLogRead read_servo_log(const std::string& path, const ServoLogReadOptions& options = {});

/// The .json files of `paths` (files, or directories whose *.json files are read in name
/// order), each parsed as a log.
std::vector<ServoLogRead> read_servo_logs(const std::vector<std::string>& paths,
                                          const ServoLogReadOptions& options = {});

/// The logs of read_servo_logs, in the order read, and one warning line for the keys they have
/// that the models do not use, with how many logs have each when not all do: "keys the models do
/// not use, in 72 logs: actuator_id, entries[].torque, ip (3 of 72)".
struct ServoLogSet {
  std::vector<data::ServoLog> logs;
  std::vector<std::string> warnings;
};
ServoLogSet read_servo_log_set(const std::vector<std::string>& paths,
                               const ServoLogReadOptions& options = {});

/// The actuator of a fit. `reference` is --actuator: a built-in name or the path of an
/// ACTUATOR.json (io::resolve_actuator, relative to the working directory), or "generic" with
/// the constants `generic` (std::invalid_argument "--actuator generic needs --error-gain > 0",
/// "--max-pwm: must be in (0, 1]"). Empty: the logs' "motor", which must be the same non-empty
/// name or path in every log ("--actuator: not given and the logs do not name one actuator"),
/// a path taken relative to the first log's directory; InputError naming that log's key
/// 'motor' for an unknown name (with the built-in names and how to add a file). A logged name
/// that several built-in versions share by supply (the logs' "sts3215": the 7.4 V "sts3215" and
/// the 12 V "sts3215-12v") is the version whose supply is the nearest to the mean of the logs'
/// entries[].input_volts (the header's "vin" is often a recorder's default), the named one when
/// nothing is logged; `choice` (if given) then receives the sentence that says so ("the logs'
/// motor 'sts3215' names versions for several supplies (7.4 V 'sts3215', 12 V 'sts3215-12v');
/// their input_volts average 11.95 V: 'sts3215-12v' is used"), else is left as it is.
sim::ServoActuator servo_actuator_for_logs(const std::string& reference,
                                           const sim::ServoConstants& generic,
                                           const std::vector<data::ServoLog>& logs,
                                           std::string* choice = nullptr);

/// Parse a parameter file: "model" ("m1".."m6"), "actuator" (a built-in name, the path of an
/// ACTUATOR.json relative to the parameter file, or "generic"; with "actuator_description", the
/// ACTUATOR.json object itself, whose name "actuator" must be), and exactly the model's keys
/// (sim/servo_params.hpp; missing or foreign keys are errors). "command_delay" (newer BAM) is
/// accepted only if 0. "generic" also takes "drive" ("voltage" | "current"), "error_gain"
/// (required), "max_pwm", "max_current", "vin". A temperature law (sim::ServoParams::temperature)
/// is "temperature_law" ("linear" | "exponential"), "T_ref" [degC], "kT", "kT_v" [1/K], all four
/// or none. Values are checked (kt > 0, R > 0, armature >= 0, friction coefficients >= 0,
/// dtheta_stribeck > 0, alpha > 0, kT and kT_v within -10 .. 10 1/K, ...).
sim::ServoSetup parse_servo_params(std::string_view text, const std::string& file);
sim::ServoSetup read_servo_params(const std::string& path);

/// The parameter files named by `paths`: files as given, directories replaced by their *.json
/// files in name order except summary.json (fit-actuator's). InputError(DIR) for a directory
/// without one ("directory has no .json parameter file") or that cannot be listed.
std::vector<std::string> servo_param_paths(const std::vector<std::string>& paths);

/// The parameter file's text (BAM key order, 4-space indent, shortest round-trip numbers; a
/// temperature law's keys after the model's); an actuator that is neither built in nor generic
/// is written in "actuator_description".
std::string servo_params_json(const sim::ServoSetup& f);
void write_servo_params(const std::string& path, const sim::ServoSetup& f);

/// Problems of a parameter set named by BAM key (empty: none): every value of the model's keys
/// within the magnitude policy and its plausible range (sim/servo_limits.hpp, e.g. "parameter
/// 'kt': 1e+300 N m/A is outside the plausible range [1e-06, 1000] N m/A"), then the friction
/// budget's own rules.
std::vector<std::string> check_servo_params(const sim::ServoParams& p, sim::ServoDrive drive);

/// The first problem of a generic actuator's constants ("KEY: problem", KEY one of error_gain,
/// max_pwm, max_current, vin; vin 0 means "the logs'"), or empty: each within its plausible
/// range (sim/servo_limits.hpp).
std::string check_servo_constants(const sim::ServoConstants& c);

}  // namespace frictionlab::io
