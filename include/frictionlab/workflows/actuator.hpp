// frictionlab workflows: fit_actuator and eval_actuator, the servo actuator models M1..M6 of the
// BAM package (reference 002) fitted to pendulum logs, selected on held-out logs, and evaluated
// on logs (docs/actuators.md). The numerics are identify/servo_fit; this layer builds the fit
// options, runs the fits and the selection and collects everything the tool prints and writes
// (io/actuator_json writes summary.json and eval-actuator's JSON). The actuator comes resolved
// (io::servo_actuator_for_logs): nothing here reads a file.
//
// Inputs are logs in memory (io::read_servo_log_set reads them; prepare_servo_logs selects and
// resamples them) and parameter sets in memory (io::read_servo_params). A log's `file` is used
// only as a label (its file name in results). Nothing here prints or touches a file.
//
// Errors: std::invalid_argument for bad options; their texts name the option as the command line
// spells it ("--models: unknown model 'm9' (m1 .. m6)"), so that the CLI can pass them on as they
// are, and for a raw log that is not resampled (naming its file); identify::FitError
// from the fits (e.g. "validation: no log with kp = 200"); Cancelled when Progress::cancel says
// so (nothing is returned).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "frictionlab/data/servo_log.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/sim/servo.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "frictionlab/workflows/progress.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {

// ---- the command line's texts as typed values ----

/// Models from a comma-separated list of names ("m1,m3,m6", also "M1") and ranges ("m1..m6"),
/// in the order given. invalid_argument: "--models: unknown model 'm9' (m1 .. m6)", "--models:
/// bad range 'm3..m1' (e.g. m1..m6)", "--models: m3 listed twice", "empty item in list 'TEXT'".
std::vector<ActuatorModel> parse_actuator_models(const std::string& text);

/// A validation scheme: "none", "leave-kp-out", "kp=VALUE" (hold out the logs of that kp) or
/// "kfold=K" (K an integer in [2, 1000]). invalid_argument: "--validate: expected kp=VALUE,
/// leave-kp-out, kfold=K or none, got 'TEXT'", "--validate kp=: expected a number, got 'X'",
/// "--validate kfold=K: K must be an integer >= 2".
identify::ServoValidation parse_servo_validation(const std::string& text);

/// The text of a validation scheme that parse_servo_validation reads back ("none",
/// "leave-kp-out", "kp=200" with the shortest round-trip number, "kfold=4"): its name in the
/// table and in summary.json.
std::string servo_validation_name(const identify::ServoValidation& validation);

/// A search range "KEY=LO:HI" (LO, HI numbers within the magnitude policy, frictionlab/limits.hpp).
/// invalid_argument: "--range: expected KEY=LO:HI, got 'TEXT'", "--range KEY: expected a number,
/// got 'X'". Whether KEY is a parameter, LO and HI within its plausible range
/// (sim::servo_limits::param_limit: "--range kt=1:1e+300: 1e+300 N m/A is outside the plausible
/// range [1e-06, 1000] N m/A") and LO < HI is checked by fit_actuator.
identify::ServoBound parse_servo_bound(const std::string& text);

/// A log filter from comma-separated lists (each empty: no restriction): kp values [-], trajectory
/// names, file names. invalid_argument: "--kp: expected a number, got 'X'", "empty item in list
/// 'TEXT'".
data::ServoLogFilter parse_servo_log_filter(const std::string& kp, const std::string& trajectories,
                                            const std::string& files);

// ---- logs ----

/// Which of the logs read are used and how they are brought to a fixed step.
struct ServoLogPreparation {
  data::ServoLogFilter filter;  ///< kp, trajectory, file selection (empty lists: all)
  /// Step [s] to resample the logs to (data::resample_servo_log, as BAM's process.py); 0: the
  /// logs must already be processed (have a 'dt'). Must be >= 0.
  double resample = 0.0;
};

