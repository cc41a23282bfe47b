// frictionlab fit-joint / eval-joint: identify a robot joint (inertia, gravity, offset,
// friction) from one trajectory, and validate a joint model on records (docs/cli.md,
// "fit-joint"; docs/joint-identification.md). The command line's options, reading the records
// and model files (io/record_io, io/joint_json), one workflow call (workflows/joint.hpp), the
// outputs (io/joint_outputs) and the printed summary.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/joint_outputs.hpp"
#include "frictionlab/io/record_io.hpp"
#ifdef FRICTIONLAB_HAVE_MUJOCO
#include "frictionlab/mujoco/replay.hpp"
#endif
#include "frictionlab/workflows/joint.hpp"
#include "option_checks.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

/// The command line's values: files, channels and the values the CLI parses or derives (the
/// method, --init, --diff, --lowpass, --no-gravity, ...); the options that are the library's
/// one to one are bound straight onto the workflow's struct `w` (its defaults are the
/// command line's): w.prep (gain, resampling, differentiation, trim, ...), w.sr3, w.idim,
/// w.oe (segment, iterations, closed loop) and w.eval (horizon, max step).
struct FitJointOptions {
  std::string input, out = "frictionlab-joint";
  std::vector<std::string> validate;
  std::string method = "idim", init;
  // channels
  std::string time = "t", position, velocity, torque, command, temperature;
  std::string temperature_law;  ///< --temperature-law linear|exponential (empty: none)
  // structure
  bool no_gravity = false, no_offset = false;
  // preprocessing
  std::optional<double> lowpass;  ///< not given: chosen from the record (--lowpass 0: none)
  std::string diff = "savgol";
  bool use_velocity = false;
  // oe
  std::string desired, desired_position = "position", desired_velocity = "velocity",
                       desired_torque = "torque", controller = "fit";
  std::string oe_output = "both";
  std::string oe_jacobian = "sensitivities";
  bool no_plots = false;
  std::string report;  ///< --report FILE.html (fit-joint, eval-joint)
  workflows::FitJointOptions w;
};

/// A record with the command line's channels (io/record_io.hpp).
data::Record read(const FitJointOptions& o, const std::string& path) {
  io::RecordSpec spec;
  spec.time = o.time;
  spec.position = o.position;
  spec.velocity = o.use_velocity ? o.velocity : std::string();
  spec.force = o.torque;
  spec.current = o.command;
  spec.temperature = o.temperature;
  return io::read_record(path, spec);
}

/// The preprocessing the command line describes (identify/joint_data.hpp,
/// data/preprocess.hpp): the bound options with what the CLI derives (the torque's source, the
/// low-pass choice, the differentiator, the derivatives' source).
identify::JointPrepOptions prep_options(const FitJointOptions& o) {
  identify::JointPrepOptions p = o.w.prep;
  data::PreprocessOptions& pp = p.preprocess;
  if (o.diff == "tvreg" && !(pp.diff.tv.alpha > 0))
    throw std::invalid_argument(
        "the tvreg differentiator needs a weight tv_alpha > 0 "
        "(--tv-alpha), got " +
        format_number(pp.diff.tv.alpha));
  if (o.diff == "tvreg" && pp.diff.tv.order == 1 && !(pp.diff.tv_second_alpha > 0))
    throw std::invalid_argument(
        "tvreg of order 1 needs tv_second_alpha > 0 (--tv-alpha2: the "
        "weight of the second TVRegDiff, of qd, which gives qdd), got " +
        format_number(pp.diff.tv_second_alpha));
  p.torque_from_command = !o.command.empty();
  pp.lowpass_cutoff = o.lowpass.value_or(0.0);
  p.choose_lowpass = !o.lowpass;
  pp.diff.method = o.diff == "central" ? signal::DiffMethod::central
                   : o.diff == "tvreg" ? signal::DiffMethod::tvreg
                                       : signal::DiffMethod::savgol;
  pp.derivatives =
      o.use_velocity ? data::DerivativesFrom::velocity : data::DerivativesFrom::position;
  return p;
}

