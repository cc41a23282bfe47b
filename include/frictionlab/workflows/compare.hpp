// frictionlab workflows: `compare`, several models fitted to one record by lsq
// and ranked (docs/cli.md, "compare").
//
//   workflows::CompareOptions o;
//   o.models = workflows::parse_model_list("coulomb-viscous,stribeck,lugre");
//   CompareOutcome c = workflows::compare({"train.csv", train}, {{"val.csv",
//   val}}, o, progress);
//
// The ranking rule: by the ranking error (the mean validation RMSE over the
// validation records, or the training RMSE without any) rounded to 9
// significant digits (noise-free data leave several models at rounding level),
// then by fewer estimated parameters, then by the information criterion; a
// model whose error is not finite (NaN, inf) last, and never the best: when no
// model has a finite error there is no best (has_best). The criterion's delta is to its
// smallest value over the models. Nothing is printed or written: compare.json
// is io/compare_json.hpp.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "frictionlab/identify/options.hpp"
#include "frictionlab/identify/result.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/progress.hpp"

namespace frictionlab::workflows {

/// The information criterion of the comparison.
enum class Criterion { aicc, bic };

/// "aicc" -> aicc, "bic" -> bic; std::invalid_argument ("criterion must be aicc
/// or bic, got 'x'") otherwise.
Criterion parse_criterion(const std::string& name);

/// "aicc" | "bic" (the name parse_criterion accepts).
std::string criterion_key(Criterion c);

/// "AICc" | "BIC" (the name in tables).
std::string criterion_label(Criterion c);

/// A comma-separated list of model names (identify::parse_model's names; blanks
/// around a name are ignored). Every name is checked before any fit.
/// std::invalid_argument, without naming the parameter (the caller prefixes
/// it): "empty model name in 'LIST'", identify::parse_model's message for an
/// unknown name, "model 'NAME' is listed twice" (after normalisation, e.g.
/// "gms" and "gms:3"), "give at least two models to compare, got 'LIST'".
std::vector<identify::ModelChoice> parse_model_list(const std::string& list);

struct CompareOptions {
  /// At least two, no two with the same identify::model_name (see
  /// parse_model_list).
  std::vector<identify::ModelChoice> models{};
  Criterion criterion = Criterion::aicc;
  /// Problem, units, warm-up, lsq starts and loss, as for fit. `model` and
  /// `method` are not used: every model of `models` is fitted by lsq.
  /// `progress` is replaced by the workflow's Progress.
  identify::FitOptions fit{};
  /// Applied to the training and to every validation record before its checks.
  data::PreprocessOptions preprocess{};
};

struct CompareRow {
  std::string model{};                     ///< identify::model_name of the model
  identify::FitResult fit{};               ///< identify::fit by lsq on the prepared training record
  std::vector<NamedMetrics> validation{};  ///< identify::evaluate on each validation record
  /// Mean RMSE over the validation records; NaN without validation records.
  double validation_rmse = std::numeric_limits<double>::quiet_NaN();
  /// The ranking error: validation_rmse, or fit.training.rmse without
  /// validation records.
  double score = std::numeric_limits<double>::quiet_NaN();
  double criterion = std::numeric_limits<double>::quiet_NaN();  ///< fit.aicc or fit.bic
  /// criterion minus the smallest finite criterion of the rows (NaN if this one
  /// or every one is not finite).
  double delta = std::numeric_limits<double>::quiet_NaN();
};

struct CompareOutcome {
  std::string input{};                          ///< the training record's name
  std::vector<std::string> validation_names{};  ///< the validation records' names
  identify::ProblemKind problem = identify::ProblemKind::friction;
  Criterion criterion = Criterion::aicc;
  /// True: ranked by validation RMSE; false (no validation record): by training
  /// RMSE.
  bool ranked_by_validation = false;
  std::vector<CompareRow> rows{};  ///< ranked, best first (rows[0] is the best model if has_best)
  /// rows[0]'s ranking error is finite: it is the best model. False when no model has a finite
  /// error: none is recommended.
  bool has_best = false;
  /// The prepared training record every model was fitted on (for the models' predictions:
  /// fit_outcome(input, rows[k].fit, training, rows[k].validation, {})).
  data::Record training{};
  /// Index in rows of the model with the smallest finite criterion; -1 if none
  /// is finite.
  int best_by_criterion = -1;
  /// best_by_criterion == 0: the criterion agrees with the ranking.
  bool criterion_agrees = false;
  /// The records' check warnings (training, then validation), then each model's
  /// fit warnings prefixed "MODEL: ", in the order of `models`.
  std::vector<std::string> warnings{};
  Verdict verdict{};  ///< compare_verdict of this outcome (workflows/verdict.hpp)
};

/// Prepare the training and validation records (prepare_record), fit every
/// model of options.models by lsq (progress.say "compare: model I/N: NAME"
/// before each, identify's messages forwarded), evaluate each on the validation
/// records and rank them (the rule at the top of this file). Cancellation is
/// polled before each record and each model. Throws std::invalid_argument for
/// fewer than two models, prepare_record's errors, identify::FitError prefixed
/// "model 'NAME': ", and Cancelled.
/// The ranking rule (top of this file) applied to outcome.rows (score, criterion and
/// fit.num_estimated filled in): sorts the rows and sets delta, best_by_criterion,
/// criterion_agrees and has_best.
void rank_compare_rows(CompareOutcome& outcome);

CompareOutcome compare(const NamedRecord& training, const std::vector<NamedRecord>& validation,
                       const CompareOptions& options, const Progress& progress = {});

}  // namespace frictionlab::workflows
