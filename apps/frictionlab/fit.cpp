// frictionlab fit: identify friction parameters from a measured record
// (docs/cli.md, "fit"). The records are read by io (records.hpp, shared with
// `compare`); preparation, fit, validation and the plots' series are
// workflows::fit; the outputs are io/fit_plots. This file wires them to the
// command line and prints the summary.
#include "frictionlab/workflows/fit.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/io/fit_plots.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

void run_fit(const FitOptions& o) {
  io::check_output_directory(o.out);
  check_report_output(o.report, input_paths(o));
  check_result_files(io::fit_output_paths(o.out, !o.no_plots), o.report, input_paths(o));
  const workflows::FitOptions wo = workflow_options(o);
  const Inputs in = read_inputs(o);
  const workflows::FitOutcome f = workflows::fit(in.training, in.validation, wo, stderr_progress());
  print_warnings(f.warnings);
  const std::vector<std::string> files =
      io::write_fit_outputs(o.out, f, !o.no_plots, input_paths(o), o.report, report_options());

  const identify::FitResult& r = f.result;
  if (!r.termination.empty()) print_detail("solver: " + r.termination);
  if (quiet()) return print_files(files);
  std::printf(
      "frictionlab fit: %s, %s, method %s, %ld samples (%.3g s at %.4g "
      "Hz), %.2f s\n",
      r.model_name.c_str(),
      r.problem == identify::ProblemKind::sensorless ? "sensorless torque" : "friction",
      identify::method_name(r.method).c_str(), r.data.n, r.data.duration, r.data.rate_hz,
      r.run_time_s);
  const auto& rel = r.reliability;
  std::printf("\n  %-16s %14s %12s %28s %12s  %s\n", "parameter", "value",
              rel.standard_errors ? "std. error" : "std. error*", "95 % interval", "HAC std. err",
              "unit");
  for (const auto& e : r.parameters) {
    std::string ci = "(fixed)";
    if (!e.fixed)
      ci = std::string("[").append(fmt(e.ci_low)).append(", ").append(fmt(e.ci_high)).append("]");
    // reference 000's names (Kw, Vth, S0, S1) with the field export json and MODEL.json use
    const std::string name =
        e.field.empty() || e.field == e.name ? e.name : e.name + " (" + e.field + ")";
    std::printf("  %-16s %14s %12s %28s %12s  %s%s%s\n", name.c_str(), fmt(e.value).c_str(),
                e.fixed ? "" : fmt(e.std_error).c_str(), ci.c_str(),
                e.fixed ? "" : fmt(e.hac_std_error).c_str(), e.unit.c_str(),
                e.at_bound ? "  (at bound)" : "", e.at_limit ? "  (at search limit)" : "");
    if (e.undetermined) std::printf("    (%s is not determined by the record)\n", e.name.c_str());
  }
  if (!rel.standard_errors) {
    std::printf("\n  * standard errors UNRELIABLE:\n");
    for (const auto& why : rel.reasons) std::printf("    - %s\n", why.c_str());
  }
  if (rel.whiteness.lags > 0)
    std::printf(
        "\n  residuals: lag-1 autocorrelation %s, Ljung-Box p = %s (%d lags); HAC bandwidth %d "
        "samples\n",
        fmt(rel.whiteness.acf1).c_str(), fmt(rel.whiteness.ljung_box_p).c_str(), rel.whiteness.lags,
        rel.hac_lags);
  if (!r.nested_model.empty())
    std::printf("  also started from the optimum of the nested model %s\n", r.nested_model.c_str());
  std::printf("\n  %-28s %12s %10s %10s\n", "record", "RMSE", "NRMSE", "R^2");
  std::printf("  %-28s %12s %10s %10s\n", "training", fmt(r.training.rmse).c_str(),
              fmt(r.training.nrmse).c_str(), fmt(r.training.r2).c_str());
  for (const auto& v : f.validation)
    std::printf(
        "  %-28s %12s %10s %10s\n", std::filesystem::path(v.name).filename().string().c_str(),
        fmt(v.metrics.rmse).c_str(), fmt(v.metrics.nrmse).c_str(), fmt(v.metrics.r2).c_str());
  std::printf("\n  condition number %s, AICc %s, BIC %s%s\n", fmt(r.condition_number).c_str(),
              fmt(r.aicc).c_str(), fmt(r.bic).c_str(),
              r.passive ? (*r.passive ? ", passive" : ", NOT passive") : "");
  std::printf("\n");
  print_verdict(f.verdict);
  print_files(files);
}

}  // namespace

void register_fit(CLI::App& app, Registry& registry) {
  auto [cmd, o] = add_command<FitOptions>(
      app, registry, "fit",
      "Identify friction parameters from a measured record (CSV or .mat): writes fit.json "
      "(parameters, standard errors, 95 % intervals, correlation, metrics), model.json and "
      "plots into --out.",
      run_fit);
  add_record_options(cmd, o, true);
}

}  // namespace frictionlab::cli