struct PreparedServoLogs {
  std::vector<data::ServoLog> logs;  ///< the selected logs, processed, in the order read
  /// In the order met: "FILE: already at a fixed step (dt = X), resampled again to Y".
  std::vector<std::string> warnings;
};

/// Select and resample logs. invalid_argument: "--resample: must be > 0" (negative step), "no log
/// left after the selection", "FILE: raw log (no 'dt'): give --resample DT (e.g. 0.005) to
/// resample it".
PreparedServoLogs prepare_servo_logs(std::vector<data::ServoLog> logs,
                                     const ServoLogPreparation& options);

// ---- fit-actuator ----

struct FitActuatorOptions {
  /// The servo: a built-in family, an ACTUATOR.json, or "generic" with constants from the user
  /// (io::servo_actuator_for_logs resolves the --actuator option or the logs' "motor"). Its
  /// constants drive the simulation; its motor-constant ranges are the default search ranges.
  /// invalid_argument "--actuator: none given" when its name is empty.
  sim::ServoActuator actuator;
  std::vector<ActuatorModel> models{ActuatorModel::M1, ActuatorModel::M2, ActuatorModel::M3,
                                    ActuatorModel::M4, ActuatorModel::M5, ActuatorModel::M6};
  identify::ServoValidation validation{identify::ServoValidation::Kind::leave_kp, 0.0, 4};
  long trials = 3000;        ///< objective evaluations per fit (CMA-ES budget), > 0
  double time_budget = 0.0;  ///< wall time per fit [s]; 0: none
  std::uint64_t seed = 1;    ///< results are deterministic for a seed
  /// Threads; 0: all cores. Cross-validation runs its fits concurrently, a single split
  /// evaluates each CMA-ES generation in parallel (identify::fit_and_select_servo_models); the
  /// results do not depend on it.
  int threads = 0;
  int restarts = 9;              ///< IPOP restarts per fit
  double sigma0 = 0.25;          ///< initial CMA-ES step in the normalised box
  double velocity_weight = 0.0;  ///< [s] weight of the mean absolute velocity error in the loss
  /// [rad/A] weight of the mean absolute motor-current error in the loss
  /// (identify::ServoLossOptions::current_weight); negative: automatic, i.e.
  /// identify::servo_current_weight of the logs (0 when none has a current of known unit)
  double current_weight = -1.0;
  /// Search-range overrides; each key must be a parameter of one of `models` ("--range: 'K' is
  /// not a parameter of the models fitted").
  std::vector<identify::ServoBound> ranges;
  /// Recommend the model with the fewest parameters whose validation MAE is within this
  /// fraction of the best (>= 0).
  double tolerance = 0.02;
  /// The caller's warnings about its inputs (reading and preparing the logs): the first of the
  /// outcome's warnings, so that summary.json holds every warning of the run.
  std::vector<std::string> input_warnings{};
  /// How the caller chose `actuator` for the user where the logs' name was ambiguous
  /// (io::ServoActuatorChoice::note); empty: as named. Kept in the outcome and its verdict.
  std::string actuator_choice{};
  /// A temperature law to fit besides every model ("m3" and "m3+T"; docs/actuators.md,
  /// "Temperature-dependent friction"); empty: none. Every log needs 'temp' (identify::FitError
  /// naming the first that has none). Its T_min, T_max are set from the logs (the validation
  /// logs' too); when the training logs do not determine it (identify::servo_temperature_check)
  /// no temperature model is fitted (ActuatorTemperatureOutcome::undetermined).
  std::optional<identify::ServoTemperatureFit> temperature{};
};

