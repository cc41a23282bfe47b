// frictionlab: identification of servo actuator models M1..M6 from pendulum logs (reference
// 002, the BAM package) and selection of a model on held-out logs. Equations, choices and
// measured results: docs/actuators.md.
//
// Loss (BAM's, bam/fit.py): the mean absolute position error of the closed-loop re-simulation
// (sim::servo_rollout) pooled over all entries of all training logs [rad]; optionally plus
// velocity_weight times the pooled mean absolute velocity error [rad/s] (needs logged speeds).
// Optimiser: CMA-ES with IPOP restarts (identify/cmaes.hpp) over the model's parameters
// normalised to their ranges (sim/servo_params.hpp, overridable). Richer models are warm-started
// from the best fit of the simpler models they contain (embed_servo_params: the embedded point
// reproduces the simpler model's simulation exactly), so along M1 -> M2, M1 -> M3 -> M4 -> M5 ->
// M6 the training loss can only go down.
//
// Temperature (optional, ServoFitOptions::temperature; docs/actuators.md, "Temperature-dependent
// friction"): a law of models/temperature_dependence.hpp fitted with the model, kT (and kT_v)
// searched besides its parameters, T_ref the mean temperature of the training logs. The
// selection then fits every model twice, without and with the law ("m3", "m3+T"), the latter
// warm-started from the former with kT = kT_v = 0 (the same simulation, bit for bit), so the
// temperature model's training loss is never above the plain one's.
//
// Host side (allocates, throws FitError for bad input). No file I/O.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/identify/cmaes.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/progress.hpp"
#include "frictionlab/identify/temperature_spread.hpp"
#include "frictionlab/sim/servo_params.hpp"

