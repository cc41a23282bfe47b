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
/// scheme's name), "logs" (file names), "models" (one object per model: "model", "parameters",
/// "train_mae" [rad], "validation_mae" [rad] (only with validation), "evaluations", "seconds",
/// "params_file" (NAME.json), "at_bound" (keys)), "recommended" ("m1".."m6"), "reason".
std::string fit_actuator_summary_json(const workflows::FitActuatorOutcome& outcome);

/// Write a fit into directory `dir` (created if missing): NAME.json for every model
/// (io::servo_params_json) and summary.json, all or nothing (io::OutputFiles, io/output.hpp).
/// InputError naming the file if a write fails.
/// `inputs` are never replaced (OutputFiles::protect).
/// With a `report` path, the identification report of the run (io::report_html of the
/// summary.json written) is written too, in the same all-or-nothing set.
void write_fit_actuator(const std::string& dir, const workflows::FitActuatorOutcome& outcome,
                        const std::vector<NamedPath>& inputs = {}, const std::string& report = {},
                        const ReportOptions& report_options = {});

/// The per-log errors of an evaluation (2-space indent, trailing newline): one object per
/// parameter set, keyed by its label: {"file": FILE, "per_log": {LOG: MAE [rad], ...}, "mean":
/// MAE [rad]}. A label given twice keeps one object (the later set's values overwrite).
std::string eval_actuator_json(const workflows::EvalActuatorOutcome& outcome);

}  // namespace frictionlab::io
