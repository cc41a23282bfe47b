// frictionlab: output-error refinement of an identified joint (docs/joint-identification.md,
// "oe"): the equation of motion (sim/joint_model.hpp) is simulated from the applied torque and
// its parameters are adjusted so that the simulated position and velocity match the measured
// ones, by nonlinear least squares (Ceres, Levenberg-Marquardt), starting from an sr3 or idim
// result.
//
// Residuals. A record is cut into segments of `segment_s` seconds (multiple shooting: an
// open-loop simulation of a joint with gravity and friction drifts away from the record over
// long horizons, which makes the least-squares surface ragged; short horizons keep it smooth
// while still testing the dynamics). Each segment is simulated from the measured q and qd at
// its first sample (or from an estimated initial state, estimate_initial_state), with the
// bristle state z there given by the exact-step integration of the
// bristle equation driven by the measured velocity from the record's start (as the identification
// of reference 004 does for z). For every later sample k of the segment,
//   r_q = w_q (q_sim,k - q_k) / s_q,   r_qd = w_qd (qd_sim,k - qd_k) / s_qd,
// s_q, s_qd = the RMS of q - mean(q) and of qd over all records (so that both channels count in
// relative terms), w = 1 for the channels selected by `output`, 0 otherwise.
//
// Parameters (internal -> natural): I = exp(x); mgCx, mgCy, offset free; LuGre: sigma0, sigma1,
// Fc, Omega_s = exp(x), cv[i] free, Fs[i] = (Fc / n)(exp(y_i) - 1) (n Stribeck terms: g > 0 for
// any internal values; linear if an initial Fs[i] <= -Fc / n), delta[i] and K fixed (structure
// from sr3); static friction: Fv, Fc
// (Fc_pos, Fc_neg) = exp(x) (a start at 0, e.g. an idim coefficient at its bound, is raised to
// 1e-6 with a warning). The last accepted iterate is kept if the solver stops on a failed
// evaluation.
// Closed loop (closed_loop): the record's controller tau = kff tau_ff + bias + kp (q_des - q) +
// kd (qd_des - qd) is simulated with the joint (its drive u = kff tau_ff + bias + kp q_des +
// kd qd_des as the input, the feedback -kp q - kd qd inside the integrator), and the residuals
// gain r_tau = (u_k - kp q_sim,k - kd qd_sim,k - tau_k) / s_tau: the closed-loop output error of
// Gautier, Janot & Vandanjon (2013), for a joint held on a trajectory by a position controller,
// whose motion the open-loop simulation from the measured torque cannot follow.
// Derivatives (JointOeOptions::jacobian): for LuGre friction by forward sensitivities of the
// simulation (sim::simulate_joint_model_sensitivity: every TR-BDF2 stage differentiated at its
// solution; z0's derivative from sim::bristle_state_sensitivity), mapped to the internal
// parameters by G = d natural / d internal in closed form; one simulation with sensitivities per
// segment instead of 2 (np + 2). Static friction (the Moreau step is not differentiable where
// the joint sticks), or on request: central differences of the simulation (what
// ceres::DynamicNumericDiffCostFunction<CENTRAL> computes; the simulation's Newton tolerance is
// 1e-10).
// Standard errors: linearised covariance s^2 (J^T J)^-1 at the optimum (as identify/lsq; J with
// the initial-state columns, of which the model parameters' block is kept), mapped to the
// natural parameters by the delta method (G cov G^T, G = d natural / d internal). They assume
// white residuals, which simulation errors seldom are; next to them come Newey-West (HAC)
// standard errors: the sandwich A S A^T with A the model parameters' rows of (J^T J)^-1 and S
// the Bartlett-weighted autocovariances of the per-sample scores g_k = sum over the sample's
// channels of J_row^T r_row (lags over the samples of the concatenated segments, bandwidth
// from the lag-1 autocorrelation of the most coloured fitted channel), times N / (N - p_all)
// (N residuals, p_all parameters with the initial states). JointOeResult::reliability says
// whether the white-noise ones can be trusted, with the rules of identify::fit
// (docs/identification.md, "Results"): not when the solver did not converge, J^T J is singular
// or a parameter has no effect, its condition number exceeds 1e8, or the residuals are strongly
// coloured (Ljung-Box p < 0.01 on the most coloured channel, which the reason names, and its
// lag-1 autocorrelation > 0.5 or an HAC standard error more than twice the white-noise one;
// when J^T J is singular, no standard errors of either kind, and the autocorrelation alone).
//
// Host side: allocates, throws FitError.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/progress.hpp"
#include "frictionlab/identify/result.hpp"

