// frictionlab data: a robot arm's record as arms log it (docs/robot-identification.md,
// "Records"): one time channel and, per joint, the position, optionally the velocity, and the
// joint torque (torque sensors, or the drive's torque estimate) or the motor current.
//
// preprocess_arm runs the one preprocessing pipeline (data/preprocess.hpp) on every joint with
// the same options, so that resampling, zero-phase filtering and differentiation treat every
// joint alike and the rigid-body relation tau = Y(q, qd, qdd) pi between them survives
// (parallel filtering). Derivatives come from the velocity where the record has it, else from
// the position.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/preprocess.hpp"

namespace frictionlab::data {

struct ArmRecord {
  std::string source;               ///< where it came from (file name), for messages
  std::vector<std::string> joints;  ///< joint names, in the robot model's order
  std::vector<double> t;            ///< time [s], strictly increasing
  /// Per joint (outer index), per sample: position [rad | m]; velocity [rad/s | m/s] (empty:
  /// not recorded); joint torque [N m | N] or motor current [A] (one of the two, the other
  /// empty).
  std::vector<std::vector<double>> q, qd, tau, current;

  int dof() const { return static_cast<int>(q.size()); }
  bool has_velocity() const { return !qd.empty(); }
  bool has_torque() const { return !tau.empty(); }
};

/// The samples a regressor is built from: position, velocity, acceleration and the measured
/// effort (torque or current, whichever the record has) per joint, on one time grid.
struct ArmSamples {
  std::vector<double> t;                        ///< [s]
  std::vector<std::vector<double>> q, qd, qdd;  ///< per joint
  std::vector<std::vector<double>> effort;      ///< per joint: torque [N m] or current [A]
  bool effort_is_current = false;
  int dof() const { return static_cast<int>(q.size()); }
  std::size_t size() const { return t.size(); }
};

/// Throws RecordError naming the source, the joint and the sample: sizes that differ, values
/// that are not finite, time not strictly increasing, no torque or current, both of them.
void check_arm_record(const ArmRecord& record);

/// The record with joint torques tau_j = gains_j * current_j [N m/A] in place of its motor
/// currents (drive gains given, e.g. the controller's current-to-torque constants). Throws
/// RecordError for a record without currents or a gain per joint that is not positive.
ArmRecord currents_to_torques(ArmRecord record, const std::vector<double>& gains);

/// Every joint through data::preprocess(options) (derivatives from velocity where recorded,
/// else from position; options.derivatives is set accordingly).
ArmSamples preprocess_arm(const ArmRecord& record, PreprocessOptions options);

}  // namespace frictionlab::data
