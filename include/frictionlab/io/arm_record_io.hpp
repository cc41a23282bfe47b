// frictionlab: reading a robot arm's record from CSV (docs/robot-identification.md, "Records").
//
// One time column and, per joint i = 1..n (n: the robot model's joints, in its order), the
// columns PREFIX + i of position, optionally velocity, and torque or current: with the default
// prefixes, the header of ../shared/data/robot_panda/excitation_1.csv
// `time,q1..q7,dq1..dq7,tau1..tau7`. A missing column is an InputError naming it and the file's
// columns; no column is dropped silently (a column the spec does not name is ignored only when
// `allow_extra_columns`).
//
// layout "ur": the log a UR e-Series arm writes through its real-time interface, read as it is
// (../shared/data/robot_ur10e/README.md): no header, 19 or 31 columns: time [s], q1..q6 [rad],
// qd1..qd6 [rad/s], motor currents i1..i6 [A] (then target currents and torques, not read); the
// robot must have 6 joints. The prefixes are not used.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/io/csv.hpp"

namespace frictionlab::io {

struct ArmRecordSpec {
  std::string time = "time";
  std::string position = "q";   ///< prefix of the position columns
  std::string velocity = "dq";  ///< prefix of the velocity columns; "" when not recorded
  std::string torque = "tau";   ///< prefix of the joint torque columns; "" for currents
  std::string current;          ///< prefix of the motor current columns; "" for torques
  bool allow_extra_columns = true;
  std::string layout;  ///< "" (a header with the prefixes above) or "ur"
};

/// The record of `joints` (the robot's joint names, in order) from a CSV file.
data::ArmRecord read_arm_record(const std::string& path, const std::vector<std::string>& joints,
                                const ArmRecordSpec& spec = {});

/// The record of `joints` from columns already in memory (a pandas DataFrame, a dict of arrays):
/// the same columns and checks as read_arm_record, messages naming `table.file` and the sample
/// (data::check_arm_record) rather than a line. Layout "ur" takes the columns by position.
data::ArmRecord arm_record_from_table(const CsvTable& table, const std::vector<std::string>& joints,
                                      const ArmRecordSpec& spec = {});

}  // namespace frictionlab::io
