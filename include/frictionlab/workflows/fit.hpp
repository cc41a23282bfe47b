// frictionlab workflows: `fit`, identification of friction parameters from a
// measured record (docs/cli.md, "fit"), and the record preparation it shares
// with `compare`.
//
//   workflows::FitOptions o;                         // identify::FitOptions + preprocessing
//   o.fit.model = identify::parse_model("lugre");
//   FitOutcome f = workflows::fit({"train.csv", train}, {{"val.csv", val}}, o, progress);
//
// Inputs are records in memory (read them with io::read_record); the names are
// labels only (fit.json's "input" and "validation" "file", the plot title).
// Nothing is printed or written: fit.json is io::fit_to_json(outcome.result,
// outcome.input, outcome.validation) (io/fit_json.hpp), the plots
// io/fit_plots.hpp.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/data/record.hpp"
#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/workflows/progress.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {

/// A record and the name it is reported under (a file name, or any label).
struct NamedRecord {
  std::string name{};
  data::Record record{};
};

/// The metrics of a fitted model on one named record (a validation record).
struct NamedMetrics {
  std::string name{};
  identify::Metrics metrics{};
  /// The training record's name when this validation record is the training record (same
  /// file or same samples: same_as_training), else "": the verdict's validation rule.
  std::string training_name{};
  std::string same_as_training{};  ///< "the same file" or "the same samples", else ""
};

/// A record ready for identify::fit and the warnings of its checks.
struct PreparedRecord {
  data::Record record{};
  /// data::check_record's warnings on the record as read, then those on the preprocessed record
  /// that are new, in their order.
  std::vector<std::string> warnings{};
  /// The largest sample step of the record as read or as preprocessed, whichever is larger [s]
  /// (resampling does not hide a gap: FitResult::data.dt_max).
  double dt_max = 0;
};

/// `raw` checked as read (data::check_record with no required channel: its sampling), then
/// preprocessed with `preprocess` (data::preprocess; with no stage
/// the record is kept as it is), then checked by data::check_record for the
/// channels a fit of `problem` needs: velocity and force, and the motor current
/// for ProblemKind::sensorless. Throws what data::preprocess and
/// data::check_record throw (std::invalid_argument, data::RecordError) for an
/// unusable record.
PreparedRecord prepare_record(const data::Record& raw, const data::PreprocessOptions& preprocess,
                              identify::ProblemKind problem);

/// "the same file" when `validation` is `training` by name, "the same samples" when every
/// channel holds the same samples, else "": its metrics then measure the fit on its own data.
std::string same_as_training(const NamedRecord& training, const NamedRecord& validation);

/// A warning for each validation record that is the training record (same_as_training); fit
/// says it in its verdict instead (NamedMetrics::same_as_training).
std::vector<std::string> same_data_warnings(const NamedRecord& training,
                                            const std::vector<NamedRecord>& validation);

struct FitOptions {
  /// Problem, model, method, units, warm-up, lsq starts and loss
  /// (identify::FitOptions). Its `progress` member is replaced by the
  /// workflow's Progress (the same type: identify reports to it directly).
  identify::FitOptions fit{};
  /// Applied to the training and to every validation record before its checks.
  data::PreprocessOptions preprocess{};
};

/// The friction against velocity, sample by sample, sorted by increasing
/// velocity: the data of the friction-velocity plot.
struct FrictionVelocity {
  std::vector<double> velocity{};  ///< [m/s | rad/s]
  /// The measured friction [N | N m]: the force channel for the friction
  /// problem; for the sensorless problem Km*current - torque (Km of the fit).
  std::vector<double> measured{};
  std::vector<double> simulated{};     ///< the same from the model's simulated prediction
  std::vector<double> static_curve{};  ///< identify::steady_force(result, velocity)
};

struct FitOutcome {
  std::string input{};           ///< the training record's name
  identify::FitResult result{};  ///< identify::fit on the prepared training record
  data::Record training{};       ///< the prepared training record (what was fitted)
  /// identify::predict(result, training): the model's prediction of the force
  /// channel (friction force, or joint torque for the sensorless problem) at
  /// every training sample [N | N m].
  std::vector<double> prediction{};
  std::vector<double> residual{};          ///< training.force - prediction, per sample [N | N m]
  FrictionVelocity friction{};             ///< the training samples, sorted by velocity
  std::vector<NamedMetrics> validation{};  ///< identify::evaluate on each validation record
  /// In order: the training record's check warnings, each validation record's check warnings,
  /// then the fit's (result.warnings). fit.json's "warnings".
  std::vector<std::string> warnings{};
  Verdict verdict{};  ///< fit_verdict of this outcome (workflows/verdict.hpp)
};

/// The outcome of a fit already made: `result` of identify::fit on the prepared `training`
/// record, with its prediction, residual and friction-velocity data computed here
/// (identify::predict, identify::steady_force) and its verdict (fit_verdict), `validation` and
/// `warnings` as given. fit() ends
/// with it; compare uses it for each model's report. `threads`: as LsqOptions::threads (1: all
/// on the calling thread; otherwise the samples' velocity order is sorted on a second thread
/// while the prediction is simulated).
FitOutcome fit_outcome(std::string input, identify::FitResult result, data::Record training,
                       std::vector<NamedMetrics> validation, std::vector<std::string> warnings,
                       int threads = 1);

/// Prepare `training` and every validation record (prepare_record: a record that
/// cannot be used is an error before the fit starts), fit the training record
/// (identify::fit with options.fit and `progress`, which receives its messages),
/// then evaluate every validation record. Cancellation is polled before each record and before the
/// fit. Throws identify::FitError for a fit that is not possible, what
/// prepare_record throws (the record's name in data::RecordError's source), and
/// Cancelled.
FitOutcome fit(const NamedRecord& training, const std::vector<NamedRecord>& validation,
               const FitOptions& options, const Progress& progress = {});

}  // namespace frictionlab::workflows