/// One fitted model.
struct ActuatorModelOutcome {
  ActuatorModel model = ActuatorModel::M1;
  bool temperature = false;  ///< fitted with the temperature law
  /// "m1" .. "m6", "m1+T" .. "m6+T" with the temperature law (its parameter file is NAME.json)
  std::string name;
  int n_parameters = 0;  ///< number of identified parameters
  /// The estimates, by BAM key in the model's order, with their units (sim/servo_limits.hpp):
  /// CMA-ES gives no standard errors (NaN, intervals NaN); at_limit: at an end of its search
  /// range (also in `at_bound`).
  std::vector<identify::ParameterEstimate> parameters;
  /// Position MAE on the training logs, pooled: the mean over all their entries [rad]
  /// (eval-actuator's `mean` is the mean of the per-log MAEs; they differ when the logs'
  /// lengths differ)
  double train_mae = 0.0;
  double validation_mae = -1.0;       ///< pooled over the validation logs [rad]; < 0: no validation
  long evaluations = 0;               ///< objective evaluations of all its fits
  double seconds = 0.0;               ///< sum of the wall times of its fits [s] (they may overlap)
  sim::ServoSetup params;             ///< the parameter file (actuator, constants, fitted values)
  std::vector<std::string> at_bound;  ///< parameter keys at an end of their search range
  /// Why the model is not ranked (identify::ServoModelReport::failed), empty when it is; its
  /// parameter file is then not written.
  std::string failed;
};

/// One log re-simulated with a model's parameters (identify::servo_simulate_log), thinned for
/// plotting (the envelope of the measured and simulated positions over 300 buckets).
struct ActuatorLogSeries {
  std::string log;         ///< the log's file name
  double kp = 0;           ///< its firmware gain
  std::string trajectory;  ///< its trajectory name
  /// "validation" for a log held out of the recommended model's fit (validation kp=VALUE), else
  /// "training" (cross-validation delivers the refit on all logs)
  std::string role;
  double mae = 0.0;                   ///< the recommended model's position MAE on it [rad]
  double range = 0.0;                 ///< max - min of its measured position [rad]
  std::vector<double> t;              ///< [s]
  std::vector<double> position;       ///< measured [rad]
  std::vector<double> goal_position;  ///< commanded [rad]
  std::vector<double> simulated;      ///< simulated [rad]
};

/// What fit_actuator found and did about a temperature law (FitActuatorOptions::temperature).
struct ActuatorTemperatureOutcome {
  std::string law;       ///< "linear", "exponential"; empty: no temperature law was asked for
  bool viscous = false;  ///< kT_v fitted on its own (else held at 0)
  /// The training logs of the delivered fits (the logs not held out by validation kp=VALUE, else
  /// all) checked by identify::servo_temperature_check
  identify::ServoTemperatureCheck check;
  /// No temperature model was fitted: the training logs' temperature does not vary enough
  /// (check.undetermined); kT is held at 0, i.e. the plain models are the result
  bool undetermined = false;
};

struct FitActuatorOutcome {
  std::string actuator;                      ///< the name of the actuator used
  std::string actuator_choice;               ///< FitActuatorOptions::actuator_choice
  double current_weight = 0.0;               ///< the current term's weight used [rad/A] (0: none)
  std::string validation;                    ///< servo_validation_name of the scheme
  bool validated = false;                    ///< false for validation "none"
  std::vector<std::string> logs;             ///< file names (no directory) of the logs, in order
  int threads = 1;                           ///< threads used
  std::vector<ActuatorModelOutcome> models;  ///< in the order M1..M6 of those fitted
  /// Empty when no model has a finite error (every fit failed): `reason` then says so.
  std::optional<ActuatorModel> recommended;
  bool recommended_temperature = false;  ///< the recommended model has the temperature law
  std::string reason;  ///< "m3: the fewest parameters (7) among ...", or "none: ..."
  ActuatorTemperatureOutcome temperature;  ///< FitActuatorOptions::temperature's check
  /// options.input_warnings, the constants the description borrows, then "m3: at the end of its
  /// range: K1, K2 (see --range)", one per model with such keys.
  std::vector<std::string> warnings;
  /// Every log re-simulated with the recommended model (the report's plots).
  std::vector<ActuatorLogSeries> recommended_series;
  /// The recommended model's mean of the per-log MAEs over its training and its validation
  /// logs [rad] (eval-actuator's `mean`; NaN where there is no such log)
  double train_log_mean = std::numeric_limits<double>::quiet_NaN();
  double validation_log_mean = std::numeric_limits<double>::quiet_NaN();
  Verdict verdict;  ///< actuator_fit_verdict of this outcome

