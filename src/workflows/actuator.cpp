// frictionlab workflows: fit_actuator, eval_actuator and the parsing of their option texts
// (include/frictionlab/workflows/actuator.hpp).
#include "frictionlab/workflows/actuator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/limits.hpp"
#include "frictionlab/sim/servo_actuators.hpp"
#include "frictionlab/sim/servo_limits.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "frictionlab/workflows/report.hpp"
#include "frictionlab/workflows/validate.hpp"

#include "../identify/parallel.hpp"

namespace frictionlab::workflows {
namespace {

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, ',')) {
    const auto a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    if (a == std::string::npos) throw std::invalid_argument("empty item in list '" + s + "'");
    out.push_back(item.substr(a, b - a + 1));
  }
  return out;
}

// A number within the magnitude policy (frictionlab/limits.hpp).
double parse_number(const std::string& s, const std::string& what) {
  const std::optional<double> x = frictionlab::parse_number(s);
  if (!x) throw std::invalid_argument(what + ": expected a number, got '" + s + "'");
  if (const auto problem = limit_problem(*x); !problem.empty())
    throw std::invalid_argument(what + ": " + problem);
  return *x;
}

// A --range override: a key of the models fitted (kT, and kT_v when fitted, with a temperature
// law), both ends within its plausible range (sim/servo_limits.hpp), so that no fit searches
// where the simulation overflows.
void check_range_option(const identify::ServoBound& b, const std::vector<ActuatorModel>& models,
                        sim::ServoDrive drive,
                        const std::optional<identify::ServoTemperatureFit>& temperature) {
  bool known = temperature && (b.key == "kT" || (b.key == "kT_v" && temperature->viscous));
  for (auto m : models)
    for (auto k : sim::servo_param_keys(m, drive)) known = known || k == b.key;
  if (!known)
    throw std::invalid_argument("--range: '" + b.key + "' is not a parameter of the models fitted");
  const Limit limit = sim::servo_limits::param_limit(b.key);
  for (const double x : {b.lo, b.hi})
    if (const auto problem = limit_problem(x, limit); !problem.empty())
      throw std::invalid_argument("--range " + b.key + "=" + format_exact(b.lo) + ":" +
                                  format_exact(b.hi) + ": " + problem);
}

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// max - min of a log's measured position [rad]: the motion the servo was asked to follow.
double position_range(const data::ServoLog& l) {
  if (l.position.empty()) return 0.0;
  const auto [lo, hi] = std::minmax_element(l.position.begin(), l.position.end());
  return *hi - *lo;
}

/// The estimates of a fitted model, by BAM key with their units, then the temperature law's
/// coefficients it fitted (`fitted`: the fit's keys); CMA-ES gives no standard error.
std::vector<identify::ParameterEstimate> servo_estimates(const sim::ServoSetup& setup,
                                                         const std::vector<std::string>& at_bound,
                                                         const std::vector<std::string>& fitted) {
  std::vector<identify::ParameterEstimate> out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string_view> keys =
      sim::servo_param_keys(setup.params.model, setup.actuator.constants.drive);
  for (const auto& k : fitted)
    if (k == "kT" || k == "kT_v") keys.push_back(k);
  for (const auto key : keys) {
    identify::ParameterEstimate e;
    e.name = e.field = std::string(key);
    e.unit = std::string(sim::servo_limits::param_limit(key).unit);
    e.value = sim::servo_param(setup.params, key);
    e.std_error = e.ci_low = e.ci_high = nan;
    e.at_limit = std::find(at_bound.begin(), at_bound.end(), e.name) != at_bound.end();
    out.push_back(std::move(e));
  }
  return out;
}

