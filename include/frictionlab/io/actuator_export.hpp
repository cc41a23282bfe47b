// frictionlab io: export of a fitted servo actuator (docs/actuators.md, "Exporting a fitted
// actuator"; docs/cli.md, "export"): an MJCF fragment for MuJoCo, and BAM's own parameter file.
//
// Input: a BAM parameter file (io/servo_json.hpp, written by `fit-actuator` as m1.json .. m6.json),
// a fit-actuator summary.json (its recommended model's parameter file, named by "params_file"
// beside it) or a fit-actuator output directory (its summary.json).
//
// MuJoCo (joint side, SI; kt [Nm/A], R [Ohm], error_gain g, kp the firmware's register value of
// the logs, vin [V]; the servo's equations are sim/servo.hpp's):
//   joint:     armature = armature, frictionloss = Kc, damping = Kv + B with
//              B = kt^2 / R for a voltage drive (the motor's back-EMF: tau_m = (kt V - kt^2 qd) / R
//              has the velocity term -kt^2/R qd outside the PWM clamp, so it is a plain viscous
//              term of the joint), B = 0 for a current drive (tau_m = kt i).
//   position form (MuJoCo's `position` actuator, force = kp_mj (ctrl - q) clamped to forcerange):
//              kp_mj = kt/R vin kp g  (voltage drive)   or  kt kp g  (current drive)  [Nm/rad]
//              forcerange = +-kt/R vin max_pwm (stall torque)  or  +-kt current_limit   [Nm]
//              Exact for a voltage drive without a current limit, saturation included; the
//              firmware's current-limit window and a current drive's supply-voltage window are
//              noted as not represented.
//   dcmotor form (MuJoCo's `dcmotor`, input "pos": the controller's torque tau_c = kp_c e - kd_c qd
//              is driven by the voltage v = (R/K) tau_c + K qd, clamped to Vmax, and the motor
//              gives K (v - K qd) / R; per MuJoCo's XML reference, actuator/dcmotor):
//              resistance = R, motorconst = "kt kt", joint damping = Kv (the motor model has the
//              back-EMF), controller = "kp_c 0 kd_c 0 0 Vmax" with
//              voltage drive: kp_c = kt/R vin kp g, kd_c = kt^2/R (so that v = vin kp g e, the
//                             firmware's voltage), Vmax = vin max_pwm, saturation current =
//                             max_current (if > 0);
//              current drive: kp_c = kt kp g, kd_c = 0, Vmax = vin (the supply-voltage window),
//                             saturation current = current_limit.
// Not represented (notes, per model): the Stribeck term Kcs, vs, alpha (M2, M4..M6), the
// load-dependent friction Kl, Kls (M3, M4), Km, Ke, Kms, Kes (M5, M6), Kmq, Keq (M6), q_offset
// (the test bench's zero), and in the position form the current-limit windows.
//
// Nothing is printed or written here: the caller writes the texts and prints the notes.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/io/export.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::io {

/// A fitted actuator read for an export.
struct ActuatorSource {
  std::string file;      ///< the parameter file read
  std::string named_by;  ///< the summary.json that named it; empty when given directly
  sim::ServoSetup setup;
};

/// Whether `path` names a fitted actuator: a directory, or a JSON file that is a parameter file
/// or a summary.json (told apart by their keys). False for anything else, also for a file that
/// cannot be read or parsed (the other export readers report those).
bool is_actuator_source(const std::string& path);

/// Read a parameter file, a summary.json (its "recommended" model's "params_file", resolved
/// beside it) or a fit-actuator output directory (DIR/summary.json). Throws InputError naming
/// the file and the key (read_servo_params's errors for the parameter file).
ActuatorSource read_actuator_source(const std::string& path);

enum class ActuatorMujocoForm {
  position,  ///< MuJoCo's position actuator, the back-EMF in the joint's damping
  dcmotor,   ///< MuJoCo's dcmotor actuator with its position controller (MuJoCo 3.12 or later)
};

