// frictionlab: the inverse dynamic identification model (IDIM) of a joint, by linear least
// squares (docs/joint-identification.md, "idim"). The classical baseline that practitioners
// compare against (M. Gautier, "Dynamic identification of robots with power model", ICRA 1997;
// M. Gautier, A. Janot, P.-O. Vandanjon, "A new closed-loop output error method for parameter
// identification of robot dynamics", IEEE TCST 21(2), 2013, sec. II).
//
// The joint equation (sim/joint_model.hpp) with Coulomb + viscous friction is linear in the
// parameters: at every sample k,
//
//   tau_k = I*qdd_k + mgCx*cos(q_k) + mgCy*(-sin(q_k)) + offset + Fv*qd_k + Fc*sgn(qd_k) + e_k
//
// (asymmetric: Fc*sgn(qd) replaced by Fc_pos*[qd > 0] - Fc_neg*[qd < 0]; for qd != 0 that is
// (Fc_pos + Fc_neg)/2 sgn(qd) + (Fc_pos - Fc_neg)/2, the same regressor as a symmetric level plus
// an offset, so the asymmetric model has no offset term), i.e. y = W theta + e,
// solved by least squares (column-pivoting Householder QR on the column-scaled W). Standard
// deviations (Gautier 1997): sigma^2 = ||y - W theta||^2 / (r - p), cov = sigma^2 (W^T W)^-1,
// sigma_i = sqrt(cov_ii); relative deviation 100 sigma_i / |theta_i| [%]. These assume
// independent, zero-mean noise of equal variance on tau; filtered and decimated data
// (the usual practice, done by the caller: zero-phase low-pass of q and tau, derivatives,
// decimation) keep that assumption approximately true.
//
// Load-dependent friction (JointIdimOptions::load_dependent, models/load_dependence.hpp) adds
// one column, mu sgn(qd_k) |tau_k|: the model with mu_drive = mu_back = mu. The record's torque
// tau is in the regressor, and that decides what it can determine: with separate coefficients
// the two columns sgn(qd)|tau| [driven] and sgn(qd)|tau| [back-driven] add up to tau itself,
// the left-hand side, so the regression is exactly degenerate; in the equivalent form
// tau = r / (1 - mu_drive) driven, r / (1 + mu_back) back-driven (r the load-free torque),
// scaling every other parameter by c and both factors by 1/c leaves tau unchanged. A torque
// record alone fixes the ratio (1 + mu_back) / (1 - mu_drive), i.e. one coefficient; splitting
// it needs the link's torque known independently (a known payload). The one column is
// identifiable when the records have driven and back-driven motion and a load that varies
// (load rule below). Noise in tau is also in the regressor and correlated with the left-hand
// side: it biases mu by the order of var(noise) / var(|tau|), small for a filtered torque.
//
// Temperature-dependent friction (JointIdimOptions::temperature_law,
// models/temperature_dependence.hpp) scales the Coulomb columns by s(kT, T_k - T_ref) and the
// viscous column by s(kT_v, T_k - T_ref), T_k the record's temperature at sample k: the
// prediction is bilinear in the levels and the coefficients (linear law) or exponential in the
// coefficients, so kT and kT_v are found by Gauss-Newton on the torque error from the
// temperature-free solution, and the regression linearised at the optimum gives their
// intervals (as for mu; the measured torque is never a regressor). T_ref is chosen, not
// estimated: JointIdimOptions::temperature_ref, by default the mean temperature of the moving
// samples, where the levels and the coefficients are least correlated. The temperature rule
// (identify/temperature_spread.hpp, shared with the servo fits): kT and kT_v are determined when
// the moving samples' temperatures spread over at least kTemperatureMinSpread (5th to 95th
// percentile); otherwise both are held at 0 with an undetermined flag saying what to record. A
// coefficient whose level is held at 0 (Fv = 0: kT_v; every Coulomb level 0: kT) scales nothing and
// is held at 0 too. Load and temperature dependence are not fitted together.
//
// Friction coefficients (Fv, Fc, Fc_pos, Fc_neg, mu) are constrained to >= 0: while the most
// negative estimate is < 0 it is held at 0 (at_bound, with a warning) and the rest solved again.
//
// Samples with |qd| <= v_deadband are left out (sgn(qd) is unreliable there).
//
// Host side: allocates, throws FitError.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "frictionlab/identify/joint.hpp"
#include "frictionlab/identify/load_rule.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/identify/temperature_spread.hpp"
#include "frictionlab/models/temperature_dependence.hpp"