/// One model of the selection as the outcome reports it; its warnings appended to `warnings`.
ActuatorModelOutcome model_outcome(const identify::ServoModelReport& r,
                                   const sim::ServoSetup& templ,
                                   std::vector<std::string>& warnings) {
  ActuatorModelOutcome m;
  m.model = r.model;
  m.temperature = r.temperature;
  m.name = identify::servo_model_label(r.model, r.temperature);
  m.n_parameters = r.parameters;
  m.train_mae = r.train_mae;
  m.validation_mae = r.validation_mae;
  m.evaluations = r.evals;
  m.seconds = r.seconds;
  m.params = templ;
  m.params.params = r.fit.params;
  m.at_bound = r.fit.at_bound;
  m.failed = r.failed;
  m.parameters = servo_estimates(m.params, m.at_bound, r.fit.keys);
  if (!m.failed.empty()) warnings.push_back(m.name + ": not ranked: " + m.failed);
  if (!m.at_bound.empty() && m.failed.empty())
    warnings.push_back(m.name + ": at the end of its range: " + join_list(m.at_bound) +
                       " (see --range)");
  return m;
}

/// Every log re-simulated with the recommended model `m`: the thinned series, each log's role
/// in the fit, its MAE and range, and the means of the per-log MAEs by role.
void recommended_series(FitActuatorOutcome& out, const ActuatorModelOutcome& m,
                        const std::vector<data::ServoLog>& logs,
                        const identify::ServoValidation& validation, const Progress& progress) {
  double sum[2] = {0.0, 0.0};
  int count[2] = {0, 0};
  for (const auto& l : logs) {
    progress.check();
    std::vector<double> q;
    const auto error =
        identify::servo_log_error(m.params.actuator.constants, m.params.params, l, &q);
    ActuatorLogSeries series;
    series.log = base_name(l.file);
    series.kp = l.kp;
    series.trajectory = l.trajectory;
    const bool held_out =
        validation.kind == identify::ServoValidation::Kind::kp && l.kp == validation.kp;
    series.role = held_out ? "validation" : "training";
    series.mae = error.position_mae;
    series.range = position_range(l);
    sum[held_out] += series.mae;
    ++count[held_out];
    const std::size_t n = std::min({q.size(), l.position.size(), l.timestamp.size()});
    for (std::size_t k : envelope_indices(n, {&l.position, &q}, 300)) {
      series.t.push_back(l.timestamp[k]);
      series.position.push_back(l.position[k]);
      series.goal_position.push_back(k < l.goal_position.size() ? l.goal_position[k]
                                                                : std::nan(""));
      series.simulated.push_back(q[k]);
    }
    series.position = rounded(series.position);
    series.goal_position = rounded(series.goal_position);
    series.simulated = rounded(series.simulated);
    out.recommended_series.push_back(std::move(series));
  }
  if (count[0] > 0) out.train_log_mean = sum[0] / count[0];
  if (count[1] > 0) out.validation_log_mean = sum[1] / count[1];
}

/// The temperature law handed to the fits: options.temperature with the logs' temperature range,
/// or none when no law is asked for or the training logs of the delivered fits do not determine
/// it (`out` says which, with the check). FitError naming the first log without 'temp'.
std::optional<identify::ServoTemperatureFit> temperature_fit(
    const std::vector<data::ServoLog>& logs, const FitActuatorOptions& options,
    ActuatorTemperatureOutcome& out) {
  if (!options.temperature) return std::nullopt;
  identify::ServoTemperatureFit fit = *options.temperature;
  out.law = std::string(temperature_law_name(fit.law));
  out.viscous = fit.viscous;
  (void)identify::servo_reference_temperature(logs);  // every log has 'temp', or the error
  const auto& v = options.validation;
  std::vector<data::ServoLog> train;
  for (const auto& l : logs)
    if (v.kind != identify::ServoValidation::Kind::kp || l.kp != v.kp) train.push_back(l);
  out.check = identify::servo_temperature_check(train.empty() ? logs : train);
  out.undetermined = out.check.undetermined;
  if (out.undetermined) return std::nullopt;
  for (const auto& l : logs)
    for (const double T : l.temp) {
      fit.T_min = std::fmin(fit.T_min, T);
      fit.T_max = std::fmax(fit.T_max, T);
    }
  return fit;
}

}  // namespace

