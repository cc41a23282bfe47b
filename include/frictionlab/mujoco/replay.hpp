// frictionlab: servo logs replayed in MuJoCo (C++ API of frictionlab::mujoco; docs/mujoco.md,
// "Measured in MuJoCo 2.2.2"): what a fitted actuator loses in MuJoCo, measured on its logs.
//
// Each BAM log is replayed in the logs' pendulum bench (sim/servo.hpp, PendulumBench: a point
// mass `mass` at `length`, a rod of `arm_mass`, q = 0 hanging down, the bench's zero error
// q_offset of the parameter file, g = 9.80665 m/s^2) built as MJCF around
//  - exported: the position-form fragment `export mujoco` writes (io::export_actuator_mujoco)
//    at the log's kp and vin; where the log disables the torque, the actuator is switched off
//    (mjDSBL_ACTUATION) and the joint's damping set back to the fit's Kv (docs/mujoco.md, "A
//    servo with its torque disabled");
//  - inside: the joint with the fitted armature and frictionlab's servo friction inside MuJoCo
//    (frictionlab::mujoco, friction.h), the torque disabled as the log says;
// from the log's first position and speed, Euler at `timestep`, ctrl = the entry's goal over
// the steps to the next entry. Each against the log: the mean |q - position| [rad], beside
// frictionlab's own re-simulation of the same parameter file (identify::servo_log_error).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/sim/servo.hpp"

namespace frictionlab::mujoco {

struct ServoReplayLog {
  std::string file;         ///< the log
  double kp = 0.0;          ///< its firmware gain
  std::string trajectory;   ///< its trajectory name
  bool torque_off = false;  ///< the log disables the torque at times
  double exported = 0.0;    ///< MAE of the exported fragment in MuJoCo [rad]
  double inside = 0.0;      ///< MAE with frictionlab's friction inside MuJoCo [rad]
  double own = 0.0;         ///< MAE of frictionlab's own re-simulation [rad]
};

struct ServoReplay {
  std::string mujoco_version;  ///< e.g. "2.2.2"
  double timestep = 0.0;       ///< [s]
  std::vector<ServoReplayLog> logs;
  double exported = 0.0, inside = 0.0, own = 0.0;  ///< means over the logs [rad]
};

/// Replay `logs` (processed: a fixed dt that is a multiple of `timestep`) with the fitted actuator
/// `source`. MuJoCo's mjcb_passive is the replay's while it runs and put back after (not for
/// several threads at once). Throws std::invalid_argument for no logs or a log whose step is not a
/// multiple of the timestep, std::runtime_error naming the log when MuJoCo does not load a bench.
ServoReplay replay_servo_logs(const io::ActuatorSource& source,
                              const std::vector<data::ServoLog>& logs, double timestep = 1e-3);

/// The logs' bench as MJCF: a hinge about y whose body carries the point mass at `length`
/// turned by q_offset [rad] and the rod, q = 0 hanging down; `joint` is the joint element,
/// `actuator` the <actuator> section (may be empty), Euler at `timestep` [s]. Joints default to
/// hinges about y.
std::string pendulum_bench_mjcf(const sim::PendulumBench& bench, double q_offset, double timestep,
                                const std::string& joint, const std::string& actuator);

/// "MuJoCo 2.2.2 replay of 16 logs at 1 ms, mean MAE: exported fragment 0.128 rad, frictionlab's
/// friction inside MuJoCo 0.0768 rad, frictionlab's own simulation 0.0741 rad (1.73x, 1.04x)".
std::string replay_summary(const ServoReplay& r);

}  // namespace frictionlab::mujoco
