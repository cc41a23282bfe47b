// frictionlab: reading a robot's rigid-body description (docs/robot-identification.md,
// "Robot descriptions"): a URDF file (urdfdom), or a ROBOT.json Denavit-Hartenberg table for
// arms published without one.
//
// URDF: revolute, continuous and prismatic joints become the model's joints; fixed joints are
// merged (the child link's inertial into the moving link it hangs from, its children's origins
// composed); floating and planar joints are refused. `<dynamics damping friction>` are read
// into `urdf_friction` (a starting point and what export writes back, not part of the
// rigid-body model). Mass properties come from `<inertial>`; a link without one is massless.
//
// ROBOT.json:
//   {"convention": "modified ..." | "standard ...",     (the first word decides)
//    "rows": [{"joint": "q1", "a": 0, "d": 0.333, "alpha": 0, "theta_offset": 0,
//              "type": "revolute" | "prismatic" | "fixed"}, ...],
//    "joint_limits": {"q_min": [...], "q_max": [...], "dq_max": [...], "ddq_max": [...]},
//    "gravity": {"g0": 9.80665}}
// lengths in m, angles in rad. A row without "type" is revolute unless its joint's name begins
// with "fixed" (as the Panda table in ../shared/data/robot_panda names its flange); "theta"
// may stand for "theta_offset". Unknown top-level keys are kept for the user (provenance,
// notes); unknown keys inside a row are refused.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/robot/model.hpp"

namespace frictionlab::io {

struct RobotDescription {
  robot::RobotModel model;
  /// Per joint, the URDF's `<dynamics damping friction>` (0 where absent; ROBOT.json: 0).
  std::vector<double> urdf_damping, urdf_friction;
  std::string file;  ///< where it was read from
};

/// A .urdf (or .xml) or a .json file by its extension; InputError naming the file otherwise.
RobotDescription read_robot(const std::string& path);
RobotDescription read_urdf(const std::string& path);
RobotDescription parse_urdf(std::string_view text, const std::string& file);
RobotDescription read_robot_json(const std::string& path);
RobotDescription parse_robot_json(std::string_view text, const std::string& file);

}  // namespace frictionlab::io