std::vector<ActuatorModel> parse_actuator_models(const std::string& text) {
  std::vector<ActuatorModel> out;
  auto add = [&](ActuatorModel m) {
    if (std::find(out.begin(), out.end(), m) != out.end())
      throw std::invalid_argument("--models: " + std::string(sim::actuator_model_name(m)) +
                                  " listed twice");
    out.push_back(m);
  };
  for (const auto& item : split_list(text)) {
    const auto dots = item.find("..");
    ActuatorModel a{}, b{};
    if (dots != std::string::npos) {
      if (!sim::parse_actuator_model(item.substr(0, dots), a) ||
          !sim::parse_actuator_model(item.substr(dots + 2), b) || b < a)
        throw std::invalid_argument("--models: bad range '" + item + "' (e.g. m1..m6)");
      for (int k = static_cast<int>(a); k <= static_cast<int>(b); ++k)
        add(static_cast<ActuatorModel>(k));
    } else {
      if (!sim::parse_actuator_model(item, a))
        throw std::invalid_argument("--models: unknown model '" + item + "' (m1 .. m6)");
      add(a);
    }
  }
  return out;
}

identify::ServoValidation parse_servo_validation(const std::string& text) {
  identify::ServoValidation v;
  using K = identify::ServoValidation::Kind;
  if (text == "none") {
    v.kind = K::none;
  } else if (text == "leave-kp-out") {
    v.kind = K::leave_kp;
  } else if (text.rfind("kp=", 0) == 0) {
    v.kind = K::kp;
    v.kp = parse_number(text.substr(3), "--validate kp=");
  } else if (text.rfind("kfold=", 0) == 0) {
    v.kind = K::kfold;
    const double k = parse_number(text.substr(6), "--validate kfold=");
    if (k != std::floor(k) || k < 2 || k > 1000)
      throw std::invalid_argument("--validate kfold=K: K must be an integer >= 2");
    v.folds = static_cast<int>(k);
  } else {
    throw std::invalid_argument(
        "--validate: expected kp=VALUE, leave-kp-out, kfold=K or none, got '" + text + "'");
  }
  return v;
}

std::string servo_validation_name(const identify::ServoValidation& validation) {
  using K = identify::ServoValidation::Kind;
  switch (validation.kind) {
    case K::none:
      return "none";
    case K::leave_kp:
      return "leave-kp-out";
    case K::kp:
      return "kp=" + format_exact(validation.kp);
    case K::kfold:
      return "kfold=" + std::to_string(validation.folds);
  }
  return "none";
}

identify::ServoBound parse_servo_bound(const std::string& text) {
  const auto eq = text.find('='), colon = text.find(':', eq == std::string::npos ? 0 : eq);
  if (eq == std::string::npos || colon == std::string::npos)
    throw std::invalid_argument("--range: expected KEY=LO:HI, got '" + text + "'");
  identify::ServoBound b;
  b.key = text.substr(0, eq);
  b.lo = parse_number(text.substr(eq + 1, colon - eq - 1), "--range " + b.key);
  b.hi = parse_number(text.substr(colon + 1), "--range " + b.key);
  return b;
}

data::ServoLogFilter parse_servo_log_filter(const std::string& kp, const std::string& trajectories,
                                            const std::string& files) {
  data::ServoLogFilter filter;
  if (!kp.empty())
    for (const auto& s : split_list(kp)) filter.kp.push_back(parse_number(s, "--kp"));
  if (!trajectories.empty()) filter.trajectory = split_list(trajectories);
  if (!files.empty()) filter.files = split_list(files);
  return filter;
}

