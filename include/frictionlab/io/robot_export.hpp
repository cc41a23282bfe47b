// frictionlab: an arm fit (robot_fit.json of `frictionlab fit-robot`) for simulators and robot
// descriptions (docs/robot-identification.md, "Exports"):
//   - MJCF: per joint <joint name=".." frictionloss="Fc" damping="Fv" armature="Ia"/> to merge
//     into the model (a joint with a LuGre friction: MuJoCo's passive dcmotor actuator, as
//     `export mujoco` writes it for one joint);
//   - URDF: the robot's own URDF with each joint's <dynamics damping="Fv" friction="Fc"/> set,
//     every other element kept as it is.
// Both hold the joints' friction and armature only: the base parameters do not determine the
// links' mass properties (the description's stay), and a torque offset has no place in either
// format; the notes say what is left out, per joint, with its value.
#pragma once

#include <string>
#include <vector>

namespace frictionlab::io {

struct RobotExport {
  std::string text;                ///< the MJCF fragment or the URDF document
  std::vector<std::string> notes;  ///< what the format cannot hold, with the values left out
};

/// The MJCF fragment of robot_fit.json `fit_path`. Throws InputError naming the file for one
/// that is not a robot_fit.json, and std::invalid_argument for a joint's model MuJoCo has no
/// equivalent of.
RobotExport export_robot_mujoco(const std::string& fit_path);

/// `urdf_path` with the friction of robot_fit.json `fit_path` in each joint's <dynamics>.
/// Throws InputError naming the file for a URDF that does not parse or lacks a joint of the fit.
RobotExport export_robot_urdf(const std::string& fit_path, const std::string& urdf_path);

}  // namespace frictionlab::io