  /// The recommended model's outcome (of `models`); nullptr when none is recommended.
  const ActuatorModelOutcome* recommended_model() const noexcept {
    for (const auto& m : models)
      if (recommended && m.model == *recommended && m.temperature == recommended_temperature)
        return &m;
    return nullptr;
  }
};

/// Fit `options.models` to the (processed) logs with CMA-ES, validate them as
/// `options.validation` says and recommend one (identify::fit_and_select_servo_models). Progress:
/// a header line ("16 logs, actuator xl330, 2 thread(s), 3000 evaluations per fit") and the fit
/// lines of identify; cancellation is polled at every progress line, on the calling thread, and
/// by every fit after each CMA-ES generation, and stops the fits still running.
FitActuatorOutcome fit_actuator(const std::vector<data::ServoLog>& logs,
                                const FitActuatorOptions& options, const Progress& progress = {});

// ---- eval-actuator ----

/// A parameter set to evaluate.
struct ServoParamSet {
  std::string label;  ///< its name in the results (the CLI: the file name without .json)
  std::string file;   ///< where it came from (a label only)
  sim::ServoSetup params;
};

struct EvalActuatorLog {
  std::string name;         ///< file name of the log (no directory)
  double kp = 0.0;          ///< the log's kp
  std::string trajectory;   ///< the log's trajectory name
  double range = 0.0;       ///< max - min of its measured position [rad]
  std::size_t samples = 0;  ///< entries compared
};

struct EvalActuatorColumn {
  std::string label, file;  ///< of the parameter set
  std::vector<double> mae;  ///< per log (the order of EvalActuatorOutcome::logs) [rad]
  double mean = 0.0;        ///< mean of `mae`, the mean of the per-log MAEs [rad]
  /// pooled: the mean over all entries of all logs [rad] (fit-actuator's `train_mae` measure)
  double pooled = 0.0;
};

/// One log re-simulated with every parameter set (identify::servo_simulate_log), thinned for
/// plotting: the envelope of the measured and every simulated position over 300 buckets.
struct EvalActuatorSeries {
  std::vector<double> t;                       ///< [s]
  std::vector<double> position;                ///< measured [rad]
  std::vector<double> goal_position;           ///< commanded [rad]
  std::vector<std::vector<double>> simulated;  ///< per parameter set, in their order [rad]
};

struct EvalActuatorOutcome {
  std::vector<EvalActuatorLog> logs;
  std::vector<EvalActuatorColumn> params;  ///< in the order given
  /// Index in `params` of the lowest finite mean MAE (the first of equals); a set whose mean is
  /// not finite (a re-simulation that overflowed) is never the best; empty when no set has a
  /// finite mean.
  std::optional<std::size_t> best;
  std::vector<EvalActuatorSeries> series;  ///< per log (the order of `logs`), for the report
  Verdict verdict;                         ///< actuator_eval_verdict of this outcome
};

/// The mean absolute position error of the closed-loop re-simulation
/// (identify::servo_log_error) of every log with every parameter set, and the thinned
/// re-simulations (EvalActuatorSeries) the report draws. invalid_argument for no parameter set.
/// identify::FitError for a raw log or an unknown supply voltage; invalid_argument "eval_actuator:
/// no log" for no log. Progress: a line per log ("log 2 of 16: NAME") with the fraction done;
/// cancellation is polled between logs.
EvalActuatorOutcome eval_actuator(const std::vector<data::ServoLog>& logs,
                                  const std::vector<ServoParamSet>& params,
                                  const Progress& progress = {});

// ---- actuator check ----

