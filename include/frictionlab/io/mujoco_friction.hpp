// frictionlab io: MUJOCO.json, the description of the joints whose friction frictionlab computes
// inside MuJoCo (the library frictionlab::mujoco, include/frictionlab/mujoco/friction.h;
// docs/mujoco.md, "frictionlab's friction inside MuJoCo"; docs/file-formats.md, "MUJOCO.json").
//
//   {"format": "frictionlab-mujoco", "version": 1,
//    "joints": [{"joint": "shoulder", "servo": "m6.json", "goal": "shoulder_goal",
//                "kp": 400, "vin": 7.4},
//               {"joint": "wrist", "friction": "fit.json"}]}
//
// Each entry names an MJCF joint (a hinge or a slide) and either
//  - "servo": the parameter file of a servo actuator fitted by `fit-actuator` (or BAM's): a
//    parameter file m1.json .. m6.json, a summary.json or a fit-actuator output directory.
//    "goal" names the MJCF actuator whose ctrl carries the goal position [rad]; "kp" (and "kd",
//    "ki" for a pd / pid firmware) are the firmware's register values, "vin" the supply
//    voltage [V] (default: the actuator's); a parameter file with a temperature law (m3+T.json)
//    needs "temperature" as below; or
//  - "friction": a friction model, as `export` reads it (io/estimator_export.hpp,
//    read_friction_source): a fit.json of `fit`, a joint_fit.json of `fit-joint` (its joint's
//    friction; a joint-lugre set as its lugre form), an ESTIMATOR.json or a MODEL.json. A
//    joint_fit.json's load dependence and temperature law are kept (the library runs them);
//    with a temperature law the entry gives "temperature", the joint's temperature [degC] at
//    the start (flmj_set_temperature changes it), which a friction without one refuses.
// Paths are resolved against the MUJOCO.json's folder. Reading checks the file only; the names
// and the models are checked against a MuJoCo model by the mujoco layer.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/estimator_export.hpp"

namespace frictionlab::io {

/// A servo joint of a MUJOCO.json.
struct MujocoServoJoint {
  std::string joint;  ///< the MJCF joint's name
  std::string goal;   ///< the MJCF actuator whose ctrl is the goal position [rad]
  ActuatorSource source;
  double kp = 0.0;            ///< firmware gain (register value), > 0
  double kd = 0.0;            ///< firmware derivative gain (law pd, pid), >= 0
  double ki = 0.0;            ///< firmware integral gain (law pid), >= 0
  std::optional<double> vin;  ///< supply voltage [V], > 0; unset: the actuator's
  long line = 0;              ///< the entry's line in the file (for messages)
  /// The joint's temperature at the start [degC]: given exactly when the parameter file has a
  /// temperature law, at which its scales are positive.
  std::optional<double> temperature;
};

/// A joint of a MUJOCO.json whose friction is a friction model.
struct MujocoFrictionJoint {
  std::string joint;  ///< the MJCF joint's name
  FrictionSource source;
  long line = 0;  ///< the entry's line in the file (for messages)
  /// The joint's temperature at the start [degC]: given exactly when the friction has a
  /// temperature law (source.joint->temperature), at which its scales are positive.
  std::optional<double> temperature;
};

struct MujocoFriction {
  std::string file;
  std::vector<MujocoServoJoint> servos;
  std::vector<MujocoFrictionJoint> frictions;
};

/// Read a MUJOCO.json and every parameter file it names. Throws InputError naming the file, the
/// line and the key of the first problem (an unknown key, a missing joint name, a joint named
/// twice, an entry with both or neither of "servo" and "friction", kp <= 0, a parameter file
/// that cannot be read, a temperature law without "temperature" or "temperature" without one).
MujocoFriction read_mujoco_friction(const std::string& path);
MujocoFriction parse_mujoco_friction(std::string_view text, const std::string& file);

}  // namespace frictionlab::io
