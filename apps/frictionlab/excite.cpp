// frictionlab excite: design an excitation trajectory for arm identification, or check what a
// recorded trajectory determines (docs/robot-identification.md, "Experiment design"). The
// design is identify::design_excitation, the check workflows::check_robot_record; this prints
// the figures and writes excitation.csv and excitation.json.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "commands.hpp"
#include "console.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/identify/robot_excite.hpp"
#include "frictionlab/io/arm_record_io.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/excitation_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/robot_description.hpp"
#include "frictionlab/workflows/robot.hpp"

namespace frictionlab::cli {
namespace {

struct ExciteCli {
  std::string robot, check, out = "frictionlab-excite";
  identify::ExcitationOptions design;
  double rate = 1000;
  int periods = 1;
  io::ArmRecordSpec spec;
  std::optional<double> lowpass;
  bool no_viscous = false, no_coulomb = false, no_offset = false;
  workflows::FitRobotOptions w;
};

void print_check(const identify::ExcitationCheck& c, const std::vector<std::string>& joints) {
  std::printf(
      "  base parameters: %d; condition number %s (of the base regressor, %d samples)\n", c.rank,
      std::isfinite(c.condition_number) ? format_number(c.condition_number, 4).c_str() : "infinite",
      c.samples);
  std::printf("  %-10s %10s %14s %16s %10s\n", "joint", "range", "peak velocity", "peak accel.",
              "reversals");
  for (std::size_t j = 0; j < joints.size(); ++j)
    std::printf("  %-10s %10s %14s %16s %10d\n", joints[j].c_str(),
                format_number(c.range[j], 4).c_str(), format_number(c.peak_velocity[j], 4).c_str(),
                format_number(c.peak_acceleration[j], 4).c_str(), c.reversals[j]);
  double worst = 1;
  std::string worst_name;
  for (std::size_t i = 0; i < c.parameters.size(); ++i)
    if (c.separation[i] < worst) worst = c.separation[i], worst_name = c.parameters[i];
  if (!worst_name.empty())
    std::printf("  least separated parameter: %s (separation %s; 1 = orthogonal to the others)\n",
                worst_name.c_str(), format_number(worst, 3).c_str());
  for (const auto& f : c.flags) std::printf("  flag: %s\n", f.c_str());
  if (c.flags.empty()) std::printf("  every base parameter is excited\n");
}

void run_check(ExciteCli& c, const io::RobotDescription& robot,
               const std::vector<std::string>& joints) {
  const std::filesystem::path json = std::filesystem::path(c.out) / "excitation.json";
  check_result_files({json.string()}, "", {{"--robot", c.robot}, {"--check", c.check}});
  if (!c.spec.current.empty()) c.spec.torque.clear();
  const data::ArmRecord record = io::read_arm_record(c.check, joints, c.spec);
  if (c.lowpass) {
    c.w.preprocess.lowpass_cutoff = *c.lowpass;
    c.w.choose_lowpass = false;
  }
  const workflows::CheckRobotRecordOutcome o =
      workflows::check_robot_record(robot.model, record, c.w);
  std::printf("excite --check %s; preprocessing: %s\n", c.check.c_str(), o.preprocessing.c_str());
  print_check(o.check, joints);
  nlohmann::ordered_json j = {{"format", "frictionlab-excitation"},
                              {"version", 1},
                              {"robot", c.robot},
                              {"record", c.check},
                              {"preprocessing", o.preprocessing},
                              {"check", io::excitation_check_to_json(o.check, joints)}};
  std::filesystem::create_directories(c.out);
  io::write_file_atomic(json.string(), j.dump(2) + "\n");
  print_written(json.string(), "check");
}

void run_design(ExciteCli& c, io::RobotDescription& robot, const std::vector<std::string>& joints) {
  const std::filesystem::path dir(c.out), csv = dir / "excitation.csv",
                                          json = dir / "excitation.json";
  check_result_files({csv.string(), json.string()}, "", {{"--robot", c.robot}});
  identify::ExcitationDesign d;
  try {
    d = identify::design_excitation(robot.model, c.design);
  } catch (const std::invalid_argument& e) {
    std::string what = e.what();
    for (const auto& [library, option] : {std::pair{"velocity_limits", "--velocity-limit"},
                                          {"acceleration_limits", "--acceleration-limit"}})
      if (what.rfind(library, 0) == 0) what = option + what.substr(std::strlen(library));
    if (what.rfind("joint '", 0) != 0) throw std::invalid_argument(what);
    // a limit the description lacks: name the file and the options that give it
    throw io::InputError(c.robot, 0, 0,
                         what +
                             " (--velocity-limit V1,...,Vn and --acceleration-limit "
                             "A1,...,An give them)");
  }
  std::printf("excite: %d joints, %d harmonics, period %s s; %ld evaluations in %s s\n",
              robot.model.dof(), c.design.harmonics, format_number(c.design.period, 4).c_str(),
              d.evaluations, format_number(d.seconds, 3).c_str());
  print_check(d.check, joints);
  const data::ArmSamples s = d.trajectory.sample(c.rate, c.periods);
  const auto [names, columns] = io::excitation_columns(s);
  std::filesystem::create_directories(c.out);
  io::write_file_atomic(csv.string(), io::format_csv(names, columns));
  io::write_file_atomic(json.string(),
                        io::excitation_design_to_json(d, joints, c.robot).dump(2) + "\n");
  print_written(csv.string(), "trajectory (start from rest at its first row)");
  print_written(json.string(), "design");
}

void run_excite(ExciteCli& c) {
  io::check_output_directory(c.out);
  io::RobotDescription robot = io::read_robot(c.robot);
  std::vector<std::string> joints;
  for (const auto& j : robot.model.joints) joints.push_back(j.name);
  c.design.terms.viscous = c.w.fit.viscous = !c.no_viscous;
  c.design.terms.coulomb = c.w.fit.coulomb = !c.no_coulomb;
  c.design.terms.offset = c.w.fit.offset = !c.no_offset;
  c.w.fit.armature = c.design.terms.armature;
  if (c.check.empty())
    run_design(c, robot, joints);
  else
    run_check(c, robot, joints);
}

void add_design_options(CLI::App* cmd, ExciteCli& c) {
  cmd->add_option("--period", c.design.period, "Period T of the Fourier series [s]")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--harmonics", c.design.harmonics, "Harmonics L per joint")
      ->capture_default_str()
      ->check(CLI::Range(2, 50));
  cmd->add_option("--margin", c.design.margin,
                  "Fraction of each position, velocity and acceleration limit the trajectory "
                  "may reach")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 1.0));
  cmd->add_option("--velocity-limit", c.design.velocity_limits,
                  "Velocity limits, one per joint, in place of the description's [rad/s]")
      ->delimiter(',')
      ->type_name("V1,...,Vn");
  cmd->add_option("--acceleration-limit", c.design.acceleration_limits,
                  "Acceleration limits, one per joint (a URDF has none) [rad/s^2]")
      ->delimiter(',')
      ->type_name("A1,...,An");
  cmd->add_option("--rate", c.rate, "Sample rate of excitation.csv [Hz]")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e5));
  cmd->add_option("--periods", c.periods, "Periods written to excitation.csv")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--evaluations", c.design.evaluations,
                  "Condition-number evaluations of the optimiser (CMA-ES)")
      ->capture_default_str()
      ->check(CLI::Range(1L, 10000000L));
  cmd->add_option("--seed", c.design.seed, "Seed of the optimiser")->capture_default_str();
  cmd->add_option("--threads", c.design.threads, "Evaluation threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 1024));
}