void print_errors(const std::string& name, const identify::JointEvaluation& e) {
  std::printf("  %-34s %9s %9s %9s   %9s %9s %9s\n", name.c_str(), fmt(e.torque.rel).c_str(),
              fmt(e.position.rel).c_str(), fmt(e.velocity.rel).c_str(), fmt(e.torque.rmse).c_str(),
              fmt(e.position.rmse).c_str(), fmt(e.velocity.rmse).c_str());
}

std::string file_name(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

/// Before any work: the output directory and --report can be written, and the result file
/// (`result`, io::kJointFitFile / kJointEvalFile) and --report are distinct and none of `inputs`.
void check_outputs(const std::string& out, const char* result, const std::string& report,
                   const std::vector<io::NamedPath>& inputs) {
  io::check_output_directory(out);
  check_report_output(report, inputs);
  check_result_files({(std::filesystem::path(out) / result).string()}, report, inputs);
}

/// fit-joint's input files: --input, --validate, --desired, an --init or --controller file.
std::vector<io::NamedPath> fit_joint_inputs(const FitJointOptions& o) {
  std::vector<io::NamedPath> in = training_record_paths(o.input, o.validate);
  if (!o.desired.empty()) in.push_back({"--desired", o.desired});
  if (!o.init.empty() && o.init != "idim" && o.init != "sr3") in.push_back({"--init", o.init});
  if (o.controller != "fit") in.push_back({"--controller", o.controller});
  return in;
}

void run_fit_joint(const FitJointOptions& o) {
  if (o.method == "oe" && o.init.empty())
    throw std::invalid_argument(
        "fit-joint --method oe needs --init idim, --init sr3 or --init "
        "JOINT.json (a joint file or a fit-joint result)");
  if (o.w.oe.closed_loop && o.desired.empty())
    throw std::invalid_argument(
        "--closed-loop needs --desired RECORD (the controller's desired "
        "trajectory and feedforward torque)");
  if (!o.temperature_law.empty() && o.temperature.empty())
    throw std::invalid_argument(
        "--temperature-law needs --temperature COLUMN (the records' temperature [degC])");
  if (o.temperature_law.empty() && !o.temperature.empty())
    throw std::invalid_argument(
        "--temperature COLUMN is read only to fit temperature-dependent friction: add "
        "--temperature-law linear|exponential, or leave --temperature out");
  const std::vector<io::NamedPath> inputs = fit_joint_inputs(o);
  check_outputs(o.out, io::kJointFitFile, o.report, inputs);
  workflows::FitJointOptions w = o.w;
  w.method = workflows::parse_joint_method(o.method);
  w.prep = prep_options(o);
  w.structure = identify::JointStructure{!o.no_gravity, !o.no_offset};
  w.oe.output = o.oe_output == "position"   ? identify::JointOeOptions::Output::position
                : o.oe_output == "velocity" ? identify::JointOeOptions::Output::velocity
                                            : identify::JointOeOptions::Output::both;
  w.oe.jacobian = o.oe_jacobian == "central_differences"
                      ? identify::JointOeOptions::Jacobian::central_differences
                      : identify::JointOeOptions::Jacobian::sensitivities;
  w.oe.max_step = w.eval.max_step;  // --max-step: the validation's and oe's simulation
  if (TemperatureLaw law{}; parse_temperature_law(o.temperature_law, law))  // CLI::IsMember
    w.idim.temperature_law = law;

  const data::Record train = read(o, o.input);
  std::optional<data::Record> desired;
  if (!o.desired.empty()) {
    io::RecordSpec spec;
    spec.time = o.time;
    spec.position = o.desired_position;
    spec.velocity = o.desired_velocity;
    spec.force = o.desired_torque;
    desired = io::read_record(o.desired, spec);
  }
  std::vector<data::Record> val;
  for (const auto& path : o.validate) val.push_back(read(o, path));
  if (w.method == workflows::JointMethod::oe) {
    if (o.init == "idim" || o.init == "sr3") {
      w.init = o.init == "idim" ? workflows::JointInit::idim : workflows::JointInit::sr3;
    } else {
      const io::JointFile jf = io::read_joint_file(o.init);
      w.input_warnings = jf.warnings;  // printed with the outcome's, and in joint_fit.json
      w.init = workflows::JointInit::model;
      w.init_model = jf.model;
      w.init_label = o.init;
    }
  }
  if (w.oe.closed_loop && o.controller != "fit") {
    w.fit_controller = false;
    w.oe.controller = io::read_controller_file(o.controller);
  }
  w.controller_label = o.controller;

  const workflows::FitJointOutcome s =
      workflows::fit_joint(train, val, desired, w, stderr_progress());
  print_warnings(s.warnings);
  const std::vector<std::string> files =
      io::write_fit_joint(o.out, s, !o.no_plots, inputs, o.report, report_options());
  if (quiet()) return print_files(files);

  std::printf("frictionlab fit-joint: method %s, %zu samples (%.3g s), %.2f s\n", o.method.c_str(),
              s.training_data.size(), s.training_data.t.back() - s.training_data.t.front(),
              s.run_time_s);
  std::printf("\n  %-10s %14s %12s %28s %12s  %s\n", "parameter", "value", "std. error",
              "95 % interval", "HAC std. err", "unit");
  for (const auto& e : s.parameters) {
    const bool has_se = std::isfinite(e.std_error);
    const std::string ci = e.fixed   ? std::string("(fixed)")
                           : !has_se ? std::string("-")
                                     : "[" + fmt(e.ci_low) + ", " + fmt(e.ci_high) + "]";
    const std::string se = e.fixed ? std::string() : has_se ? fmt(e.std_error) : "-";
    const std::string hac = e.fixed                          ? std::string()
                            : std::isfinite(e.hac_std_error) ? fmt(e.hac_std_error)
                                                             : "-";
    std::printf("  %-10s %14s %12s %28s %12s  %s%s%s\n", e.name.c_str(), fmt(e.value).c_str(),
                se.c_str(), ci.c_str(), hac.c_str(), e.unit.c_str(),
                e.at_limit ? "  (at the start grid's edge)" : "",
                e.undetermined ? "  (not determined by the record)" : "");
  }
  if (s.reliability) {
    const auto& rel = *s.reliability;
    if (!rel.standard_errors) {
      std::printf("\n  standard errors UNRELIABLE:\n");
      for (const auto& why : rel.reasons) std::printf("    - %s\n", why.c_str());
    }
    std::printf(
        "  residuals: lag-1 autocorrelation %s, Ljung-Box p = %s (%d lags); HAC bandwidth %d "
        "samples\n",
        fmt(rel.whiteness.acf1).c_str(), fmt(rel.whiteness.ljung_box_p).c_str(), rel.whiteness.lags,
        rel.hac_lags);
  }
  std::printf("\n  %-34s %9s %9s %9s   %9s %9s %9s\n", "relative error ||e||/||y||, RMSE", "torque",
              "position", "velocity", "[N m]", "[rad]", "[rad/s]");
  print_errors("training: " + file_name(o.input), s.training);
  for (std::size_t i = 0; i < s.validation.size(); ++i)
    print_errors("validation: " + file_name(o.validate[i]), s.validation[i]);
  std::printf("\n  static curve: %zu constant-velocity segments in the training record\n",
              s.static_curve.size());
  std::printf("\n");
  print_verdict(s.verdict);
  print_files(files);
}

struct EvalJointOptions {
  FitJointOptions rec;  ///< record, channels, preprocessing, validation simulation
  std::string joint;    ///< JOINT.json or joint_fit.json
  std::vector<std::string> inputs;
  bool mujoco = false;  ///< --mujoco: also replay the records in MuJoCo
};

/// --mujoco: the records replayed in MuJoCo with the model's exported joint form and with
/// frictionlab's friction inside MuJoCo, beside frictionlab's own simulation (one note line).
std::string mujoco_replay(const sim::JointModel& model,
                          const std::vector<identify::JointData>& records,
                          const identify::JointEvalOptions& eval) {
#ifdef FRICTIONLAB_HAVE_MUJOCO
  return mujoco::replay_summary(
      mujoco::replay_joint_records(model, records, eval.horizon_s, eval.max_step));
#else
  (void)model;
  (void)records;
  (void)eval;
  throw std::invalid_argument(
      "--mujoco: this frictionlab was built without MuJoCo (Debian: libmujoco-dev; "
      "scripts/install-deps.sh installs it)");
#endif
}

void run_eval_joint(const EvalJointOptions& o) {
  std::vector<io::NamedPath> inputs{{"--joint", o.joint}};
  for (const auto& path : o.inputs) inputs.push_back({"--input", path});
  check_outputs(o.rec.out, io::kJointEvalFile, o.rec.report, inputs);
  const io::JointFile jf = io::read_joint_file(o.joint);
  if (jf.model.temperature && o.rec.temperature.empty())
    throw std::invalid_argument(o.joint +
                                ": the joint's friction depends on the temperature: give the "
                                "records' temperature column with --temperature COLUMN");
  if (!jf.model.temperature && !o.rec.temperature.empty())
    throw std::invalid_argument("--temperature: the joint in " + o.joint +
                                " has no temperature dependence, so the column would not be used: "
                                "leave --temperature out");
  std::vector<data::Record> records;
  for (const auto& path : o.inputs) records.push_back(read(o.rec, path));
  workflows::EvalJointOptions w;
  w.prep = prep_options(o.rec);
  w.eval = o.rec.w.eval;
  w.input_warnings = jf.warnings;  // printed with the outcome's, and in joint_eval.json
  const workflows::EvalJointOutcome r =
      workflows::eval_joint(jf.model, records, w, stderr_progress());
  const std::string replay = o.mujoco ? mujoco_replay(jf.model, r.data, w.eval) : "";
  print_warnings(r.warnings);
  const std::vector<std::string> files = io::write_eval_joint(
      o.rec.out, r, jf.model, o.joint, !o.rec.no_plots, inputs, o.rec.report, report_options());
  if (quiet()) return print_files(files);
  std::printf("frictionlab eval-joint: %s\n\n", o.joint.c_str());
  std::printf("  %-34s %9s %9s %9s   %9s %9s %9s\n", "relative error ||e||/||y||, RMSE", "torque",
              "position", "velocity", "[N m]", "[rad]", "[rad/s]");
  for (std::size_t i = 0; i < r.evaluations.size(); ++i)
    print_errors(file_name(o.inputs[i]), r.evaluations[i]);
  std::printf("\n");
  print_verdict(r.verdict);
  print_files(files);
  if (!replay.empty()) print_note(replay);
}

/// The options fit-joint and eval-joint share: channels, structure-free preprocessing and the
/// validation simulation.
void add_record_options(CLI::App* cmd, FitJointOptions& o_ref) {
  FitJointOptions* o = &o_ref;
  cmd->add_option("--time", o->time, "Time column / variable [s]")->capture_default_str();
  cmd->add_option("--position", o->position, "Joint angle column [rad]")->required();
  auto* vel = cmd->add_option("--velocity", o->velocity,
                              "Measured velocity column [rad/s]; needs --use-velocity (without "
                              "it qd and qdd come from --position)");
  auto* tq = cmd->add_option("--torque", o->torque, "Applied torque column [N m]");
  auto* cm = cmd->add_option("--command", o->command,
                             "Command column (current or torque command); tau = gain * command");
  tq->excludes(cm);
  cmd->add_option("--temperature", o->temperature,
                  "Temperature column [degC] (temperature-dependent friction: fit-joint "
                  "--temperature-law, and a joint file with a \"temperature\" law)");
  cmd->callback([tq, cm, vel, o]() {
    if (tq->count() == 0 && cm->count() == 0)
      throw CLI::RequiredError("--torque COLUMN, or --command COLUMN with --gain K,");
    // A velocity column that would not be read is an error, not silently ignored.
    if (vel->count() > 0 && !o->use_velocity)
      throw CLI::ValidationError(
          "--velocity " + o->velocity +
          " is read only with --use-velocity (qd = the measured "
          "velocity, qdd its derivative); without it qd and qdd come from --position: add "
          "--use-velocity, or drop --velocity");
  });
  cmd->add_option("--gain", o->w.prep.gain, "Gain of --command [N m per unit]")->needs(cm);
  auto* resample = cmd->add_option("--resample", o->w.prep.preprocess.resample_rate,
                                   "Resample to this uniform rate [Hz] first")
                       ->check(workflow_rule("resample_rate"));
  cmd->add_option("--max-gap", o->w.prep.preprocess.resample_max_gap,
                  "--resample: the longest step between samples to interpolate across [s] "
                  "(default: 10 median steps; a longer gap is an error)")
      ->type_name("SECONDS")
      ->check(positive())
      ->needs(resample);
  cmd->add_option("--lowpass", o->lowpass,
                  "Zero-phase Butterworth low-pass of position, velocity and torque [Hz]; 0: none; "
                  "not given: 5 x the motion's bandwidth (docs/joint-identification.md)")
      ->check(non_negative());
  cmd->add_option("--diff", o->diff, "Differentiator for qd, qdd: savgol, central or tvreg")
      ->check(CLI::IsMember({"savgol", "central", "tvreg"}))
      ->capture_default_str();
  cmd->add_option("--tv-alpha", o->w.prep.preprocess.diff.tv.alpha,
                  "tvreg: regularisation weight, sample-rate independent [rad s^(order+1)]")
      ->check(positive());
  cmd->add_option("--tv-order", o->w.prep.preprocess.diff.tv.order,
                  "tvreg: 2 (TV of qdd's derivative, default) or 1 (TVRegDiff twice)")
      ->check(CLI::IsMember({1, 2}))
      ->capture_default_str();
  cmd->add_option("--tv-alpha2", o->w.prep.preprocess.diff.tv_second_alpha,
                  "tvreg order 1: weight of the second TVRegDiff (of qd) [rad s]")
      ->check(positive());
  cmd->add_flag("--reintegrate", o->w.prep.preprocess.reintegrate,
                "q, qd from the double integral of the de-noised qdd (reference 004 sec. 5.1)");
  cmd->add_option("--tv-torque", o->w.prep.preprocess.tv_force_alpha,
                  "De-noise the torque by TV regularisation with this weight [N m s^2]")
      ->check(workflow_rule("tv_force_alpha"));
  cmd->add_option("--diff-window", o->w.prep.preprocess.diff_window_s, "savgol window [s]")
      ->check(workflow_rule("diff_window_s"))
      ->capture_default_str();
  cmd->add_flag("--use-velocity", o->use_velocity,
                "qd = the measured --velocity channel, qdd its derivative");
  cmd->add_option("--decimate", o->w.prep.preprocess.decimate,
                  "Keep every N-th sample after filtering")
      ->check(workflow_rule("decimate"));
  cmd->add_option("--trim", o->w.prep.preprocess.trim_s,
                  "Seconds dropped at both ends after filtering")
      ->check(workflow_rule("trim_s"));
  cmd->add_option("--horizon", o->w.eval.horizon_s,
                  "Validation: restart the simulation from the measured state every this many "
                  "seconds (0: one open-loop simulation of the whole record)")
      ->check(workflow_rule("horizon_s"))
      ->capture_default_str();
  cmd->add_option("--max-step", o->w.eval.max_step, "Largest simulation step [s]")
      ->check(workflow_rule("max_step"))
      ->capture_default_str();
}

}  // namespace

