// frictionlab identify: experiment design for arm identification, and the check of a
// trajectory before (or after) the robot runs it (docs/robot-identification.md, "Experiment
// design").
//
// The excitation is a finite Fourier series per joint (Swevers, Ganseman, Tukel, De Schutter and
// Van Brussel, IEEE Trans. Robot. Automat. 13(5), 1997), period T = 2 pi / wf:
//
//   q_j(t)   = q0_j + sum_{l=1..L} a_jl / (l wf) sin(l wf t) - b_jl / (l wf) cos(l wf t)
//   qd_j(t)  =        sum_{l=1..L} a_jl cos(l wf t) + b_jl sin(l wf t)
//   qdd_j(t) =        sum_{l=1..L} l wf (b_jl cos(l wf t) - a_jl sin(l wf t))
//
// constrained to qd_j(0) = qdd_j(0) = 0 (sum_l a_jl = 0, sum_l l b_jl = 0), so the robot can
// start it from rest at q(0) and repeat it without a jump. The design minimises the condition
// number of the base regressor (the criterion Gaz et al. 2019 report for the Panda record,
// robot_fit.hpp step 4) over the coefficients and offsets with CMA-ES (cmaes.hpp); every
// candidate is scaled per joint so that it just reaches the nearest of its position, velocity
// and acceleration limits (times `margin`), so every candidate is feasible and uses the range
// it is allowed.
//
// The check (of a designed or a recorded trajectory): the condition number, and per base
// parameter how well the trajectory separates it from the others: with the regressor's columns
// scaled to unit norm (Ws), e_i = 1 / sqrt(((Ws^T Ws)^-1)_ii) in [0, 1] is the sine of the angle
// between column i and the span of the others (1: orthogonal to them; 0: a combination of
// them); its standard error is 1 / e_i times the one an orthogonal column of the same norm
// would have.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/arm_record.hpp"
#include "frictionlab/identify/robot_fit.hpp"
#include "frictionlab/robot/model.hpp"

namespace frictionlab::identify {

/// A Fourier excitation trajectory (the series above), one row of coefficients per joint.
struct FourierTrajectory {
  double period = 0;                      ///< T [s]; wf = 2 pi / T
  std::vector<double> q0;                 ///< per joint [rad | m]
  std::vector<std::vector<double>> a, b;  ///< per joint, per harmonic l = 1..L [rad/s | m/s]
  int dof() const { return static_cast<int>(q0.size()); }
  int harmonics() const { return a.empty() ? 0 : static_cast<int>(a.front().size()); }
  /// q, qd, qdd [dof] at time t [s].
  void evaluate(double t, double* q, double* qd, double* qdd) const;
  /// The trajectory sampled at `rate` [Hz] over `periods` periods (t from 0), as a record's
  /// samples without torque. Throws std::invalid_argument for a rate outside [1, 1e5] Hz or
  /// periods outside [1, 1000].
  data::ArmSamples sample(double rate, int periods = 1) const;
};

struct ExcitationOptions {
  double period = 10;  ///< T [s]
  int harmonics = 5;   ///< L
  /// The fraction of each limit (position range about q0, velocity, acceleration) the
  /// trajectory may reach, in (0, 1].
  double margin = 0.95;
  /// The rate [Hz] the condition number is evaluated at while designing (at least 20 samples
  /// per period of the highest harmonic).
  double design_rate = 20;
  long evaluations = 3000;  ///< CMA-ES budget (all restarts)
  double max_seconds = 0;   ///< wall-time budget [s] (0: none)
  unsigned seed = 1;        ///< of the start and of CMA-ES
  int threads = 1;          ///< evaluation threads
  /// Per joint, in place of the description's (empty: the description's) [rad/s | m/s] and
  /// [rad/s^2 | m/s^2]; a URDF has no acceleration limits.
  std::vector<double> velocity_limits, acceleration_limits;
  /// The regressor's columns: armature and friction terms as the fit will have them.
  RobotFitOptions terms{};
};

/// What a trajectory determines (the check above).
struct ExcitationCheck {
  int samples = 0;
  int rank = 0;                         ///< base parameters (friction included)
  double condition_number = 0;          ///< of the unweighted, unscaled base regressor (2-norm)
  std::vector<std::string> parameters;  ///< base parameters' names (robot_fit.hpp)
  /// Per base parameter: e_i in [0, 1] (0 for one the trajectory does not excite at all).
  std::vector<double> separation;
  std::vector<double> range;              ///< per joint max q - min q [rad | m]
  std::vector<double> peak_velocity;      ///< per joint max |qd|
  std::vector<double> peak_acceleration;  ///< per joint max |qdd|
  std::vector<int> reversals;             ///< per joint, sign changes of qd
  /// What the trajectory does not determine, in words (empty: every base parameter).
  std::vector<std::string> flags;
};

struct ExcitationDesign {
  FourierTrajectory trajectory;
  std::vector<double> start;  ///< q(0) per joint: where the robot waits at rest [rad | m]
  ExcitationCheck check;      ///< at ExcitationOptions::design_rate over one period
  long evaluations = 0;       ///< of the condition number
  double seconds = 0;         ///< wall time [s]
};

/// A base parameter whose separation e_i is below this is flagged (its standard error at
/// least 10 times that of an orthogonal column of the same norm).
inline constexpr double kPoorSeparation = 0.1;

/// The design above. Throws std::invalid_argument naming the joint whose position, velocity or
/// acceleration limit is missing (infinite) or empty, or the option out of range
/// ("velocity_limits: expected 7 values (one per joint), got 1").
ExcitationDesign design_excitation(const robot::RobotModel& model,
                                   const ExcitationOptions& options = {});

/// The check of a trajectory's samples (q, qd, qdd per joint; effort not needed). Throws
/// std::invalid_argument for samples whose joints do not match the model.
ExcitationCheck check_excitation(const robot::RobotModel& model, const data::ArmSamples& samples,
                                 const RobotFitOptions& terms = {});

}  // namespace frictionlab::identify
