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
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/sim/joint_model.hpp"
#include "frictionlab/workflows/joint.hpp"

namespace frictionlab::io {

struct JointFile {
  sim::JointModel model;
  std::vector<std::string> warnings;  ///< accepted with a warning (e.g. a friction parameter)
};

/// The joint's friction as a model of the registry (what its "friction" object holds): the
/// joint-lugre set, or the static model it is (coulomb: Fs = Fc and sigma2 = 0;
/// coulomb-viscous: Fs = Fc; stribeck otherwise).
ModelSpec joint_friction_spec(const sim::JointModel& m);

/// The "joint" object of a model.
nlohmann::ordered_json joint_to_json(const sim::JointModel& m);

/// Interpret a "joint" object; `file` names it in messages.
JointFile joint_from_json(const nlohmann::json& j, const std::string& file);

/// A joint file or a fit-joint result file (the object under "joint").
JointFile parse_joint_json(std::string_view text, const std::string& file);
JointFile read_joint_file(const std::string& path);

/// CONTROLLER.json: {"kp": N m/rad, "kd": N m s/rad, "kff": - (default 1), "bias": N m
/// (default 0), "description": text} (docs/file-formats.md). InputError naming file and key.
identify::JointController parse_controller_json(std::string_view text, const std::string& file);
identify::JointController read_controller_file(const std::string& path);

/// What `frictionlab fit-joint` writes to joint_fit.json (docs/file-formats.md,
/// "joint_fit.json"), from a workflows::fit_joint result:
///   {"format": "frictionlab-joint-fit", "version": 1, "method", "input",
///    "joint": {the joint object}, "parameters": [{name, unit, value, std_error, ci95, fixed}],
///    "training": {errors}, "validation": [{"file", errors}], "static_curve": [{qd, measured,
///    model, duration}], "method_details": {"idim": {samples, sigma, condition_number, rmse},
///    "sr3": {sr3_details_json}, "oe": {init, closed_loop, controller: null or {source, kp,
///    kd, kff, bias, torque_rel_error}, initial_cost, final_cost, iterations, converged,
///    termination, segments, condition_number}} (those the method chain ran), "run_time_s",
///    "warnings": [...]}
/// errors = {"torque": {rel, rmse, max_abs}, "position": {...}, "velocity": {...}}; "file" and
/// "input" are the records' sources; numbers that are not finite are null.
nlohmann::ordered_json joint_fit_to_json(const workflows::FitJointOutcome& r);

/// sr3's "method_details" object: candidates, active, lambda, aic_observations,
/// aic_on_held_out_training, static_velocity_floor, static_rel_error, rel_error, sigma0_start,
/// starts: [{sigma0_init, rel_error, outer_iterations, converged, sigma0, sigma1}], seconds.
nlohmann::ordered_json sr3_details_json(const identify::JointSr3Result& r);

/// What `frictionlab eval-joint` writes to joint_eval.json: {"format":
/// "frictionlab-joint-eval", "version": 1, "joint_file": joint_file, "joint": {the joint
/// object of `model`}, "records": [{"file": the record's source, errors}]}.
nlohmann::ordered_json joint_eval_to_json(const workflows::EvalJointOutcome& r,
                                          const sim::JointModel& model,
                                          const std::string& joint_file);

/// The errors object of an evaluation.
nlohmann::ordered_json joint_errors_json(const identify::JointEvaluation& e);

}  // namespace frictionlab::io
