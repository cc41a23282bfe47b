// frictionlab: joint model files (docs/file-formats.md, "JOINT.json"): an identified joint
// (sim/joint_model.hpp) for simulation, validation, further refinement and export.
//
//   {"joint": {"I": 0.0626, "mgCx": 0.0, "mgCy": -1.0, "offset": -0.07,
//              "friction": {MODEL.json object: joint-lugre, coulomb, coulomb-viscous or stribeck}}}
//
// The gravity terms are present when mgCx and mgCy are given (both or neither), the offset term
// when "offset" is given. `frictionlab fit-joint` writes this object inside its result file
// (joint_fit.json, "format": "frictionlab-joint-fit"); read_joint_file accepts both files.
// Errors are InputErrors naming the file and the key or parameter ("FILE: joint: parameter 'I':
// must be > 0, got 0").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/sim/joint_model.hpp"

namespace frictionlab::io {

struct JointFile {
  sim::JointModel model;
  std::vector<std::string> warnings;  ///< accepted with a warning (e.g. a friction parameter)
};

/// The "joint" object of a model.
nlohmann::ordered_json joint_to_json(const sim::JointModel& m);

/// Interpret a "joint" object; `file` names it in messages.
JointFile joint_from_json(const nlohmann::json& j, const std::string& file);

/// A joint file or a fit-joint result file (the object under "joint").
JointFile parse_joint_json(std::string_view text, const std::string& file);
JointFile read_joint_file(const std::string& path);

/// What `frictionlab fit-joint` writes to joint_fit.json (docs/file-formats.md,
/// "joint_fit.json"):
///   {"format": "frictionlab-joint-fit", "version": 1, "method", "input",
///    "joint": {the joint object}, "parameters": [{name, unit, value, std_error, ci95, fixed}],
///    "training": {errors}, "validation": [{"file", errors}], "static_curve": [{qd, measured,
///    model, duration}], "method_details": {...}, "run_time_s", "warnings": [...]}
/// errors = {"torque": {rel, rmse, max_abs}, "position": {...}, "velocity": {...}}.
struct JointFitSummary {
  std::string method, input;
  sim::JointModel model;
  std::vector<identify::ParameterEstimate> parameters;
  identify::JointEvaluation training;
  std::vector<std::pair<std::string, identify::JointEvaluation>> validation;
  std::vector<identify::StaticCurvePoint> static_curve;
  nlohmann::ordered_json method_details = nlohmann::ordered_json::object();
  double run_time_s = 0;
  std::vector<std::string> warnings;
};

/// CONTROLLER.json: {"kp": N m/rad, "kd": N m s/rad, "kff": - (default 1), "bias": N m
/// (default 0), "description": text} (docs/file-formats.md). InputError naming file and key.
identify::JointController parse_controller_json(std::string_view text, const std::string& file);
identify::JointController read_controller_file(const std::string& path);

nlohmann::ordered_json joint_fit_to_json(const JointFitSummary& s);

/// The errors object of an evaluation.
nlohmann::ordered_json joint_errors_json(const identify::JointEvaluation& e);

}  // namespace frictionlab::io
