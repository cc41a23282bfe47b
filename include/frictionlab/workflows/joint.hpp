// frictionlab workflows: identification and validation of a robot joint (inertia, gravity terms,
// offset, friction) from trajectories: what `frictionlab fit-joint` and `eval-joint` do
// (docs/cli.md; methods, equations and measured accuracy: docs/joint-identification.md).
//
// fit_joint, in order:
//   1. every record through the preprocessing pipeline of identify/joint_data.hpp
//      (options.prep; with no low-pass given, the one identify::choose_joint_lowpass chooses
//      from the training record, for every record alike); with a desired record (closed-loop oe),
//      its trajectory attached to the training record (identify::attach_desired);
//   2. the method chain: idim (identify/joint_idim.hpp) or sr3 (identify/joint_sr3.hpp; the
//      validation records supply its AIC observations), or oe (identify/joint_oe.hpp) started
//      from idim, from sr3 (each run as in 2 first) or from a given model; closed-loop oe takes
//      the controller's gains by least squares on the training record
//      (identify::fit_joint_controller) or as given;
//   3. the result evaluated on the training and every validation record (identify::
//      evaluate_joint) and its static curve checked on the training record
//      (identify::static_curve_check);
//   4. the warning rule of oe: if oe raised the training torque error ||e||/||tau|| above 1.5
//      times its start's, the refined model fits the simulated motion at the expense of the
//      torque (e.g. a joint under a position controller fitted in open loop): said in warnings;
//   5. the verdict (workflows/verdict.hpp).
// eval_joint: every record through the same pipeline (a low-pass chosen per record where none
// is given) and evaluate_joint of a given model, then the verdict.
//
// Records come in memory (io/record_io.hpp reads them); their `source` labels them in results.
// Nothing is printed or written: io/joint_json.hpp writes joint_fit.json / joint_eval.json,
// io/joint_outputs.hpp the prediction, static-curve and sr3 tables and plots.
// Errors: identify::FitError (unusable record or option, naming the record or the option),
// std::invalid_argument (an option combination that cannot run, e.g. oe without a start),
// Cancelled (Progress::cancel).
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/joint_controller.hpp"
#include "frictionlab/identify/joint_data.hpp"
#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/joint_oe.hpp"
#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/workflows/progress.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {

/// The identification method whose model fit_joint returns.
enum class JointMethod { sr3, idim, oe };

/// The methods' names (fit-joint --method, joint_fit.json), in the order messages list them.
inline constexpr std::array<Named<JointMethod>, 3> kJointMethodNames{
    {{JointMethod::sr3, "sr3"}, {JointMethod::idim, "idim"}, {JointMethod::oe, "oe"}}};
static_assert(names_every(kJointMethodNames, JointMethod::oe));

/// "sr3", "idim" or "oe".
std::string joint_method_name(JointMethod m);
/// The method of a name of joint_method_name; std::invalid_argument naming the accepted names.
JointMethod parse_joint_method(std::string_view name);

/// Where oe starts.
enum class JointInit {
  none,   ///< not given: oe throws std::invalid_argument
  idim,   ///< the idim result on the training record (options.idim)
  sr3,    ///< the sr3 result on the training record (options.sr3)
  model,  ///< options.init_model
};

struct FitJointOptions {
  JointMethod method = JointMethod::idim;
  /// Preprocessing of every record (training, validation; the desired record takes its
  /// resampling and low-pass).
  identify::JointPrepOptions prep{};
  /// Gravity and offset terms; replaces the structure of idim, sr3 (and so of oe's start).
  identify::JointStructure structure{};
  identify::JointIdimOptions idim{};  ///< asymmetric, v_deadband
  identify::JointSr3Options sr3{};    ///< K, n_viscous, delta, sigma0_init, aic_observations, ...
  // oe
  JointInit init = JointInit::none;
  sim::JointModel init_model{};  ///< oe's start with JointInit::model
  std::string init_label;        ///< names init_model in the result (e.g. its file)
  /// output, segment_s, max_step, max_iterations, closed_loop, ...; its `progress` is replaced
  /// by the workflow's Progress. closed_loop needs a desired record.
  identify::JointOeOptions oe{};
  /// Closed loop: the controller's gains by least squares on the training record (true), or
  /// oe.controller as given (false).
  bool fit_controller = true;
  std::string controller_label = "fit";  ///< names the controller's source in the result
  /// The validation simulation of every record (max_step [s], horizon_s [s]).
  identify::JointEvalOptions eval{};
  /// The caller's warnings about its inputs (e.g. reading init_model's file): the first of the
  /// outcome's warnings, so that the result file holds every warning of the run.
  std::vector<std::string> input_warnings{};
};

/// The controller of a closed-loop oe.
struct JointControllerReport {
  std::string source;  ///< FitJointOptions::controller_label
  identify::JointController controller;
  double torque_rel_error = 0;  ///< ||tau - law|| / ||tau|| on the training record [-]
};