PreparedServoLogs prepare_servo_logs(std::vector<data::ServoLog> logs,
                                     const ServoLogPreparation& options) {
  if (options.resample < 0) throw std::invalid_argument("--resample: must be > 0");
  PreparedServoLogs out;
  std::vector<std::string> again;  // logs already at a fixed step, resampled again
  std::set<double> again_dt;
  for (auto& log : logs) {
    if (!data::servo_log_selected(log, options.filter)) continue;
    if (options.resample > 0) {
      if (log.processed()) {
        again.push_back(log.file);
        again_dt.insert(log.dt);
      }
      log = data::resample_servo_log(log, options.resample);
    } else if (!log.processed()) {
      throw std::invalid_argument(
          log.file + ": raw log (no 'dt'): give --resample DT (e.g. 0.005) to resample it");
    }
    out.logs.push_back(std::move(log));
  }
  if (out.logs.empty()) throw std::invalid_argument("no log left after the selection");
  // One line for the run, however many logs (the first three named).
  if (again.size() == 1) {
    out.warnings.push_back(again[0] +
                           ": already at a fixed step (dt = " + format_exact(*again_dt.begin()) +
                           "), resampled again to " + format_exact(options.resample));
  } else if (!again.empty()) {
    std::string list;
    for (std::size_t k = 0; k < std::min<std::size_t>(3, again.size()); ++k)
      list += (k == 0 ? "" : ", ") + again[k];
    if (again.size() > 3) list += ", ...";
    out.warnings.push_back(
        std::to_string(again.size()) + " of " + std::to_string(out.logs.size()) +
        " logs already at a fixed step (dt = " + format_exact(*again_dt.begin()) +
        (again_dt.size() > 1 ? " .. " + format_exact(*again_dt.rbegin()) : std::string()) +
        ") resampled again to " + format_exact(options.resample) + ": " + list);
  }
  return out;
}

FitActuatorOutcome fit_actuator(const std::vector<data::ServoLog>& logs,
                                const FitActuatorOptions& options, const Progress& progress) {
  validate(options);
  progress.check();
  FitActuatorOutcome out;
  if (options.actuator.name.empty()) throw std::invalid_argument("--actuator: none given");
  out.actuator = options.actuator.name;
  out.actuator_choice = options.actuator_choice;
  // constants the description borrows (not published for this servo): fixed in every fit
  out.warnings = options.input_warnings;
  for (std::string& n : sim::unpublished_constant_notes(options.actuator))
    out.warnings.push_back(std::move(n));
  sim::ServoSetup templ;
  templ.actuator = options.actuator;
  const sim::ServoActuator& family = options.actuator;
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = options.trials;
  fo.cmaes.max_seconds = options.time_budget;
  fo.cmaes.seed = options.seed;
  fo.cmaes.sigma0 = options.sigma0;
  fo.cmaes.max_restarts = options.restarts;
  fo.cmaes.threads = parallel::resolve_threads(options.threads);
  fo.loss.velocity_weight = options.velocity_weight;
  fo.loss.current_weight =
      options.current_weight < 0 ? identify::servo_current_weight(logs) : options.current_weight;
  out.current_weight = fo.loss.current_weight;
  fo.temperature = temperature_fit(logs, options, out.temperature);
  for (const auto& b : options.ranges) {
    check_range_option(b, options.models, templ.actuator.constants.drive, options.temperature);
    fo.bounds.push_back(b);
  }
  out.threads = fo.cmaes.threads;
  out.validation = servo_validation_name(options.validation);
  out.validated = options.validation.kind != identify::ServoValidation::Kind::none;
  for (const auto& l : logs) out.logs.push_back(base_name(l.file));

  progress.say(std::to_string(logs.size()) + " logs, actuator " + out.actuator + ", " +
               std::to_string(fo.cmaes.threads) + " thread(s), " + std::to_string(options.trials) +
               " evaluations per fit");
  // identify passes every progress line on from the calling thread (also while fits run on
  // other threads) and polls the cancellation there and in every fit: it stops the fits and
  // returns nothing
  const auto sel =
      identify::fit_and_select_servo_models(options.models, family, templ.actuator.constants, logs,
                                            options.validation, fo, options.tolerance, progress);
  for (const auto& r : sel.models) out.models.push_back(model_outcome(r, templ, out.warnings));
  out.recommended = sel.recommended;
  out.recommended_temperature = sel.recommended_temperature;
  out.reason = sel.reason;
  if (const ActuatorModelOutcome* m = out.recommended_model())
    recommended_series(out, *m, logs, options.validation, progress);
  out.verdict = actuator_fit_verdict(out);
  return out;
}

