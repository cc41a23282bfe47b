// frictionlab: command-line tool (docs/cli.md). Parses arguments and calls the library; errors in
// input files or arguments print "frictionlab: error: ..." and exit with status 1; command-line
// syntax errors exit with CLI11's status (non-zero).
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "console.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/models/registry.hpp"
#include "option_checks.hpp"

#ifndef FRICTIONLAB_VERSION
#define FRICTIONLAB_VERSION "unknown"
#endif

namespace {

int run(int argc, char** argv) {
  frictionlab::cli::set_command_line(argc, argv);
  // Every file a command reads is one of its inputs (also the files named inside input files),
  // and an interrupted run leaves no temporary file (io/output.hpp).
  frictionlab::io::protect_every_input_read();
  frictionlab::io::remove_temp_files_on_signals();
  CLI::App app{
      "frictionlab: friction models for robotics and mechatronics.\n"
      "Documentation: docs/cli.md, docs/file-formats.md, docs/models.md",
      "frictionlab"};
  app.footer("Models (MODEL.json \"model\", docs/models.md): " +
             frictionlab::join_list(frictionlab::model_names()));
  app.set_version_flag("--version", std::string("frictionlab ") + FRICTIONLAB_VERSION);
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    // CLI11's messages quote the typed value as it is: made printable (io/errors.hpp).
    return "frictionlab: error: " + frictionlab::io::printable_lines(e.what()) +
           "\nRun with --help for more information.\n";
  });

  // ---- every subcommand (commands.cpp lists them) ----
  frictionlab::cli::Registry registry;
  frictionlab::cli::register_commands(app, registry);
  frictionlab::cli::add_verbosity_flags(app, app.get_subcommand("fleet"));

  try {
    app.parse(argc, argv);
    frictionlab::cli::set_verbosity(frictionlab::cli::verbosity_from_flags());
  } catch (const CLI::ParseError& e) {
    // An argument CLI11 did not recognise is named with the nearest known one (did you mean).
    if (e.get_exit_code() != 0)
      if (const auto msg = frictionlab::cli::unknown_argument_message(app)) {
        frictionlab::cli::print_error(*msg);
        std::cerr << "Run with --help for more information.\n";
        return static_cast<int>(CLI::ExitCodes::ExtrasError);
      }
    return app.exit(e);
  }

  try {
    for (const auto& r : registry)
      if (*r.command) r.run();
  } catch (const frictionlab::io::InputError& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::invalid_argument& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::runtime_error& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::exception& e) {
    frictionlab::cli::print_error(e.what(), true);
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // setting up the command line, or writing to std::cerr
    frictionlab::cli::print_error(e.what(), true);
    return 2;
  }
}
