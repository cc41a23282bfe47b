// frictionlab: the JSON files of fit-actuator and eval-actuator (docs/actuators.md): the output
// directory of a fit (one BAM parameter file per model, io/servo_json, and summary.json) and the
// per-log errors of an evaluation.
#pragma once

#include <string>

#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/workflows/actuator.hpp"

namespace frictionlab::io {

/// summary.json of a fit (2-space indent, trailing newline): "actuator", "validation" (the
/// scheme's name), "current_weight" [rad/A] (only when the loss had a motor-current term;
/// train_mae and validation_mae stay position errors), "logs" (file names), "models" (one object
/// per model: "model", "parameters", "train_mae" [rad], "validation_mae" [rad] (only with
/// validation), "evaluations", "seconds", "params_file" (NAME.json), "at_bound" (keys)),
/// "recommended" ("m1".."m6", "m1+T".."m6+T"), "reason", and with a temperature law
/// "temperature" ("law", "viscous", "T_ref", "T_min", "T_max" [degC], "spread",
/// "within_kp_spread" [K], "kp_correlation", "undetermined", "confounded").
std::string fit_actuator_summary_json(const workflows::FitActuatorOutcome& outcome);

/// The files write_fit_actuator may write in `dir` when fitting `models`: MODEL.json for each (and
/// MODEL+T.json with a `temperature` law), then summary.json (for the checks before the work:
/// io::check_outputs_not_inputs).
std::vector<std::string> fit_actuator_output_paths(const std::string& dir,
                                                   const std::vector<ActuatorModel>& models,
                                                   bool temperature = false);

/// Write a fit into directory `dir` (created if missing): NAME.json for every model
/// (io::servo_params_json) and summary.json, all or nothing (io::OutputFiles, io/output.hpp).
/// InputError naming the file if a write fails.
/// `inputs` are never replaced (OutputFiles::protect).
/// With a `report` path, the identification report of the run (io::report_html of the
/// summary.json written) is written too, in the same all-or-nothing set.
void write_fit_actuator(const std::string& dir, const workflows::FitActuatorOutcome& outcome,
                        const std::vector<NamedPath>& inputs = {}, const std::string& report = {},
                        const ReportOptions& report_options = {});

/// The parameter sets named by `paths` (files, or directories of them: io::servo_param_paths),
/// read with io::read_servo_params. Each is labelled by its file name without .json; where two
/// files share that name, by DIR/NAME (DIR its parent directory's name), and where those are
/// equal too, by the path as given, so that no two sets share a label. InputError naming the file
/// when one file is named twice (io::same_file), and those of servo_param_paths and
/// read_servo_params.
std::vector<workflows::ServoParamSet> read_servo_param_sets(const std::vector<std::string>& paths);

/// The result of an evaluation (2-space indent, trailing newline; docs/actuators.md):
/// "format": "frictionlab-actuator-eval", "version": 1, "logs" (one object per log: "log",
/// "kp", "trajectory"), "params" (one object per parameter set, in order: "label", "file",
/// "mae" (per log, the order of "logs") [rad], "mean" [rad]), "best" (the label of the lowest
/// mean), and "report" (what `frictionlab report` draws: "logs", per log "t", "position",
/// "goal_position" and "simulated" (one array per parameter set), thinned).
std::string eval_actuator_json(const workflows::EvalActuatorOutcome& outcome);

/// Write an evaluation: its JSON (eval_actuator_json) to `json` and/or its identification report
/// to `report` (either may be empty), all or nothing (io::OutputFiles); `inputs` are never
/// replaced. The report names its source `json`, or "eval-actuator" without one.
void write_eval_actuator(const std::string& json, const workflows::EvalActuatorOutcome& outcome,
                         const std::vector<NamedPath>& inputs = {}, const std::string& report = {},
                         const ReportOptions& report_options = {});

}  // namespace frictionlab::io