namespace frictionlab::identify {

/// Errors of one log's re-simulation.
struct ServoLogError {
  double position_mae = 0.0;  ///< mean |q_sim - position| [rad]
  double velocity_mae = 0.0;  ///< mean |qd_sim - speed| [rad/s] (0 without logged speeds)
  /// mean |i_sim - current| [A]; negative without a logged current of known unit
  double current_mae = -1.0;
  /// share of the torque-enabled entries whose firmware output was limited (duty, current
  /// window or supply) [-]
  double saturated = 0.0;
  std::size_t samples = 0;
};

/// Re-simulate one processed log (closed loop, sim::servo_rollout) and compare. FitError if the
/// log is raw (dt = 0) or the supply voltage is unknown (no "vin" in the log or the constants);
/// for parameters with a temperature law, FitError naming the log's file when it has no 'temp'
/// ("FILE: no 'temp' in the log: ...") or when the linear law's scale is <= 0 at one of its
/// temperatures ("FILE: entry K: ..."). With `q`, the simulated positions (one per entry) are
/// stored there as well.
ServoLogError servo_log_error(const sim::ServoConstants& c, const sim::ServoParams& p,
                              const data::ServoLog& log, std::vector<double>* q = nullptr);

/// The simulated positions and velocities of one log (one per entry, as servo_log_error).
void servo_simulate_log(const sim::ServoConstants& c, const sim::ServoParams& p,
                        const data::ServoLog& log, std::vector<double>& q, std::vector<double>& qd);

struct ServoLossOptions {
  double velocity_weight = 0.0;  ///< [s] weight of the velocity term (0: position only, as BAM)
  /// [rad/A] weight of the current term: current_weight times the pooled mean absolute error
  /// of the motor current (sim::servo_motor_current against the logged current, in amps) over
  /// the entries of the logs that have a current of known unit. 0: no current term.
  double current_weight = 0.0;
};

/// The weight that makes the current term as large as the position term for errors of the same
/// fraction of their signal's spread [rad/A]: the standard deviation of the logged positions
/// over that of the logged currents (in amps), pooled over the logs with a current of known unit;
/// 0 when no log has one or the current does not vary.
double servo_current_weight(const std::vector<data::ServoLog>& logs);

/// The loss over a batch of logs (header). Thread-safe. Parameters with a temperature law: FitError
/// for a log without 'temp'; +inf where the linear law's scale is <= 0 at a logged temperature
/// (a fit's candidate outside the law's domain). The logs are re-simulated four at a
/// time in lockstep (sim::servo_rollout_batch); the per-entry errors are summed in log and entry
/// order, so the value is that of one rollout after the other, bit for bit.
double servo_loss(const sim::ServoConstants& c, const sim::ServoParams& p,
                  const std::vector<data::ServoLog>& logs, const ServoLossOptions& options);

/// A parameter's search range (BAM key).
struct ServoBound {
  std::string key;
  double lo = 0.0, hi = 0.0;
};

/// A temperature law to fit with a model (header): kT always, kT_v when `viscous`.
struct ServoTemperatureFit {
  TemperatureLaw law = TemperatureLaw::linear;
  /// true: kT_v fitted on its own; false: held at 0 (the viscous term does not depend on the
  /// temperature; docs/actuators.md says why that is the default)
  bool viscous = false;
  /// Temperatures [degC] the fitted law will be used at besides the training logs' (e.g. the
  /// validation logs'; NaN: none): the linear law's ranges of kT and kT_v are narrowed so that
  /// its scales stay >= kServoLinearScaleMin at every one (servo_temperature_bounds).
  double T_min = std::numeric_limits<double>::quiet_NaN();
  double T_max = std::numeric_limits<double>::quiet_NaN();
};

/// The smallest scale the linear law may reach within the temperatures of a fit [-]: its levels
/// never fall below a tenth of those at T_ref (beyond, the exponential law).
inline constexpr double kServoLinearScaleMin = 0.1;

/// The reference temperature of a fit on `logs`: the mean of the temperatures of all their
/// entries [degC], rounded to 0.01 K. FitError naming the first log without 'temp'.
double servo_reference_temperature(const std::vector<data::ServoLog>& logs);

/// The search ranges of kT (and kT_v when fit.viscous) about T_ref [degC]: the defaults
/// (sim::servo_param_range) with the overrides applied; for the linear law narrowed so that
/// 1 + k (T - T_ref) >= kServoLinearScaleMin over the temperatures of `logs` and [fit.T_min,
/// fit.T_max]. FitError for lo >= hi (also when the narrowing leaves nothing).
std::vector<ServoBound> servo_temperature_bounds(const ServoTemperatureFit& fit, double T_ref,
                                                 const std::vector<data::ServoLog>& logs,
                                                 const std::vector<ServoBound>& overrides);

/// What training logs say about a temperature law (docs/actuators.md, "Temperature-dependent
/// friction"): whether their temperatures vary enough, and whether with kp.
struct ServoTemperatureCheck {
  double T_ref = 0.0;   ///< servo_reference_temperature [degC]
  double T_min = 0.0;   ///< lowest temperature of an entry [degC]
  double T_max = 0.0;   ///< highest [degC]
  double spread = 0.0;  ///< temperature_spread of the entries' temperatures [K]
  /// Pearson correlation of the logs' mean temperatures with their kp [-]; NaN when the logs
  /// have one kp (or one temperature)
  double kp_correlation = std::numeric_limits<double>::quiet_NaN();
  double within_kp_spread = 0.0;  ///< the largest `spread` of the logs of one kp [K]
  /// spread < kTemperatureMinSpread (identify/temperature_spread.hpp): kT is not fitted (held at 0)
  bool undetermined = false;
  /// |kp_correlation| >= kServoTemperatureConfounded: the temperature varies with kp, so kT may
  /// take up an error of the model that grows with kp
  bool confounded = false;
};

/// |r| from which the temperature counts as confounded with kp [-].
inline constexpr double kServoTemperatureConfounded = 0.8;

/// The check of `logs` (header). FitError naming the first log without 'temp'.
ServoTemperatureCheck servo_temperature_check(const std::vector<data::ServoLog>& logs);

/// The name of a model in the selection: "m3", with a temperature law "m3+T".
std::string servo_model_label(ActuatorModel m, bool temperature);

/// The search ranges of a model: the defaults for the family (sim::servo_param_range) with the
/// overrides applied. FitError for an override of a key the model does not have, or lo >= hi.
std::vector<ServoBound> servo_bounds(const sim::ServoActuator& family, sim::ServoDrive drive,
                                     ActuatorModel m, const std::vector<ServoBound>& overrides);

/// `from` embedded in the richer model `to`: same kt, R, armature, q_offset, and friction
/// coefficients chosen so that the budget is identical (M1 -> M2: Kcs = 0; M3 -> M5: Km = Ke =
/// Kl; M4 -> M5: also Kms = Kes = Kls; M5 -> M6: Kmq = Keq = 0; ...). `to`'s other parameters
/// come from `defaults` (e.g. vs, alpha when from has no Stribeck term). FitError if `to` does
/// not contain `from` (e.g. M2 -> M3).
sim::ServoParams embed_servo_params(const sim::ServoParams& from, ActuatorModel to,
                                    const sim::ServoParams& defaults);

/// Whether model `to` contains `from` (embed_servo_params is defined).
bool servo_model_contains(ActuatorModel to, ActuatorModel from) noexcept;

struct ServoFitOptions {
  /// Budget (max_evals, max_seconds), seed, threads, ...; cmaes.progress is fit_servo_model's
  /// progress (fit_and_select_servo_models gives each of its fits one of its own).
  CmaesOptions cmaes;
  double warm_sigma = 0.1;  ///< first run's step (unit box) when warm-started
  ServoLossOptions loss;
  std::vector<ServoBound> bounds;  ///< range overrides (also of kT, kT_v)
  /// fit_servo_model: fit this temperature law with the model; fit_and_select_servo_models: fit
  /// every model without and with it (header). Empty: no temperature law.
  std::optional<ServoTemperatureFit> temperature;
};

struct ServoFitResult {
  sim::ServoParams params;
  double loss = 0.0;  ///< training loss of params
  long evals = 0;
  int runs = 0;
  double seconds = 0.0;
  std::string stop;
  std::vector<std::string> at_bound;  ///< keys within 0.1 % of the range ends
  std::vector<std::string> keys;      ///< the keys fitted, in order (kT, kT_v last)
  /// Why the fit failed, empty when it did not: its loss is not finite (the simulation overflows
  /// at every point tried). A failed fit is never recommended.
  std::string failed;
};

/// Fit model m to the training logs. `starts`: warm-start candidates (already of model m); the
/// best of them (and the centre of the box) starts the first CMA-ES run, and is returned as it
/// is when CMA-ES finds nothing better. With options.temperature the law is fitted too (T_ref:
/// servo_reference_temperature of `train`); a start without a law starts it at kT = kT_v = 0,
/// one with a law keeps its kT, kT_v about this fit's T_ref. Progress: that of
/// options.cmaes (after every generation: the evaluations of this CMA-ES minimisation and the
/// best loss so far [rad]).
ServoFitResult fit_servo_model(const sim::ServoActuator& family,
                               const sim::ServoConstants& constants, ActuatorModel m,
                               const std::vector<data::ServoLog>& train,
                               const std::vector<sim::ServoParams>& starts,
                               const ServoFitOptions& options);

/// How to hold logs out for validation.
struct ServoValidation {
  enum class Kind {
    none,      ///< no validation (selection falls back to the training error, with a warning)
    kp,        ///< train on the logs whose kp differs from `kp`, validate on the others
    leave_kp,  ///< leave-one-kp-out cross-validation over every kp of the logs
    kfold,     ///< k folds by file (file i in fold i mod k, files in name order)
  };
  Kind kind = Kind::none;
  double kp = 0.0;
  int folds = 4;
};

/// One train/validation split.
struct ServoSplit {
  std::string name;  ///< e.g. "kp=200", "fold 2/4"
  std::vector<data::ServoLog> train, validation;
};

/// The splits of a validation scheme (FitError if a split would leave no training or no
/// validation log).
std::vector<ServoSplit> servo_splits(const std::vector<data::ServoLog>& logs,
                                     const ServoValidation& v);

struct ServoModelReport {
  ActuatorModel model = ActuatorModel::M1;
  bool temperature = false;  ///< fitted with the temperature law (servo_model_label "m3+T")
  int parameters = 0;
  double train_mae = 0.0;      ///< pooled position MAE of `fit` on its training logs [rad]
  double validation_mae = -1;  ///< pooled over the validation logs of all splits; < 0: none
  ServoFitResult fit;          ///< kind kp: the split's fit; cross-validation: refit on all logs
  double seconds = 0.0;        ///< sum of the wall times of the fits of this model
  long evals = 0;
  /// Why the model is out of the selection, empty when it is not: one of its fits failed
  /// (ServoFitResult::failed), or its ranking error (validation MAE, else training MAE) is not
  /// finite.
  std::string failed;
};

struct ServoSelection {
  std::vector<ServoModelReport> models;
  /// Empty when no model can be recommended (every one failed: `reason` says why).
  std::optional<ActuatorModel> recommended;
  bool recommended_temperature = false;  ///< the recommended model has the temperature law
  std::string reason;
};

/// The recommendation rule of fit_and_select_servo_models over reports already filled in: the
/// fewest parameters among the models whose ranking error (validation MAE when `validated`, else
/// training MAE) is within `tolerance` of the best; a model that failed or whose error is not
/// finite (NaN, inf) is never recommended, and when every model is such, `recommended` is empty
/// and `reason` says so. Sets each report's `failed` for a non-finite error.
void recommend_servo_model(ServoSelection& selection, bool validated, double tolerance);

/// Fit every model of `models` (each warm-started from the fits of the models it contains on the
/// same split), validate, and recommend the model with the fewest parameters whose validation
/// MAE is within (1 + tolerance) of the best. With options.temperature every model is fitted
/// without and with the law (reports in the order m1, m1+T, m3, m3+T, ...); "m3+T" starts from
/// the fits of "m3" (kT = kT_v = 0) and of the temperature models m3 contains. `progress`: report
/// receives the progress lines (no fraction), always on the calling thread, and cancel is polled
/// there after each line and by every fit after each of its CMA-ES generations (from the fits'
/// threads: thread-safe, cheap); a cancellation, or an exception report throws, stops the fits
/// still running at their next generation and is passed on (options.cmaes.progress is not used).
///
/// Threads (options.cmaes.threads): with several runs (cross-validation: the splits and the
/// refit on all logs) up to that many fits run concurrently, one fit per (model, run) waiting
/// for the fits it warm-starts from, each fit on one thread; with a single run the fits run one
/// after the other and the threads evaluate each CMA-ES generation. Every fit is seeded with
/// options.cmaes.seed and is deterministic, so the results are identical for any thread count.
/// The lines of concurrent fits are interleaved; ServoModelReport::seconds is the sum of the
/// wall times of the model's fits. The first failing fit (in model, run order) fails the call
/// with its exception after the others have stopped.
ServoSelection fit_and_select_servo_models(const std::vector<ActuatorModel>& models,
                                           const sim::ServoActuator& family,
                                           const sim::ServoConstants& constants,
                                           const std::vector<data::ServoLog>& logs,
                                           const ServoValidation& validation,
                                           const ServoFitOptions& options, double tolerance,
                                           const Progress& progress = {});

}  // namespace frictionlab::identify