EvalActuatorOutcome eval_actuator(const std::vector<data::ServoLog>& logs,
                                  const std::vector<ServoParamSet>& params,
                                  const Progress& progress) {
  if (logs.empty()) throw std::invalid_argument("eval_actuator: no log");
  if (params.empty()) throw std::invalid_argument("eval_actuator: no parameter set");
  progress.check();
  EvalActuatorOutcome out;
  for (const auto& p : params) out.params.push_back({p.label, p.file, {}, 0.0, 0.0});
  std::vector<double> sum(params.size(), 0.0), pooled(params.size(), 0.0);
  std::size_t samples = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const auto& l = logs[i];
    progress.say("log " + std::to_string(i + 1) + " of " + std::to_string(logs.size()) + ": " +
                     base_name(l.file),
                 static_cast<double>(i) / static_cast<double>(logs.size()));
    out.logs.push_back({base_name(l.file), l.kp, l.trajectory, position_range(l), 0});
    std::vector<std::vector<double>> q(params.size());
    std::vector<const std::vector<double>*> envelope{&l.position};
    for (std::size_t j = 0; j < params.size(); ++j) {
      const auto error = identify::servo_log_error(params[j].params.actuator.constants,
                                                   params[j].params.params, l, &q[j]);
      sum[j] += error.position_mae;
      pooled[j] += error.position_mae * static_cast<double>(error.samples);
      out.logs.back().samples = error.samples;
      out.params[j].mae.push_back(error.position_mae);
      envelope.push_back(&q[j]);
    }
    samples += out.logs.back().samples;
    EvalActuatorSeries series;
    series.simulated.resize(params.size());
    const std::size_t n = std::min(l.position.size(), l.timestamp.size());
    for (std::size_t k : envelope_indices(n, envelope, 300)) {
      series.t.push_back(l.timestamp[k]);
      series.position.push_back(l.position[k]);
      series.goal_position.push_back(k < l.goal_position.size() ? l.goal_position[k]
                                                                : std::nan(""));
      for (std::size_t j = 0; j < params.size(); ++j)
        series.simulated[j].push_back(k < q[j].size() ? q[j][k] : std::nan(""));
    }
    series.position = rounded(series.position);
    series.goal_position = rounded(series.goal_position);
    for (auto& q_j : series.simulated) q_j = rounded(q_j);
    out.series.push_back(std::move(series));
    progress.check();
  }
  for (std::size_t j = 0; j < params.size(); ++j) {
    out.params[j].mean = sum[j] / static_cast<double>(logs.size());
    out.params[j].pooled = pooled[j] / static_cast<double>(samples);
    // NaN and inf are never the lowest
    if (std::isfinite(out.params[j].mean) &&
        (!out.best || out.params[j].mean < out.params[*out.best].mean))
      out.best = j;
  }
  out.verdict = actuator_eval_verdict(out);
  return out;
}

namespace {

constexpr double kCloser = 2.0;  // a hypothesis must halve the MAE to be a warning

/// The check's nominal M1 parameters: the actuator's nominal (or middle) constants, a 1 A
/// current cap (a current drive's; identified by the fit), no friction.
sim::ServoParams nominal_check_params(const sim::ServoActuator& actuator) {
  sim::ServoParams p;
  p.model = ActuatorModel::M1;
  p.kt = actuator.kt.nominal_or_middle();
  p.R = actuator.R.nominal_or_middle();
  p.armature = actuator.armature.nominal_or_middle();
  p.current_limit = 1.0;
  p.friction.Kc = 0.0;
  p.friction.Kv = 0.0;
  return p;
}

/// Quick M1 fits of every log from the nominal parameters, under a hypothesis about the
/// constants (gravity reversed, kp scaled) or the offset's range.
struct QuickFits {
  const sim::ServoActuator& actuator;
  const std::vector<data::ServoLog>& logs;
  const sim::ServoParams& nominal;
  identify::ServoFitOptions options;
  const Progress& progress;