namespace frictionlab::identify {

struct JointOeOptions {
  enum class Output { position, velocity, both };
  Output output = Output::both;
  /// Multiple-shooting segment length [s]; 0: one segment per record. Shorter than the time over
  /// which an open-loop simulation with the initial parameters leaves the record (measured on
  /// the synthetic LuGre joint of tests/test_joint_oe.cpp: 0.25 s converges to the truth from a
  /// 15-30 % perturbed start; 0.5 s and 1 s end in a compliant-bristle local minimum).
  double segment_s = 0.25;
  double max_step = 1e-3;  ///< largest simulation step [s] (sim::JointSimOptions)
  /// Estimate each segment's initial q and qd (started at the measured values, with residuals at
  /// the first sample too) instead of taking the measured ones: noise in the measured initial
  /// state otherwise biases the parameters.
  bool estimate_initial_state = true;
  bool fix_rigid_body = false;  ///< keep I, mgCx, mgCy, offset at their initial values
  /// Closed-loop output error (Gautier, Janot & Vandanjon 2013): every record has the desired
  /// channels (JointData::q_des, qd_des, tau_ff), the joint is simulated under `controller`
  /// (sim::JointSimOptions kp, kd; identify/joint_controller.hpp), and the torque the simulated
  /// controller applies is fitted to the measured torque (weight 1 / its RMS) together with the
  /// channels of `output`.
  bool closed_loop = false;
  JointController controller{};
  int max_iterations = 50;
  /// How the Jacobian of the residuals is computed (header): forward sensitivities of the
  /// simulation where the friction is LuGre (static friction always uses central differences),
  /// or central differences everywhere (the earlier method, kept to compare).
  enum class Jacobian { sensitivities, central_differences };
  Jacobian jacobian = Jacobian::sensitivities;
  /// Threads for the segments' simulations (0: std::thread::hardware_concurrency()): the
  /// residuals and the Jacobian of every segment are computed on them before
  /// Ceres, in one thread, sums them in a fixed order, so the result does not depend on the
  /// thread count or the scheduling (bit for bit).
  int threads = 0;
  /// One line per solver iteration and per solve's end, from the calling thread, with no
  /// fraction; cancel is polled at every solver iteration and stops the fit with Cancelled.
  /// Both may be empty.
  Progress progress;
};

struct JointOeResult {
  JointModel model;
  /// Every parameter of the model (estimated, or fixed: delta[i], K, and the rigid body with
  /// fix_rigid_body), with white-noise and Newey-West (hac_*) standard errors and 95 % intervals
  /// (t(0.975, N - p_all) quantile).
  std::vector<ParameterEstimate> parameters;
  /// Whether the white-noise standard errors can be trusted and why not (header); whiteness is
  /// that of the fitted channel with the largest lag-1 autocorrelation.
  Reliability reliability;
  double initial_cost = 0, final_cost = 0;  ///< 1/2 sum r^2
  int iterations = 0;
  bool converged = false;
  std::string termination;      ///< Ceres' own words
  double condition_number = 0;  ///< of the column-scaled J^T J at the optimum
  long residuals = 0;
  int segments = 0;
  std::vector<std::string> warnings;
  /// What the record does not determine (workflows' verdict lists them): a parameter without
  /// effect on the simulated output (kind undetermined), J^T J singular at the optimum (kind
  /// condition, no parameter).
  std::vector<IdentifiabilityFlag> flags;
};

/// Refine `initial` on the records. Throws FitError for unusable input (channels, lengths,
/// non-finite values, a record shorter than two samples per segment, an initial model that is
/// not valid or not simulable).
JointOeResult fit_joint_oe(std::span<const JointData> data, const JointModel& initial,
                           const JointOeOptions& opt);

}  // namespace frictionlab::identify
