// frictionlab CLI: warnings, progress messages and the written files' list (console.hpp).
#include "console.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>

#include "frictionlab/io/errors.hpp"

namespace frictionlab::cli {
namespace {

Verbosity g_verbosity = Verbosity::normal;
bool g_quiet_flag = false, g_verbose_flag = false;

// Progress reports may come from a workflow's worker threads (serialised by the workflow, but
// not necessarily on the main thread): the stream and the set of printed warnings are shared.
std::mutex& print_mutex() {
  static std::mutex m;
  return m;
}

void print_lines(std::string_view prefix, std::string_view message) {
  std::istringstream in{std::string(message)};
  std::string line;
  while (std::getline(in, line))
    std::cerr << "frictionlab: " << prefix << io::printable_lines(line) << '\n';
}

}  // namespace

void set_verbosity(Verbosity v) { g_verbosity = v; }
Verbosity verbosity() { return g_verbosity; }
bool quiet() { return g_verbosity == Verbosity::quiet; }

void add_verbosity_flags(CLI::App& app, const CLI::App* skip) {
  if (&app == skip) return;
  CLI::Option* q = app.add_flag("-q,--quiet", g_quiet_flag,
                                "Print only errors and the result files' paths (for scripts)");
  CLI::Option* v = app.add_flag("-v,--verbose", g_verbose_flag,
                                "Also print the progress messages (solver starts, costs, "
                                "iterations, termination)");
  q->excludes(v);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    add_verbosity_flags(*sub, skip);
}

Verbosity verbosity_from_flags() {
  // Given at two levels (frictionlab --quiet fit --verbose): CLI11 sees no conflict in one app.
  if (g_quiet_flag && g_verbose_flag) throw CLI::ExcludesError("--quiet", "--verbose");
  return g_quiet_flag ? Verbosity::quiet : g_verbose_flag ? Verbosity::verbose : Verbosity::normal;
}

void print_warning(const std::string& message) {
  if (quiet()) return;
  const std::lock_guard<std::mutex> lock(print_mutex());
  static std::set<std::string> printed;
  if (!printed.insert(message).second) return;
  print_lines("warning: ", message);
}

void print_warnings(const std::vector<std::string>& messages) {
  for (const auto& m : messages) print_warning(m);
}

void print_error(std::string_view message, bool internal) {
  const std::lock_guard<std::mutex> lock(print_mutex());
  print_lines(internal ? "internal error: " : "error: ", message);
}

void print_detail(std::string_view message) {
  if (g_verbosity != Verbosity::verbose) return;
  const std::lock_guard<std::mutex> lock(print_mutex());
  print_lines("", message);
}

workflows::Progress stderr_progress() {
  workflows::Progress p;
  if (g_verbosity == Verbosity::verbose)
    p.report = [](const workflows::ProgressEvent& e) { print_detail(e.message); };
  return p;
}

void print_files(const std::vector<std::string>& files) {
  if (!quiet()) std::cout << "\nFiles:\n";
  for (const auto& f : files) std::cout << (quiet() ? "" : "  ") << f << '\n';
  std::cout << std::flush;
}

void print_note(std::string_view message) {
  if (quiet()) return;
  const std::lock_guard<std::mutex> lock(print_mutex());
  print_lines("", message);
}

void print_written(const std::string& path, const std::string& what) {
  if (quiet())
    std::cout << path << std::endl;
  else
    std::cerr << "frictionlab: wrote " << path << " (" << what << ")\n";
}

}  // namespace frictionlab::cli
