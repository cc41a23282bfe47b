// frictionlab fit-robot: identify a robot arm's base parameters and joint friction from one
// record (docs/robot-identification.md, "fit-robot"). The options bind straight onto the
// workflow's option structs; the robot description and record are read by io/, the work is
// workflows::fit_robot, and this prints the summary and writes robot_fit.json.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "console.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/io/robot_fit_json.hpp"
#include "frictionlab/workflows/robot.hpp"

namespace frictionlab::cli {
namespace {

constexpr const char* kRobotFitFile = "robot_fit.json";

struct FitRobotCli {
  std::string robot, input, out = "frictionlab-robot";
  std::string report;  ///< --report FILE.html
  std::vector<std::string> validate;
  std::string loaded;       ///< the record with the payload (drive gains identified)
  double payload_mass = 0;  ///< [kg]
  io::ArmRecordSpec spec;
  std::optional<double> lowpass;  ///< not given: chosen from the record; 0: none
  bool ols = false, no_viscous = false, no_coulomb = false, no_offset = false;
  workflows::FitRobotOptions w;
};

void print_summary(const workflows::FitRobotOutcome& o) {
  const identify::RobotFitResult& r = o.result;
  std::printf("fit-robot: %d samples, %d joints; preprocessing: %s\n", r.samples,
              static_cast<int>(o.joints.size()), o.preprocessing.c_str());
  std::printf("  base parameters: %d of %d (rigid body and friction); condition number %s\n",
              r.rank, r.standard_parameters, format_number(r.condition_number, 5).c_str());
  std::printf("  torque error: %s %% of the measured torque (100 |tau - W beta| / |tau|)\n",
              format_fixed(r.relative_error_percent, 3).c_str());
  std::printf("  %-10s %12s %12s\n", "joint", "RMS [N m]", "sigma [N m]");
  for (std::size_t j = 0; j < o.joints.size(); ++j)
    std::printf("  %-10s %12s %12s\n", o.joints[j].c_str(),
                format_number(r.rms_error[j], 4).c_str(), format_number(r.sigma[j], 4).c_str());
  std::printf("  %-16s %13s %11s %8s  %s\n", "parameter", "value", "std. error", "%sigma",
              "unit (what it stands for)");
  for (const auto& p : r.parameters)
    std::printf("  %-16s %13s %11s %8s  %s%s\n", p.name.c_str(), format_number(p.value, 5).c_str(),
                format_number(p.std_error, 3).c_str(),
                format_fixed(p.relative_std_error_percent, 2).c_str(), p.unit.c_str(),
                p.expression == p.name ? "" : ("  = " + p.expression).c_str());
}

/// The load-dependent fit's rounds (with --load-dependent; the coefficients held at 0 are the
/// verdict's notes).
void print_load(const workflows::FitRobotOutcome& o) {
  const identify::RobotFitResult& r = o.result;
  if (r.load_rounds == 0) return;
  std::printf("  load-dependent Coulomb levels: %d instrumental-variable rounds%s\n", r.load_rounds,
              r.load_converged ? "" : " (not settled)");
}

/// Each joint's friction model and its parameters (with a model of the registry).
void print_friction(const workflows::FitRobotOutcome& o) {
  if (!o.friction) return;
  std::printf("  friction per joint: %s (%d rounds with the rigid body; linear friction: %s %%)\n",
              o.friction_model.c_str(), o.friction->rounds,
              format_fixed(o.friction->linear_relative_error_percent, 3).c_str());
  for (std::size_t j = 0; j < o.joints.size(); ++j) {
    std::string line;
    for (const auto& p : o.friction->friction[j].parameters)
      line += "  " + p.name + " " + format_number(p.value, 4) + " +- " +
              format_number(p.std_error, 2) + " " + p.unit;
    std::printf("  %-10s%s\n", o.joints[j].c_str(), line.c_str());
  }
}

/// The identified drive gains (with a loaded record).
void print_gains(const workflows::FitRobotOutcome& o) {
  if (o.drive_gains.empty()) return;
  std::printf("  drive gains [N m/A] (instrumental variables; least squares for comparison):\n");
  for (std::size_t j = 0; j < o.drive_gains.size(); ++j) {
    const auto& k = o.drive_gains[j];
    std::printf("  %-22s %10s +- %-9s (%s)\n", k.name.c_str(), format_number(k.value, 5).c_str(),
                format_number(k.std_error, 2).c_str(),
                format_number(o.least_squares_gains[j].value, 5).c_str());
  }
}

void run_fit_robot(FitRobotCli& c) {
  const std::filesystem::path result = std::filesystem::path(c.out) / kRobotFitFile;
  io::check_output_directory(c.out);
  std::vector<io::NamedPath> inputs{{"--robot", c.robot}, {"--input", c.input}};
  if (!c.loaded.empty()) inputs.push_back({"--loaded", c.loaded});
  for (const auto& path : c.validate) inputs.push_back({"--validate", path});
  check_report_output(c.report, inputs);
  check_result_files({result.string()}, c.report, inputs);
  const io::RobotDescription robot = io::read_robot(c.robot);
  std::vector<std::string> joints;
  for (const auto& j : robot.model.joints) joints.push_back(j.name);
  if (!c.spec.current.empty()) c.spec.torque.clear();
  const data::ArmRecord record = io::read_arm_record(c.input, joints, c.spec);
  std::vector<data::ArmRecord> validate;
  for (const auto& path : c.validate) validate.push_back(io::read_arm_record(path, joints, c.spec));
  if (c.lowpass) {
    c.w.preprocess.lowpass_cutoff = *c.lowpass;
    c.w.choose_lowpass = false;
  }
  c.w.fit.weighted = !c.ols;
  c.w.fit.viscous = !c.no_viscous;
  c.w.fit.coulomb = !c.no_coulomb;
  c.w.fit.offset = !c.no_offset;
  const workflows::FitRobotOutcome o =
      c.loaded.empty() ? workflows::fit_robot(robot.model, record, c.w, validate)
                       : workflows::fit_robot_gains(robot.model, record,
                                                    io::read_arm_record(c.loaded, joints, c.spec),
                                                    c.payload_mass, c.w, validate);
  print_summary(o);
  print_gains(o);
  print_friction(o);
  print_load(o);
  print_verdict(o.verdict);
  std::filesystem::create_directories(c.out);
  const nlohmann::ordered_json j = io::robot_fit_to_json(o, c.robot, c.input);
  io::write_file_atomic(result.string(), j.dump(2) + "\n");
  print_written(result.string(), "result");
  if (!c.report.empty()) {
    io::write_report(c.report, {{result.string(), j}}, report_options());
    print_written(c.report, "report");
  }
}

}  // namespace

void register_fit_robot(CLI::App& app, Registry& registry) {
  auto [cmd, c] = add_command<FitRobotCli>(
      app, registry, "fit-robot",
      "Identify a robot arm's base inertial parameters and each joint's friction (viscous Fv, "
      "Coulomb Fc, offset; armature with --armature) from one record with joint torques, by "
      "weighted least squares on the base parameters (docs/robot-identification.md). Writes "
      "robot_fit.json into --out.",
      run_fit_robot);
  cmd->add_option("--robot", c.robot, "Robot description: a .urdf or a ROBOT.json DH table")
      ->type_name("FILE")
      ->required();
  cmd->add_option("--input", c.input, "Record (.csv): time, per joint position, velocity, torque")
      ->type_name("RECORD")
      ->required();
  cmd->add_option("--validate", c.validate,
                  "Validation record(s), same columns: the fit's torque prediction on each")
      ->type_name("RECORD");
  add_out_option(cmd, c.out);
  add_report_option(cmd, c.report);
  cmd->add_option("--time", c.spec.time, "Time column")->capture_default_str();
  cmd->add_option("--position", c.spec.position,
                  "Prefix of the position columns: PREFIX1..PREFIXn for the n joints")
      ->capture_default_str();
  cmd->add_option("--velocity", c.spec.velocity,
                  "Prefix of the velocity columns (\"\": not recorded, differentiated from "
                  "position)")
      ->capture_default_str();
  cmd->add_option("--torque", c.spec.torque, "Prefix of the joint torque columns")
      ->capture_default_str();
  cmd->add_option("--current", c.spec.current,
                  "Prefix of the motor current columns (instead of --torque; needs --gains)");
  cmd->add_option("--layout", c.spec.layout,
                  "ur: a UR e-Series real-time log as it is (no header; time, q, qd, currents; "
                  "needs --gains)")
      ->check(CLI::IsMember({"ur"}));
  auto* loaded = cmd->add_option(
      "--loaded", c.loaded,
      "A second record with motor currents and a payload of known mass on the last link: "
      "identify the drive gains with the dynamics (needs --payload-mass; --input is the "
      "unloaded record)");
  loaded->type_name("RECORD");
  auto* mass = cmd->add_option("--payload-mass", c.payload_mass,
                               "Mass of the payload of the --loaded record [kg]");
  mass->check(CLI::PositiveNumber);
  loaded->needs(mass);
  mass->needs(loaded);
  cmd->add_option("--gains", c.w.drive_gains,
                  "Drive gains [N m/A], one per joint, comma-separated: torque = gain x current")
      ->delimiter(',')
      ->type_name("K1,...,Kn")
      ->excludes(loaded);
  cmd->add_option("--resample", c.w.preprocess.resample_rate,
                  "Resample every joint onto a uniform grid of this rate [Hz] (0: keep the "
                  "samples; a non-uniform record needs it)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--lowpass", c.lowpass,
                  "Zero-phase Butterworth low-pass on every joint [Hz] (not given: chosen from "
                  "the record's spectrum; 0: none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--trim", c.w.preprocess.trim_s,
                  "Drop this many seconds at each end after filtering [s]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--friction", c.w.friction,
                  "Each joint's friction: linear (Fv, Fc, offset in the linear fit) or a model "
                  "of the registry (stribeck, lugre, ...) identified with the rigid body by "
                  "alternating fits")
      ->capture_default_str();
  cmd->add_flag("--consistent", c.w.consistent,
                "Also find the physically consistent link inertials nearest to the fit (each "
                "link a realisable body) and the torque error they give");
  cmd->add_flag("--armature", c.w.fit.armature,
                "Estimate each joint's armature (rotor inertia; for torques on the motor side)");
  cmd->add_flag("--no-viscous", c.no_viscous, "No viscous friction Fv");
  cmd->add_flag("--no-coulomb", c.no_coulomb, "No Coulomb friction Fc");
  cmd->add_flag("--no-offset", c.no_offset, "No torque offset");
  cmd->add_flag("--load-dependent", c.w.fit.load,
                "Each joint's Coulomb level grows with the torque it carries: Fc + mu |tau| "
                "(mu_JOINT, by instrumental variables; linear friction only)")
      ->excludes(loaded);
  cmd->add_flag("--ols", c.ols, "Ordinary least squares (no per-joint weights)");
}

}  // namespace frictionlab::cli