  /// q_offset searched in offset_centre +- 0.5 rad.
  identify::ServoFitResult around(const sim::ServoConstants& cc, double offset_centre,
                                  const std::string& what) const {
    progress.say("quick M1 fit: " + what);
    progress.check();
    return within(cc, {offset_centre - 0.5, offset_centre + 0.5}, offset_centre);
  }
  /// q_offset searched in `range`, started at `start_offset`.
  identify::ServoFitResult within(const sim::ServoConstants& cc, sim::ServoRange range,
                                  double start_offset) const {
    auto o = options;
    o.bounds = {{"q_offset", range.lo, range.hi}};
    auto start = nominal;
    start.q_offset = start_offset;
    return identify::fit_servo_model(actuator, cc, ActuatorModel::M1, logs, {start}, o);
  }
};

/// Gravity's sign: a warning when the fit with the zero at the top is kCloser times closer.
void check_gravity(const QuickFits& quick, const identify::ServoFitResult& base,
                   std::vector<ActuatorFinding>& findings) {
  const auto flipped = quick.around(quick.actuator.constants, std::numbers::pi,
                                    "gravity reversed (zero at the top)");
  if (flipped.loss * kCloser < base.loss)
    findings.push_back({"",
                        "gravity",
                        true,
                        "with the gravity torque reversed (the zero of 'position' at the top, "
                        "not hanging down) a quick fit is " +
                            format_number(base.loss / flipped.loss, 3) + "x closer (MAE " +
                            format_number(flipped.loss, 3) + " against " +
                            format_number(base.loss, 3) +
                            " rad): check the position's zero and direction",
                        {}});
}

/// kp's units: a warning when kp scaled by a power of 8 gives a kCloser times closer fit.
void check_kp_scale(const QuickFits& quick, const identify::ServoFitResult& base,
                    std::vector<ActuatorFinding>& findings) {
  const auto& c = quick.actuator.constants;
  double best = base.loss, factor = 1.0;
  for (const double f : {1.0 / 512, 1.0 / 64, 1.0 / 8, 8.0, 64.0, 512.0}) {
    auto cc = c;
    cc.error_gain = c.error_gain * f;
    const auto r = quick.around(cc, 0.0, "kp times " + format_number(f));
    if (r.loss < best) {
      best = r.loss;
      factor = f;
    }
  }
  if (best * kCloser < base.loss)
    findings.push_back(
        {"",
         "kp",
         true,
         "with kp times " + format_number(factor) + " a quick fit is " +
             format_number(base.loss / best, 3) + "x closer (MAE " + format_number(best, 3) +
             " against " + format_number(base.loss, 3) +
             " rad): check the units of kp and the actuator's error_gain (firmware scaling)",
         {}});
}

/// The offset, when the quick fit put it outside q_offset's default range: whether it is
/// needed (the fit within the range kCloser times worse).
void check_offset(const QuickFits& quick, const identify::ServoFitResult& base,
                  double fitted_offset, std::vector<ActuatorFinding>& findings) {
  const auto range = sim::servo_param_range(quick.actuator, "q_offset");
  if (fitted_offset >= range.lo && fitted_offset <= range.hi) return;
  quick.progress.say("quick M1 fit: q_offset in its default range");
  const auto inside =
      quick.within(quick.actuator.constants, range, std::clamp(fitted_offset, range.lo, range.hi));
  const bool needed = base.loss * kCloser < inside.loss;
  findings.push_back({"",
                      "offset",
                      needed,
                      "a quick fit puts the position offset at " + format_number(fitted_offset, 3) +
                          " rad, outside q_offset's search range [" + format_number(range.lo) +
                          ", " + format_number(range.hi) + "] (MAE " + format_number(base.loss, 3) +
                          " against " + format_number(inside.loss, 3) + " rad within it)" +
                          (needed ? ": recalibrate the zero or give --range q_offset=LO:HI"
                                  : ": within the quick fit's accuracy"),
                      {}});
}

/// A finding on one log: head + the log's number (if any) + tail; those with the same check,
/// head and tail are summarised over the logs (summarise_per_log).
struct PerLog {
  std::string log;
  const char* check;
  bool warning;
  std::string head, tail;
  std::optional<double> value;
  int digits = 6;
};

/// What the log's own keys say against the actuator and the fit (saturation, supply, gains,
/// current, max_torque), added to `per_log`.
void check_log(const sim::ServoConstants& c, const data::ServoLog& l, const std::string& name,
               const identify::ServoLogError& fitted, std::vector<PerLog>& per_log) {
  auto add = [&](const char* check, bool warning, std::string head,
                 std::optional<double> value = std::nullopt, std::string tail = {},
                 int digits = 6) {
    per_log.push_back({name, check, warning, std::move(head), std::move(tail), value, digits});
  };
  if (fitted.saturated > 0.9)
    add("saturation", true, "the firmware's output is at its limit at ", 100 * fitted.saturated,
        " % of the enabled entries: check kp, error_gain and the limits (max_pwm)", 3);
  if (l.vin && !l.input_volts.empty()) {
    double mean = 0.0;
    for (double v : l.input_volts) mean += v;
    mean /= static_cast<double>(l.input_volts.size());
    if (std::abs(mean - *l.vin) > 0.05 * *l.vin)
      add("supply", true,
          "'vin' is " + format_number(*l.vin) + " V but the logged input_volts average ", mean,
          " V: the simulation uses 'vin'", 4);
  }
  if (l.kd != 0.0 && c.law == sim::ServoLaw::p)
    add("gains", true,
        "the log has kd = " + format_number(l.kd) +
            " but the actuator's law is 'p': the "
            "derivative term is not simulated");
  if (l.ki != 0.0 && c.law != sim::ServoLaw::pid)
    add("gains", true,
        "the log has ki = " + format_number(l.ki) + " but the actuator's law has no integral term");
  if (!l.current.empty() && l.current_to_amps() == 0.0)
    add("current", true,
        "the log has a current but no \"current_unit\": it is not used (give --current-unit)");
  if (l.max_torque && *l.max_torque != 100.0)
    add("max_torque", true,
        "the log has max_torque = " + format_number(*l.max_torque) +
            " (a torque limit the recorder set, not 100): not modelled (the key's unit is not "
            "documented): the simulation limits the output at the actuator's max_pwm = " +
            format_number(c.max_pwm) +
            " only; scale control.max_pwm in an ACTUATOR.json if the "
            "limit is a share of the full output");
}

/// One finding per (check, warning, head, tail), in the order first met: the logs' values as
/// a range, and the first three logs' names when there are several of `n_logs`.
std::vector<ActuatorFinding> summarise_per_log(const std::vector<PerLog>& per_log,
                                               std::size_t n_logs) {
  std::vector<ActuatorFinding> summarised;
  std::vector<bool> done(per_log.size(), false);
  for (std::size_t i = 0; i < per_log.size(); ++i) {
    if (done[i]) continue;
    const PerLog& f = per_log[i];
    std::vector<std::string> names;
    double lo = f.value.value_or(0.0), hi = lo;
    for (std::size_t j = i; j < per_log.size(); ++j) {
      const PerLog& g = per_log[j];
      if (done[j] || std::string_view(g.check) != f.check || g.warning != f.warning ||
          g.head != f.head || g.tail != f.tail || g.value.has_value() != f.value.has_value())
        continue;
      done[j] = true;
      names.push_back(g.log);
      if (g.value) {
        lo = std::min(lo, *g.value);
        hi = std::max(hi, *g.value);
      }
    }
    std::string value;
    if (f.value)
      value =
          format_number(lo, f.digits) + (format_number(hi, f.digits) == format_number(lo, f.digits)
                                             ? std::string()
                                             : " .. " + format_number(hi, f.digits));
    if (names.size() == 1) {
      summarised.push_back({names[0], f.check, f.warning, f.head + value + f.tail, names});
      continue;
    }
    std::string list;
    for (std::size_t k = 0; k < std::min<std::size_t>(3, names.size()); ++k)
      list += (k == 0 ? "" : ", ") + names[k];
    if (names.size() > 3) list += ", ...";
    summarised.push_back({"", f.check, f.warning,
                          "in " + std::to_string(names.size()) + " of " + std::to_string(n_logs) +
                              " logs (" + list + "): " + f.head + value + f.tail,
                          names});
  }
  return summarised;
}

/// The notes on what the logs cannot tell: unpublished constants, and (when no log saturates)
/// the limits the fit cannot check.
void add_notes(const sim::ServoActuator& actuator, bool any_saturated,
               std::vector<ActuatorFinding>& findings) {
  for (auto& n : sim::unpublished_constant_notes(actuator))
    findings.push_back({"", "unpublished", false, std::move(n), {}});
  if (!any_saturated)
    findings.push_back(
        {"",
         "saturation",
         false,
         actuator.constants.drive == sim::ServoDrive::voltage
             ? "the output reaches its limit in no log: max_pwm and the current window do not "
               "act (the fit cannot check them)"
             : "the output reaches its limit in no log: current_limit is not identified",
         {}});
}

}  // namespace

