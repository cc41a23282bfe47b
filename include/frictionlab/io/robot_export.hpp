// frictionlab: an arm fit (robot_fit.json of `frictionlab fit-robot`) for simulators and robot
// descriptions (docs/robot-identification.md, "Exports"):
//   - MJCF: per joint <joint name=".." frictionloss="Fc" damping="Fv" armature="Ia"/> to merge
//     into the model (a joint with a LuGre friction: MuJoCo's passive dcmotor actuator, as
//     `export mujoco` writes it for one joint);
//   - URDF: the robot's own URDF with each joint's <dynamics damping="Fv" friction="Fc"/> set,
//     and, for a fit with `--consistent`, each moving link's <inertial> (mass, centre of mass and
//     inertia about it in the link's frame, which is the joint's frame J_i) from the physically
//     consistent set; the <inertial> of a link fixed to a moving link is removed, as its mass is
//     merged into the moving link's (fit-robot merges fixed joints). Every other element is kept.
// The MJCF holds the joints' friction and armature only. Without --consistent the base
// parameters do not determine the links' mass properties (the description's stay); with it,
// the standard parameters no record determines come from the prior, and the notes name them. A
// torque offset has no place in either format; the notes say what is left out, per joint, with
// its value.
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

/// `urdf_path` with the friction of robot_fit.json `fit_path` in each joint's <dynamics> (and its
/// consistent inertials in the moving links' <inertial>, see above).
/// Throws InputError naming the file for a URDF that does not parse or lacks a joint of the fit.
RobotExport export_robot_urdf(const std::string& fit_path, const std::string& urdf_path);

}  // namespace frictionlab::io
