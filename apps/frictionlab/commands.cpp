// frictionlab CLI: the list of self-registering subcommands (commands.hpp, Registered).
// Each lives in its own file and adds one line here.
#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace frictionlab::cli {

void register_fit_actuator(CLI::App& app, Registry& registry);  // fit_actuator.cpp
void register_export_estimator(CLI::App& app, Registry& registry);  // export_estimator.cpp
void register_fit_joint(CLI::App& app, Registry& registry);  // fit_joint.cpp (and eval-joint)

void register_commands(CLI::App& app, Registry& registry) {
  register_fit_joint(app, registry);
  register_fit_actuator(app, registry);
  register_export_estimator(app, registry);
}

}  // namespace frictionlab::cli
