// frictionlab CLI: the subcommands (argument parsing in main.cpp; the work is done by the
// library: io/model_json, io/system_json, io/model_run, sim/systems, io/csv, io/plot_svg).
#pragma once

#include <string>

namespace frictionlab::cli {

struct SimulateOptions {
  // --model mode (velocity- or displacement-driven friction model)
  std::string model, input;
  std::string hold = "linear";
  bool hold_given = false;
  // --system mode (coupled mechanical system)
  std::string system, params;
  double output_dt = 0.0;
  double rtol = 0.0;  // 0 = library default
  // both
  std::string output, plot, integrator;
  double dt = 0.0;  // 0 = not given
};

struct DemoOptions {
  std::string out = "frictionlab-demo";
};

/// Run `simulate`; throws io::InputError / std::invalid_argument / std::runtime_error on errors.
void run_simulate(const SimulateOptions& o);

/// Run `demo`.
void run_demo(const DemoOptions& o);

/// "frictionlab: warning: <line>" on stderr, one line per line of `message`.
void print_warning(const std::string& message);

}  // namespace frictionlab::cli
