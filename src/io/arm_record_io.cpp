// frictionlab io: arm records from CSV (io/arm_record_io.hpp).
#include "frictionlab/io/arm_record_io.hpp"

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {

namespace {

/// The columns PREFIX1..PREFIXn, or none for an empty prefix.
std::vector<std::vector<double>> joint_columns(const CsvTable& table, const std::string& prefix,
                                               std::size_t n) {
  std::vector<std::vector<double>> out;
  if (prefix.empty()) return out;
  for (std::size_t i = 1; i <= n; ++i) out.push_back(table.column(prefix + std::to_string(i)));
  return out;
}

/// The UR e-Series real-time log: columns 1 (time), 2-7 (q), 8-13 (qd), 14-19 (currents).
void check_ur_joints(const std::string& source, const std::vector<std::string>& joints) {
  if (joints.size() != 6)
    throw InputError(source, 0, 0,
                     "layout ur is the log of a 6-joint UR arm; the robot has " +
                         std::to_string(joints.size()) + " joints");
}

data::ArmRecord ur_log_from_table(const CsvTable& table, const std::vector<std::string>& joints) {
  check_ur_joints(table.file, joints);
  if (table.names.size() != 19 && table.names.size() != 31)
    throw InputError(table.file, table.row_lines.empty() ? 0 : table.row_lines.front(), 0,
                     "layout ur has 19 or 31 columns (time, q, qd, currents[, target currents "
                     "and torques]); found " +
                         std::to_string(table.names.size()));
  data::ArmRecord r;
  r.source = table.file;
  r.joints = joints;
  r.t = table.columns[0];
  for (std::size_t j = 0; j < 6; ++j) {
    r.q.push_back(table.columns[1 + j]);
    r.qd.push_back(table.columns[7 + j]);
    r.current.push_back(table.columns[13 + j]);
  }
  return r;
}

/// The spec's prefixes: the torque's or the current's, not both.
void check_prefixes(const std::string& source, const ArmRecordSpec& spec) {
  if (!spec.layout.empty() && spec.layout != "ur")
    throw InputError(source, 0, 0, "unknown record layout '" + spec.layout + "' (expected ur)");
  if (spec.layout.empty() && spec.torque.empty() == spec.current.empty())
    throw InputError(source, 0, 0,
                     "give the prefix of either the torque or the current columns, not " +
                         std::string(spec.torque.empty() ? "neither" : "both"));
}

/// The columns the spec names, by prefix and joint number.
data::ArmRecord named_columns(const CsvTable& table, const std::vector<std::string>& joints,
                              const ArmRecordSpec& spec) {
  data::ArmRecord r;
  r.source = table.file;
  r.joints = joints;
  r.t = table.column(spec.time);
  r.q = joint_columns(table, spec.position, joints.size());
  r.qd = joint_columns(table, spec.velocity, joints.size());
  r.tau = joint_columns(table, spec.torque, joints.size());
  r.current = joint_columns(table, spec.current, joints.size());
  if (!spec.allow_extra_columns) {
    const std::size_t used = 1 + joints.size() * (2 + (spec.velocity.empty() ? 0 : 1));
    if (table.names.size() != used)
      throw InputError(table.file, table.header_line, 0,
                       std::to_string(table.names.size() - used) +
                           " column(s) that the record's spec does not name");
  }
  return r;
}

}  // namespace

data::ArmRecord read_arm_record(const std::string& path, const std::vector<std::string>& joints,
                                const ArmRecordSpec& spec) {
  check_prefixes(path, spec);
  const bool ur = spec.layout == "ur";
  if (ur) check_ur_joints(path, joints);
  const CsvTable table = read_csv(path, !ur);
  // Checked here as well as by check_arm_record: here the message names the file's line.
  if (!ur || table.names.size() == 19 || table.names.size() == 31)
    require_strictly_increasing(table, ur ? "column 1" : spec.time);
  return arm_record_from_table(table, joints, spec);
}

data::ArmRecord arm_record_from_table(const CsvTable& table, const std::vector<std::string>& joints,
                                      const ArmRecordSpec& spec) {
  check_prefixes(table.file, spec);
  data::ArmRecord r =
      spec.layout == "ur" ? ur_log_from_table(table, joints) : named_columns(table, joints, spec);
  data::check_arm_record(r);
  return r;
}

}  // namespace frictionlab::io
