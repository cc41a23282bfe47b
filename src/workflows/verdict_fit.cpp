// frictionlab workflows: the verdicts on a friction-model fit and on a comparison of fits
// (include/frictionlab/workflows/verdict.hpp, docs/verdicts.md "Fits and comparisons").
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/identify/stats.hpp"
#include "frictionlab/workflows/compare.hpp"
#include "frictionlab/workflows/fit.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {
namespace {

// The fit rules' thresholds (header). Calibrated on docs/verdicts.md's records: a Stribeck curve
// on the Franka joint 7 record explains it to e = 0.19, a Stribeck curve on the noise-free LuGre
// sine to 0.26 (no pre-sliding); a friction model of a joint whose torque is mostly gravity and
// inertia (DFKI pendulum, Franka joint 1) leaves e = 0.96 and 1.0.
constexpr double kErrorBad = 0.7;         // rmse / rms of the measured channel [-]
constexpr double kErrorDoubtful = 0.35;   // [-]
constexpr double kGeneraliseRatio = 2.0;  // validation / training relative error [-]
constexpr double kGeneraliseFloor = 0.2;  // [-]
constexpr double kRoundingLevel = 1e-6;   // a relative error at which residuals are rounding [-]
constexpr double kUndecided = 2.0;  // information-criterion difference (Burnham & Anderson 2002)

std::string num(double x) { return format_display(x, 3); }

/// rmse / rms of the measured channel; NaN where the channel is all zero.
double relative_error(const identify::Metrics& m) {
  return m.rms > 0 ? m.rmse / m.rms : std::numeric_limits<double>::quiet_NaN();
}

/// What a reason says about which model ("" for a fit; "MODEL (recommended): " in a comparison).
struct Fitted {
  const identify::FitResult& result;
  const std::vector<NamedMetrics>& validation;
  std::string prefix;
};

/// error: the relative error on the records that decide (validation records when there are
/// any, else the training record).
void error_rule(Verdict& v, const Fitted& f) {
  std::vector<std::pair<std::string, identify::Metrics>> deciding;
  if (f.validation.empty()) deciding.emplace_back("the training record", f.result.training);
  for (const auto& m : f.validation) deciding.emplace_back(m.name, m.metrics);
  for (const auto& [name, m] : deciding) {
    const double e = relative_error(m);
    if (std::isfinite(e) && e <= kErrorDoubtful) continue;
    v.add({!std::isfinite(e) || e > kErrorBad ? Grade::bad : Grade::doubtful, "error",
           f.prefix + "the model explains " + (e > kErrorBad ? "little" : "only part") +
               " of the " +
               (f.result.problem == identify::ProblemKind::sensorless ? "torque" : "force") +
               " on " + name + ": RMSE / RMS = " + num(e) + " (RMSE " + num(m.rmse) + ", RMS " +
               num(m.rms) + ")",
           e > kErrorBad
               ? "check the channels (--force, --velocity), their sign and units, and whether "
                 "the signal is friction at all (gravity, inertia: fit-joint)"
               : "another model (frictionlab compare), or preprocessing (--lowpass HZ)"});
  }
}

/// generalises: validation errors against the training error.
void generalise_rule(Verdict& v, const Fitted& f) {
  const double train = relative_error(f.result.training);
  for (const auto& m : f.validation) {
    const double e = relative_error(m.metrics);
    if (e > kGeneraliseFloor && e > kGeneraliseRatio * train)
      v.add({Grade::doubtful, "generalises",
             f.prefix + "the relative error on " + m.name + " (" + num(e) + ") is more than " +
                 num(kGeneraliseRatio) + " times the training record's (" + num(train) + ")",
             "a training record that covers the validation's velocities and reversals, or fewer "
             "parameters"});
  }
  for (const auto& m : f.validation)
    if (!m.same_as_training.empty())
      v.add({Grade::good, "validation",
             f.prefix + "validation record " + m.name + " is the training record " +
                 m.training_name + " (" + m.same_as_training +
                 "): its metrics measure the fit on its own data, not a validation",
             "--validate a record the fit has not seen"});
  if (f.validation.empty())
    v.add({Grade::good, "validation",
           f.prefix +
               "no validation record: the error is the training error, which the fit minimised",
           "--validate RECORD"});
}

/// whiteness / outliers: what the residuals say (identify's reliability checks).
void residual_rules(Verdict& v, const Fitted& f) {
  const identify::Reliability& rel = f.result.reliability;
  const auto& w = rel.whiteness;
  if (identify::strongly_coloured(rel) && relative_error(f.result.training) > kRoundingLevel)
    v.add({Grade::good, "whiteness",
           f.prefix + "the residuals are coloured (lag-1 autocorrelation " + num(w.acf1) +
               ", Ljung-Box p = " + num(w.ljung_box_p) + "): the white-noise standard errors are " +
               "optimistic, the HAC ones apply",
           ""});
  if (rel.outliers > 0)
    v.add({Grade::doubtful, "outliers",
           f.prefix + std::to_string(rel.outliers) + " of " + std::to_string(f.result.training.n) +
               " residuals are outliers (beyond 10 robust standard deviations): they pull a "
               "least-squares fit",
           "--loss huber (Python loss='huber'), or a model that explains them (compare)"});
}

/// bound / determined: what the record does not determine (identify's identifiability flags).
void parameter_rules(Verdict& v, const Fitted& f) {
  for (const auto& p : f.result.parameters) {
    if (p.at_limit)
      v.add({Grade::doubtful, "bound",
             f.prefix + p.name + " ended at the edge of its search region (" + num(p.value) + " " +
                 p.unit + "): the record does not determine it",
             "a record with motion where this term acts, or a model without it"});
    else if (p.at_bound)
      v.add({Grade::good, "bound",
             f.prefix + p.name +
                 " = 0 on its bound: the record asks for no such term (no standard error)",
             ""});
  }
  std::string names;
  for (const auto& fl : f.result.identifiability) {
    if (fl.kind == "bound" || fl.kind == "limit") continue;  // the bound rule's
    if (fl.parameter.empty()) {
      v.add({Grade::doubtful, "determined", f.prefix + fl.message, ""});
    } else if (names.find(fl.parameter) == std::string::npos) {
      names += (names.empty() ? "" : ", ") + fl.parameter;
    }
  }
  if (!names.empty())
    v.add({Grade::doubtful, "determined",
           f.prefix + "the record does not determine " + names + " (the identifiability flags)",
           "a record with more reversals and low-speed motion, or a simpler model"});
}

/// solver / passive: how the optimisation ended and what the fitted set is.
void solver_rules(Verdict& v, const Fitted& f) {
  const identify::FitResult& r = f.result;
  if (!r.converged && !r.starts.empty())
    v.add({Grade::doubtful, "solver",
           f.prefix + "the solver stopped without convergence: " + r.termination,
           "more starts (--starts N) or another method (--method two-stage)"});
  // the best start (the smallest final cost) began at the optimum of the model this one contains
  const auto best =
      std::min_element(r.starts.begin(), r.starts.end(),
                       [](const auto& a, const auto& b) { return a.final_cost < b.final_cost; });
  if (!r.nested_model.empty() && best != r.starts.end() &&
      best->origin.starts_with("optimum of nested"))
    v.add({Grade::good, "nested",
           f.prefix + "the best optimum was reached from the nested model " + r.nested_model +
               "'s optimum, not from the data-driven starts: " + r.model_name + " improves on " +
               r.nested_model + " only by what its extra parameters add",
           ""});
  if (r.passive && !*r.passive)
    v.add({Grade::good, "passive",
           f.prefix +
               "the fitted LuGre set is not passive (sigma2 <= sigma1 (Fs - Fc)/Fc): it "
               "simulates, but near stick it can sustain oscillations a real contact would damp",
           "fit.json's passivity_message says how far"});
}

void fit_rules(Verdict& v, const Fitted& f) {
  error_rule(v, f);
  generalise_rule(v, f);
  residual_rules(v, f);
  parameter_rules(v, f);
  solver_rules(v, f);
}

/// ranking: models the information criterion cannot tell from the recommended one.
void ranking_rule(Verdict& v, const CompareOutcome& c) {
  const CompareRow& best = c.rows.front();
  const std::string crit = criterion_label(c.criterion);
  std::string close;
  double widest = 0;
  for (std::size_t k = 1; k < c.rows.size(); ++k) {
    const double d = std::abs(c.rows[k].criterion - best.criterion);
    if (!std::isfinite(c.rows[k].score) || !(d < kUndecided)) continue;
    close += (close.empty() ? "" : ", ") + c.rows[k].model;
    widest = std::max(widest, d);
  }
  if (!close.empty())
    v.add({Grade::doubtful, "ranking",
           "the ranking is not decided: the " + crit + " of " + best.model + " and " + close +
               " differ by " + num(widest) + " at most (< " + num(kUndecided) +
               ": the record does not tell them apart)",
           "a longer or richer record, or a validation record (--validate); either model will do"});
  if (c.best_by_criterion > 0)
    v.add({Grade::good, "ranking",
           crit + " prefers " + c.rows[static_cast<std::size_t>(c.best_by_criterion)].model + " (" +
               best.model + ": delta " + crit + " " + num(best.delta) +
               "): the better-fitting model's extra parameters buy "
               "less than " +
               crit + " charges for them",
           ""});
}

}  // namespace

Verdict fit_verdict(const FitOutcome& outcome) {
  Verdict v;
  fit_rules(v, {outcome.result, outcome.validation, ""});
  return v;
}

Verdict compare_verdict(const CompareOutcome& c) {
  Verdict v;
  if (!c.has_best) {
    v.add({Grade::bad, "best",
           std::string("no model has a finite ") +
               (c.ranked_by_validation ? "validation" : "training") + " RMSE: none is recommended",
           "check the records (frictionlab fit on one model shows its warnings)"});
    return v;
  }
  const CompareRow& best = c.rows.front();
  fit_rules(v, {best.fit, best.validation, best.model + " (recommended): "});
  ranking_rule(v, c);
  return v;
}

}  // namespace frictionlab::workflows