struct ActuatorMujocoOptions {
  std::string joint = "joint";  ///< the joint the servo drives (an MJCF name)
  /// The firmware's kp register value (the logs' "kp") the model is to run at; required, > 0.
  std::optional<double> kp;
  /// Supply voltage [V], > 0; unset: the actuator's (ServoConstants::vin).
  std::optional<double> vin;
  ActuatorMujocoForm form = ActuatorMujocoForm::position;
  /// The joint's range [rad] (lo < hi), written as the actuator's ctrlrange; unset: none.
  std::optional<std::pair<double, double>> ctrlrange;
};

/// The joint range "LO:HI" of --ctrlrange (finite numbers [rad], LO < HI). Throws
/// std::invalid_argument "--ctrlrange: expected LO:HI with LO < HI, got 'TEXT'".
std::pair<double, double> parse_ctrlrange(const std::string& text);

/// The numbers of the fragment (formulas in the header), SI units, joint side.
struct ActuatorMujocoValues {
  double armature = 0;            ///< joint armature [kg m^2]
  double frictionloss = 0;        ///< joint frictionloss = Kc [Nm]
  double viscous = 0;             ///< Kv [Nm s/rad]
  double back_emf = 0;            ///< kt^2/R (voltage drive), 0 (current drive) [Nm s/rad]
  double vin = 0;                 ///< supply voltage used [V]
  double torque_gain = 0;         ///< kp_mj = kp_c [Nm/rad]
  double stall_torque = 0;        ///< the position form's force limit [Nm]
  double vmax = 0;                ///< the dcmotor controller's voltage clamp [V]
  double saturation_current = 0;  ///< the dcmotor's current limit [A]; 0 = none
};

/// The values for a fitted actuator at the firmware gain `kp` (> 0) and supply `vin` (> 0).
/// Throws std::invalid_argument naming --kp / --vin for a value that is not finite and > 0.
ActuatorMujocoValues actuator_mujoco_values(const sim::ServoSetup& s, double kp, double vin);

/// What the fragment of `form` cannot represent for this actuator, one line per item with the
/// size of the deviation (empty: exact within the servo model of sim/servo.hpp).
std::vector<std::string> actuator_mujoco_notes(const sim::ServoSetup& s,
                                               const ActuatorMujocoValues& v,
                                               ActuatorMujocoForm form);

/// The MJCF fragment (a comment naming the source, the intro and the notes; the joint's
/// attributes; the actuator). Throws std::invalid_argument for a missing --kp, a bad --vin,
/// --ctrlrange or --joint; Cancelled.
MujocoExport export_actuator_mujoco(const ActuatorSource& source,
                                    const ActuatorMujocoOptions& options,
                                    const workflows::Progress& progress = {});

/// What BAM's parameter file cannot represent for this actuator, one line per item with its
/// value (empty: BAM re-simulates the fit as frictionlab does). BAM's file names the actuator
/// and carries the identified parameters only; BAM takes the firmware constants from its own
/// family of that name (mx106, mx64, sts3215, xc330m288t, xl320, xl330), whose law is a P loop
/// without deadband or control period. So: a name BAM does not know (`generic`, `sts3215-12v`,
/// an ACTUATOR.json's) loses the constants drive, error_gain, max_pwm, max_current, vin; an
/// ACTUATOR.json's description is not read by BAM; a PD/PID law, a deadband, a control period
/// and a temperature law are not modelled by BAM.
std::vector<std::string> actuator_bam_notes(const sim::ServoSetup& s);

/// BAM's parameter file of the source (io::servo_params_json: BAM's keys and order), with the
/// notes of actuator_bam_notes (the CLI prints each as a warning "BAM's parameter file cannot
/// represent: ..."). Reads back with io::read_servo_params to the same values, except a
/// temperature law, which the file does not carry (the friction at T_ref). Cancelled.
ExportText export_actuator_bam(const ActuatorSource& source,
                               const workflows::Progress& progress = {});

}  // namespace frictionlab::io
