// frictionlab identify: an arm's rigid body together with a friction model of the registry per
// joint (Stribeck, LuGre, ...: docs/models.md), by alternating between two least-squares
// problems that each have a good solver (docs/robot-identification.md, "Nonlinear friction"):
//
//   tau_jk = (W_k beta)_j + F_j(qd_j; theta_j) + noise
//
//   0. beta from the linear fit with viscous and Coulomb friction (robot_fit.hpp);
//   1. per joint, theta_j from identify::fit (the friction problem: velocity qd_j, force
//      tau_j - (W beta)_j), the model's own initial guess and starts;
//   2. beta from fit_robot on the torques minus the friction of step 1 (rigid body, offsets and
//      armature as `fit` asks; no viscous or Coulomb columns: the model has them);
//   steps 1-2 repeated until the total sum of squared residuals changes by less than
//   `tolerance` (relative) or `max_rounds` is reached; then, with `fit.weighted`, step 2 once
//   more with per-joint weights for the reported rigid body and its standard errors.
//
// In the rounds step 2 is unweighted, so both steps lower the same sum of squares (block
// coordinate descent) and the rounds converge to a point where neither block can improve it. The
// standard errors of each block are those of its own fit with the other block held at its estimate
// (conditional): they leave out the uncertainty the other block adds (docs/robot-identification.md
// says by how much on the Panda).
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify {

struct RobotFrictionOptions {
  /// Each joint's friction model and its fit (problem friction, rotary units); any fittable
  /// model of the registry. fit.model.name "stribeck" by default.
  FitOptions friction = [] {
    FitOptions o;
    o.model.name = "stribeck";
    o.rotary = true;
    return o;
  }();
  /// The rigid-body stage (its viscous and coulomb flags are ignored: the model has them).
  RobotFitOptions fit{};
  int max_rounds = 50;
  /// Relative change of the total sum of squares between rounds that ends them.
  double tolerance = 1e-5;
  int threads = 0;  ///< the joints' friction fits run on this many threads (0: every core)
};

struct RobotFrictionResult {
  RobotFitResult rigid;               ///< the last rigid-body stage (base parameters, offsets)
  std::vector<FitResult> friction;    ///< per joint: its friction model's fit
  int rounds = 0;                     ///< rounds of steps 1-2
  bool converged = false;             ///< the tolerance was met within max_rounds
  double relative_error_percent = 0;  ///< 100 |tau - W beta - F| / |tau|
  double linear_relative_error_percent = 0;  ///< step 0's (viscous + Coulomb) for comparison
  std::vector<double> rms_error;             ///< per joint [N m]
};

/// `result` applied to `samples` (joint torques): the rigid body's torque plus each joint's
/// friction model, against the measured torque. Throws as predict_robot does.
RobotPrediction predict_robot_friction(const robot::RobotModel& model,
                                       const RobotFrictionResult& result,
                                       const data::ArmSamples& samples,
                                       const RobotFrictionOptions& options = {});

/// Steps 0-2 on `samples` (joint torques). Throws std::invalid_argument as fit_robot does and
/// FitError for a friction fit that cannot run (naming the joint).
RobotFrictionResult fit_robot_friction(const robot::RobotModel& model,
                                       const data::ArmSamples& samples,
                                       const RobotFrictionOptions& options = {});

}  // namespace frictionlab::identify
