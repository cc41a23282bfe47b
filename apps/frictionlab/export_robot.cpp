// frictionlab export robot: an arm fit (robot_fit.json) as MJCF joint attributes, or written into
// the robot's URDF (docs/robot-identification.md, "Exports"; the work is io/robot_export.hpp).
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "commands.hpp"
#include "console.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/robot_export.hpp"

namespace frictionlab::cli {
namespace {

struct ExportRobotCli {
  std::string params;  ///< robot_fit.json
  std::string urdf;    ///< empty: MJCF
  std::string output;  ///< empty: stdout
};

void run_export_robot(const ExportRobotCli& c) {
  const bool to_stdout = c.output.empty() || io::is_stdout(c.output);
  if (!to_stdout) {
    io::check_output_file(c.output, "--output");
    io::check_outputs_not_inputs({{"--params", c.params}, {"--urdf", c.urdf}},
                                 {{"--output", c.output}});
  }
  const io::RobotExport r =
      c.urdf.empty() ? io::export_robot_mujoco(c.params) : io::export_robot_urdf(c.params, c.urdf);
  for (const auto& n : r.notes) print_detail("not represented: " + n);
  emit_text(to_stdout ? std::string() : c.output, r.text,
            (c.urdf.empty() ? "MJCF joint attributes of " : "URDF with the fit of ") + c.params);
}

}  // namespace

void register_export_robot(CLI::App& app, Registry& registry) {
  CLI::App* exp = app.get_subcommand("export");
  auto [cmd, c] = add_command<ExportRobotCli>(
      *exp, registry, "robot",
      "An arm fit (robot_fit.json of fit-robot) for simulators: each joint's frictionloss, "
      "damping and armature as MJCF attributes, or with --urdf the robot's URDF with each "
      "joint's <dynamics damping friction> set (the notes in the output say what the format "
      "leaves out).",
      run_export_robot);
  cmd->add_option("--params", c.params, "robot_fit.json written by frictionlab fit-robot")
      ->type_name("FILE")
      ->required();
  cmd->add_option("--urdf", c.urdf,
                  "The robot's URDF: write it with the fitted friction (default: MJCF attributes)")
      ->type_name("FILE");
  cmd->add_option("--output", c.output, "Output file (default or -: stdout)")->type_name("FILE");
}

}  // namespace frictionlab::cli
