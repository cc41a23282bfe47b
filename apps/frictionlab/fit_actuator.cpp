// frictionlab fit-actuator / eval-actuator: servo actuator models M1..M6 of the BAM package
// (reference 002) fitted to pendulum logs and selected on held-out logs; evaluation of parameter
// files on logs (docs/actuators.md). Parsing and printing only: the work is
// workflows/actuator, the files io/servo_json and io/actuator_json.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/actuator_json.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/workflows/actuator.hpp"
#include "option_checks.hpp"

namespace frictionlab::cli {
namespace {

/// The logs to read: paths and the filter's lists (parsed by the workflow); --resample and
/// --current-unit bound onto the library's options.
struct LogOptions {
  std::vector<std::string> logs;
  std::string kp, trajectory, files;
  workflows::ServoLogPreparation prep;
  io::ServoLogReadOptions read;
};

void add_log_options(CLI::App* cmd, LogOptions& o, bool positional = false) {
  if (positional)
    cmd->add_option("logs", o.logs, "BAM log files, or directories of .json logs")
        ->type_name("LOG")
        ->required();
  else
    cmd->add_option("--logs", o.logs, "BAM log files, or directories of .json logs")
        ->type_name("PATH")
        ->required();
  cmd->add_option("--kp", o.kp, "Use only the logs with these kp (comma-separated)");
  cmd->add_option("--trajectory", o.trajectory,
                  "Use only the logs with these trajectories (comma-separated)");
  cmd->add_option("--file", o.files, "Use only these log files (names, comma-separated)");
  cmd->add_option("--resample", o.prep.resample,
                  "Resample raw logs (no 'dt') to this step [s] as BAM's process.py does")
      ->type_name("DT");
  cmd->add_option("--current-unit", o.read.current_unit,
                  "Unit of the logged motor current (entries[].current) where a log does not say "
                  "(\"current_unit\"): A or mA")
      ->check(CLI::IsMember({"A", "mA"}));
}

/// The logs, read and prepared. Their warnings go to `warnings` when given (a command whose
/// result file holds them; printed with the outcome's), else to stderr.
std::vector<data::ServoLog> load_logs(const LogOptions& o,
                                      std::vector<std::string>* warnings = nullptr) {
  workflows::ServoLogPreparation prep = o.prep;
  prep.filter = workflows::parse_servo_log_filter(o.kp, o.trajectory, o.files);
  io::ServoLogSet set = io::read_servo_log_set(o.logs, o.read);
  auto prepared = workflows::prepare_servo_logs(std::move(set.logs), prep);
  std::vector<std::string> all = std::move(set.warnings);
  all.insert(all.end(), prepared.warnings.begin(), prepared.warnings.end());
  if (warnings)
    *warnings = std::move(all);
  else
    print_warnings(all);
  return std::move(prepared.logs);
}

std::vector<io::NamedPath> log_paths(const LogOptions& o) {
  std::vector<io::NamedPath> in;
  for (const auto& path : o.logs) in.push_back({"--logs", path});
  return in;
}

std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s += std::string(w - s.size(), ' ');
  return s;
}

std::string lpad(std::string s, std::size_t w) {
  if (s.size() < w) s = std::string(w - s.size(), ' ') + s;
  return s;
}

// ---- fit-actuator ----

/// A wall time [s]: 3 significant digits (a short fit takes milliseconds).
std::string seconds_text(double s) {
  return s > 0 && s < 0.1 ? format_display(s, 2) : format_fixed(s, 1);
}

/// The recommended model's estimates with their units, one line.
std::string estimates_line(const workflows::ActuatorModelOutcome& m) {
  std::string s = m.name + ":";
  for (const auto& e : m.parameters)
    s += " " + e.name + " " + format_display(e.value, 4) + (e.unit == "-" ? "" : " " + e.unit) +
         (e.at_limit ? " (at a range end)" : "") + ",";
  s.pop_back();
  if (const auto& t = m.params.params.temperature)
    s += " (" + std::string(temperature_law_name(t->law)) + " temperature law, T_ref " +
         format_display(t->T_ref, 4) + " degC)";
  return s;
}

/// fit-actuator's table, the measures named, the recommendation, its estimates and the verdict.
void print_fit_actuator(const workflows::FitActuatorOutcome& fit) {
  std::cout << "actuator " << fit.actuator << ", " << fit.logs.size()
            << " logs, validation: " << fit.validation;
  if (fit.current_weight > 0)
    std::cout << ", loss with the motor current (weight " << format_number(fit.current_weight)
              << " rad/A)";
  if (const auto& t = fit.temperature; !t.law.empty())
    std::cout << ", " << t.law << " temperature law" << (t.viscous ? " (kT, kT_v)" : " (kT)")
              << ": logs at " << format_display(t.check.T_min, 3) << " .. "
              << format_display(t.check.T_max, 3) << " degC"
              << (t.undetermined ? ", not fitted (see the verdict)" : "");
  std::cout << "\n\n";
  std::cout << "model  parameters  train MAE [rad]  validation MAE [rad]  evaluations  time [s]\n";
  for (const auto& r : fit.models)
    std::cout << pad(r.name, 7) << lpad(std::to_string(r.n_parameters), 10)
              << lpad(format_fixed(r.train_mae, 5), 17)
              << lpad(fit.validated ? format_fixed(r.validation_mae, 5) : "-", 22)
              << lpad(std::to_string(r.evaluations), 13) << lpad(seconds_text(r.seconds), 10)
              << (r.failed.empty() ? "" : "  failed") << '\n';
  std::cout
      << "(MAE: mean absolute position error of the closed-loop re-simulation, pooled over all "
         "entries of the logs; time: the sum of the model's fits)\n";
  for (const auto& msg : fit.warnings) print_warning(msg);
  std::cout << "\nrecommended: " << fit.reason << "\n";
  if (const workflows::ActuatorModelOutcome* rec = fit.recommended_model()) {
    const auto& m = *rec;
    std::cout << estimates_line(m) << "\n";
    // eval-actuator's measure: the mean of the per-log MAEs
    std::cout << m.name
              << " per log, the mean of the per-log MAEs (eval-actuator's 'mean'): training "
              << format_fixed(fit.train_log_mean, 5);
    if (std::isfinite(fit.validation_log_mean))
      std::cout << ", validation " << format_fixed(fit.validation_log_mean, 5);
    std::cout << " rad\n";
  }
  print_verdict(fit.verdict, "");
}

/// The command line's values: what the CLI parses or writes itself here, the workflow's options
/// (trials, seed, weights, ...) and the generic actuator's constants bound onto the library's
/// structs.
struct FitActuatorOptions {
  LogOptions logs;
  std::string actuator, models = "m1,m2,m3,m4,m5,m6", validate = "leave-kp-out";
  std::string out = "frictionlab-actuator";
  std::string report;                ///< --report FILE.html
  std::vector<std::string> ranges;   ///< KEY=LO:HI, parsed by the workflow
  std::string temperature_law;       ///< --temperature-law: linear, exponential; empty: none
  bool temperature_viscous = false;  ///< --temperature-viscous
  workflows::FitActuatorOptions w;
  // generic actuator (no vin, no error gain unless given)
  std::string drive = "voltage";
  sim::ServoConstants generic{sim::ServoDrive::voltage, 0.0, 0.0, 1.0, 0.0};
};

void run_fit_actuator(const FitActuatorOptions& o) {
  io::check_output_directory(o.out);
  check_report_output(o.report, log_paths(o.logs));
  workflows::FitActuatorOptions w = o.w;
  w.models = workflows::parse_actuator_models(o.models);
  w.validation = workflows::parse_servo_validation(o.validate);
  if (!o.temperature_law.empty()) {
    w.temperature.emplace();
    (void)parse_temperature_law(o.temperature_law, w.temperature->law);  // CLI::IsMember
    w.temperature->viscous = o.temperature_viscous;
  } else if (o.temperature_viscous) {
    throw std::invalid_argument("--temperature-viscous: needs --temperature-law");
  }
  check_result_files(io::fit_actuator_output_paths(o.out, w.models, w.temperature.has_value()),
                     o.report, log_paths(o.logs));
  const auto logs = load_logs(o.logs, &w.input_warnings);
  sim::ServoConstants generic = o.generic;
  generic.drive = o.drive == "current" ? sim::ServoDrive::current : sim::ServoDrive::voltage;
  w.actuator = io::servo_actuator_for_logs(o.actuator, generic, logs, &w.actuator_choice);
  for (const auto& r : o.ranges) w.ranges.push_back(workflows::parse_servo_bound(r));
  const auto fit = workflows::fit_actuator(logs, w, stderr_progress());

  io::write_fit_actuator(o.out, fit, log_paths(o.logs), o.report, report_options());
  if (quiet()) {
    std::vector<std::string> files;  // the files written: no parameter file of a failed fit
    for (const auto& m : fit.models)
      if (m.failed.empty())
        files.push_back((std::filesystem::path(o.out) / (m.name + ".json")).string());
    files.push_back((std::filesystem::path(o.out) / "summary.json").string());
    if (!o.report.empty()) files.push_back(o.report);
    return print_files(files);
  }
  print_fit_actuator(fit);
  std::cout << "parameter files: " << o.out << "/m*.json, summary: " << o.out << "/summary.json\n";
  if (!o.report.empty()) std::cout << "report: " << o.report << "\n";
}

// ---- eval-actuator ----

struct EvalActuatorOptions {
  LogOptions logs;
  std::vector<std::string> params;
  std::string json;
  std::string report;  ///< --report FILE.html
};

void run_eval_actuator(const EvalActuatorOptions& o) {
  std::vector<io::NamedPath> inputs = log_paths(o.logs);
  for (const auto& f : io::servo_param_paths(o.params)) inputs.push_back({"--params", f});
  if (!o.json.empty()) {
    io::check_output_file(o.json, "--json");
    io::check_outputs_not_inputs(inputs, {{"--json", o.json}});
  }
  check_report_output(o.report, inputs);
  if (!o.json.empty() && !o.report.empty()) {
    io::check_outputs_not_inputs({{"--json", o.json}}, {{"--report", o.report}});
    io::check_outputs_distinct({{"--json", o.json}, {"--report", o.report}});  // one stream
  }
  const auto params = io::read_servo_param_sets(o.params);
  const auto logs = load_logs(o.logs);
  const auto ev = workflows::eval_actuator(logs, params);
  // The table goes to the standard error when the JSON goes to the standard output.
  // With --quiet, no table: only the files' paths at the end.
  std::ostringstream discarded;
  std::ostream& out = quiet() ? discarded : o.json == io::kStdout ? std::cerr : std::cout;
  std::size_t w = 8;
  for (const auto& l : ev.logs) w = std::max(w, l.name.size() + 2);
  out << pad("log", w) << pad("kp", 7) << pad("trajectory", 17);
  for (const auto& p : ev.params)
    out << lpad(p.label, std::max<std::size_t>(10, p.label.size() + 2));
  out << "\n";
  for (std::size_t i = 0; i < ev.logs.size(); ++i) {
    out << pad(ev.logs[i].name, w) << pad(format_exact(ev.logs[i].kp), 7)
        << pad(ev.logs[i].trajectory, 17);
    for (const auto& p : ev.params)
      out << lpad(format_fixed(p.mae[i], 6), std::max<std::size_t>(10, p.label.size() + 2));
    out << "\n";
  }
  out << pad("mean", w + 24);
  for (const auto& p : ev.params)
    out << lpad(format_fixed(p.mean, 6), std::max<std::size_t>(10, p.label.size() + 2));
  out << "\n" << pad("pooled", w + 24);
  for (const auto& p : ev.params)
    out << lpad(format_fixed(p.pooled, 6), std::max<std::size_t>(10, p.label.size() + 2));
  out << "\n(mean absolute position error [rad] of the closed-loop re-simulation of each log; "
         "mean: "
         "of the per-log MAEs; pooled: over all entries, fit-actuator's measure)\n";
  io::write_eval_actuator(o.json, ev, inputs, o.report, report_options());
  out << "lowest mean: "
      << (ev.best ? ev.params[*ev.best].label
                  : std::string("none (no parameter set gives a finite error on these logs)"))
      << "\n";
  print_verdict(ev.verdict, "", &out);
  if (!o.report.empty()) out << "report: " << o.report << "\n";
  if (quiet()) {
    std::vector<std::string> files;
    for (const auto& f : {o.json, o.report})
      if (!f.empty() && f != io::kStdout) files.push_back(f);
    print_files(files);
  }
}

// ---- actuator list / show / check ----

struct ActuatorCheckOptions {
  std::string actuator;
  LogOptions logs;
  bool strict = false;
  workflows::ActuatorCheckOptions check;  ///< --evaluations, --threads
};

void run_actuator_list() {
  std::cout << "built-in actuators (data/actuators/NAME.json; `frictionlab actuator show NAME`):\n";
  for (const auto& name : io::builtin_actuator_names()) {
    const auto a = *io::builtin_actuator(name);
    std::cout << "  " << pad(name, 14) << a.description << '\n';
  }
}

void run_actuator_show(const std::string& reference) {
  const std::string_view text = io::builtin_actuator_text(reference);
  if (!text.empty() && reference.find('/') == std::string::npos && !reference.ends_with(".json")) {
    std::cout << text;
    return;
  }
  std::cout << io::actuator_json(io::resolve_actuator(reference, "", "actuator show"));
}

void print_check(const workflows::ActuatorCheckOutcome& out) {
  auto params = [](const sim::ServoParams& p) {
    return "kt " + format_number(p.kt, 4) + " Nm/A, R " + format_number(p.R, 4) +
           " Ohm, armature " + format_number(p.armature, 4) + " kg m^2, Kc " +
           format_number(p.friction.Kc, 4) + " Nm, Kv " + format_number(p.friction.Kv, 4) +
           " Nm s/rad, q_offset " + format_number(p.q_offset, 4) + " rad";
  };
  std::cout << "actuator " << out.actuator << ", " << out.logs.size() << " log(s)\n"
            << "  nominal:   " << params(out.nominal) << ": MAE "
            << format_fixed(out.nominal_mae, 5) << " rad\n"
            << "  quick fit: " << params(out.fitted) << ": MAE " << format_fixed(out.fitted_mae, 5)
            << " rad\n\n";
  std::size_t w = 8;
  for (const auto& l : out.logs) w = std::max(w, l.log.size() + 2);
  std::cout << pad("log", w) << pad("kp", 7) << lpad("nominal MAE", 12) << lpad("fit MAE", 10)
            << lpad("saturated", 11) << "   [rad]\n";
  for (const auto& l : out.logs)
    std::cout << pad(l.log, w) << pad(format_exact(l.kp), 7)
              << lpad(format_fixed(l.nominal_mae, 5), 12) << lpad(format_fixed(l.fitted_mae, 5), 10)
              << lpad(format_fixed(100 * l.saturated, 1) + " %", 11) << '\n';
  std::cout << '\n';
  for (const auto& f : out.findings)
    std::cout << (f.warning ? "warning: " : "note:    ") << (f.log.empty() ? "" : f.log + ": ")
              << f.check << ": " << f.message << '\n';
  std::cout << (out.warnings == 0 ? std::string("no inconsistency found")
                                  : std::to_string(out.warnings) + " warning(s)")
            << " in " << out.logs.size() << " log(s)\n";
}

void run_actuator_check(const ActuatorCheckOptions& o) {
  const auto actuator = io::resolve_actuator(o.actuator, "", "actuator check");
  const auto logs = load_logs(o.logs);
  const auto out = workflows::check_actuator(actuator, logs, o.check, stderr_progress());
  if (!quiet()) print_check(out);
  if (o.strict && out.warnings > 0)
    throw std::runtime_error("actuator check: " + std::to_string(out.warnings) +
                             " warning(s) (--strict)");
}

}  // namespace

