// frictionlab identify: an arm's drive gains together with its base parameters, from two records
// with motor currents: one without and one with a payload of known mass on the last link
// (docs/robot-identification.md, "Drive gains"; Gautier and Briot, "Global identification of
// joint drive gains and dynamic parameters of robots", J. Dyn. Syst. Meas. Control 136(5),
// 2014). For joint j and sample k,
//
//   unloaded:  K_j i_jk = (W_k beta)_j
//   loaded:    K_j i_jk = (W_k beta)_j + (L_k phi)_j + m (l_k)_j
//
// with W the base regressor (robot_fit.hpp, friction included), L the last link's regressor
// columns of the payload's identifiable parameters phi (its first moments and inertia as far as
// the loaded record shows them), l the last link's mass column and m the known payload mass:
// the only term without an unknown, which fixes the scale that the currents alone leave open.
// Unknowns theta = [beta; phi; K], linear: y_k = X_k theta with y = 0 (unloaded) or -m l.
//
// The currents are in the regressor (X holds -diag(i)), so their noise biases least squares
// (errors in variables). The fit therefore refines the least-squares estimate by instrumental
// variables (IDIM-IV, Janot, Vandanjon and Gautier, IEEE Trans. Control Syst. Technol. 22(1),
// 2014): the instruments Z_k are X_k with the currents the previous estimate predicts in place
// of the measured ones, theta = (Z^T Om X)^-1 Z^T Om y with per-joint weights Om, and the
// covariance s^2 (Z^T Om X)^-1 Z^T Om Z (X^T Om Z)^-1.
#pragma once

#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify {

struct DriveGainOptions {
  RobotFitOptions fit{};    ///< the arm's columns (friction, armature) and weighting
  double payload_mass = 0;  ///< [kg], > 0: the payload on the last link in the loaded record
  int iv_iterations = 3;    ///< instrumental-variable refinements (0: least squares only)
};

struct DriveGainResult {
  /// The base parameters (friction included) and the figures over both records, the measured
  /// torque being K i with the estimated gains.
  RobotFitResult fit;
  std::vector<RobotParameter> gains;    ///< "K_<joint>" [N m/A], one per joint
  std::vector<RobotParameter> payload;  ///< the payload's identifiable parameters ("_payload")
  std::vector<RobotParameter> least_squares_gains;  ///< the gains before the IV refinement
};

/// The fit above. Throws std::invalid_argument for records whose joints do not match the model,
/// that have joint torques instead of currents, or a payload mass that is not > 0.
DriveGainResult fit_robot_gains(const robot::RobotModel& model, const data::ArmSamples& unloaded,
                                const data::ArmSamples& loaded, const DriveGainOptions& options);

}  // namespace frictionlab::identify
