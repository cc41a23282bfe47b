// frictionlab workflows: the verdicts on actuator fits and evaluations (the actuator rules of
// include/frictionlab/workflows/verdict.hpp).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "frictionlab/workflows/verdict.hpp"

namespace frictionlab::workflows {
namespace {

// The actuator rules' thresholds (header). e = position MAE / range of the measured position.
// On the shared XL330 logs the reference package's fits m1..m6 give a pooled e of 0.053 .. 0.063
// and a worst log of 0.215 .. 0.246 (its kp 100 up_and_down log: 0.385 rad of motion).
constexpr double kErrorBad = 0.25;         // pooled e [-]
constexpr double kErrorDoubtful = 0.1;     // pooled e [-]
constexpr double kLogDoubtful = 0.35;      // e of one log [-]
constexpr double kGeneraliseRatio = 1.5;   // validation / training MAE [-]
constexpr double kGeneraliseFloor = 0.05;  // e of the validation logs [-]
constexpr double kMargin = 0.02;           // the best within 2 % of the next: not separated

std::string num(double x) { return format_display(x, 3); }

/// One log of the rules: its name, its error and its range of motion.
struct LogError {
  std::string name;
  double mae = 0.0, range = 0.0;
};

/// e = mae / range; 0 for an error of 0 (also on a log without motion), inf for an error on one.
double relative(double mae, double range) { return mae == 0.0 ? 0.0 : mae / range; }

double mean_range(const std::vector<LogError>& logs) {
  double sum = 0.0;
  for (const auto& l : logs) sum += l.range;
  return logs.empty() ? std::nan("") : sum / static_cast<double>(logs.size());
}

/// error: the pooled error relative to the motion, then every log's.
void error_rule(Verdict& v, const std::string& who, double mae,
                const std::vector<LogError>& deciding, const std::vector<LogError>& all,
                const std::string& on) {
  const double range = mean_range(deciding);
  const double e = relative(mae, range);
  if (!(range > 0) && mae != 0.0)
    v.add({Grade::doubtful, "error",
           who + "'s MAE of " + num(mae) + " rad on " + on +
               " cannot be judged against their motion: "
               "their measured position does not change",
           "check the logs' position channel and torque_enable"});
  else if (!(e <= kErrorDoubtful))
    v.add({!std::isfinite(e) || e > kErrorBad ? Grade::bad : Grade::doubtful, "error",
           who + " does not reproduce the motion of " + on + ": MAE " + num(mae) + " rad is " +
               num(100 * e) + " % of the mean range of motion (" + num(range) + " rad)",
           "check the actuator description (frictionlab actuator check NAME LOGS), the logs' kp "
           "and vin, and --range of the parameters at a range end"});
  // the logs not reproduced: one reason, the worst three named
  std::vector<std::pair<double, const LogError*>> worst;
  for (const auto& l : all)
    if (const double el = relative(l.mae, l.range); !(el <= kLogDoubtful))
      worst.emplace_back(el, &l);
  if (worst.empty()) return;
  std::stable_sort(worst.begin(), worst.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string list;
  for (std::size_t k = 0; k < worst.size() && k < 3; ++k)
    list += (k ? ", " : "") + worst[k].second->name + ": MAE " + num(worst[k].second->mae) +
            " rad, " +
            (worst[k].second->range > 0
                 ? num(100 * worst[k].first) + " % of " + num(worst[k].second->range) + " rad"
                 : std::string("no motion"));
  if (worst.size() > 3) list += ", ...";
  v.add({Grade::doubtful, "error",
         who + " does not reproduce " +
             (worst.size() == 1 ? std::string("1 log") : std::to_string(worst.size()) + " logs") +
             " of " + std::to_string(all.size()) + " (MAE over " + num(100 * kLogDoubtful) +
             " % of the log's range of motion): " + list,
         "look at their plots: little motion, a saturated output or another load"});
}

/// bounds: the recommended model's parameters at an end of their search range.
void bounds_rule(Verdict& v, const ActuatorModelOutcome& m) {
  if (m.at_bound.empty()) return;
  v.add({Grade::doubtful, "bounds",
         m.name + ": " + join_list(m.at_bound) + " at an end of the search range",
         "widen it with --range KEY=LO:HI if the value is plausible, else check the actuator "
         "description; a parameter the logs do not excite ends anywhere"});
}

/// margin (fit): the models the logs do not separate from the recommended one (within kMargin
/// of its ranking error), else a richer model recommended against for a lower error.
void fit_margin_note(Verdict& v, const FitActuatorOutcome& s, const ActuatorModelOutcome& rec) {
  auto score = [&](const ActuatorModelOutcome& m) {
    return s.validated ? m.validation_mae : m.train_mae;
  };
  const std::string which = s.validated ? "validation" : "training";
  std::vector<std::string> close;
  const ActuatorModelOutcome* best = nullptr;
  for (const auto& m : s.models) {
    if (&m == &rec || !m.failed.empty() || !std::isfinite(score(m))) continue;
    if (std::abs(score(m) - score(rec)) < kMargin * score(rec)) close.push_back(m.name);
    if (!best || score(m) < score(*best)) best = &m;
  }
  if (!close.empty()) {
    v.add({Grade::good, "margin",
           rec.name + " is not clearly better than " + join_list(close) + ": their " + which +
               " MAE is within " + num(100 * kMargin) + " % of its " + num(score(rec)) +
               " rad: the logs do not separate them (the fewest parameters are recommended)",
           "logs with more varied motion or loads: another kp, another trajectory"});
  } else if (best && score(*best) < score(rec)) {
    v.add({Grade::good, "margin",
           best->name + " has a " + num(100 * (score(rec) - score(*best)) / score(rec)) +
               " % lower " + which + " MAE (" + num(score(*best)) + " against " + num(score(rec)) +
               " rad) with " + std::to_string(best->n_parameters) + " parameters instead of " +
               std::to_string(rec.n_parameters) +
               ": within the tolerance, the simpler model is recommended",
           "--tolerance 0 to recommend the lowest error"});
  }
}

/// The recommended model's plain and temperature variants compared on the ranking error (a note).
void temperature_comparison_note(Verdict& v, const FitActuatorOutcome& s,
                                 const ActuatorModelOutcome& rec) {
  const ActuatorModelOutcome *plain = nullptr, *warm = nullptr;
  for (const auto& m : s.models)
    if (m.model == rec.model && m.failed.empty()) (m.temperature ? warm : plain) = &m;
  if (!plain || !warm) return;
  const double a = s.validated ? plain->validation_mae : plain->train_mae;
  const double b = s.validated ? warm->validation_mae : warm->train_mae;
  std::string coefficients;
  for (const auto& e : warm->parameters)
    if (e.name == "kT" || e.name == "kT_v")
      coefficients += ", " + e.name + " = " + format_display(e.value, 3) + " 1/K";
  const auto& law = warm->params.params.temperature;
  v.add({Grade::good, "temperature",
         warm->name + " (" + s.temperature.law + " law, T_ref " +
             (law ? num(law->T_ref) : std::string("?")) + " degC" + coefficients + ") " +
             (s.validated ? "validates" : "trains") + " at " + num(b) + " against " + num(a) +
             " rad for " + plain->name +
             (b == a ? std::string(" (the same)")
                     : " (" + num(100 * std::abs(b - a) / a) + " % " +
                           (b < a ? "lower" : "higher") + ")") +
             (s.validated ? std::string()
                          : " (on the training logs the law can only lower the loss)"),
         b < a ? "" : "the temperature law does not improve the error: use " + plain->name});
}

/// temperature (fit with a temperature law): undetermined (the training logs' temperature does
/// not vary enough), the law against the plain model it extends (a note), and the temperature
/// confounded with kp (doubtful when the recommended model has the law, else a note).
void temperature_rule(Verdict& v, const FitActuatorOutcome& s, const ActuatorModelOutcome* rec) {
  const ActuatorTemperatureOutcome& t = s.temperature;
  if (t.law.empty()) return;
  const auto& c = t.check;
  const std::string range = num(c.T_min) + " .. " + num(c.T_max) + " degC";
  if (t.undetermined) {
    v.add({Grade::doubtful, "temperature",
           "undetermined: the training logs' temperature spans " + num(c.spread) +
               " K (5th to 95th percentile; " + range + "), less than " +
               num(identify::kTemperatureMinSpread) +
               " K: kT is held at 0 and no temperature model is fitted",
           "record the same kp and trajectories over a wider temperature range (e.g. once cold "
           "and once after minutes under load), at least " +
               num(identify::kTemperatureMinSpread) + " K apart"});
    return;
  }
  if (rec) temperature_comparison_note(v, s, *rec);
  if (c.confounded)
    v.add({rec && rec->temperature ? Grade::doubtful : Grade::good, "temperature",
           "confounded: the logs' mean temperature " +
               std::string(c.kp_correlation > 0 ? "rises" : "falls") +
               " with kp (r = " + num(c.kp_correlation) + "; within one kp it spans at most " +
               num(c.within_kp_spread) +
               " K): kT may take up an error of the model that grows with kp",
           "record the same kp at different temperatures (cold and warm), so that kp and the "
           "temperature vary independently"});
}

/// failed: models that could not be ranked.
void failed_rule(Verdict& v, const FitActuatorOutcome& s) {
  if (!s.recommended) {
    v.add({Grade::bad, "failed", "no model has a finite error: " + s.reason,
           "check the actuator description and the parameter ranges (--range)"});
    return;
  }
  for (const auto& m : s.models)
    if (!m.failed.empty())
      v.add({Grade::doubtful, "failed", m.name + " is not ranked: " + m.failed,
             "narrow its parameter ranges (--range) so that the simulation stays finite"});
}

}  // namespace

Verdict actuator_fit_verdict(const FitActuatorOutcome& s) {
  Verdict v;
  failed_rule(v, s);
  if (!s.actuator_choice.empty())
    v.add({Grade::good, "actuator", s.actuator_choice, "--actuator NAME to choose"});
  const ActuatorModelOutcome* rec = s.recommended_model();
  temperature_rule(v, s, rec);
  if (!rec) return v;
  std::vector<LogError> all, validation;
  for (const auto& l : s.recommended_series) {
    all.push_back({l.log, l.mae, l.range});
    if (l.role == "validation") validation.push_back(all.back());
  }
  const bool held_out = !validation.empty();
  const double mae = s.validated ? rec->validation_mae : rec->train_mae;
  error_rule(v, rec->name, mae, held_out ? validation : all, all,
             held_out ? "the validation logs"
                      : (s.validated ? "the logs (cross-validated)" : "the training logs"));
  if (s.validated && rec->validation_mae > kGeneraliseRatio * rec->train_mae &&
      relative(rec->validation_mae, mean_range(held_out ? validation : all)) > kGeneraliseFloor)
    v.add({Grade::doubtful, "generalises",
           rec->name + "'s validation MAE (" + num(rec->validation_mae) + " rad) is more than " +
               num(kGeneraliseRatio) + " times its training MAE (" + num(rec->train_mae) + " rad)",
           "train on more kp values or trajectories; fewer parameters (--models)"});
  bounds_rule(v, *rec);
  fit_margin_note(v, s, *rec);
  return v;
}

Verdict actuator_eval_verdict(const EvalActuatorOutcome& s) {
  Verdict v;
  for (const auto& p : s.params)
    if (!std::isfinite(p.mean))
      v.add({s.best ? Grade::doubtful : Grade::bad, "failed",
             p.label + ": the re-simulation does not stay finite on every log (mean " +
                 num(p.mean) + ")",
             "check the parameter file's actuator and values"});
  if (!s.best) return v;
  const EvalActuatorColumn& best = s.params[*s.best];
  std::vector<LogError> logs;
  for (std::size_t i = 0; i < s.logs.size() && i < best.mae.size(); ++i)
    logs.push_back({s.logs[i].name, best.mae[i], s.logs[i].range});
  error_rule(v, best.label, best.mean, logs, logs, "the logs");
  for (std::size_t j = 0; j < s.params.size(); ++j) {
    const auto& p = s.params[j];
    if (j == *s.best || !std::isfinite(p.mean) || p.mean > best.mean * (1 + kMargin)) continue;
    v.add({Grade::good, "margin",
           best.label + " is not clearly better than " + p.label + ": mean MAE " + num(best.mean) +
               " against " + num(p.mean) + " rad (within " + num(100 * kMargin) +
               " %): these logs do not separate them",
           "logs with more varied motion or loads"});
  }
  return v;
}

}  // namespace frictionlab::workflows
