// frictionlab export xml: the robot configuration's LUGRE group from a fit.json or joint_fit.json
// (docs/cli.md, "export"; the work is io::export_xml).
#include <optional>
#include <string>

#include "commands.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/lugre_xml.hpp"
#include "frictionlab/io/output.hpp"

namespace frictionlab::cli {

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

}  // namespace frictionlab::cli
