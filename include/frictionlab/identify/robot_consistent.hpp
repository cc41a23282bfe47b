// frictionlab identify: physically consistent link inertials for an arm fit
// (docs/robot-identification.md, "Physical consistency").
//
// The base parameters of fit_robot are combinations of the links' standard parameters; least
// squares may give values no set of real bodies has (a negative mass, an inertia violating the
// triangle inequality). This finds, for every link, standard parameters pi_l that a density
// can realise -- its pseudo-inertia J_l = [[tr(I)/2 1 - I, h], [h^T, m]] positive definite
// (Wensing, Kim and Slotine, IEEE RA-L 3(1), 2018) -- whose base parameters are closest to the
// fit's in its own metric:
//
//   min  (beta(pi) - beta^)^T Sigma^-1 (beta(pi) - beta^) + lambda sum_l |theta_l - theta0_l|^2
//
// with Sigma the fit's covariance of its base parameters: the first term is the increase of
// the fit's weighted sum of squared torque residuals that the move to pi costs.
// with each J_l = U U^T in the log-Cholesky parameterisation of Rucker and Wensing (IEEE RA-L
// 7(2), 2022): U = e^alpha [[e^d1, s12, s13, t1], [0, e^d2, s23, t2], [0, 0, e^d3, t3],
// [0, 0, 0, 1]], any of its 10 numbers giving a positive definite J, so the problem is an
// unconstrained Ceres least squares (friction and armature >= 0 by bounds). The small lambda
// term on the log-Cholesky numbers theta picks one set among the many with the same base
// parameters, the closest to the prior theta0 (the description's inertials where it has them,
// else 1 kg at the joint origin with 0.01 kg m^2), and keeps the directions no record
// determines (e.g. the first link's mass) from running away.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify {

struct ConsistentOptions {
  double prior_weight = 1e-4;  ///< lambda (theta is dimensionless)
  int max_iterations = 200;
};

struct ConsistentResult {
  std::vector<robot::Inertial> links;  ///< per joint, its link's mass properties (joint frame)
  /// beta(pi): the fit's base parameters (same order) with the consistent inertials and the
  /// bounded friction and armature.
  std::vector<double> base;
  /// sqrt((beta(pi) - beta^)^T Sigma^-1 (beta(pi) - beta^)): how far, in standard errors, the
  /// fit is from the nearest physically consistent set (0: it is consistent).
  double distance = 0;
  bool converged = false;
  int iterations = 0;
  /// The links' standard parameters that no base parameter contains ("m_q1", ...): no record
  /// determines them, their values in `links` come from the prior and the others.
  std::vector<std::string> undetermined;
};

/// The consistent inertials of `fit` (of `model`, fitted with `options`). Throws
/// std::invalid_argument for a fit whose parameters are not this model's.
ConsistentResult physically_consistent(const robot::RobotModel& model, const RobotFitResult& fit,
                                       const RobotFitOptions& options = {},
                                       const ConsistentOptions& consistent = {});

}  // namespace frictionlab::identify
