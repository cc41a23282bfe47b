// frictionlab export xml: the robot configuration's LUGRE group from a fit.json (docs/cli.md,
// "export"; the conversion is io/lugre_xml).
#include <iostream>
#include <string>

#include "commands.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/lugre_xml.hpp"

namespace frictionlab::cli {

void run_export_xml(const ExportOptions& o) {
  const io::LugreGroup g = io::read_lugre_group(o.params);
  for (const auto& w : g.warnings) print_warning(w);
  const std::string xml = io::lugre_group_xml(g, o.params);
  if (o.output.empty()) {
    std::cout << xml << std::flush;
  } else {
    io::write_text_file(o.output, xml);
    std::cerr << "frictionlab: wrote " << o.output << " (LUGRE group of " << o.params << ")\n";
  }
}

}  // namespace frictionlab::cli