/// One finding of check_actuator.
/// A finding that several logs share (the same check and the same message apart from one
/// per-log number) is one finding: `logs` lists them, `log` is empty, and the message starts
/// with "in N of M logs (A, B, C, ...): " (the first three names) and gives the per-log number
/// as its range "LO .. HI".
struct ActuatorFinding {
  std::string log;       ///< file name of the log (no directory); empty: about all or several logs
  std::string check;     ///< "gravity", "kp", "offset", "saturation", "supply", "gains", "current",
                         ///< "max_torque", "unpublished"
  bool warning = false;  ///< false: a note (what the logs cannot tell), true: looks inconsistent
  std::string message;
  std::vector<std::string> logs;  ///< the logs it is about (file names); empty: the whole set
};

/// What check_actuator found on one log.
struct ActuatorLogCheck {
  std::string log;           ///< file name (no directory)
  double kp = 0.0;           ///< the log's kp
  double nominal_mae = 0.0;  ///< position MAE of the nominal simulation [rad]
  double fitted_mae = 0.0;   ///< position MAE of the quick fit [rad]
  double saturated = 0.0;    ///< share of the enabled entries with a limited output (quick fit) [-]
};

struct ActuatorCheckOptions {
  long evaluations = 600;  ///< CMA-ES budget of each quick fit (> 0)
  int threads = 0;         ///< 0: every core
  std::uint64_t seed = 1;
};

struct ActuatorCheckOutcome {
  std::string actuator;                   ///< its name
  sim::ServoParams nominal;               ///< the nominal parameters simulated (see check_actuator)
  sim::ServoParams fitted;                ///< the quick M1 fit as described
  double nominal_mae = 0.0;               ///< pooled position MAE of the nominal set [rad]
  double fitted_mae = 0.0;                ///< pooled position MAE of the quick fit [rad]
  std::vector<ActuatorLogCheck> logs;     ///< in the order given
  std::vector<ActuatorFinding> findings;  ///< all-log findings first, then per log
  std::size_t warnings = 0;               ///< how many findings are warnings
};

/// Check (processed) logs against an actuator description before a long fit: what looks
/// inconsistent. First the logs are simulated with the nominal parameters: model M1 with the
/// actuator's kt, R, armature (their published value, else sim::ServoConstant::nominal_or_middle),
/// no friction, no offset. Then a quick M1 fit (CMA-ES, options.evaluations) pooled over the logs,
/// with q_offset searched in [-0.5, 0.5] rad, is compared with the same quick fit under each
/// hypothesis; a hypothesis whose fit is at least twice as close is a warning:
///   gravity     the bench's zero at the top instead of hanging down (q_offset near pi): the sign
///               of the gravity torque;
///   kp          the firmware gain (error_gain) off by 1/512, 1/64, 1/8, 8, 64 or 512: the
///               units or scaling of kp, beyond what kt and R can absorb within their ranges;
/// and from the quick fit and the logs themselves:
///   offset      the fitted q_offset outside the fit's default range [-0.1, 0.1]: a warning
///               when the quick fit within that range is twice as far, else a note;
///   saturation  the output limited at more than 90 % of a log's enabled entries (warning), or
///               in no log (a note: max_pwm and the current window are then not identified);
///   supply      a log's "vin" more than 5 % away from the mean of its input_volts (warning);
///   gains       kd (ki) non-zero while the actuator's law has no derivative (integral) term;
///   current     a logged current whose unit is unknown (not used);
///   unpublished a constant of the description that is not published for this servo
///               (sim::unpublished_constant_notes; a note);
///   max_torque  a log's "max_torque" (a recorder's torque-limit setting) other than 100: not
///               modelled (its unit is not documented), so the simulation's limit is max_pwm.
/// Per-log findings that several logs share are summarised into one (ActuatorFinding).
/// identify::FitError for a raw log or an unknown supply voltage; invalid_argument for no log.
/// Progress: a line per fit; cancellation between fits.
ActuatorCheckOutcome check_actuator(const sim::ServoActuator& actuator,
                                    const std::vector<data::ServoLog>& logs,
                                    const ActuatorCheckOptions& options = {},
                                    const Progress& progress = {});

}  // namespace frictionlab::workflows
