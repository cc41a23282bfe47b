// frictionlab: command-line tool (docs/cli.md). Parses arguments and calls the library; errors in
// input files or arguments print "frictionlab: error: ..." and exit with status 1; command-line
// syntax errors exit with CLI11's status (non-zero).
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "console.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/models/registry.hpp"
#include "option_checks.hpp"

#ifndef FRICTIONLAB_VERSION
#define FRICTIONLAB_VERSION "unknown"
#endif

namespace {

// The options `fit` and `compare` share (records, channels, problem, preprocessing, lsq);
// `fit` also has --model, --method and --no-plots.
void add_record_options(CLI::App* cmd, frictionlab::cli::FitOptions& o, bool is_fit) {
  cmd->add_option("--input", o.input, "Training record (.csv or .mat)")
      ->type_name("RECORD")
      ->required();
  cmd->add_option("--validate", o.validate, "Validation record(s), same channels")
      ->type_name("RECORD");
  cmd->add_option("--out", o.out, "Output directory (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_option("--problem", o.problem,
                  "friction: the force channel is the friction; sensorless: it is the joint "
                  "torque = Km*current - friction (reference 000)")
      ->check(CLI::IsMember({"friction", "sensorless"}))
      ->capture_default_str();
  if (is_fit) {
    cmd->add_option("--model", o.model,
                    frictionlab::join_list(frictionlab::fit_model_names(/*with_elements=*/true)))
        ->capture_default_str();
    cmd->add_option("--method", o.method, "lsq (Ceres), grid (reference 000), two-stage")
        ->check(CLI::IsMember({"lsq", "grid", "two-stage"}))
        ->capture_default_str();
  }
  cmd->add_option("--time", o.time, "Time column / variable [s]")
      ->default_str(frictionlab::cli::kDefaultTime);
  cmd->add_option("--velocity", o.velocity, "Velocity column / variable");
  cmd->add_option("--position", o.position, "Position column / variable");
  cmd->add_option("--force", o.force, "Measured friction force or joint torque column");
  cmd->add_option("--current", o.current, "Motor current column [A] (sensorless)");
  cmd->add_option("--matrix", o.matrix,
                  ".mat: the 4xN / Nx4 matrix [t, current, velocity, torque] of reference 000");
  cmd->add_flag("--rotary", o.rotary, "Report rotary units (N m, rad/s) for --problem friction");
  cmd->add_option("--hold", o.hold,
                  "The velocity between samples in the fit's simulation: linear (a sampled smooth "
                  "motion; default for lsq, two-stage) or zoh (held until the next sample: set by "
                  "a digital controller or a DAC; grid always holds it)")
      ->check(CLI::IsMember({"linear", "zoh"}));
  cmd->add_option("--warmup", o.warmup, "Seconds at the start left out of the residuals")
      ->check(frictionlab::cli::workflow_rule("warmup_s"));
  cmd->add_option("--starts", o.starts, "lsq: number of starts (multi-start)")
      ->check(frictionlab::cli::workflow_rule("starts"));
  cmd->add_option("--spread", o.spread,
                  "lsq: the perturbed starts multiply each positive parameter by a log-uniform "
                  "factor in [1/F, F] (default 3)")
      ->type_name("F")
      ->check(frictionlab::cli::workflow_rule("spread"));
  cmd->add_option("--threads", o.threads,
                  "Threads for the fit (default: every core; the results do not depend on it)")
      ->check(frictionlab::cli::workflow_rule("threads"));
  cmd->add_option("--loss", o.loss, "lsq: robust loss none, huber or cauchy")
      ->check(CLI::IsMember({"none", "huber", "cauchy"}))
      ->capture_default_str();
  auto* resample =
      cmd->add_option("--resample", o.resample, "Resample to this uniform rate [Hz] first")
          ->check(frictionlab::cli::workflow_rule("resample_rate"));
  cmd->add_option("--max-gap", o.max_gap,
                  "--resample: the longest step between samples to interpolate across [s] "
                  "(default: 10 median steps; a longer gap is an error)")
      ->type_name("SECONDS")
      ->check(frictionlab::cli::positive())
      ->needs(resample);
  cmd->add_option("--lowpass", o.lowpass,
                  "Zero-phase Butterworth low-pass cut-off [Hz] (needs uniform sampling)")
      ->check(frictionlab::cli::workflow_rule("lowpass_cutoff"));
  cmd->add_flag("--velocity-from-position", o.velocity_from_position,
                "Derive the velocity from the position (Savitzky-Golay)");
  if (is_fit) cmd->add_flag("--no-plots", o.no_plots, "Do not write the SVG plots");
  cmd->add_option("--report", o.report,
                  "Also write the identification report: one self-contained HTML page "
                  "(docs/report.md)")
      ->type_name("FILE.html");
}

int run(int argc, char** argv) {
  frictionlab::cli::set_command_line(argc, argv);
  // Every file a command reads is one of its inputs (also the files named inside input files),
  // and an interrupted run leaves no temporary file (io/output.hpp).
  frictionlab::io::protect_every_input_read();
  frictionlab::io::remove_temp_files_on_signals();
  using frictionlab::cli::DemoOptions;
  using frictionlab::cli::SimulateOptions;

  CLI::App app{
      "frictionlab: friction models for robotics and mechatronics.\n"
      "Documentation: docs/cli.md, docs/file-formats.md, docs/models.md",
      "frictionlab"};
  app.footer("Models (MODEL.json \"model\", docs/models.md): " +
             frictionlab::join_list(frictionlab::model_names()));
  app.set_version_flag("--version", std::string("frictionlab ") + FRICTIONLAB_VERSION);
  app.require_subcommand(1);
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    // CLI11's messages quote the typed value as it is: made printable (io/errors.hpp).
    return "frictionlab: error: " + frictionlab::io::printable_lines(e.what()) +
           "\nRun with --help for more information.\n";
  });

  // ---- simulate ----
  SimulateOptions so;
  CLI::App* sim = app.add_subcommand(
      "simulate",
      "Simulate a friction model driven by a sampled input (--model, --input), or a coupled "
      "mechanical system (--system, --params).");
  CLI::Option* o_model =
      sim->add_option("--model", so.model, "Friction model file (docs/file-formats.md)")
          ->type_name("MODEL.json");
  CLI::Option* o_input =
      sim->add_option("--input", so.input,
                      "Input record: columns t,v (velocity-driven) or t,x (displacement-driven)")
          ->type_name("INPUT.csv");
  CLI::Option* o_system =
      sim->add_option("--system", so.system, "Coupled system: stick-slip or joint")
          ->check(CLI::IsMember({"stick-slip", "joint"}));
  CLI::Option* o_params =
      sim->add_option("--params", so.params, "System file")->type_name("SYSTEM.json");
  sim->add_option("--output", so.output,
                  "Output CSV: t,v,F,<states> (--model; t,x,v,F,<states> for a t,x input) or "
                  "t,x,v,F,<states> (--system)")
      ->type_name("OUT.csv")
      ->required();
  sim->add_option("--integrator", so.integrator,
                  "--model: exact (default), implicit-euler, euler, rk4; "
                  "--system: trbdf2 (default), rosenbrock, cvode")
      ->check(CLI::IsMember(
          {"exact", "implicit-euler", "euler", "rk4", "trbdf2", "rosenbrock", "cvode"}));
  CLI::Option* o_hold =
      sim->add_option("--hold", so.hold,
                      "--model with a t,v input: input between samples, linear (interpolated, "
                      "default) or zoh (held)")
          ->check(CLI::IsMember({"zoh", "linear"}));
  sim->add_option(
         "--dt", so.dt,
         "--model: largest internal substep [s] (each sample interval is split into "
         "ceil(h/H) substeps); --system: trbdf2/rosenbrock step [s] (default 0.001), cvode "
         "largest step")
      ->type_name("H")
      ->check(frictionlab::cli::positive());
  CLI::Option* o_output_dt = sim->add_option("--output-dt", so.output_dt,
                                             "--system: output sampling [s] (default: every step)")
                                 ->type_name("T")
                                 ->check(frictionlab::cli::non_negative());
  CLI::Option* o_rtol =
      sim->add_option("--rtol", so.rtol, "--system with cvode: relative tolerance (default 1e-8)")
          ->type_name("R")
          ->check(frictionlab::cli::positive());
  sim->add_option("--plot", so.plot, "Also write an SVG plot of the result")->type_name("OUT.svg");
  o_model->needs(o_input);
  o_input->needs(o_model);
  o_system->needs(o_params);
  o_params->needs(o_system);
  o_model->excludes(o_system);
  o_hold->excludes(o_system);
  o_output_dt->excludes(o_model);
  o_rtol->excludes(o_model);

  // ---- fit ----
  frictionlab::cli::FitOptions fo;
  CLI::App* fit = app.add_subcommand(
      "fit",
      "Identify friction parameters from a measured record (CSV or .mat): writes fit.json "
      "(parameters, standard errors, 95 % intervals, correlation, metrics), model.json and "
      "plots into --out.");
  add_record_options(fit, fo, true);

  // ---- compare ----
  frictionlab::cli::CompareOptions co;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "Fit several models to one record (lsq) and rank them by validation RMSE (training RMSE "
      "without --validate), with AICc/BIC: prints a table and a verdict, writes compare.json "
      "and <model>/model.json into --out.");
  add_record_options(compare, co.fit, false);
  compare->add_option("--models", co.models, "Comma-separated models to fit (names as fit --model)")
      ->capture_default_str();
  compare->add_option("--criterion", co.criterion, "Information criterion: aicc or bic")
      ->check(CLI::IsMember({"aicc", "bic"}))
      ->capture_default_str();

  // ---- export ----
  frictionlab::cli::ExportOptions eo;
  CLI::App* exp = app.add_subcommand("export", "Export fit results for other software.");
  exp->require_subcommand(1);
  CLI::App* exp_xml = exp->add_subcommand(
      "xml",
      "The robot configuration's <group name=\"LUGRE\"> (Km, Kw, S0, S1, Vth, Fc_pos, Fc_neg, "
      "Fs_pos, Fs_neg; one value: one joint) from a --problem sensorless lugre/lugre-asym "
      "fit.json, or from a joint_fit.json with a LuGre friction and --km.");
  exp_xml
      ->add_option("--params", eo.params,
                   "fit.json written by frictionlab fit, or joint_fit.json by fit-joint")
      ->type_name("FIT.json")
      ->required();
  exp_xml
      ->add_option("--km", eo.km,
                   "Torque constant Km [Nm/A] (needed for a joint_fit.json or a --problem "
                   "friction fit; overrides the file's)")
      ->check(frictionlab::cli::positive());
  exp_xml->add_option("--output", eo.output, "Output file (default: stdout)")->type_name("FILE");

  // ---- demo ----
  DemoOptions demo_opts;
  CLI::App* demo = app.add_subcommand(
      "demo",
      "Run the main job on built-in data: LuGre at 10 ms vs 0.1 ms (exact step vs forward "
      "Euler), the stick-slip benchmark (TR-BDF2, ROS2, CVODE), and a sensorless-torque LuGre "
      "fit on a built-in record against its true parameters; writes CSV, JSON and SVG files.");
  demo->add_option("--out", demo_opts.out, "Output directory (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();

  // ---- subcommands that live in their own files (commands.cpp) ----
  frictionlab::cli::Registry registry;
  frictionlab::cli::register_commands(app, registry);
  frictionlab::cli::add_verbosity_flags(app, app.get_subcommand("fleet"));

  try {
    app.parse(argc, argv);
    frictionlab::cli::set_verbosity(frictionlab::cli::verbosity_from_flags());
    if (*sim && so.model.empty() && so.system.empty())
      throw CLI::RequiredError(
          "simulate needs --model MODEL.json with --input INPUT.csv, or "
          "--system NAME with --params SYSTEM.json",
          CLI::ExitCodes::RequiredError);
  } catch (const CLI::ParseError& e) {
    // An argument CLI11 did not recognise is named with the nearest known one (did you mean).
    if (e.get_exit_code() != 0)
      if (const auto msg = frictionlab::cli::unknown_argument_message(app)) {
        frictionlab::cli::print_error(*msg);
        std::cerr << "Run with --help for more information.\n";
        return static_cast<int>(CLI::ExitCodes::ExtrasError);
      }
    return app.exit(e);
  }
  so.hold_given = o_hold->count() > 0;

  try {
    if (*sim) frictionlab::cli::run_simulate(so);
    if (*demo) frictionlab::cli::run_demo(demo_opts);
    if (*fit) frictionlab::cli::run_fit(fo);
    if (*compare) frictionlab::cli::run_compare(co);
    if (*exp_xml) frictionlab::cli::run_export_xml(eo);
    for (const auto& r : registry)
      if (*r.command) r.run();
  } catch (const frictionlab::io::InputError& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::invalid_argument& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::runtime_error& e) {
    frictionlab::cli::print_error(e.what());
    return 1;
  } catch (const std::exception& e) {
    frictionlab::cli::print_error(e.what(), true);
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // setting up the command line, or writing to std::cerr
    frictionlab::cli::print_error(e.what(), true);
    return 2;
  }
}
