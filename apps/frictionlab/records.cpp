// frictionlab CLI: the options `fit` and `compare` share, and reading their records.
#include "records.hpp"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

#include "frictionlab/format.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/models/registry.hpp"
#include "option_checks.hpp"

namespace frictionlab::cli {

void add_training_records(CLI::App* cmd, std::string& input, std::vector<std::string>& validate,
                          std::string& out) {
  cmd->add_option("--input", input, "Training record (.csv or .mat)")
      ->type_name("RECORD")
      ->required();
  cmd->add_option("--validate", validate, "Validation record(s), same channels")
      ->type_name("RECORD");
  add_out_option(cmd, out);
}

std::vector<io::NamedPath> training_record_paths(const std::string& input,
                                                 const std::vector<std::string>& validate) {
  std::vector<io::NamedPath> in{{"--input", input}};
  for (const auto& path : validate) in.push_back({"--validate", path});
  return in;
}

void add_record_options(CLI::App* cmd, FitOptions& o, bool is_fit) {
  add_training_records(cmd, o.input, o.validate, o.out);
  cmd->add_option("--problem", o.problem,
                  "friction: the force channel is the friction; sensorless: it is the joint "
                  "torque = Km*current - friction (reference 000)")
      ->check(CLI::IsMember({"friction", "sensorless"}))
      ->capture_default_str();
  if (is_fit) {
    cmd->add_option("--model", o.model, join_list(fit_model_names(/*with_elements=*/true)))
        ->capture_default_str();
    cmd->add_option("--method", o.method, "lsq (Ceres), grid (reference 000), two-stage")
        ->check(CLI::IsMember({"lsq", "grid", "two-stage"}))
        ->capture_default_str();
  }
  cmd->add_option("--time", o.channels.time, "Time column / variable [s]")
      ->default_str(kDefaultTime);
  cmd->add_option("--velocity", o.channels.velocity, "Velocity column / variable");
  cmd->add_option("--position", o.channels.position, "Position column / variable");
  cmd->add_option("--force", o.channels.force, "Measured friction force or joint torque column");
  cmd->add_option("--current", o.channels.current, "Motor current column [A] (sensorless)");
  cmd->add_option("--matrix", o.channels.matrix,
                  ".mat: the 4xN / Nx4 matrix [t, current, velocity, torque] of reference 000");
  cmd->add_flag("--rotary", o.workflow.fit.rotary,
                "Report rotary units (N m, rad/s) for --problem friction");
  cmd->add_option("--hold", o.hold,
                  "The velocity between samples in the fit's simulation: linear (a sampled smooth "
                  "motion; default for lsq, two-stage) or zoh (held until the next sample: set by "
                  "a digital controller or a DAC; grid always holds it)")
      ->check(CLI::IsMember({"linear", "zoh"}));
  cmd->add_option("--warmup", o.workflow.fit.warmup_s,
                  "Seconds at the start left out of the residuals")
      ->check(workflow_rule("warmup_s"));
  cmd->add_option("--starts", o.workflow.fit.lsq.starts, "lsq: number of starts (multi-start)")
      ->check(workflow_rule("starts"));
  cmd->add_option("--spread", o.workflow.fit.lsq.spread,
                  "lsq: the perturbed starts multiply each positive parameter by a log-uniform "
                  "factor in [1/F, F] (default 3)")
      ->type_name("F")
      ->check(workflow_rule("spread"));
  cmd->add_option("--threads", o.workflow.fit.lsq.threads,
                  "Threads for the fit (default: every core; the results do not depend on it)")
      ->check(workflow_rule("threads"));
  cmd->add_option("--loss", o.loss, "lsq: robust loss none, huber or cauchy")
      ->check(CLI::IsMember({"none", "huber", "cauchy"}))
      ->capture_default_str();
  auto* resample = cmd->add_option("--resample", o.workflow.preprocess.resample_rate,
                                   "Resample to this uniform rate [Hz] first")
                       ->check(workflow_rule("resample_rate"));
  cmd->add_option("--max-gap", o.workflow.preprocess.resample_max_gap,
                  "--resample: the longest step between samples to interpolate across [s] "
                  "(default: 10 median steps; a longer gap is an error)")
      ->type_name("SECONDS")
      ->check(positive())
      ->needs(resample);
  cmd->add_option("--lowpass", o.workflow.preprocess.lowpass_cutoff,
                  "Zero-phase Butterworth low-pass cut-off [Hz] (needs uniform sampling)")
      ->check(workflow_rule("lowpass_cutoff"));
  cmd->add_flag_callback(
      "--velocity-from-position",
      [&o] { o.workflow.preprocess.derivatives = data::DerivativesFrom::position; },
      "Derive the velocity from the position (Savitzky-Golay)");
  if (is_fit) cmd->add_flag("--no-plots", o.no_plots, "Do not write the SVG plots");
  add_report_option(cmd, o.report);
}

workflows::NamedRecord read_input(const FitOptions& o, const std::string& path) {
  return {path, io::read_record(path, o.channels)};
}

Inputs read_inputs(const FitOptions& o) {
  Inputs in{read_input(o, o.input), {}};
  for (const auto& path : o.validate) in.validation.push_back(read_input(o, path));
  return in;
}

std::vector<io::NamedPath> input_paths(const FitOptions& o) {
  return training_record_paths(o.input, o.validate);
}

workflows::FitOptions workflow_options(const FitOptions& o) {
  workflows::FitOptions wo = o.workflow;
  identify::FitOptions& fo = wo.fit;
  if (o.problem == "sensorless") {
    fo.problem = identify::ProblemKind::sensorless;
  } else if (o.problem != "friction") {
    throw std::invalid_argument("--problem must be friction or sensorless, got '" + o.problem +
                                "'");
  }
  fo.model = identify::parse_model(o.model);
  fo.method = identify::parse_method(o.method);
  fo.rotary = fo.rotary || fo.problem == identify::ProblemKind::sensorless;
  if (!o.hold.empty()) fo.hold = identify::parse_hold(o.hold);
  if (o.loss == "huber") {
    fo.lsq.loss = identify::LossKind::huber;
  } else if (o.loss == "cauchy") {
    fo.lsq.loss = identify::LossKind::cauchy;
  } else if (o.loss != "none") {
    throw std::invalid_argument("--loss must be none, huber or cauchy, got '" + o.loss + "'");
  }
  return wo;
}

std::string fmt(double x) { return format_display(x); }

}  // namespace frictionlab::cli
