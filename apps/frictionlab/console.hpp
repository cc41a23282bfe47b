// frictionlab CLI: what a command prints besides its result, and how much (docs/cli.md, "Exit
// status and messages"). The one place warnings, progress messages and the list of written files
// go through, so that --quiet and --verbose mean the same for every command:
//   --quiet    errors, and the result files' paths (one per line on stdout, for scripts);
//   (default)  the result, its verdict, each distinct warning once;
//   --verbose  also the workflows' progress messages (the preprocessing stages, the initial
//              guesses, every solver start with its cost and iterations, the solver's
//              termination message, ...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/workflows/progress.hpp"

namespace CLI {
class App;
}

namespace frictionlab::cli {

enum class Verbosity { quiet, normal, verbose };

/// The verbosity of this run (main sets it from --quiet / --verbose before any command runs).
void set_verbosity(Verbosity v);
Verbosity verbosity();
/// --quiet was given: print no result table, only the result files' paths (print_files,
/// print_written).
bool quiet();

/// --quiet and --verbose on `app` and on every subcommand below it (given anywhere on the command
/// line), except on `skip` (`fleet` forwards its arguments to the Python package, which has
/// its own), bound to storage of this module; read with verbosity_from_flags() after parsing.
void add_verbosity_flags(CLI::App& app, const CLI::App* skip);
/// The verbosity the flags of add_verbosity_flags gave (normal when neither).
Verbosity verbosity_from_flags();

/// "frictionlab: warning: <line>" on stderr, one line per line of `message`; a message already
/// printed in this run is not printed again, and nothing is printed with --quiet (the result
/// files that hold warnings, e.g. fit.json's "warnings", still list them all).
void print_warning(const std::string& message);
void print_warnings(const std::vector<std::string>& messages);

/// "frictionlab: error: <line>" (`internal`: "frictionlab: internal error: <line>") on stderr,
/// one line per line of `message`, whatever the verbosity.
void print_error(std::string_view message, bool internal = false);

/// "frictionlab: <message>" on stderr, one line per line, unless --quiet: a result that is not
/// the command's output (the output may be stdout) and not a warning.
void print_note(std::string_view message);

/// "frictionlab: <message>" on stderr with --verbose only.
void print_detail(std::string_view message);

/// A workflow's progress whose messages are details (print_detail); never cancels.
workflows::Progress stderr_progress();

/// The files a command wrote: "\nFiles:\n  PATH" per file on stdout; with --quiet, each PATH
/// alone on its own line.
void print_files(const std::vector<std::string>& files);

/// One file written whose result is not a table on stdout: "frictionlab: wrote PATH (WHAT)" on
/// stderr; with --quiet, PATH alone on stdout.
void print_written(const std::string& path, const std::string& what);

}  // namespace frictionlab::cli