void register_fit_joint(CLI::App& app, Registry& registry) {
  auto [cmd, o] = add_command<FitJointOptions>(
      app, registry, "fit-joint",
      "Identify a robot joint (inertia, gravity terms, offset, friction) from one trajectory by "
      "one of three methods: idim (the default: inverse dynamic model, linear least squares with "
      "Coulomb + viscous friction), sr3 (SINDy-SR3 model selection over a friction library, then "
      "the iterative LuGre identification of reference 004: a joint LuGre model) or oe "
      "(output-error refinement: simulates the joint and fits position and velocity, from "
      "--init idim, sr3 or a file). Every method sees the same preprocessed record (--resample, "
      "--lowpass, --diff, ...); validates on --validate records; writes joint_fit.json, "
      "predictions and plots into --out (docs/joint-identification.md).",
      run_fit_joint);
  add_training_records(cmd, o.input, o.validate, o.out);
  cmd->add_option("--method", o.method,
                  "idim (inverse dynamic model, linear least squares, Coulomb + viscous "
                  "friction), sr3 (SINDy-SR3 + iterative LuGre, reference 004: joint LuGre "
                  "friction) or oe (output-error refinement; needs --init)")
      ->check(CLI::IsMember({"sr3", "idim", "oe"}))
      ->capture_default_str();
  cmd->add_option("--init", o.init,
                  "oe (required there): start from an idim or sr3 fit of the same record, or "
                  "from a JOINT.json / joint_fit.json file")
      ->type_name("sr3|idim|FILE");
  cmd->add_option("--K", o.w.sr3.K,
                  "sr3: tanh(K qd) in place of sgn(qd) in the library and the LuGre model [s/rad] "
                  "(0: sgn, the paper's model A)")
      ->check(workflow_rule("K"))
      ->capture_default_str();
  cmd->add_option("--viscous-powers", o.w.sr3.n_viscous,
                  "sr3: the viscous columns of the library: qd, qd^2, .., qd^N")
      ->check(workflow_rule("n_viscous"))
      ->capture_default_str();
  cmd->add_option(
         "--delta", o.w.sr3.delta,
         "sr3: the Stribeck exponents of the library's columns sg*exp(-|qd/Omega_s|^delta)")
      ->check(positive())
      ->capture_default_str();
  cmd->add_option("--sigma0-init", o.w.sr3.sigma0_init,
                  "sr3: the bristle stiffnesses sigma0 the iterative LuGre step starts from (one "
                  "run each, the best kept) [N m/rad]")
      ->check(positive())
      ->capture_default_str();
  cmd->add_option("--aic-observations", o.w.sr3.aic_observations,
                  "sr3: number m of held-out observations the AIC model selection scores "
                  "(0: max(40, columns + 10))")
      ->check(workflow_rule("aic_observations"))
      ->capture_default_str();
  add_record_options(cmd, o);
  cmd->add_flag("--no-gravity", o.no_gravity, "No gravity terms mgCx, mgCy (horizontal axis)");
  cmd->add_flag("--no-offset", o.no_offset, "No constant torque offset");
  cmd->add_flag("--asymmetric", o.w.idim.asymmetric,
                "idim: separate Coulomb levels Fc_pos, Fc_neg (needs --no-offset)");
  cmd->add_flag("--load-dependent", o.w.idim.load_dependent,
                "idim (and oe from idim): Coulomb level rising with the load |tau|, by mu_drive "
                "while the motor drives the joint and mu_back while it is back-driven");
  cmd->add_option("--temperature-law", o.temperature_law,
                  "idim: friction levels scaled by the temperature (needs --temperature): linear "
                  "1 + k (T - T_ref) or exponential exp(k (T - T_ref)), k = kT for the Coulomb "
                  "levels and kT_v for the viscous term [1/K]")
      ->check(CLI::IsMember({"linear", "exponential"}));
  cmd->add_option("--temperature-ref", o.w.idim.temperature_ref,
                  "idim: the reference temperature T_ref of the fitted levels [degC] (default: "
                  "the mean temperature of the moving samples)")
      ->check(workflow_rule("temperature_ref"));
  cmd->add_option("--v-deadband", o.w.idim.v_deadband,
                  "idim: leave out samples with |qd| <= this [rad/s]")
      ->check(workflow_rule("v_deadband"));
  cmd->add_option("--oe-output", o.oe_output,
                  "oe: the simulated outputs fitted to the record: position, velocity or both")
      ->check(CLI::IsMember({"position", "velocity", "both"}))
      ->capture_default_str();
  cmd->add_option("--oe-jacobian", o.oe_jacobian,
                  "oe: the Jacobian by forward sensitivities of the simulation (LuGre friction; "
                  "static friction always uses central differences) or by central differences")
      ->check(CLI::IsMember({"sensitivities", "central_differences"}))
      ->capture_default_str();
  cmd->add_option("--desired", o.desired,
                  "Closed-loop record: the controller's desired trajectory (same time column), "
                  "same preprocessing, interpolated onto the training samples")
      ->type_name("RECORD");
  cmd->add_option("--desired-position", o.desired_position, "--desired: desired angle column")
      ->capture_default_str();
  cmd->add_option("--desired-velocity", o.desired_velocity, "--desired: desired velocity column")
      ->capture_default_str();
  cmd->add_option("--desired-torque", o.desired_torque,
                  "--desired: feedforward torque column (empty: no feedforward)")
      ->capture_default_str();
  cmd->add_option("--controller", o.controller,
                  "oe --closed-loop: the PD law's gains, 'fit' (least squares on the training "
                  "record) or a CONTROLLER.json")
      ->type_name("fit|FILE")
      ->capture_default_str();
  cmd->add_flag("--closed-loop", o.w.oe.closed_loop,
                "oe: simulate the joint under its controller (--desired) and fit the torque "
                "too (closed-loop output error)");
  cmd->add_option("--segment", o.w.oe.segment_s,
                  "oe: multiple-shooting segment length [s] (0: whole)")
      ->check(workflow_rule("segment_s"))
      ->capture_default_str();
  cmd->add_option("--iterations", o.w.oe.max_iterations, "oe: largest number of solver iterations")
      ->check(workflow_rule("max_iterations"))
      ->capture_default_str();
  cmd->add_flag("--no-plots", o.no_plots, "Do not write the SVG plots");
  add_report_option(cmd, o.report);

  auto [ev, e] = add_command<EvalJointOptions>(
      app, registry, "eval-joint",
      "Validate a joint model (JOINT.json or a fit-joint result) on records: the error measures "
      "of fit-joint (torque from the measured motion, position and velocity simulated from the "
      "applied torque); writes joint_eval.json, predictions and plots into --out.",
      run_eval_joint);
  e.rec.out = "frictionlab-joint-eval";
  ev->add_option("--joint", e.joint, "Joint model file")->type_name("JOINT.json")->required();
  ev->add_option("--input", e.inputs, "Record(s) (.csv or .mat)")->type_name("RECORD")->required();
  add_out_option(ev, e.rec.out);
  add_record_options(ev, e.rec);
  ev->add_flag("--mujoco", e.mujoco,
               "Also replay the records in MuJoCo (steps of at most --max-step, restarts every "
               "--horizon): prints the mean position error of the model's exported joint form "
               "(export mujoco --form joint), of frictionlab's friction inside MuJoCo and of "
               "frictionlab's own simulation (needs a build with MuJoCo)");
  ev->add_flag("--no-plots", e.rec.no_plots, "Do not write the SVG plots");
  add_report_option(ev, e.rec.report);
}

}  // namespace frictionlab::cli
