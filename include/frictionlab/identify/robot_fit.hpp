// frictionlab identify: a robot arm's rigid-body and joint-friction parameters from one
// record, by weighted least squares on the base parameters (docs/robot-identification.md,
// "Identification"; Gautier and Khalil's inverse-model method, Gautier 1990 for the numerical
// base, Gautier and Poignet 2001 for the per-joint weights).
//
//   tau_k = Y(q_k, qd_k, qdd_k) pi + Ia qdd_k + Fv qd_k + (Fc + mu |tau_k|) sign(qd_k) + offset
//
// for every sample k and joint: linear in the links' standard inertial parameters pi (robot/
// dynamics.hpp), the armatures Ia (optional: link-side torque sensors do not see the rotors),
// and each joint's viscous Fv, Coulomb Fc, load coefficient mu and offset (each optional; mu
// off by default). Steps:
//   1. the base: the regressor at `base_states` random states, QR with column pivoting (rank by
//      the relative tolerance `rank_tolerance`); the independent columns are the base
//      parameters, each the sum of its own parameter and the dependent ones it absorbs (the
//      grouping, shown by name);
//   2. ordinary least squares on the record's samples (normal equations accumulated sample by
//      sample, no stacked matrix); each joint's residual standard deviation sigma_j;
//   3. weighted least squares with weights 1 / sigma_j (unless `weighted` is false), and
//      the covariance of the estimates, sigma-scaled: (W^T Sigma^-1 W)^-1;
//   4. the figures: the condition number of the (unweighted, unscaled) base regressor, the
//      relative error 100 |tau - W beta| / |tau| [%] over all joints and samples, each joint's
//      RMS error, and flags for what the record does not determine.
//
// The load-dependent Coulomb level (`load`; models/load_dependence.hpp with mu_drive = mu_back =
// mu, Hamon, Gautier, Garrec and Janot, IEEE RAM 2010) makes the torque appear on both sides.
// The measured torque in the column would put its noise into the regressor and bias mu (errors
// in variables), so the column is |tau_hat| sign(qd) with tau_hat the torque the previous
// estimate predicts (instrumental variables, IDIM-IV as for the drive gains): steps 2-3 repeated
// from the load-free fit's prediction until mu changes by less than 1e-10. At that point tau_hat
// is the model's own prediction, tau_hat = r / (1 -+ mu) (load_dependence.hpp, applied_torque),
// so the residuals and their statistics are the model's, conditional on the instrument. A joint
// whose record does not determine mu (identify/load_rule.hpp) or whose mu comes out below 0 or
// at 1 and above has it held at 0 (its column left out), with a flag or note saying why.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify {

struct RobotFitOptions {
  bool armature = false;  ///< estimate each joint's armature Ia (rotor inertia) [kg m^2]
  bool viscous = true;    ///< each joint's Fv [N m s/rad]
  bool coulomb = true;    ///< each joint's Fc [N m] (sign(qd), 0 at qd = 0)
  bool offset = true;     ///< each joint's constant offset [N m]
  /// Each joint's load coefficient mu [-] (header): the Coulomb level grows by mu |tau|.
  bool load = false;
  bool weighted = true;          ///< weights 1 / sigma_j per joint (else ordinary least squares)
  int base_states = 200;         ///< random states of step 1
  double rank_tolerance = 1e-8;  ///< step 1: relative to the largest pivot
  unsigned seed = 1;             ///< of step 1's random states
  /// A parameter whose relative standard error exceeds this [%] is flagged "poorly determined".
  double flag_relative_error_percent = 30;
};

/// One estimated (base) parameter.
struct RobotParameter {
  std::string name;        ///< "Izz_q1", "Fv_q4", ... (the independent column's parameter)
  std::string expression;  ///< what it stands for: "Izz_q1 + 0.0998 m_q2 + Iyy_q2" (the grouping)
  /// The same as (standard parameter, coefficient) pairs, its own first with coefficient 1:
  /// value = sum of coefficient * parameter.
  std::vector<std::pair<std::string, double>> terms;
  std::string unit;
  double value = 0;
  double std_error = 0;  ///< from the covariance of step 3
  /// 100 std_error / |value| [%] (the papers' "%sigma"); infinite for a value of 0.
  double relative_std_error_percent = 0;
  bool poorly_determined = false;
};

struct RobotFitResult {
  int samples = 0;                         ///< samples of the record used
  int standard_parameters = 0;             ///< columns before the base (10 n + friction + Ia)
  int rank = 0;                            ///< number of base parameters (friction included)
  std::vector<RobotParameter> parameters;  ///< the base parameters, friction included
  double condition_number = 0;             ///< of the unweighted base regressor (2-norm)
  double relative_error_percent = 0;       ///< 100 |tau - W beta| / |tau|
  std::vector<double> rms_error;           ///< per joint [N m]
  std::vector<double> sigma;               ///< per joint residual standard deviation [N m]
  std::vector<std::string> flags;          ///< what the record does not determine, in words
  /// With RobotFitOptions::load: the joints whose mu came out below 0 or at 1 and above and is
  /// held at 0 (the record shows no level rising with the load), in words; and the rounds of
  /// the instrumental-variable iteration and whether it settled.
  std::vector<std::string> load_notes;
  int load_rounds = 0;
  bool load_converged = true;
  /// The covariance of the base parameters (rank x rank, rows in `parameters`' order).
  std::vector<std::vector<double>> covariance;
};

/// The torque a fit predicts on other samples of the same robot, against the measured one.
struct RobotPrediction {
  int samples = 0;
  double relative_error_percent = 0;           ///< 100 |tau - W beta| / |tau| over all joints
  std::vector<double> rms_error;               ///< per joint [N m]
  std::vector<std::vector<double>> predicted;  ///< per joint, per sample [N m]
};

/// `result`'s base parameters applied to `samples` (joint torques), with the options it was
/// fitted with; with `options.load` each joint's torque is the load model's applied_torque of
/// the load-free one, with mu_JOINT of the result (0 where it has none). Throws
/// std::invalid_argument as fit_robot does.
RobotPrediction predict_robot(const robot::RobotModel& model, const RobotFitResult& result,
                              const data::ArmSamples& samples, const RobotFitOptions& options = {});

/// Steps 1-4 on `samples` (joint torques: effort_is_current must be false). Throws
/// std::invalid_argument naming the problem for a record whose joints do not match the model.
RobotFitResult fit_robot(const robot::RobotModel& model, const data::ArmSamples& samples,
                         const RobotFitOptions& options = {});

}  // namespace frictionlab::identify
