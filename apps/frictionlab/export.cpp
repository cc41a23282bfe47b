// frictionlab export xml: the robot configuration's LUGRE group from a fit.json or joint_fit.json
// (docs/cli.md, "export"; the work is io::export_xml). It also adds the `export` group the
// other exports (export_estimator.cpp, export_actuator.cpp) add their subcommands to.
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/lugre_xml.hpp"
#include "frictionlab/io/output.hpp"
#include "option_checks.hpp"

namespace frictionlab::cli {
namespace {

struct ExportOptions {
  std::string params;  ///< fit.json or joint_fit.json
  std::string output;  ///< empty: stdout
  double km = 0;       ///< --km [Nm/A]; 0: not given (Km must be > 0)
};

void run_export_xml(const ExportOptions& o) {
  const bool to_stdout = o.output.empty() || io::is_stdout(o.output);
  if (!to_stdout) {
    io::check_output_file(o.output, "--output");
    io::check_outputs_not_inputs({{"--params", o.params}}, {{"--output", o.output}});
  }
  const io::ExportText r = io::export_xml(
      io::read_lugre_group(o.params, o.km > 0 ? std::optional<double>(o.km) : std::nullopt),
      o.params);
  print_warnings(r.warnings);
  for (const auto& n : r.notes) print_warning("the LUGRE group cannot represent: " + n);
  emit_text(to_stdout ? std::string() : o.output, r.text, "LUGRE group of " + o.params);
}

}  // namespace

void register_export(CLI::App& app, Registry& registry) {
  CLI::App* exp = app.add_subcommand("export", "Export fit results for other software.");
  exp->require_subcommand(1);
  auto [xml, o] = add_command<ExportOptions>(
      *exp, registry, "xml",
      "The robot configuration's <group name=\"LUGRE\"> (Km, Kw, S0, S1, Vth, Fc_pos, Fc_neg, "
      "Fs_pos, Fs_neg; one value: one joint) from a --problem sensorless lugre/lugre-asym "
      "fit.json, or from a joint_fit.json with a LuGre friction and --km.",
      run_export_xml);
  xml->add_option("--params", o.params,
                  "fit.json written by frictionlab fit, or joint_fit.json by fit-joint")
      ->type_name("FIT.json")
      ->required();
  xml->add_option("--km", o.km,
                  "Torque constant Km [Nm/A] (needed for a joint_fit.json or a --problem "
                  "friction fit; overrides the file's)")
      ->check(positive());
  xml->add_option("--output", o.output, "Output file (default: stdout)")->type_name("FILE");
}

}  // namespace frictionlab::cli