ActuatorCheckOutcome check_actuator(const sim::ServoActuator& actuator,
                                    const std::vector<data::ServoLog>& logs,
                                    const ActuatorCheckOptions& options, const Progress& progress) {
  validate(options);
  if (logs.empty()) throw std::invalid_argument("actuator check: no log");
  if (options.evaluations <= 0)
    throw std::invalid_argument("actuator check: evaluations must be > 0");
  progress.check();
  ActuatorCheckOutcome out;
  out.actuator = actuator.name;
  const auto& c = actuator.constants;
  out.nominal = nominal_check_params(actuator);
  const sim::ServoParams& p = out.nominal;
  out.nominal_mae = identify::servo_loss(c, p, logs, {});

  // quick M1 fits: as described, gravity reversed, kp scaled
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = options.evaluations;
  fo.cmaes.seed = options.seed;
  fo.cmaes.threads = parallel::resolve_threads(options.threads);
  const QuickFits quick{actuator, logs, p, fo, progress};
  const auto base = quick.around(c, 0.0, "as described");
  out.fitted = base.params;
  out.fitted_mae = base.loss;
  check_gravity(quick, base, out.findings);
  check_kp_scale(quick, base, out.findings);
  check_offset(quick, base, out.fitted.q_offset, out.findings);

  bool any_saturated = false;
  std::vector<PerLog> per_log;
  for (const auto& l : logs) {
    const std::string name = base_name(l.file);
    const auto nominal = identify::servo_log_error(c, p, l);
    const auto fitted = identify::servo_log_error(c, out.fitted, l);
    out.logs.push_back({name, l.kp, nominal.position_mae, fitted.position_mae, fitted.saturated});
    any_saturated = any_saturated || fitted.saturated > 0;
    check_log(c, l, name, fitted, per_log);
  }
  add_notes(actuator, any_saturated, out.findings);
  for (auto& f : summarise_per_log(per_log, logs.size())) out.findings.push_back(std::move(f));
  for (const auto& f : out.findings) out.warnings += f.warning ? 1 : 0;
  return out;
}

}  // namespace frictionlab::workflows
