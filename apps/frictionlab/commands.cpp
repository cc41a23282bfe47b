// frictionlab CLI: the list of self-registering subcommands (commands.hpp, Registered).
// Each lives in its own file and adds one line here.
#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace frictionlab::cli {

void register_fit_actuator(CLI::App& app, Registry& registry);  // fit_actuator.cpp

void register_commands(CLI::App& app, Registry& registry) {
  (void)app;
  (void)registry;
  register_fit_actuator(app, registry);
}

}  // namespace frictionlab::cli
