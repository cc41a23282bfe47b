// frictionlab CLI: what the subcommands share. Each subcommand (or group) lives in its own file,
// adds its options and registers its `run` (register_commands lists them); the work is done by
// the library's workflows and io.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "console.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace frictionlab::workflows {
struct Verdict;
}

namespace frictionlab::cli {

/// A subcommand that lives in its own file: it adds itself (options bound to storage it owns,
/// e.g. a std::shared_ptr captured by `run`) and main calls `run` when the user selected it.
/// Its errors follow run_simulate's contract (io::InputError, std::invalid_argument,
/// std::runtime_error -> "frictionlab: error: ...", exit 1).
struct Registered {
  CLI::App* command = nullptr;
  std::function<void()> run;
};
using Registry = std::vector<Registered>;

/// Add subcommand `name` of `parent` and register `run` for it (commands.cpp).
CLI::App* add_registered(CLI::App& parent, Registry& registry, const std::string& name,
                         const std::string& description, std::function<void()> run);

/// A subcommand and the options its flags bind to.
template <class Options>
struct Command {
  CLI::App* app;
  Options& options;
};

/// The one way a subcommand is added: its options bind to an `Options` (the workflow's option
/// struct, or the command's own) that the registered `run(options)` keeps alive:
///   auto [cmd, o] = add_command<FitOptions>(app, registry, "fit", "Fit ...", run_fit);
///   cmd->add_option("--model", o.model, "...");
template <class Options, class Run>
Command<Options> add_command(CLI::App& parent, Registry& registry, const std::string& name,
                             const std::string& description, Run run) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd =
      add_registered(parent, registry, name, description, [options, run] { run(*options); });
  return {cmd, *options};
}

/// --out DIR on `cmd`: the results directory (created if missing), its default shown in --help.
CLI::Option* add_out_option(CLI::App* cmd, std::string& out,
                            const std::string& help = "Output directory (created if missing)");
/// --report FILE.html on `cmd`: also write the report (io::write_report's page).
CLI::Option* add_report_option(CLI::App* cmd, std::string& report);

/// Every self-registering subcommand, called once by main (commands.cpp lists them).
void register_commands(CLI::App& app, Registry& registry);

/// Remember the command line of this run (main calls it first).
void set_command_line(int argc, char** argv);
/// What the reports of this run say made them: "frictionlab X.Y.Z" and the command line, quoted
/// for a POSIX shell.
frictionlab::io::ReportOptions report_options();
/// Before any work: a --report FILE.html (if given) can be written and is none of `inputs`.
void check_report_output(const std::string& report,
                         const std::vector<frictionlab::io::NamedPath>& inputs);
/// Before any work: the files a command writes in its results directory (--out) can be written
/// (io::check_output_in_directory), are none of `inputs` (nor any file it reads later:
/// io::note_input), and --report is none of them.
void check_result_files(const std::vector<std::string>& files, const std::string& report,
                        const std::vector<frictionlab::io::NamedPath>& inputs);

/// Write `text` to `output` (empty or "-": the standard output); into a file, followed by
/// print_written(OUTPUT, WHAT).
void emit_text(const std::string& output, const std::string& text, const std::string& what);

/// A result's verdict (docs/verdicts.md) on `out` (nullptr: the standard output):
/// "INDENTverdict: LINE", then each note (a reason of grade good) as "INDENTnote: TEXT (HINT)".
void print_verdict(const workflows::Verdict& v, const std::string& indent = "  ",
                   std::ostream* out = nullptr);

}  // namespace frictionlab::cli
