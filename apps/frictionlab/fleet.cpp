// frictionlab fleet: fleet identification on Dask (docs/fleet.md). The engine is the Python
// package frictionlab.fleet (Dask distributed, SQLite / PostgreSQL are Python libraries); this
// command runs `PYTHON -m frictionlab.fleet ARGS...` in place of the CLI process, with the
// interpreter the Python module was built for (FRICTIONLAB_PYTHON overrides it). From a build
// tree, the build tree's package is put first on PYTHONPATH; an installed frictionlab finds the
// installed package on the interpreter's own path.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"

namespace frictionlab::cli {
namespace {

#ifndef FRICTIONLAB_PYTHON_EXECUTABLE
#define FRICTIONLAB_PYTHON_EXECUTABLE "python3"
#endif

// Whether this executable lies in the build tree it was built in.
bool in_build_tree() {
#ifdef FRICTIONLAB_BINARY_DIR
  std::error_code ec;
  const auto self = std::filesystem::canonical("/proc/self/exe", ec);
  const auto tree = std::filesystem::canonical(FRICTIONLAB_BINARY_DIR, ec);
  if (ec) return false;
  const auto rel = self.lexically_relative(tree);
  return !rel.empty() && *rel.begin() != "..";
#else
  return false;
#endif
}

[[noreturn]] void run_fleet(const std::vector<std::string>& args) {
  const char* override_python = std::getenv("FRICTIONLAB_PYTHON");
  const std::string python =
      override_python && *override_python ? override_python : FRICTIONLAB_PYTHON_EXECUTABLE;
#ifdef FRICTIONLAB_BINARY_DIR
  if (in_build_tree()) {
#ifndef FRICTIONLAB_PYTHON_PACKAGE
    throw std::runtime_error(
        "fleet: this build has no Python package (configured with FRICTIONLAB_PYTHON=OFF); "
        "the fleet engine is the package frictionlab.fleet: build with pybind11 (docs/python.md)");
#endif
    std::string path = std::string(FRICTIONLAB_BINARY_DIR) + "/python";
    if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
    setenv("PYTHONPATH", path.c_str(), 1);
  }
#endif
  std::vector<std::string> argv_s{python, "-m", "frictionlab.fleet"};
  // `frictionlab --quiet fleet ...`: the package's own flag (frictionlab/fleet/__main__.py).
  if (verbosity() != Verbosity::normal) argv_s.push_back(quiet() ? "--quiet" : "--verbose");
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(argv_s.size() + 1);
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  throw std::runtime_error("fleet: cannot run the Python interpreter '" + python +
                           "': " + std::strerror(errno) +
                           " (set FRICTIONLAB_PYTHON to the python3 that has frictionlab)");
}

}  // namespace

void register_fleet(CLI::App& app, Registry& registry) {
  // everything after `fleet` goes to the Python command as it was given
  CLI::App* fleet =
      add_registered(app, registry, "fleet",
                     "Fleet identification on Dask: run, status, report, generate (docs/fleet.md; "
                     "`frictionlab fleet --help`).",
                     [&app] { run_fleet(app.get_subcommand("fleet")->remaining()); });
  fleet->prefix_command();
  fleet->allow_extras();
  fleet->set_help_flag();  // --help goes to the Python command
}

}  // namespace frictionlab::cli
