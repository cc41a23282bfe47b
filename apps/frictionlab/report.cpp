// frictionlab report: the identification report of saved results (docs/report.md). Reading the
// results and building the page are io/report_html; this file wires them to the command line.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"

namespace frictionlab::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> results;
  std::string output;
  std::string title;
};

void run_report(const ReportOptions& o) {
  io::check_output_file(o.output, "--output");
  std::vector<io::ReportSource> sources;
  for (const auto& path : o.results) sources.push_back(io::read_report_source(path));
  io::ReportOptions ro = report_options();
  if (!o.title.empty()) ro.title = o.title;
  io::write_report(o.output, sources, ro);
  if (o.output == io::kStdout) return;
  if (quiet())
    std::printf("%s\n", o.output.c_str());
  else
    std::printf("Files:\n  %s\n", o.output.c_str());
}

}  // namespace

void register_report(CLI::App& app, Registry& registry) {
  auto [cmd, o] = add_command<ReportOptions>(
      app, registry, "report",
      "The identification report of saved results: one self-contained HTML page (parameters "
      "with intervals and flags, what the record cannot determine, measured against predicted "
      "with a zoom, residuals, friction against velocity, errors) from one or more fit.json "
      "files, side by side.",
      run_report);
  cmd->add_option("results", o.results,
                  "Result files: fit.json, compare.json, joint_fit.json, joint_eval.json, "
                  "fit-actuator's summary.json, eval-actuator's --json file")
      ->type_name("RESULT.json")
      ->required();
  cmd->add_option("--output", o.output, "The page (- : standard output)")
      ->type_name("FILE.html")
      ->required();
  cmd->add_option("--title", o.title, "Title of the page");
}

}  // namespace frictionlab::cli
