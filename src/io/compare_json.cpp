#include "frictionlab/io/compare_json.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/verdict_json.hpp"

namespace frictionlab::io {

std::string compare_model_directory(const std::string& model) {
  std::string d = model;
  std::replace(d.begin(), d.end(), ':', '_');
  return d;
}

nlohmann::ordered_json compare_to_json(const workflows::CompareOutcome& c,
                                       const std::vector<std::string>& model_json_paths) {
  if (model_json_paths.size() != c.rows.size())
    throw std::invalid_argument("compare_to_json: " + std::to_string(model_json_paths.size()) +
                                " model.json paths for " + std::to_string(c.rows.size()) +
                                " models");
  nlohmann::ordered_json j;
  j["format"] = "frictionlab-compare";
  j["version"] = 1;
  j["input"] = c.input;
  j["validation"] = c.validation_names;
  j["problem"] = problem_name(c.problem);
  j["method"] = "lsq";
  j["criterion"] = workflows::criterion_key(c.criterion);
  j["ranked_by"] = c.ranked_by_validation ? "validation_rmse" : "training_rmse";
  j["best"] = c.has_best ? nlohmann::ordered_json(c.rows.front().model)
                         : nlohmann::ordered_json(nullptr);  // no model has a finite error
  j["best_by_criterion"] =
      c.best_by_criterion >= 0
          ? nlohmann::ordered_json(c.rows[static_cast<std::size_t>(c.best_by_criterion)].model)
          : nlohmann::ordered_json(nullptr);
  j["criterion_agrees"] = c.criterion_agrees;
  j["warnings"] = c.warnings;  // every warning of the run: record checks, then each model's
  j["verdict"] = verdict_to_json(c.verdict);
  auto& rows = j["rows"] = nlohmann::ordered_json::array();
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    const workflows::CompareRow& r = c.rows[k];
    nlohmann::ordered_json jr;
    jr["rank"] = k + 1;
    jr["model"] = r.model;
    jr["p"] = r.fit.num_estimated;
    jr["training_rmse"] = finite_or_null(r.fit.training.rmse);
    jr["validation_rmse"] = finite_or_null(r.validation_rmse);
    jr["aicc"] = finite_or_null(r.fit.aicc);
    jr["bic"] = finite_or_null(r.fit.bic);
    jr["delta"] = finite_or_null(r.delta);
    jr["model_json"] = model_json_paths[k];
    // the model's fit.json with its report data (`frictionlab report compare.json`)
    jr["fit"] = c.training.t.empty() ? fit_to_json(r.fit, c.input, r.validation)
                                     : fit_outcome_to_json(workflows::fit_outcome(
                                           c.input, r.fit, c.training, r.validation, {}));
    rows.push_back(std::move(jr));
  }
  return j;
}

std::string compare_json_path(const std::string& dir) {
  return (std::filesystem::path(dir) / "compare.json").string();
}

std::vector<std::string> compare_output_paths(const std::string& dir,
                                              const std::vector<std::string>& models) {
  std::vector<std::string> paths{compare_json_path(dir)};
  for (const auto& m : models)
    paths.push_back(
        (std::filesystem::path(dir) / compare_model_directory(m) / "model.json").string());
  return paths;
}

std::vector<std::string> write_compare_outputs(const std::string& dir,
                                               const workflows::CompareOutcome& c,
                                               const std::vector<NamedPath>& inputs,
                                               const std::string& report,
                                               const ReportOptions& report_options) {
  const std::filesystem::path d(dir);
  OutputFiles files;
  files.protect(inputs);
  const std::string compare_path = compare_json_path(dir);
  std::vector<std::string> model_paths;
  for (const auto& r : c.rows)
    model_paths.push_back((d / compare_model_directory(r.model) / "model.json").string());
  const nlohmann::ordered_json cj = compare_to_json(c, model_paths);
  files.write(compare_path, cj.dump(2) + "\n");
  for (std::size_t k = 0; k < c.rows.size(); ++k)
    files.write(model_paths[k], to_json_text(c.rows[k].fit.params));
  if (!report.empty()) files.write(report, report_html({{compare_path, cj}}, report_options));
  files.commit();
  return files.paths();
}

}  // namespace frictionlab::io
