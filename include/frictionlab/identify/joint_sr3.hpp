// frictionlab identify: the joint identification algorithm of Mahmoudkhani, Gorenstein & Ahmadi
// (reference 004, 2023, sec. 3-4 and 6): rigid-body terms and LuGre friction of one joint from
// one trajectory by SINDy-SR3 with corrected-AIC model selection (step 1) and the iterative
// alternation between the two LuGre forms (steps 2-3). Equations, every convention, defaults,
// measured accuracy and run time: docs/joint-identification.md, section "sr3".
//
// Joint (identify/joint.hpp, 04_* eq. 1 plus an offset):
//   I*qdd + mgCx*cos(q) - mgCy*sin(q) + offset + tau_f(qd, z) = tau                      [N m]
// Friction (models/joint_lugre.hpp, 04_* eq. 2-6), sg = sgn (K = 0, model A) or tanh(K qd):
//   tau_f = sigma0 z + sigma1 zdot + sum_i cv_i qd^i,
//   zdot  = qd - sigma0 qd z / (sg(qd) g(qd)),  g(qd) = Fc + sum_i Fs_i exp(-|qd/Omega_s|^delta_i)
//
// Step 1 (04_* sec. 3.3.1, 4, 6): SR3 (identify/sr3.hpp) on the library (eq. 13-15)
//   [qdd, cos q, sin q, 1 | qd, qd^2, .., qd^nv | sg, sg*exp(-|qd/Omega_s|^delta_1), ...]
// (gravity and offset columns per JointStructure), with Newton-Raphson on alpha = ln Omega_s,
// for every lambda of a grid and every initial Omega_s; the lambda with the lowest corrected AIC
// (eq. 22-24) on the validation data picks the structure (the "active" terms) and gives
// static_model. The rigid-body columns, the offset and the Coulomb column sg are never
// thresholded by default (protect_rigid_and_coulomb): the user chose the structure, and g must
// keep a Coulomb level > 0 for the LuGre steps.
//
// Step 2 (eq. 16, outer loop): least squares (SR3 with lambda = 0) with Newton on Omega_s on
//   [active viscous | P, P*exp(-|qd/Omega_s|^delta_i) (active i) | zdot],
//   P = sg(qd) (1 - zdot/qd) = sigma0 z / g_prev(qd)
// (the second form follows from eq. 3 and is finite at qd = 0, where the first is 0/0), with tau
// replaced by tau - rigid body. The first outer iteration has zdot = 0 (P = sg), no zdot column,
// and the rigid-body columns, whose coefficients are then fixed; it fits the samples of step 1
// (|qd| >= static_velocity_floor), the later ones every sample. A step-2 result whose g is not
// positive at every velocity (Fc + negative Fs_i <= 0) is not applied (counted, warned).
// Step 3 (eq. 17-19, inner loop): z from the exact-step integration of eq. 3 driven by the
// measured qd (held at the mean of each interval's end values; z(0) = 0) with
// the current sigma0 and g; least squares on [u, udot | active viscous], u = sigma0 z; then
// sigma0_new = sigma0 xi_u (eq. 18). The inner loop stops when the training error rises
// (the iterate before is kept), when |xi_u - 1| < inner_tolerance, when an iteration lowers
// the error by less than inner_min_decrease (relative), or after max_inner.
// sigma1 = sigma0 xi_udot with the sigma0 of u (eq. 19 up to the factor xi_u, see the docs).
// The outer loop stops when sigma0 and the training error change by less than outer_tolerance
// (relative) between outer iterations, or after max_outer. Steps 2-3 run from every sigma0 of
// sigma0_init; the run whose final model has the lowest training torque error is kept. If that
// run started at the grid's smallest or largest sigma0, the grid is extended by a factor 10
// beyond that edge (at most twice, while the new start wins); a best start still at the edge is
// flagged (a warning; sigma0 and sigma1 marked at_limit).
//
// Host side: allocates; throws FitError (identify/options.hpp) for unusable input.
#pragma once