namespace frictionlab::identify {

struct JointIdimOptions {
  JointStructure structure{};
  /// Separate Coulomb levels Fc_pos, Fc_neg (Fv shared); needs structure.offset = false.
  bool asymmetric = false;
  double v_deadband = 0;  ///< leave out samples with |qd| <= v_deadband [rad/s]
  /// Load-dependent Coulomb level (models/load_dependence.hpp, header): the column mu, the
  /// model's mu_drive = mu_back = mu. The load rule (identify/load_rule.hpp) over the moving
  /// samples decides whether mu is determined; otherwise mu is held at 0 with an undetermined
  /// flag saying what to record.
  bool load_dependent = false;
  /// Temperature-dependent levels (header; models/temperature_dependence.hpp): the columns kT,
  /// kT_v [1/K] under this law. Every record needs a temperature channel. None: no dependence.
  std::optional<TemperatureLaw> temperature_law;
  /// The reference temperature T_ref [degC] of the fitted levels; none: the mean temperature of
  /// the moving samples.
  std::optional<double> temperature_ref;
};

struct JointIdimResult {
  JointModel model;  ///< rigid body + StaticFriction (Fc = Fs, sigma2 = Fv)
  /// I, mgCx, mgCy, offset (per structure), Fv, Fc (or Fc_pos, Fc_neg), mu (load_dependent;
  /// not determined: 0, fixed and undetermined), kT, kT_v (temperature_law; likewise): value,
  /// std_error
  /// (sigma_i above), 95 % interval value -+ t(0.975, r - p) sigma_i.
  std::vector<ParameterEstimate> parameters;
  long n_used = 0;              ///< r: samples in the regression
  double sigma = 0;             ///< residual standard deviation [N m]
  Metrics training;             ///< of W theta against tau over the used samples
  double condition_number = 0;  ///< of the column-scaled W
  /// Residual whiteness, Newey-West (HAC) standard errors in `parameters`, and whether the
  /// white-noise standard errors can be trusted (identify/result.hpp; coloured residuals or
  /// W^T W's condition number above 1e8 say not).
  Reliability reliability;
  std::vector<std::string> warnings;
  /// What the record does not determine (workflows' verdict lists them): a friction coefficient
  /// held at its bound 0 (kind bound); a load coefficient the records do not determine
  /// (undetermined) or pin down poorly (relative_error: standard error above 50 % of mu); the
  /// same for kT and kT_v.
  std::vector<IdentifiabilityFlag> flags;
};

/// Fit the IDIM to one or more records (stacked). Throws FitError for unusable input: an
/// asymmetric model with an offset term, channel
/// lengths that differ, non-finite values, fewer samples than 2 * parameters after the dead
/// band, a rank-deficient regressor (names the columns that cannot be separated, e.g. no
/// motion in one direction for the asymmetric model).
JointIdimResult fit_joint_idim(std::span<const JointData> data, const JointIdimOptions& opt);

/// Checks shared by the joint methods: every channel of every record has the length of t, is
/// finite, t strictly increasing, at least `min_samples` samples. Throws FitError naming the
/// record, channel and 1-based sample.
void check_joint_data(std::span<const JointData> data, std::size_t min_samples);

/// The temperatures [degC] of the moving samples (|qd| > v_deadband [rad/s]) of every record
/// and their mean (0 without any): what a temperature law's rule (identify/
/// temperature_spread.hpp) and its default reference temperature T_ref are taken over. Throws
/// FitError naming a record without a temperature channel.
struct MovingTemperatures {
  std::vector<double> T;
  double mean = 0;
};
MovingTemperatures moving_temperatures(std::span<const JointData> data, double v_deadband);

}  // namespace frictionlab::identify