/// oe's run within fit_joint.
struct JointOeRun {
  std::string init;  ///< "idim", "sr3" or FitJointOptions::init_label
  bool closed_loop = false;
  std::optional<JointControllerReport> controller;  ///< closed loop only
  double start_torque_rel_error = 0;                ///< the start's training torque error [-]
  identify::JointOeResult result;
  /// Open loop: the squared relative errors of the fitted channels (position, velocity or both)
  /// summed, of the start and of oe's result on the training record (closed loop: NaN).
  double start_score = std::numeric_limits<double>::quiet_NaN();
  double refined_score = std::numeric_limits<double>::quiet_NaN();
  /// Open loop: the training position and velocity errors ||e||/||y|| of the start and of oe's
  /// result (the scores' terms; closed loop: NaN).
  double start_position_rel = std::numeric_limits<double>::quiet_NaN();
  double start_velocity_rel = std::numeric_limits<double>::quiet_NaN();
  double refined_position_rel = std::numeric_limits<double>::quiet_NaN();
  double refined_velocity_rel = std::numeric_limits<double>::quiet_NaN();
  /// oe's result was worse than its start, which is kept (model and parameters of the outcome;
  /// a note of the verdict).
  bool kept_start = false;
};

/// The model's steady-state friction curve (zdot = 0) on a grid [N m] over [rad/s].
struct JointSteadyCurve {
  std::vector<double> qd;        ///< 401 points from min(0, min qd) to max(0, max qd) [rad/s]
  std::vector<double> friction;  ///< identify::steady_friction at qd [N m]
};

struct FitJointOutcome {
  JointMethod method = JointMethod::idim;
  std::string input;  ///< the training record's source
  /// The preprocessed records (training with the desired trajectory when given), as fitted.
  identify::JointData training_data;
  std::vector<identify::JointData> validation_data;
  sim::JointModel model;  ///< the method's result
  /// Its parameters: the last method's (idim's, sr3's or oe's) estimates.
  std::vector<identify::ParameterEstimate> parameters;
  /// Whether their white-noise standard errors can be trusted (identify/result.hpp): idim's, or
  /// oe's when its result is kept (an oe that kept its start: the start's, i.e. idim's or none);
  /// none for sr3 and for a start read from a file.
  std::optional<identify::Reliability> reliability;
  /// What the record does not determine of the reported model, from the method that made it
  /// (idim's, sr3's or oe's flags; an oe that kept its start: the start's): the verdict's
  /// bound and determined reasons.
  std::vector<identify::IdentifiabilityFlag> flags;
  std::optional<identify::JointIdimResult> idim;         ///< method idim, or oe from idim
  std::optional<identify::JointSr3Result> sr3;           ///< method sr3, or oe from sr3
  std::optional<JointOeRun> oe;                          ///< method oe
  identify::JointEvaluation training;                    ///< model on training_data
  std::vector<identify::JointEvaluation> validation;     ///< model on validation_data[i]
  std::vector<identify::StaticCurvePoint> static_curve;  ///< on the training record
  JointSteadyCurve steady_curve;  ///< the model's, over the training velocity range
  double run_time_s = 0;          ///< wall time of fit_joint [s]
  /// The low-pass chosen from the training record when none was given (applied to every record).
  std::optional<identify::JointLowpassChoice> lowpass;
  Verdict verdict;  ///< joint_fit_verdict of this outcome
  /// In order: options.input_warnings, the records' sampling warnings (data::check_record on
  /// each record as read: time unit, jitter), the methods' warnings (idim / sr3, then oe), then
  /// the oe torque check of fit_joint. Facts about the result are the verdict's, not warnings.
  std::vector<std::string> warnings;
};

/// Identify a joint from `training` (header). `validation` records are evaluated (and give
/// sr3 its AIC observations); `desired` is the controller's desired trajectory of a closed-loop
/// training record (identify::attach_desired), needed by oe.closed_loop. Progress: oe's
/// iterations and the controller's gains; checked between records and methods.
FitJointOutcome fit_joint(const data::Record& training, const std::vector<data::Record>& validation,
                          const std::optional<data::Record>& desired,
                          const FitJointOptions& options, const Progress& progress = {});

struct EvalJointOptions {
  identify::JointPrepOptions prep{};  ///< preprocessing of every record
  identify::JointEvalOptions eval{};  ///< the validation simulation
  /// The caller's warnings about its inputs (e.g. reading the model's file): the first of the
  /// outcome's warnings.
  std::vector<std::string> input_warnings{};
};

struct EvalJointOutcome {
  std::vector<identify::JointData> data;               ///< the preprocessed records
  std::vector<identify::JointEvaluation> evaluations;  ///< model on data[i]
  /// The low-pass chosen for data[i] when none was given.
  std::vector<std::optional<identify::JointLowpassChoice>> lowpass;
  Verdict verdict;  ///< joint_eval_verdict of this outcome
  /// options.input_warnings, then each record's sampling warnings (data::check_record as read):
  /// joint_eval.json's "warnings".
  std::vector<std::string> warnings;
};

/// The error measures of `model` on every record (header). Checked between records.
EvalJointOutcome eval_joint(const sim::JointModel& model, const std::vector<data::Record>& records,
                            const EvalJointOptions& options, const Progress& progress = {});

}  // namespace frictionlab::workflows