void register_fit_actuator(CLI::App& app, Registry& registry) {
  auto [fit, fo] = add_command<FitActuatorOptions>(
      app, registry, "fit-actuator",
      "Fit the servo actuator models M1..M6 (BAM) to pendulum logs, validate on held-out logs "
      "and recommend one (docs/actuators.md).",
      run_fit_actuator);
  add_log_options(fit, fo.logs);
  fit->add_option(
         "--actuator", fo.actuator,
         "A built-in actuator (`frictionlab actuator list`), the path of an ACTUATOR.json, "
         "or generic (default: the logs' 'motor')")
      ->type_name("NAME|FILE");
  fit->add_option("--models", fo.models, "Models to fit: a list (m1,m3,m6) or a range (m1..m6)")
      ->capture_default_str();
  fit->add_option("--validate", fo.validate,
                  "kp=VALUE (hold out the logs of one kp), leave-kp-out, kfold=K (by file) or none")
      ->capture_default_str();
  fit->add_option("--trials", fo.w.trials, "Objective evaluations per fit (CMA-ES budget)")
      ->check(workflow_rule("trials"))
      ->capture_default_str();
  fit->add_option("--time-budget", fo.w.time_budget, "Wall-time budget per fit [s] (0: none)")
      ->check(workflow_rule("time_budget"));
  fit->add_option("--seed", fo.w.seed, "Random seed (results are deterministic for a seed)")
      ->check(unsigned_64())
      ->capture_default_str();
  fit->add_option("--threads", fo.w.threads, "Evaluation threads (default: all cores)")
      ->check(workflow_rule("threads"));
  fit->add_option("--restarts", fo.w.restarts, "IPOP restarts per fit")
      ->check(workflow_rule("restarts"))
      ->capture_default_str();
  fit->add_option("--sigma0", fo.w.sigma0, "Initial CMA-ES step in the normalised box")
      ->check(workflow_rule("sigma0"))
      ->capture_default_str();
  fit->add_option("--velocity-weight", fo.w.velocity_weight,
                  "Add this weight [s] times the mean absolute velocity error to the loss")
      ->check(workflow_rule("velocity_weight"));
  fit->add_option("--current-weight", fo.w.current_weight,
                  "Weight [rad/A] of the mean absolute motor-current error in the loss, for logs "
                  "with a current of known unit (default: automatic, the spread of the positions "
                  "over that of the currents; 0: position only)")
      ->check(number_in(Number::real, -HUGE_VAL));
  fit->add_option("--range", fo.ranges, "Search range of a parameter: KEY=LO:HI (repeatable)");
  fit->add_option("--temperature-law", fo.temperature_law,
                  "Also fit every model with a temperature-dependent friction (MODEL+T): the dry "
                  "levels scaled by 1 + kT (T - T_ref) (linear) or exp(kT (T - T_ref)) "
                  "(exponential), T_ref the mean 'temp' of the training logs "
                  "(docs/actuators.md)")
      ->check(CLI::IsMember({"linear", "exponential"}))
      ->type_name("LAW");
  fit->add_flag("--temperature-viscous", fo.temperature_viscous,
                "With --temperature-law: fit the viscous term's own coefficient kT_v too "
                "(default: held at 0)");
  fit->add_option("--tolerance", fo.w.tolerance,
                  "Recommend the simplest model within this fraction of the best validation MAE")
      ->check(workflow_rule("tolerance"))
      ->capture_default_str();
  add_report_option(fit, fo.report);
  add_out_option(fit, fo.out, "Output directory (m1.json .. m6.json, summary.json)");
  fit->add_option("--drive", fo.drive, "generic actuator: voltage or current")
      ->check(CLI::IsMember({"voltage", "current"}));
  fit->add_option("--error-gain", fo.generic.error_gain,
                  "generic actuator: duty (or A) per kp*rad");
  fit->add_option("--max-pwm", fo.generic.max_pwm, "generic actuator: duty limit");
  fit->add_option("--max-current", fo.generic.max_current,
                  "generic actuator: current-limit window [A]");
  fit->add_option("--vin", fo.generic.vin,
                  "generic actuator: supply voltage for logs without 'vin'");

  auto [ev, eo] = add_command<EvalActuatorOptions>(
      app, registry, "eval-actuator",
      "Re-simulate logs with servo parameter files (BAM's keys) and print the per-log MAE.",
      run_eval_actuator);
  ev->add_option("--params", eo.params, "Parameter files, or directories of them")
      ->type_name("PARAMS.json")
      ->required();
  add_log_options(ev, eo.logs);
  ev->add_option(
      "--json", eo.json,
      "Write the per-log MAE and the re-simulations to this JSON file (- : standard output)");
  add_report_option(ev, eo.report);

  CLI::App* act = app.add_subcommand(
      "actuator",
      "Servo descriptions (ACTUATOR.json, docs/actuators.md): list the built-in ones, "
      "print one, check logs against one.");
  act->require_subcommand(1);
  add_registered(*act, registry, "list", "The built-in actuators.", run_actuator_list);
  auto [show, reference] = add_command<std::string>(
      *act, registry, "show",
      "Print an actuator's ACTUATOR.json (a built-in's shipped file: a template for yours)",
      run_actuator_show);
  show->add_option("actuator", reference, "A built-in name or the path of an ACTUATOR.json")
      ->type_name("NAME|FILE")
      ->required();
  auto [check, co] = add_command<ActuatorCheckOptions>(
      *act, registry, "check",
      "Simulate logs with the actuator's nominal parameters and say what looks inconsistent "
      "(gravity sign, kp units, position offset, saturation, supply, gains) before a long fit.",
      run_actuator_check);
  check->add_option("actuator", co.actuator, "A built-in name or the path of an ACTUATOR.json")
      ->type_name("NAME|FILE")
      ->required();
  add_log_options(check, co.logs, true);
  check->add_flag("--strict", co.strict, "Exit with an error when a warning is found");
  check->add_option("--evaluations", co.check.evaluations, "CMA-ES budget of each quick fit")
      ->check(workflow_rule("evaluations"))
      ->capture_default_str();
  check->add_option("--threads", co.check.threads, "Evaluation threads (default: all cores)")
      ->check(workflow_rule("threads"));
}

}  // namespace frictionlab::cli
