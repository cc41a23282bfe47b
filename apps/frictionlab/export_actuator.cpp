// frictionlab export mujoco | bam for a fitted servo actuator (docs/cli.md, "export";
// docs/actuators.md, "Exporting a fitted actuator"; the work is io::export_actuator_mujoco and
// io::export_actuator_bam). `export mujoco` itself is export_estimator.cpp's: this file adds the
// actuator's options to it and runs the actuator export when --params names a fitted actuator
// (io::is_actuator_source), the friction export otherwise.
#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/io/actuator_export.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/servo_json.hpp"
#ifdef FRICTIONLAB_HAVE_MUJOCO
#include "frictionlab/mujoco/replay.hpp"
#endif
#include "option_checks.hpp"

namespace frictionlab::cli {
namespace {

struct ActuatorMujocoCli {
  double kp = 0;                            // 0: not given
  double vin = 0;                           // 0: the actuator's
  std::string ctrlrange;                    // LO:HI; empty: none
  std::vector<std::string> replay;          // BAM logs (files or directories) to replay
  std::vector<CLI::Option*> actuator_only;  // --kp, --vin, --ctrlrange, --replay
};

struct BamCli {
  std::string params, output;
};

// The value of an option of `export mujoco` (export_estimator.cpp binds it): as given, else its
// default.
std::string value_of(CLI::App* cmd, const std::string& name) {
  const CLI::Option* opt = cmd->get_option(name);
  return opt->count() > 0 ? opt->as<std::string>() : opt->get_default_str();
}

void check_output(const std::string& params, const std::string& output) {
  if (output.empty() || io::is_stdout(output)) return;
  io::check_output_file(output, "--output");
  io::check_outputs_not_inputs({{"--params", params}}, {{"--output", output}});
}

// The logs of --replay, read (and checked) before anything is exported.
std::vector<data::ServoLog> read_replay_logs(const std::vector<std::string>& paths) {
#ifdef FRICTIONLAB_HAVE_MUJOCO
  io::ServoLogSet set = io::read_servo_log_set(paths);
  print_warnings(set.warnings);
  return std::move(set.logs);
#else
  (void)paths;
  throw std::invalid_argument(
      "--replay: this frictionlab was built without MuJoCo (Debian: libmujoco-dev; "
      "scripts/install-deps.sh installs it)");
#endif
}

// What MuJoCo makes of the export on the logs: one line on stderr (docs/mujoco.md).
void print_replay(const io::ActuatorSource& s, const std::vector<data::ServoLog>& logs) {
#ifdef FRICTIONLAB_HAVE_MUJOCO
  print_note(mujoco::replay_summary(mujoco::replay_servo_logs(s, logs)));
#else
  (void)s;
  (void)logs;
#endif
}

// `export mujoco` for an actuator; `friction` is the friction export (export_estimator.cpp).
void run_mujoco(const ActuatorMujocoCli& o, CLI::App* mj, const std::function<void()>& friction) {
  const std::string params = value_of(mj, "--params");
  if (!io::is_actuator_source(params)) {
    for (const CLI::Option* opt : o.actuator_only)
      if (opt->count() > 0)
        throw std::invalid_argument(opt->get_name() +
                                    ": only for a fitted actuator (a parameter "
                                    "file, summary.json or output directory of fit-actuator); " +
                                    params + " is not one");
    friction();
    return;
  }
  if (mj->get_option("--gear")->count() > 0)
    throw std::invalid_argument("--gear: not for a fitted actuator (its constants are joint side)");
  const std::string output = value_of(mj, "--output");
  check_output(params, output);
  io::ActuatorMujocoOptions mo;
  mo.joint = value_of(mj, "--joint");
  if (o.kp > 0) mo.kp = o.kp;
  if (o.vin > 0) mo.vin = o.vin;
  // --form is export_estimator.cpp's option: position (its default here), dcmotor or joint
  const std::string form = value_of(mj, "--form");
  if (form == "joint")
    throw std::invalid_argument(
        "--form joint: only for a friction model; a fitted actuator's "
        "forms are position and dcmotor");
  mo.form = form == "dcmotor" ? io::ActuatorMujocoForm::dcmotor : io::ActuatorMujocoForm::position;
  if (!o.ctrlrange.empty()) mo.ctrlrange = io::parse_ctrlrange(o.ctrlrange);
  const io::ActuatorSource s = io::read_actuator_source(params);
  const io::MujocoExport f = io::export_actuator_mujoco(s, mo);
  std::vector<data::ServoLog> logs;
  if (!o.replay.empty()) logs = read_replay_logs(o.replay);
  for (const auto& n : f.notes) print_warning("MuJoCo cannot represent: " + n);
  emit_text(output, f.xml, "MJCF fragment of the actuator " + s.file);
  if (!logs.empty()) print_replay(s, logs);
}

void run_bam(const BamCli& o) {
  check_output(o.params, o.output);
  const io::ActuatorSource s = io::read_actuator_source(o.params);
  const io::ExportText r = io::export_actuator_bam(s);
  print_warnings(r.warnings);
  for (const auto& n : r.notes) print_warning("BAM's parameter file cannot represent: " + n);
  emit_text(o.output, r.text, "BAM parameter file of " + s.file);
}

}  // namespace

void register_export_actuator(CLI::App& app, Registry& registry) {
  CLI::App* exp = app.get_subcommand("export");
  CLI::App* mj = exp->get_subcommand("mujoco");
  auto o = std::make_shared<ActuatorMujocoCli>();
  CLI::Option* params = mj->get_option("--params");
  params->description(params->get_description() +
                      "; or a fitted actuator: a parameter file (m1.json .. m6.json), a "
                      "summary.json or output directory of fit-actuator (its recommended model)");
  o->actuator_only = {
      mj->add_option("--kp", o->kp,
                     "Actuator: the firmware's kp register value to run at (the logs' kp; "
                     "required for an actuator)")
          ->check(positive()),
      mj->add_option("--vin", o->vin, "Actuator: supply voltage [V] (default: the actuator's)")
          ->check(positive()),
      mj->add_option("--ctrlrange", o->ctrlrange,
                     "Actuator: the joint's range LO:HI [rad], the actuator's ctrlrange")
          ->type_name("LO:HI"),
      mj->add_option("--replay", o->replay,
                     "Actuator: BAM logs (files or directories) to replay in MuJoCo, each at its "
                     "own kp and vin: prints the mean error of the exported fragment, of "
                     "frictionlab's friction inside MuJoCo and of frictionlab's own simulation "
                     "(needs a build with MuJoCo)")
          ->type_name("LOG"),
  };
  for (auto& r : registry)
    if (r.command == mj) r.run = [o, mj, friction = r.run] { run_mujoco(*o, mj, friction); };

  auto [bam, b] = add_command<BamCli>(
      *exp, registry, "bam",
      "BAM's parameter file of a fitted actuator (a parameter file, or the recommended "
      "model of a fit-actuator summary.json or output directory).",
      run_bam);
  bam->add_option("--params", b.params,
                  "Parameter file (m1.json .. m6.json), summary.json or output directory of "
                  "fit-actuator")
      ->type_name("FILE")
      ->required();
  bam->add_option("--output", b.output, "Output file (default or -: stdout)")->type_name("FILE");
}

}  // namespace frictionlab::cli
