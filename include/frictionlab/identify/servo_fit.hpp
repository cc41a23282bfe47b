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
// Host side (allocates, throws FitError for bad input). No file I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/identify/cmaes.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/progress.hpp"
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
/// log is raw (dt = 0) or the supply voltage is unknown (no "vin" in the log or the constants).
/// With `q`, the simulated positions (one per entry) are stored there as well.
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

/// The loss over a batch of logs (header). Thread-safe. The logs are re-simulated four at a
/// time in lockstep (sim::servo_rollout_batch); the per-entry errors are summed in log and entry
/// order, so the value is that of one rollout after the other, bit for bit.
double servo_loss(const sim::ServoConstants& c, const sim::ServoParams& p,
                  const std::vector<data::ServoLog>& logs, const ServoLossOptions& options);

/// A parameter's search range (BAM key).
struct ServoBound {
  std::string key;
  double lo = 0.0, hi = 0.0;
};

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
  std::vector<ServoBound> bounds;  ///< range overrides
};

struct ServoFitResult {
  sim::ServoParams params;
  double loss = 0.0;  ///< training loss of params
  long evals = 0;
  int runs = 0;
  double seconds = 0.0;
  std::string stop;
  std::vector<std::string> at_bound;  ///< keys within 0.1 % of the range ends
  /// Why the fit failed, empty when it did not: its loss is not finite (the simulation overflows
  /// at every point tried). A failed fit is never recommended.
  std::string failed;
};

/// Fit model m to the training logs. `starts`: warm-start candidates (already of model m); the
/// best of them (and the centre of the box) starts the first CMA-ES run. Progress: that of
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
/// MAE is within (1 + tolerance) of the best. `progress`: report receives the progress lines
/// (no fraction), always on the calling thread, and cancel is polled there after each line and
/// by every fit after each of its CMA-ES generations (from the fits' threads: thread-safe,
/// cheap); a cancellation, or an exception report throws, stops the fits still running at their
/// next generation and is passed on (options.cmaes.progress is not used).
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
