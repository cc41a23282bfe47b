// frictionlab workflows: identify a robot arm's base parameters and joint friction from a
// record (docs/robot-identification.md, "Identification"): the record's preprocessing (one
// low-pass for every joint, chosen from the record when not given), identify::fit_robot, and
// the verdict (docs/verdicts.md, "Arm fits").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_consistent.hpp"
#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/identify/robot_friction.hpp"
#include "frictionlab/identify/robot_gains.hpp"
#include "frictionlab/robot/model.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {

struct FitRobotOptions {
  /// The pipeline every joint goes through (data/preprocess.hpp); derivatives come from the
  /// velocity where the record has it, else from the position.
  data::PreprocessOptions preprocess{};
  /// preprocess.lowpass_cutoff == 0: choose one cutoff for all joints: none or a 1-2-5 cutoff
  /// from 5 times the trajectory's bandwidth (identify::choose_joint_lowpass) up to a tenth of
  /// the sample rate, the one whose fit leaves the smallest torque error; false: unfiltered.
  bool choose_lowpass = true;
  identify::RobotFitOptions fit{};
  /// Each joint's friction: "linear" (viscous Fv, Coulomb Fc and offset in the linear fit), or
  /// a fittable model of the registry ("stribeck", "lugre", ...) identified with the rigid body
  /// by identify::fit_robot_friction (options.fit's viscous and coulomb flags then unused).
  std::string friction = "linear";
  /// Also the physically consistent link inertials nearest to the fit
  /// (identify::physically_consistent) and the torque error they give.
  bool consistent = false;
  /// Drive gains [N m/A] per joint for records with motor currents (torque = gain x current);
  /// empty for records with joint torques.
  std::vector<double> drive_gains;
};

/// One validation record's torque prediction (same preprocessing as the training record).
struct RobotValidation {
  std::string source;
  identify::RobotPrediction prediction;
};

struct FitRobotOutcome {
  std::vector<std::string> joints;
  /// The base parameters with their figures; with a friction model, the rigid-body stage's
  /// parameters (offsets, armature) with the whole model's error figures.
  identify::RobotFitResult result;
  /// With a friction model of the registry: each joint's fit and the rounds (else empty).
  std::optional<identify::RobotFrictionResult> friction;
  std::string friction_model = "linear";
  /// Drive gains identified with a loaded record (fit_robot_gains; else empty): the IV
  /// estimates, plain least squares' for comparison, the payload's identifiable parameters.
  std::vector<identify::RobotParameter> drive_gains, least_squares_gains, payload;
  std::string loaded_source;  ///< the loaded record (fit_robot_gains)
  /// With options.consistent: the consistent inertials, and the torque error of their base
  /// parameters on the training record [%] (the fit's own is result.relative_error_percent).
  std::optional<identify::ConsistentResult> consistent;
  double consistent_relative_error_percent = 0;
  double payload_mass = 0;      ///< [kg] (fit_robot_gains)
  double lowpass_hz = 0;        ///< the cutoff used [Hz]; 0: none
  bool lowpass_chosen = false;  ///< chosen from the record (not given)
  /// With no cutoff given: the joint rule's cutoff when a joint's raw acceleration is mostly
  /// noise (0: none is).
  double suggested_lowpass_hz = 0;
  std::string preprocessing;                ///< data::describe of the pipeline that ran
  std::vector<RobotValidation> validation;  ///< one per --validate record
  /// The training record as the fit saw it, every `report_stride`-th sample (at most 3000):
  /// time [s], and per joint the measured and the predicted torque [N m] (the report's plot).
  std::vector<double> report_t;
  std::vector<std::vector<double>> report_measured, report_predicted;
  Verdict verdict;
  double seconds = 0;  ///< wall time of preprocessing and fit [s]
};

/// Fits `record`, then predicts every record of `validate` with the same preprocessing.
FitRobotOutcome fit_robot(const robot::RobotModel& model, const data::ArmRecord& record,
                          const FitRobotOptions& options = {},
                          const std::vector<data::ArmRecord>& validate = {});

/// The drive gains and base parameters from an unloaded and a loaded record with motor currents
/// (identify::fit_robot_gains; the payload of `payload_mass` kg on the last link), both with the
/// same preprocessing: the low-pass given, or the joint rule's where a joint's acceleration is
/// mostly noise. `validate` records (currents) are predicted with the identified gains.
/// options.friction must be "linear" and options.drive_gains empty.
FitRobotOutcome fit_robot_gains(const robot::RobotModel& model, const data::ArmRecord& unloaded,
                                const data::ArmRecord& loaded, double payload_mass,
                                const FitRobotOptions& options = {},
                                const std::vector<data::ArmRecord>& validate = {});

/// What a recorded trajectory determines (identify::check_excitation), after the preprocessing
/// fit_robot would give it (the same low-pass, chosen the same way when not given).
struct CheckRobotRecordOutcome {
  std::vector<std::string> joints;
  identify::ExcitationCheck check;
  double lowpass_hz = 0;
  bool lowpass_chosen = false;
  std::string preprocessing;
};
CheckRobotRecordOutcome check_robot_record(const robot::RobotModel& model,
                                           const data::ArmRecord& record,
                                           const FitRobotOptions& options = {});

Verdict robot_fit_verdict(const FitRobotOutcome& outcome);

}  // namespace frictionlab::workflows
