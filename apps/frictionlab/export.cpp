// frictionlab export xml: the robot configuration's LUGRE group from a fit.json (docs/cli.md,
// "export"; the work is io::export_xml).
#include <iostream>
#include <string>

#include "commands.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/lugre_xml.hpp"
#include "frictionlab/io/export.hpp"

namespace frictionlab::cli {

void run_export_xml(const ExportOptions& o) {
  const io::ExportText r = io::export_xml(io::read_lugre_group(o.params), o.params);
  for (const auto& w : r.warnings) print_warning(w);
  if (o.output.empty()) {
    std::cout << r.text << std::flush;
  } else {
    io::write_text_file(o.output, r.text);
    std::cerr << "frictionlab: wrote " << o.output << " (LUGRE group of " << o.params << ")\n";
  }
}

}  // namespace frictionlab::cli
