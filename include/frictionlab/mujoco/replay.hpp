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

#include <limits>
#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/identify/joint_data.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/sim/joint_model.hpp"
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

// ---- a joint fit replayed on its records ----------------------------------------------------
//
// Each record (identify::JointData, preprocessed as eval-joint does) is replayed in MuJoCo in a
// pendulum made from the joint model (fit-joint's or a JOINT.json): a point mass m at distance L
// with m L^2 = I and m g L = m g c = hypot(mgCx, mgCy), turned by phi = atan2(mgCx, -mgCy) so
// that MuJoCo's gravity torque is the model's tau_g(q) = mgCx cos q - mgCy sin q (without
// gravity terms: m = I at 1 m, gravity off). It is driven by the record's torque (qfrc_applied,
// linear between samples, taken at each step's midpoint: the load of a load dependence) and the
// model's constant -offset (a torque on the body about the hinge, xfrc_applied: not load), each
// sample interval split into ceil(interval / max_step) equal Euler steps, with
//  - exported: the joint's frictionloss and damping of `export mujoco --form joint`
//    (io::export_mujoco with MujocoForm::joint; a LuGre joint's steady curve; a load dependence
//    left out and a temperature law held at T_ref, which MuJoCo's attributes cannot carry);
//  - inside: the joint's friction inside MuJoCo (frictionlab::mujoco, friction.h; a joint-lugre
//    set as its lugre form; its load dependence under the record's torque, its temperature law
//    at the record's temperature);
// beside frictionlab's own simulation (identify::evaluate_joint, same horizon and max_step).
// With horizon_s > 0 every simulation restarts from the measured q, qd every horizon_s seconds
// (the LuGre state from the bristle integration, sim::bristle_state), as evaluate_joint does.
// Each against the record: the mean |q_sim - q| [rad] over its samples.

struct JointReplayRecord {
  std::string file;       ///< the record's source
  double exported = 0.0;  ///< MAE of the exported joint form in MuJoCo [rad]
  double inside = 0.0;    ///< MAE with frictionlab's friction inside MuJoCo [rad]
  double own = 0.0;       ///< MAE of frictionlab's own simulation [rad]
};

struct JointReplay {
  std::string mujoco_version;  ///< e.g. "2.2.2"
  double max_step = 0.0;       ///< largest MuJoCo step [s]
  double horizon_s = 0.0;      ///< restart interval [s] (0: one simulation of each record)
  /// The joint's friction has a load dependence, which the exported form leaves out.
  bool load = false;
  /// A temperature law's T_ref [degC], at which the exported form holds the friction (NaN: no
  /// law).
  double T_ref = std::numeric_limits<double>::quiet_NaN();
  std::vector<JointReplayRecord> records;
  double exported = 0.0, inside = 0.0, own = 0.0;  ///< means over the records [rad]
};

/// Replay `records` with the joint model `joint`. Throws std::invalid_argument for no records
/// or max_step <= 0, identify::FitError for a record evaluate_joint refuses, io::InputError for
/// a joint-lugre set without a lugre form (io::joint_friction_source), std::runtime_error when
/// MuJoCo does not load the bench. mjcb_passive as for replay_servo_logs.
JointReplay replay_joint_records(const sim::JointModel& joint,
                                 const std::vector<identify::JointData>& records,
                                 double horizon_s = 0.0, double max_step = 1e-3);

/// "MuJoCo 2.2.2 replay of 2 record(s) (steps <= 1 ms, restarts every 1 s), mean MAE: the
/// exported joint form 0.0xx rad, frictionlab's friction inside MuJoCo 0.0yy rad, frictionlab's
/// own simulation 0.0zz rad (1.2x, 1.0x)".
std::string replay_summary(const JointReplay& r);

}  // namespace frictionlab::mujoco