void add_check_options(CLI::App* cmd, ExciteCli& c) {
  cmd->add_option("--check", c.check,
                  "Check this recorded trajectory instead of designing one (a fit-robot record: "
                  "time, per joint position, velocity, torque or current)")
      ->type_name("RECORD");
  cmd->add_option("--time", c.spec.time, "Time column (--check)")->capture_default_str();
  cmd->add_option("--position", c.spec.position, "Prefix of the position columns (--check)")
      ->capture_default_str();
  cmd->add_option("--velocity", c.spec.velocity,
                  "Prefix of the velocity columns (--check; \"\": differentiated from position)")
      ->capture_default_str();
  cmd->add_option("--torque", c.spec.torque, "Prefix of the joint torque columns (--check)")
      ->capture_default_str();
  cmd->add_option("--current", c.spec.current,
                  "Prefix of the motor current columns (--check; instead of --torque)");
  cmd->add_option("--layout", c.spec.layout, "ur: a UR e-Series real-time log as it is (--check)")
      ->check(CLI::IsMember({"ur"}));
  cmd->add_option("--gains", c.w.drive_gains, "Drive gains [N m/A] for --current (--check)")
      ->delimiter(',')
      ->type_name("K1,...,Kn");
  cmd->add_option("--resample", c.w.preprocess.resample_rate,
                  "Resample the record onto a uniform grid [Hz] (--check)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--lowpass", c.lowpass,
                  "Low-pass [Hz] (--check; not given: chosen as fit-robot does; 0: none)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--trim", c.w.preprocess.trim_s, "Seconds dropped at each end (--check)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace

void register_excite(CLI::App& app, Registry& registry) {
  auto [cmd, c] = add_command<ExciteCli>(
      app, registry, "excite",
      "Design a periodic Fourier excitation trajectory for fit-robot within the joints' "
      "position, velocity and acceleration limits, optimised for the condition number of the "
      "base regressor (writes excitation.csv and excitation.json into --out); or, with --check, "
      "report what a recorded trajectory determines (docs/robot-identification.md).",
      run_excite);
  cmd->add_option("--robot", c.robot, "Robot description: a .urdf or a ROBOT.json DH table")
      ->type_name("FILE")
      ->required();
  add_out_option(cmd, c.out);
  add_design_options(cmd, c);
  add_check_options(cmd, c);
  cmd->add_flag("--armature", c.design.terms.armature, "Include each joint's armature");
  cmd->add_flag("--no-viscous", c.no_viscous, "No viscous friction Fv");
  cmd->add_flag("--no-coulomb", c.no_coulomb, "No Coulomb friction Fc");
  cmd->add_flag("--no-offset", c.no_offset, "No torque offset");
}

}  // namespace frictionlab::cli