#include <Eigen/Dense>
#include <span>
#include <string>
#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/identify/sr3.hpp"

namespace frictionlab::identify {

/// The residual measure of the AIC (04_* eq. 22-24).
enum class AicResidual {
  absolute,  ///< RSS = sum over observations of the sum of |error| (eq. 23-24, as printed)
  squared,   ///< RSS = sum of squared errors (the usual residual sum of squares)
};

struct JointSr3Options {
  JointStructure structure{};
  /// Viscous powers qd, qd^2, .., qd^n_viscous in the library (04_* eq. 14); 0..8. Higher
  /// powers are nearly collinear on a record's velocity range and make the selection unstable
  /// (measured on the synthetic joint: with 5 powers the scan keeps sgn and one exponential and
  /// misses the viscous term; docs/joint-identification.md).
  int n_viscous = 3;
  /// Stribeck exponents delta_i of the library (04_* eq. 15), 1..16 values, each > 0. The
  /// default spans the paper's range 0.5..4 with ratio 2: with one Omega_s for all terms,
  /// neighbouring exponentials much closer than that are nearly collinear (a delta = 0.75 term
  /// at a shifted Omega_s mimics delta = 1), and the selection between them becomes arbitrary.
  std::vector<double> delta = {0.5, 1.0, 2.0, 4.0};
  /// tanh gain [s/rad]: 0 = sgn(qd) (model A); > 0 = tanh(K qd) (model B; the paper used 150).
  double K = 0;
  /// lambda grid of step 1 (dimensionless, see identify/sr3.hpp). Empty: lambda = 0 and
  /// lambda = t^2 / (2 nu) for 36 thresholds t log-spaced over [1e-4, 0.3] (a term is dropped
  /// when its contribution is below t * ||tau||).
  std::vector<double> lambda;
  /// Initial Omega_s [rad/s] of step 1. Empty: 0.1 %, 0.3 %, 1 %, 3 % and 10 % of max|qd| of
  /// the training data (the paper's 0.002..0.02 rad/s were 0.1..1 % of its 2.13 rad/s; the
  /// exponential that enters the model first is the one that matches at the start value, so
  /// the starts must reach the true Stribeck velocity).
  std::vector<double> omega_s_init;
  /// Bounds of Omega_s for the Newton search [rad/s]; 0: 1e-4 * max|qd| and max|qd| of the
  /// training data. A final Omega_s on a bound gives a warning.
  double omega_s_min = 0, omega_s_max = 0;
  /// Initial sigma0 [N m/rad] of steps 2-3 (04_* sec. 7.2 tried these values).
  std::vector<double> sigma0_init = {1e3, 5e3, 1e4, 5e4, 1e5};
  /// Step 1 (the static model, eq. 4, which holds in steady sliding) leaves out the samples with
  /// |qd| below this floor [rad/s], where the friction follows the presliding dynamics through
  /// zero and no steady curve fits (with sgn, the static fit then selects spurious negative
  /// Stribeck terms). Negative: -static_velocity_floor * max|qd| of the training data; 0: every
  /// sample (the paper). Steps 2-3 use every sample.
  double static_velocity_floor = -0.005;
  /// Never threshold the rigid-body, offset and Coulomb columns (false: the paper's literal
  /// step 1, which may drop them).
  bool protect_rigid_and_coulomb = true;
  /// Continue each Omega_s start along the lambda grid from the previous lambda's W and Omega_s
  /// (false: every lambda starts from W = 0 and the initial Omega_s, slower).
  bool warm_start = true;
  /// Number m of AIC observations (04_* eq. 22); 0: max(40, r + 10) for r library columns. The
  /// paper's m = 10 makes the correction term 2(k+1)(k+2)/(m-k-2) infinite at k = 8 and negative
  /// beyond, and any m close to r lets it dominate the choice; with m = 40 an extra term is
  /// selected when it lowers the validation error by about 5 % (exp(-2/m)) or more.
  int aic_observations = 0;
  AicResidual aic_residual = AicResidual::absolute;
  int max_outer = 30;             ///< outer iterations (step 2) per sigma0 start
  int max_inner = 200;            ///< inner iterations (step 3) per outer iteration
  double outer_tolerance = 1e-3;  ///< relative change of sigma0 and of the error
  double inner_tolerance = 1e-4;  ///< |xi_u - 1| that ends the inner loop
  /// The inner loop also ends when an accepted iteration lowers the error by less than this
  /// fraction (the error has stopped moving; e.g. sigma0 creeping up on a record whose position
  /// resolution hides the presliding).
  double inner_min_decrease = 1e-5;
  /// SR3 core settings (nu, normalize, iteration limits, tolerances). lambda and protect are
  /// set by fit_joint_sr3; debias is always on.
  Sr3Options sr3{};
};

/// One lambda of the step-1 scan (04_* fig. 4-6).
struct JointSr3ScanRow {
  double lambda = 0;
  double threshold = 0;        ///< sqrt(2 nu lambda): the contribution, as a fraction of ||tau||
  int start = 0;               ///< index into omega_s_init of the start kept for this lambda
  double Omega_s = 0;          ///< after the Newton search [rad/s]
  int n_active = 0;            ///< k of eq. 22 (nonzero coefficients)
  int n_zero = 0;              ///< candidate terms eliminated ("NZ" of fig. 4)
  std::vector<double> xi;      ///< coefficient of every candidate term (debiased)
  std::vector<bool> active;    ///< per candidate term
  double train_rel_error = 0;  ///< ||tau - Theta xi|| / ||tau|| on the rows fitted
  double validation_rss = 0;   ///< RSS of eq. 23-24 (or squared, per aic_residual)
  double aic = 0;              ///< eq. 22; NaN when m - k - 2 <= 0
  double aic_r = 0;            ///< aic - min aic (NaN with aic)
  bool admissible = false;     ///< g > 0 at every velocity (Fc + sum of negative Fs_i > 0)
  bool converged = false;      ///< SR3 converged (W and Omega_s)
};

/// One inner iteration of steps 2-3 (04_* fig. 9-10).
struct JointSr3Iteration {
  int start = 0;          ///< index into starts (sigma0_init, then the grid extensions)
  int outer = 0;          ///< 1-based
  int inner = 0;          ///< 1-based
  double rel_error = 0;   ///< step-3 residual norm / ||tau|| (E_tau / ||tau||)
  double xi_u = 0;        ///< coefficient of u
  double sigma0 = 0;      ///< the sigma0 of u in this regression [N m/rad]
  double sigma1 = 0;      ///< sigma0 * xi_udot [N m s/rad]
  double Omega_s = 0;     ///< from the step 2 before [rad/s]
  double Fc = 0;          ///< from the step 2 before [N m]
  bool accepted = false;  ///< kept (the error did not rise)
};

/// Outcome of steps 2-3 from one initial sigma0.
struct JointSr3StartSummary {
  double sigma0_init = 0;
  double rel_error =
      0;  ///< final model's training torque error / ||tau|| (identify::inverse_torque)
  int outer_iterations = 0;
  bool converged = false;  ///< the outer loop met outer_tolerance
  int rejected_step2 = 0;  ///< step-2 results with g <= 0 somewhere, not applied
  double sigma0 = 0, sigma1 = 0;
};

struct JointSr3Result {
  JointModel model;  ///< final: rigid body + JointLuGre friction
  /// The parameters of `model` (identify/joint_parameters.hpp) but the structural delta[i] and
  /// K: sr3 gives no standard errors, so std_error, ci_low and ci_high are NaN.
  std::vector<ParameterEstimate> parameters;
  /// Step 1: rigid body + static friction. Only its steady-state curve is identified: its
  /// friction's sigma0 and sigma1 are NaN.
  JointModel static_model;
  std::vector<std::string> candidates;     ///< names of the library columns of step 1
  std::vector<std::string> active;         ///< the chosen ones
  std::vector<JointSr3ScanRow> scan;       ///< ascending lambda
  std::size_t chosen = 0;                  ///< index into scan
  double lambda = 0;                       ///< scan[chosen].lambda
  int aic_observations = 0;                ///< m used
  double static_velocity_floor = 0;        ///< the floor used by step 1 [rad/s]
  long static_samples = 0;                 ///< samples step 1 fitted (training)
  bool held_out = false;                   ///< no validation data: AIC on held-out training blocks
  std::vector<JointSr3Iteration> history;  ///< every start's iterations, in order
  std::vector<JointSr3StartSummary> starts;
  std::size_t chosen_start = 0;  ///< index into starts
  double static_rel_error = 0;   ///< static_model's training torque error / ||tau||
  double rel_error = 0;          ///< model's training torque error / ||tau|| (z integrated)
  std::vector<std::string> warnings;
  /// What the record does not determine (workflows' verdict lists them): sigma0 undetermined
  /// (the training error flat over the starts; kind undetermined) or at the start grid's edge
  /// (kind limit), for sigma0 and sigma1.
  std::vector<IdentifiabilityFlag> flags;
  double seconds = 0;  ///< wall time of fit_joint_sr3
};

/// The paper's algorithm (see the header). `validation` supplies the AIC observations of step
/// 1; if it is empty, 2m interleaved blocks of the training data are split into m fitted and m
/// held-out blocks (with a warning). Throws FitError for unusable input: empty, mismatched
/// channel lengths, non-finite values, time not strictly increasing, too few samples (fewer
/// than 20 in a record or 10 per library column in all), no velocity reversal in the training
/// data, invalid options; and when no candidate model of the scan is admissible.
JointSr3Result fit_joint_sr3(std::span<const JointData> train,
                             std::span<const JointData> validation, const JointSr3Options& opt);

/// Library of 04_* eq. 13-17 for the SR3 core: fixed columns, then multiplier(k) *
/// exp(-|qd_k / Omega_s|^delta_i) for every delta_i, with alpha = ln Omega_s (one nonlinear
/// parameter; eq. 11-12 in alpha). Derivatives in closed form: with x = |qd/Omega_s|^delta,
/// e = exp(-x): de/dalpha = delta x e, d2e/dalpha2 = delta^2 x e (x - 1).
class JointStribeckLibrary final : public Sr3Library {
 public:
  JointStribeckLibrary(Eigen::MatrixXd fixed, std::span<const double> qd,
                       Eigen::VectorXd multiplier, std::vector<double> delta, double omega_min,
                       double omega_max);
  Eigen::Index rows() const override { return fixed_.rows(); }
  Eigen::Index cols() const override {
    return fixed_.cols() + static_cast<Eigen::Index>(delta_.size());
  }
  Eigen::Index num_alpha() const override { return 1; }
  bool depends_on_alpha(Eigen::Index j) const override { return j >= fixed_.cols(); }
  void evaluate(const Eigen::VectorXd& alpha, Eigen::MatrixXd& theta,
                bool alpha_columns_only) const override;
  void apply(const Eigen::VectorXd& alpha, const Eigen::VectorXd& xi, Eigen::VectorXd& value,
             Eigen::MatrixXd* d1, Eigen::MatrixXd* d2) const override;
  Eigen::VectorXd alpha_lower() const override;
  Eigen::VectorXd alpha_upper() const override;

 private:
  Eigen::MatrixXd fixed_;
  Eigen::MatrixXd pow_qd_;  // |qd_k|^delta_i (0 at rest: exp(0) = 1, derivatives 0, exactly)
  Eigen::VectorXd multiplier_;
  std::vector<double> delta_;
  double log_min_, log_max_;
};

}  // namespace frictionlab::identify
