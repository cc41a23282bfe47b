// frictionlab CLI: the list of self-registering subcommands (commands.hpp, Registered).
// Each lives in its own file and adds one line here.
#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace frictionlab::cli {

void register_commands(CLI::App& app, Registry& registry) {
  register_fit_joint(app, registry);
}

}  // namespace frictionlab::cli
