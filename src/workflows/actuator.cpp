// frictionlab workflows: fit_actuator, eval_actuator and the parsing of their option texts
// (include/frictionlab/workflows/actuator.hpp).
#include "frictionlab/workflows/actuator.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "frictionlab/format.hpp"
#include "frictionlab/sim/servo_actuators.hpp"
#include "frictionlab/sim/servo_params.hpp"
#include "frictionlab/workflows/report.hpp"

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

double parse_number(const std::string& s, const std::string& what) {
  const std::optional<double> x = frictionlab::parse_number(s);
  if (!x) throw std::invalid_argument(what + ": expected a number, got '" + s + "'");
  return *x;
}

std::string base_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
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
    case K::none: return "none";
    case K::leave_kp: return "leave-kp-out";
    case K::kp: return "kp=" + format_exact(validation.kp);
    case K::kfold: return "kfold=" + std::to_string(validation.folds);
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
  for (auto& log : logs) {
    if (!data::servo_log_selected(log, options.filter)) continue;
    if (options.resample > 0) {
      if (log.processed())
        out.warnings.push_back(log.file + ": already at a fixed step (dt = " +
                               format_exact(log.dt) + "), resampled again to " +
                               format_exact(options.resample));
      log = data::resample_servo_log(log, options.resample);
    } else if (!log.processed()) {
      throw std::invalid_argument(
          log.file + ": raw log (no 'dt'): give --resample DT (e.g. 0.005) to resample it");
    }
    out.logs.push_back(std::move(log));
  }
  if (out.logs.empty()) throw std::invalid_argument("no log left after the selection");
  return out;
}

FitActuatorOutcome fit_actuator(const std::vector<data::ServoLog>& logs,
                                const FitActuatorOptions& options, const Progress& progress) {
  progress.check();
  FitActuatorOutcome out;
  if (options.actuator.name.empty()) throw std::invalid_argument("--actuator: none given");
  out.actuator = options.actuator.name;
  sim::ServoSetup templ;
  templ.actuator = options.actuator;
  const sim::ServoActuator& family = options.actuator;
  identify::ServoFitOptions fo;
  fo.cmaes.max_evals = options.trials;
  fo.cmaes.max_seconds = options.time_budget;
  fo.cmaes.seed = options.seed;
  fo.cmaes.sigma0 = options.sigma0;
  fo.cmaes.max_restarts = options.restarts;
  fo.cmaes.threads = options.threads > 0
                         ? options.threads
                         : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  fo.loss.velocity_weight = options.velocity_weight;
  fo.loss.current_weight =
      options.current_weight < 0 ? identify::servo_current_weight(logs) : options.current_weight;
  out.current_weight = fo.loss.current_weight;
  for (const auto& b : options.ranges) {
    bool known = false;
    for (auto m : options.models)
      for (auto k : sim::servo_param_keys(m, templ.actuator.constants.drive)) known = known || k == b.key;
    if (!known)
      throw std::invalid_argument("--range: '" + b.key +
                                  "' is not a parameter of the models fitted");
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
  // other threads): a cancellation thrown there stops the fits and returns nothing
  const auto sel = identify::fit_and_select_servo_models(
      options.models, family, templ.actuator.constants, logs, options.validation, fo, options.tolerance,
      [&progress](const std::string& line) {
        progress.say(line);
        progress.check();
      });
  for (const auto& r : sel.models) {
    ActuatorModelOutcome m;
    m.model = r.model;
    m.name = std::string(sim::actuator_model_name(r.model));
    m.parameters = r.parameters;
    m.train_mae = r.train_mae;
    m.validation_mae = out.validated ? r.validation_mae : -1.0;
    m.evaluations = r.evals;
    m.seconds = r.seconds;
    m.params = templ;
    m.params.params = r.fit.params;
    m.at_bound = r.fit.at_bound;
    if (!m.at_bound.empty())
      out.warnings.push_back(m.name + ": at the end of its range: " + join_list(m.at_bound) +
                             " (see --range)");
    out.models.push_back(std::move(m));
  }
  out.recommended = sel.recommended;
  out.reason = sel.reason;
  for (const auto& m : out.models) {
    if (m.model != out.recommended) continue;
    for (const auto& l : logs) {
      progress.check();
      std::vector<double> q, qd;
      identify::servo_simulate_log(m.params.actuator.constants, m.params.params, l, q, qd);
      ActuatorLogSeries series;
      series.log = base_name(l.file);
      series.kp = l.kp;
      series.trajectory = l.trajectory;
      const std::size_t n = std::min({q.size(), l.position.size(), l.timestamp.size()});
      for (std::size_t k : envelope_indices(n, {&l.position, &q}, 300)) {
        series.t.push_back(l.timestamp[k]);
        series.position.push_back(l.position[k]);
        series.goal_position.push_back(k < l.goal_position.size() ? l.goal_position[k] : std::nan(""));
        series.simulated.push_back(q[k]);
      }
      series.position = rounded(series.position);
      series.goal_position = rounded(series.goal_position);
      series.simulated = rounded(series.simulated);
      out.recommended_series.push_back(std::move(series));
    }
  }
  return out;
}

EvalActuatorOutcome eval_actuator(const std::vector<data::ServoLog>& logs,
                                  const std::vector<ServoParamSet>& params,
                                  const Progress& progress) {
  if (logs.empty()) throw std::invalid_argument("eval_actuator: no log");
  if (params.empty()) throw std::invalid_argument("eval_actuator: no parameter set");
  progress.check();
  EvalActuatorOutcome out;
  for (const auto& p : params) out.params.push_back({p.label, p.file, {}, 0.0});
  std::vector<double> sum(params.size(), 0.0);
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const auto& l = logs[i];
    progress.say("log " + std::to_string(i + 1) + " of " + std::to_string(logs.size()) + ": " +
                     base_name(l.file),
                 static_cast<double>(i) / static_cast<double>(logs.size()));
    out.logs.push_back({base_name(l.file), l.kp, l.trajectory});
    std::vector<std::vector<double>> q(params.size());
    std::vector<const std::vector<double>*> envelope{&l.position};
    for (std::size_t j = 0; j < params.size(); ++j) {
      const double mae =
          identify::servo_log_error(params[j].params.actuator.constants, params[j].params.params, l, &q[j])
              .position_mae;
      sum[j] += mae;
      out.params[j].mae.push_back(mae);
      envelope.push_back(&q[j]);
    }
    EvalActuatorSeries series;
    series.simulated.resize(params.size());
    const std::size_t n = std::min(l.position.size(), l.timestamp.size());
    for (std::size_t k : envelope_indices(n, envelope, 300)) {
      series.t.push_back(l.timestamp[k]);
      series.position.push_back(l.position[k]);
      series.goal_position.push_back(k < l.goal_position.size() ? l.goal_position[k] : std::nan(""));
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
    if (out.params[j].mean < out.params[out.best].mean) out.best = j;
  }
  return out;
}

}  // namespace frictionlab::workflows
