// frictionlab: fit-actuator's and eval-actuator's JSON files (see io/actuator_json.hpp).
#include "frictionlab/io/actuator_json.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/io/verdict_json.hpp"
#include "frictionlab/sim/servo_params.hpp"

namespace frictionlab::io {
namespace {

/// summary.json's "temperature": the law asked for and the check of the training logs.
nlohmann::ordered_json temperature_json(const workflows::ActuatorTemperatureOutcome& t) {
  const auto& c = t.check;
  nlohmann::ordered_json j;
  j["law"] = t.law;
  j["viscous"] = t.viscous;
  j["T_ref"] = c.T_ref;
  j["T_min"] = c.T_min;
  j["T_max"] = c.T_max;
  j["spread"] = c.spread;
  j["kp_correlation"] = finite_or_null(c.kp_correlation);
  j["within_kp_spread"] = c.within_kp_spread;
  j["undetermined"] = t.undetermined;
  j["confounded"] = c.confounded;
  return j;
}

}  // namespace

std::string fit_actuator_summary_json(const workflows::FitActuatorOutcome& outcome) {
  nlohmann::ordered_json summary;
  summary["actuator"] = outcome.actuator;
  if (!outcome.actuator_choice.empty()) summary["actuator_choice"] = outcome.actuator_choice;
  summary["verdict"] = verdict_to_json(outcome.verdict);
  summary["validation"] = outcome.validation;
  if (outcome.current_weight > 0) summary["current_weight"] = outcome.current_weight;
  summary["logs"] = nlohmann::json::array();
  for (const auto& l : outcome.logs) summary["logs"].push_back(l);
  summary["models"] = nlohmann::json::array();
  for (const auto& r : outcome.models) {
    nlohmann::ordered_json row;
    row["model"] = r.name;
    row["n_parameters"] = r.n_parameters;
    nlohmann::ordered_json estimates = nlohmann::ordered_json::array();
    for (const auto& e : r.parameters)
      estimates.push_back({{"name", e.name},
                           {"unit", e.unit},
                           {"value", finite_or_null(e.value)},
                           {"at_limit", e.at_limit}});
    row["parameters"] = std::move(estimates);
    row["train_mae"] = r.train_mae;
    if (outcome.validated) row["validation_mae"] = r.validation_mae;
    row["evaluations"] = r.evaluations;
    row["seconds"] = r.seconds;
    row["params_file"] =
        r.failed.empty() ? nlohmann::ordered_json(r.name + ".json") : nlohmann::ordered_json();
    row["at_bound"] = r.at_bound;
    if (!r.failed.empty()) row["failed"] = r.failed;
    summary["models"].push_back(row);
  }
  const workflows::ActuatorModelOutcome* rec = outcome.recommended_model();
  summary["recommended"] = rec ? nlohmann::ordered_json(rec->name) : nlohmann::ordered_json();
  summary["reason"] = outcome.reason;
  if (!outcome.temperature.law.empty())
    summary["temperature"] = temperature_json(outcome.temperature);
  summary["train_log_mean"] = finite_or_null(outcome.train_log_mean);
  summary["validation_log_mean"] = finite_or_null(outcome.validation_log_mean);
  summary["warnings"] = outcome.warnings;
  // What the report draws (`frictionlab report summary.json`, docs/report.md): the recommended
  // model's parameter file and every log re-simulated with it, thinned.
  nlohmann::ordered_json rep;
  if (rec) rep["params"] = nlohmann::ordered_json::parse(servo_params_json(rec->params));
  rep["logs"] = nlohmann::ordered_json::array();
  for (const auto& l : outcome.recommended_series) {
    rep["logs"].push_back({{"log", l.log},
                           {"kp", l.kp},
                           {"trajectory", l.trajectory},
                           {"role", l.role},
                           {"mae", finite_or_null(l.mae)},
                           {"range", l.range},
                           {"t", finite_or_null(l.t)},
                           {"position", finite_or_null(l.position)},
                           {"goal_position", finite_or_null(l.goal_position)},
                           {"simulated", finite_or_null(l.simulated)}});
  }
  summary["report"] = std::move(rep);
  return summary.dump(2) + "\n";
}

std::vector<std::string> fit_actuator_output_paths(const std::string& dir,
                                                   const std::vector<ActuatorModel>& models,
                                                   bool temperature) {
  std::vector<std::string> out;
  for (const auto m : models)
    for (const bool t : {false, true})
      if (!t || temperature)
        out.push_back(
            (std::filesystem::path(dir) / (identify::servo_model_label(m, t) + ".json")).string());
  out.push_back((std::filesystem::path(dir) / "summary.json").string());
  return out;
}

void write_fit_actuator(const std::string& dir, const workflows::FitActuatorOutcome& outcome,
                        const std::vector<NamedPath>& inputs, const std::string& report,
                        const ReportOptions& report_options) {
  OutputFiles files;
  files.protect(inputs);
  for (const auto& r : outcome.models)  // a failed fit has no parameter file
    if (r.failed.empty())
      files.write((std::filesystem::path(dir) / (r.name + ".json")).string(),
                  servo_params_json(r.params));
  const std::string summary_path = (std::filesystem::path(dir) / "summary.json").string();
  const std::string summary = fit_actuator_summary_json(outcome);
  files.write(summary_path, summary);
  if (!report.empty())
    files.write(report, report_html({{summary_path, nlohmann::ordered_json::parse(summary)}},
                                    report_options));
  files.commit();
}

std::vector<workflows::ServoParamSet> read_servo_param_sets(const std::vector<std::string>& paths) {
  const std::vector<std::string> files = servo_param_paths(paths);
  std::vector<std::string> labels;
  labels.reserve(files.size());
  for (const auto& f : files) labels.push_back(std::filesystem::path(f).stem().string());
  const auto count = [](const std::vector<std::string>& v, const std::string& x) {
    return std::count(v.begin(), v.end(), x);
  };
  std::vector<std::string> longer = labels;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (count(labels, labels[i]) > 1) {
      const std::filesystem::path p(files[i]);
      const std::string dir = p.parent_path().filename().string();
      longer[i] = (dir.empty() ? std::string(".") : dir) + "/" + labels[i];
    }
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (same_file(files[i], files[k]))
        throw InputError(files[i], 0, 0, "parameter file given twice (also as " + files[k] + ")");
  const std::vector<std::string> dir_labels = longer;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (count(dir_labels, dir_labels[i]) > 1) longer[i] = files[i];
  std::vector<workflows::ServoParamSet> sets;
  sets.reserve(files.size());
  for (std::size_t i = 0; i < files.size(); ++i)
    sets.push_back({longer[i], files[i], read_servo_params(files[i])});
  return sets;
}

std::string eval_actuator_json(const workflows::EvalActuatorOutcome& outcome) {
  nlohmann::ordered_json out;
  out["format"] = "frictionlab-actuator-eval";
  out["version"] = 1;
  out["logs"] = nlohmann::ordered_json::array();
  for (const auto& l : outcome.logs)
    out["logs"].push_back({{"log", l.name},
                           {"kp", l.kp},
                           {"trajectory", l.trajectory},
                           {"range", l.range},
                           {"samples", l.samples}});
  out["params"] = nlohmann::ordered_json::array();
  for (const auto& p : outcome.params)
    out["params"].push_back({{"label", p.label},
                             {"file", p.file},
                             {"mae", finite_or_null(p.mae)},
                             {"mean", finite_or_null(p.mean)},
                             {"pooled", finite_or_null(p.pooled)}});
  if (!outcome.params.empty())
    out["best"] = outcome.best ? nlohmann::ordered_json(outcome.params[*outcome.best].label)
                               : nlohmann::ordered_json();
  out["verdict"] = verdict_to_json(outcome.verdict);
  nlohmann::ordered_json rep;
  rep["logs"] = nlohmann::ordered_json::array();
  for (const auto& s : outcome.series) {
    nlohmann::ordered_json sim = nlohmann::ordered_json::array();
    for (const auto& q : s.simulated) sim.push_back(finite_or_null(q));
    rep["logs"].push_back({{"t", finite_or_null(s.t)},
                           {"position", finite_or_null(s.position)},
                           {"goal_position", finite_or_null(s.goal_position)},
                           {"simulated", std::move(sim)}});
  }
  out["report"] = std::move(rep);
  return out.dump(2) + "\n";
}

void write_eval_actuator(const std::string& json, const workflows::EvalActuatorOutcome& outcome,
                         const std::vector<NamedPath>& inputs, const std::string& report,
                         const ReportOptions& report_options) {
  if (json.empty() && report.empty()) return;
  const std::string text = eval_actuator_json(outcome);
  const bool to_stdout = json == kStdout;
  OutputFiles files(false);
  files.protect(inputs);
  if (!json.empty() && !to_stdout) files.write(json, text);
  if (!report.empty())
    files.write(report,
                report_html({{json.empty() || to_stdout ? std::string("eval-actuator") : json,
                              nlohmann::ordered_json::parse(text)}},
                            report_options));
  files.commit();
  if (to_stdout) write_text_output(json, text);
}

}  // namespace frictionlab::io
