// frictionlab: the position controller of a closed-loop joint record (docs/joint-identification.md,
// "oe"): identification of its gains from the record, and its drive signal.
//
// A joint held on a desired trajectory (q_des, qd_des, feedforward tau_ff) by a PD law,
//   tau = kff tau_ff + bias + kp (q_des - q) + kd (qd_des - qd)            (JointController)
// is linear in (kff, bias, kp, kd) given the measured q, qd and tau: fit_joint_controller solves
// that least-squares problem over the record (column-pivoting QR), independently of the joint
// model, and reports how much of the torque the law explains. The closed-loop simulation
// (sim::JointSimOptions kp, kd) takes the drive
//   u(t) = kff tau_ff + bias + kp q_des + kd qd_des,   tau = u - kp q - kd qd.
//
// Host side: allocates, throws FitError.
#pragma once

#include <vector>

#include "frictionlab/identify/joint.hpp"

namespace frictionlab::identify {

struct JointControllerFit {
  JointController controller;
  double rel_error = 0;  ///< ||tau - law|| / ||tau|| over the record [-]
};

/// Least-squares gains of the law (header) on a record with desired channels. Throws FitError
/// if the record has no desired trajectory, fewer than 8 samples, or a gain comes out negative
/// (the law does not describe the record).
JointControllerFit fit_joint_controller(const JointData& d);

/// u(t) of the header at every sample of d (d must have the desired channels).
std::vector<double> controller_drive(const JointController& c, const JointData& d);

/// The law's torque along the measured motion of d.
std::vector<double> controller_torque(const JointController& c, const JointData& d);

}  // namespace frictionlab::identify
