// frictionlab export c | json | mujoco: the torque estimator's parameter file, its C code with the
// parameters baked in, and an MJCF fragment for MuJoCo (docs/cli.md, "export"; the work is
// io::export_json / export_c / export_mujoco). `export xml` is export.cpp.
#include <CLI/CLI.hpp>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "commands.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/estimator_export.hpp"
#include "frictionlab/io/export.hpp"
#include "frictionlab/io/output.hpp"
#include "option_checks.hpp"

namespace frictionlab::cli {
namespace {

struct EstimatorExportOptions {
  std::string params;
  double km = 0;     // 0: not given (Km must be > 0)
  std::string hold;  // empty: the file's, else linear
  std::string output;
  // c: --name bound onto the library's options (the estimator's and the precision set by run_c)
  io::CExportOptions c;
  std::string precision = "float";
  std::string temperature;  // c --temperature: a joint_fit.json with a temperature law
  std::string out = ".";
  // a robot_fit.json's joint (export mujoco: also the joint's name in the fragment)
  std::string joint;
  // mujoco: --gear bound onto the library's options (the joint's name and the form set by
  // run_mujoco); --form (empty: the model's own; export_actuator.cpp reads it for an actuator)
  io::MujocoOptions mujoco;
  std::string form;
};

io::EstimatorExportOptions overrides(const EstimatorExportOptions& o) {
  io::EstimatorExportOptions v;
  if (o.km != 0) v.Km = o.km;
  if (o.hold == "linear") v.hold = Hold::linear;
  if (o.hold == "zoh") v.hold = Hold::zoh;
  return v;
}

// Before any work: --output can be written and is not --params.
void check_output(const EstimatorExportOptions& o) {
  if (o.output.empty()) return;
  io::check_output_file(o.output, "--output");
  io::check_outputs_not_inputs({{"--params", o.params}}, {{"--output", o.output}});
}

void run_json(const EstimatorExportOptions& o) {
  check_output(o);
  const io::ExportText r =
      io::export_json(io::read_friction_source(o.params, o.joint), overrides(o));
  print_warnings(r.warnings);
  for (const auto& n : r.notes) print_warning("the estimator cannot represent: " + n);
  emit_text(o.output, r.text, "estimator parameters of " + o.params);
}

void run_c(const EstimatorExportOptions& o) {
  io::check_temperature_seed(o.c.adaptive, !o.temperature.empty(), o.c.temperature_ref);
  io::check_output_directory(o.out);
  const auto [header_name, source_name] = io::c_export_file_names(o.c.name);
  std::vector<io::NamedPath> inputs = {{"--params", o.params}};
  if (!o.temperature.empty()) inputs.push_back({"--temperature", o.temperature});
  check_result_files({(std::filesystem::path(o.out) / header_name).string(),
                      (std::filesystem::path(o.out) / source_name).string()},
                     "", inputs);
  io::CExportOptions co = o.c;
  co.estimator = overrides(o);
  co.single_precision = o.precision == "float";
  const io::FrictionSource source = io::read_friction_source(o.params, o.joint);
  if (!o.temperature.empty()) co.temperature = io::read_temperature_fit(o.temperature);
  const io::CExport r = io::export_c(source, co);
  print_warnings(r.warnings);
  for (const auto& n : r.notes) print_warning("the estimator cannot represent: " + n);
  const std::filesystem::path dir(o.out);
  const std::string h = (dir / r.header_file).string(), c = (dir / r.source_file).string();
  io::OutputFiles files;
  files.protect(inputs);
  files.write(h, r.header);
  files.write(c, r.source);
  files.commit();
  if (quiet()) return print_files({h, c});
  print_written(h + " and " + c, o.precision + " estimator of " + o.params);
}

void run_mujoco(const EstimatorExportOptions& o) {
  check_output(o);
  const io::FrictionSource s =
      io::read_friction_source(o.params, o.joint, io::JointOption::target_name);
  print_warnings(s.warnings);
  io::MujocoOptions mo = o.mujoco;
  mo.joint = o.joint.empty() ? "joint" : o.joint;
  if (o.form == "position")
    throw std::invalid_argument(
        "--form position: only for a fitted actuator (a parameter file, "
        "summary.json or output directory of fit-actuator); " +
        o.params + " is a friction model: dcmotor or joint");
  if (o.form == "dcmotor") mo.form = io::MujocoForm::dcmotor;
  if (o.form == "joint") mo.form = io::MujocoForm::joint;
  const io::MujocoExport f = io::export_mujoco(s, mo);
  for (const auto& n : f.notes) print_warning("MuJoCo cannot represent: " + n);
  emit_text(o.output, f.xml, "MJCF fragment of " + o.params);
}

void add_common(CLI::App* cmd, EstimatorExportOptions& o, bool estimator) {
  cmd->add_option("--params", o.params,
                  estimator ? "fit.json (frictionlab fit), joint_fit.json (fit-joint), "
                              "robot_fit.json (fit-robot, with --joint), ESTIMATOR.json (export "
                              "json) or MODEL.json with a lugre model"
                            : "fit.json, joint_fit.json, robot_fit.json (with --joint), "
                              "ESTIMATOR.json or MODEL.json (lugre or a static model)")
      ->type_name("FILE")
      ->required();
  if (!estimator) return;
  cmd->add_option("--joint", o.joint, "The joint of a robot_fit.json whose friction is exported")
      ->type_name("NAME");
  cmd->add_option("--km", o.km,
                  "Torque constant Km [Nm/A] (needed for a MODEL.json, a joint_fit.json or a "
                  "--problem friction fit; overrides the file's)")
      ->check(positive());
  cmd->add_option("--hold", o.hold,
                  "Velocity input between cycles: linear (default) or zoh (overrides the file's)")
      ->check(CLI::IsMember({"linear", "zoh"}));
}

}  // namespace

void register_export_estimator(CLI::App& app, Registry& registry) {
  CLI::App* exp = app.get_subcommand("export");
  auto [json, o] = add_command<EstimatorExportOptions>(
      *exp, registry, "json",
      "The torque estimator's parameter file (ESTIMATOR.json: Km, hold, lugre model; "
      "versioned) from a fit.json, a joint_fit.json, an ESTIMATOR.json or a MODEL.json.",
      run_json);
  add_common(json, o, true);
  json->add_option("--output", o.output, "Output file (default or -: stdout)")->type_name("FILE");

  auto [c, co] = add_command<EstimatorExportOptions>(
      *exp, registry, "c",
      "Self-contained C99 NAME.h / NAME.c of the torque estimator with the parameters baked "
      "in as constants (docs/estimator.md).",
      run_c);
  add_common(c, co, true);
  c->add_option("--name", co.c.name, "Prefix of every function and type, and the file names")
      ->capture_default_str();
  c->add_option("--precision", co.precision, "float (single-precision FPU) or double")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  c->add_flag("--adaptive", co.c.adaptive,
              "Also the adaptive estimator (NAME_adaptive_*: the friction levels, viscous term "
              "and offset adapted online by recursive least squares; docs/estimator.md), its "
              "initial covariance from the fit's standard errors");
  c->add_option("--temperature", co.temperature,
                "With --adaptive: a joint_fit.json fitted with a temperature law (fit-joint "
                "--temperature-law) whose kT seeds the adaptive estimator's temperature slope, "
                "its variance and T_ref; kT then adapts (docs/estimator.md)")
      ->type_name("FILE");
  c->add_option("--temperature-ref", co.c.temperature_ref,
                "With --temperature: the temperature at which the --params levels hold, the "
                "estimator's T_ref [degC] (default: the temperature fit's T_ref)")
      ->type_name("DEGC");
  add_out_option(c, co.out);

  auto [mj, mo] = add_command<EstimatorExportOptions>(
      *exp, registry, "mujoco",
      "An MJCF fragment reproducing the friction in MuJoCo (dcmotor LuGre attributes, "
      "or joint frictionloss/damping), with notes of what MuJoCo cannot represent.",
      run_mujoco);
  add_common(mj, mo, false);
  mj->add_option("--joint", mo.joint,
                 "Name of the joint in the MuJoCo model; with a robot_fit.json, also the arm's "
                 "joint whose friction is exported")
      ->type_name("NAME")
      ->default_str("joint");
  mj->add_option("--gear", mo.mujoco.gear,
                 "Motor velocity per joint velocity of the model's velocity unit (1: joint side)")
      ->capture_default_str();
  mj->add_option("--form", mo.form,
                 "Friction model: dcmotor (MuJoCo's DC motor with LuGre attributes, MuJoCo "
                 "3.12+; the default for lugre) or joint (the joint's frictionloss and damping, "
                 "any MuJoCo; a lugre model's steady curve). Actuator: position (the default: "
                 "position actuator, back-EMF in the joint damping) or dcmotor (MuJoCo's DC motor "
                 "with its position controller)")
      ->check(CLI::IsMember({"position", "dcmotor", "joint"}));
  mj->add_option("--output", mo.output, "Output file (default or -: stdout)")->type_name("FILE");
}

}  // namespace frictionlab::cli
