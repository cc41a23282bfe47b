// frictionlab: fit-actuator's and eval-actuator's JSON files (see io/actuator_json.hpp).
#include "frictionlab/io/actuator_json.hpp"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo_params.hpp"

namespace frictionlab::io {

std::string fit_actuator_summary_json(const workflows::FitActuatorOutcome& outcome) {
  nlohmann::ordered_json summary;
  summary["actuator"] = outcome.actuator;
  summary["validation"] = outcome.validation;
  summary["logs"] = nlohmann::json::array();
  for (const auto& l : outcome.logs) summary["logs"].push_back(l);
  summary["models"] = nlohmann::json::array();
  for (const auto& r : outcome.models) {
    nlohmann::ordered_json row;
    row["model"] = r.name;
    row["parameters"] = r.parameters;
    row["train_mae"] = r.train_mae;
    if (outcome.validated) row["validation_mae"] = r.validation_mae;
    row["evaluations"] = r.evaluations;
    row["seconds"] = r.seconds;
    row["params_file"] = r.name + ".json";
    row["at_bound"] = r.at_bound;
    summary["models"].push_back(row);
  }
  summary["recommended"] = std::string(sim::actuator_model_name(outcome.recommended));
  summary["reason"] = outcome.reason;
  summary["warnings"] = outcome.warnings;
  // What the report draws (`frictionlab report summary.json`, docs/report.md): the recommended
  // model's parameter file and every log re-simulated with it, thinned.
  nlohmann::ordered_json rep;
  for (const auto& r : outcome.models)
    if (r.model == outcome.recommended) rep["params"] = nlohmann::ordered_json::parse(servo_params_json(r.params));
  rep["logs"] = nlohmann::ordered_json::array();
  for (const auto& l : outcome.recommended_series) {
    rep["logs"].push_back({{"log", l.log}, {"kp", l.kp}, {"trajectory", l.trajectory}, {"t", finite_or_null(l.t)},
                           {"position", finite_or_null(l.position)}, {"goal_position", finite_or_null(l.goal_position)},
                           {"simulated", finite_or_null(l.simulated)}});
  }
  summary["report"] = std::move(rep);
  return summary.dump(2) + "\n";
}

void write_fit_actuator(const std::string& dir, const workflows::FitActuatorOutcome& outcome,
                        const std::vector<NamedPath>& inputs, const std::string& report,
                        const ReportOptions& report_options) {
  OutputFiles files;
  files.protect(inputs);
  for (const auto& r : outcome.models)
    files.write((std::filesystem::path(dir) / (r.name + ".json")).string(),
                servo_params_json(r.params));
  const std::string summary_path = (std::filesystem::path(dir) / "summary.json").string();
  const std::string summary = fit_actuator_summary_json(outcome);
  files.write(summary_path, summary);
  if (!report.empty())
    files.write(report, report_html({{summary_path, nlohmann::ordered_json::parse(summary)}}, report_options));
  files.commit();
}

std::string eval_actuator_json(const workflows::EvalActuatorOutcome& outcome) {
  nlohmann::ordered_json out;
  for (const auto& p : outcome.params) {
    out[p.label]["file"] = p.file;
    out[p.label]["per_log"] = nlohmann::ordered_json::object();
  }
  for (std::size_t i = 0; i < outcome.logs.size(); ++i)
    for (const auto& p : outcome.params) out[p.label]["per_log"][outcome.logs[i].name] = p.mae[i];
  for (const auto& p : outcome.params) out[p.label]["mean"] = p.mean;
  return out.dump(2) + "\n";
}

}  // namespace frictionlab::io
