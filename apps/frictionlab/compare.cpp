// frictionlab compare: fit several models to one record by lsq and rank them on
// validation error and an information criterion (docs/cli.md, "compare"). The
// records are read as by `fit` (records.hpp); the fits and the ranking are
// workflows::compare, the outputs io/compare_json; this file prints the table
// and the recommendation with its verdict.
#include "frictionlab/workflows/compare.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/io/compare_json.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

void run_compare(const CompareOptions& o) {
  io::check_output_directory(o.fit.out);
  check_report_output(o.fit.report, input_paths(o.fit));
  workflows::CompareOptions wo;
  try {
    wo.criterion = workflows::parse_criterion(o.criterion);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--") + e.what());
  }
  try {
    wo.models = workflows::parse_model_list(o.models);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--models: ") + e.what());
  }
  std::vector<std::string> names;
  for (const auto& m : wo.models) names.push_back(identify::model_name(m));
  check_result_files(io::compare_output_paths(o.fit.out, names), o.fit.report, input_paths(o.fit));
  FitOptions base = o.fit;
  base.method = "lsq";
  const workflows::FitOptions fit_options = workflow_options(base);
  wo.fit = fit_options.fit;
  wo.preprocess = fit_options.preprocess;
  const Inputs in = read_inputs(base);
  const workflows::CompareOutcome c =
      workflows::compare(in.training, in.validation, wo, stderr_progress());
  print_warnings(c.warnings);
  // Outputs: nothing is written before every fit succeeded.
  const std::vector<std::string> files =
      io::write_compare_outputs(base.out, c, input_paths(base), base.report, report_options());

  for (const auto& row : c.rows)
    if (!row.fit.termination.empty()) print_detail(row.model + ": solver: " + row.fit.termination);
  if (quiet()) return print_files(files);
  const workflows::CompareRow& best = c.rows.front();
  const std::string crit = workflows::criterion_label(c.criterion);
  std::printf(
      "frictionlab compare: %zu models, %s, method lsq, %ld samples "
      "(%.3g s at %.4g Hz)",
      c.rows.size(),
      c.problem == identify::ProblemKind::sensorless ? "sensorless torque" : "friction",
      best.fit.data.n, best.fit.data.duration, best.fit.data.rate_hz);
  if (!c.ranked_by_validation)
    std::printf(", no validation record: ranked by training RMSE\n");
  else
    std::printf(", ranked by validation RMSE (mean over %zu record%s)\n", c.validation_names.size(),
                c.validation_names.size() == 1 ? "" : "s");
  const std::string dhead = "delta " + crit;
  std::printf("\n  %4s  %-20s %3s %14s %14s %12s %12s %12s\n", "rank", "model", "p", "train RMSE",
              "valid. RMSE", "AICc", "BIC", dhead.c_str());
  for (std::size_t k = 0; k < c.rows.size(); ++k) {
    const workflows::CompareRow& r = c.rows[k];
    std::printf("  %4zu  %-20s %3d %14s %14s %12s %12s %12s\n", k + 1, r.model.c_str(),
                r.fit.num_estimated, fmt(r.fit.training.rmse).c_str(),
                fmt(r.validation_rmse).c_str(), fmt(r.fit.aicc).c_str(), fmt(r.fit.bic).c_str(),
                fmt(r.delta).c_str());
  }
  const std::string judgement =
      c.criterion_agrees ? std::string("agrees")
      : c.best_by_criterion >= 0
          ? "prefers " + c.rows[static_cast<std::size_t>(c.best_by_criterion)].model + " (" +
                best.model + ": delta " + fmt(best.delta) + ")"
          : std::string("is not available");
  if (c.has_best)
    std::printf("\nRecommended: %s, best by %s RMSE (%s); %s %s.\n", best.model.c_str(),
                c.ranked_by_validation ? "validation" : "training", fmt(best.score).c_str(),
                crit.c_str(), judgement.c_str());
  else
    std::printf("\nRecommended: none: no model has a finite %s RMSE.\n",
                c.ranked_by_validation ? "validation" : "training");
  std::printf("\n");
  print_verdict(c.verdict);
  print_files(files);
}

}  // namespace

void register_compare(CLI::App& app, Registry& registry) {
  auto [cmd, o] = add_command<CompareOptions>(
      app, registry, "compare",
      "Fit several models to one record (lsq) and rank them by validation RMSE (training RMSE "
      "without --validate), with AICc/BIC: prints a table and a verdict, writes compare.json "
      "and <model>/model.json into --out.",
      run_compare);
  add_record_options(cmd, o.fit, false);
  cmd->add_option("--models", o.models, "Comma-separated models to fit (names as fit --model)")
      ->capture_default_str();
  cmd->add_option("--criterion", o.criterion, "Information criterion: aicc or bic")
      ->check(CLI::IsMember({"aicc", "bic"}))
      ->capture_default_str();
}

}  // namespace frictionlab::cli
