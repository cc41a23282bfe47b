// frictionlab CLI: `simulate` (docs/cli.md). The work is workflows::simulate_model /
// simulate_system; the files are io/simulate_io.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/simulate_io.hpp"
#include "frictionlab/io/system_json.hpp"
#include "frictionlab/sim/model_run.hpp"
#include "frictionlab/workflows/simulate.hpp"
#include "option_checks.hpp"

namespace frictionlab::cli {
namespace {

struct SimulateOptions {
  // --model mode (velocity- or displacement-driven friction model)
  std::string model, input;
  std::string temperature;  ///< --temperature: the input's temperature column
  std::string hold = "linear";
  bool hold_given = false;
  // --system mode (coupled mechanical system)
  std::string system, params;
  sim::SimOptions system_options;  ///< --output-dt bound onto it; --dt, --rtol, --integrator
                                   ///< set by run_system (they depend on each other)
  double rtol = 0.0;               // 0 = library default
  // both
  std::string output, plot, integrator;
  double dt = 0.0;  // 0 = not given
};

// Where the messages go: stderr when an output is a stream ("-", /dev/stdout, a pipe...), else
// stdout.
std::ostream& messages(const SimulateOptions& o) {
  return io::is_stream_output(o.output) || (!o.plot.empty() && io::is_stream_output(o.plot))
             ? std::cerr
             : std::cout;
}

void report_written(const SimulateOptions& o, std::size_t rows,
                    const std::vector<std::string>& names) {
  if (quiet()) {  // the path of a file; nothing for the standard output (it holds the data)
    if (!io::is_stream_output(o.output)) messages(o) << o.output << '\n';
    return;
  }
  std::string cols;
  for (std::size_t i = 0; i < names.size(); ++i) cols += (i ? "," : "") + names[i];
  messages(o) << "frictionlab: wrote "
              << (io::is_stdout(o.output) ? "the standard output" : o.output) << " (" << rows
              << " rows: " << cols << ")\n";
}

void report_plot(const SimulateOptions& o) {
  if (quiet()) {
    if (!io::is_stream_output(o.plot)) messages(o) << o.plot << '\n';
    return;
  }
  messages(o) << "frictionlab: wrote " << (io::is_stdout(o.plot) ? "the standard output" : o.plot)
              << '\n';
}

// The output locations, before any work: writable, distinct, and none of them an input.
void check_outputs(const SimulateOptions& o) {
  std::vector<io::NamedPath> outputs{{"--output", o.output}};
  if (!o.plot.empty()) outputs.push_back({"--plot", o.plot});
  for (const auto& out : outputs) io::check_output_file(out.path, out.label);
  io::check_outputs_distinct(outputs);
  std::vector<io::NamedPath> inputs;
  if (o.model.empty()) {
    inputs.push_back({"--params", o.params});
  } else {
    inputs.push_back({"--model", o.model});
    inputs.push_back({"--input", o.input});
  }
  io::check_outputs_not_inputs(inputs, outputs);
}

void simulate_model(const SimulateOptions& o) {
  const io::ModelFile mf = io::read_model_file(o.model, io::ModelTemperature::taken);
  print_warnings(mf.warnings);
  if (mf.temperature && o.temperature.empty())
    throw std::invalid_argument(o.model +
                                " has a temperature law: give the input's temperature column "
                                "with --temperature COLUMN");
  if (!mf.temperature && !o.temperature.empty())
    throw std::invalid_argument("--temperature " + o.temperature + ": " + o.model +
                                " has no temperature law (MODEL.json \"temperature\", "
                                "docs/file-formats.md), so the temperature would not be used");
  const std::string name = frictionlab::model_name(mf.spec);

  const std::string integrator = o.integrator.empty() ? "exact" : o.integrator;
  const auto method = sim::parse_method(integrator);
  if (!method)
    throw std::invalid_argument("--integrator " + integrator +
                                " applies to --system; with --model use exact, implicit-euler, "
                                "euler or rk4");
  if (!sim::supports(mf.spec, *method))
    throw std::invalid_argument("model '" + name + "' (" + o.model +
                                ") does not support --integrator " + integrator +
                                " (supported: " + sim::supported_methods(mf.spec) + ")");

  const workflows::ModelInput input = io::read_model_input(o.input, o.temperature);
  workflows::SimulateModelOptions opt;
  opt.method = *method;
  opt.temperature = mf.temperature;
  if (o.hold_given) opt.hold = o.hold == "linear" ? Hold::linear : Hold::zoh;
  opt.max_substep = o.dt;
  workflows::SimulateModelOutcome r;
  try {
    r = workflows::simulate_model(mf.spec, input, opt);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    if (what.find("max_substep") == std::string::npos) throw;
    throw std::invalid_argument(what + " (on the command line: --dt sets max_substep)");
  }

  print_warnings(r.warnings);
  report_written(o, r.t.size(), io::write_model_simulation_csv(o.output, r));
  if (!o.plot.empty()) {
    io::write_svg(o.plot, io::model_simulation_plot(r, "frictionlab simulate: " + name + " (" +
                                                           integrator + "), " + o.input));
    report_plot(o);
  }
}

/// CVODE chooses its steps, but never longer than h (--dt, default 1 ms): over t_end that alone
/// is t_end / h steps, what most of a smooth run's count is (docs/simulation.md, "Step counts").
std::string cvode_step_note(const sim::SimOptions& opt, const sim::SystemTrajectory& tr) {
  if (opt.integrator != sim::SystemIntegrator::cvode || !(opt.h > 0) || tr.t.empty()) return {};
  const double t_span = tr.t.back() - tr.t.front();
  return " (its step is at most --dt " + format_display(opt.h) + " s: at least " +
         format_display(std::ceil(t_span / opt.h)) + " steps over the " + format_display(t_span) +
         " s; a larger --dt lets it take longer ones)";
}

void simulate_system(const SimulateOptions& o) {
  const io::SystemFile sf = io::read_system_file(o.params);
  if (o.system != sim::system_name(sf.kind))
    throw io::InputError(o.params, 0, 0,
                         std::string("describes the system '") + sim::system_name(sf.kind) +
                             "', but --system " + o.system + " was given");
  print_warnings(sf.warnings);

  sim::SimOptions opt = o.system_options;
  const std::string integrator = o.integrator.empty() ? "trbdf2" : o.integrator;
  const auto parsed = sim::parse_integrator(integrator);
  if (!parsed)
    throw std::invalid_argument(
        "--integrator " + integrator +
        " applies to --model; with --system use trbdf2, rosenbrock or cvode");
  opt.integrator = *parsed;
  if (o.dt > 0) opt.h = o.dt;
  if (o.rtol > 0) {
    if (opt.integrator != sim::SystemIntegrator::cvode)
      throw std::invalid_argument("--rtol applies to --integrator cvode only");
    opt.rtol = o.rtol;
  }

  workflows::SimulateSystemOutcome r;
  try {
    r = workflows::simulate_system({sf.kind, sf.stick_slip, sf.joint, sf.friction}, opt);
  } catch (const std::invalid_argument& e) {
    // The library names its options (h, output_dt, rtol); say which flags set them.
    throw std::invalid_argument(std::string(e.what()) +
                                " (on the command line: --dt sets h, --output-dt sets output_dt, "
                                "--rtol sets rtol)");
  }
  const sim::SystemTrajectory& tr = r.trajectory;
  report_written(o, tr.t.size(), io::write_system_trajectory_csv(o.output, tr));
  if (!quiet())
    messages(o) << "frictionlab: " << integrator << ": " << tr.steps << " steps, " << tr.rhs_evals
                << " right-hand-side evaluations" << cvode_step_note(opt, tr) << "\n";
  print_warnings(r.warnings);

  if (!o.plot.empty()) {
    io::write_svg(o.plot, io::system_trajectory_plot(
                              tr, sf.kind,
                              std::string("frictionlab simulate: ") + sim::system_name(sf.kind) +
                                  " with " + sf.friction_model + " friction (" + integrator + ")"));
    report_plot(o);
  }
}

void run_simulate(const SimulateOptions& o) {
  check_outputs(o);
  if (!o.model.empty()) {
    simulate_model(o);
  } else {
    simulate_system(o);
  }
}

}  // namespace

void register_simulate(CLI::App& app, Registry& registry) {
  const auto command = add_command<SimulateOptions>(
      app, registry, "simulate",
      "Simulate a friction model driven by a sampled input (--model, --input), or a coupled "
      "mechanical system (--system, --params).",
      run_simulate);
  CLI::App* sim = command.app;
  SimulateOptions& o = command.options;
  CLI::Option* o_model =
      sim->add_option("--model", o.model, "Friction model file (docs/file-formats.md)")
          ->type_name("MODEL.json");
  CLI::Option* o_input =
      sim->add_option("--input", o.input,
                      "Input record: columns t,v (velocity-driven) or t,x (displacement-driven)")
          ->type_name("INPUT.csv");
  CLI::Option* o_temperature =
      sim->add_option("--temperature", o.temperature,
                      "--model with a temperature law (MODEL.json \"temperature\"): the input's "
                      "column of the temperature [degC]")
          ->type_name("COLUMN");
  CLI::Option* o_system =
      sim->add_option("--system", o.system, "Coupled system: stick-slip or joint")
          ->check(CLI::IsMember({"stick-slip", "joint"}));
  CLI::Option* o_params =
      sim->add_option("--params", o.params, "System file")->type_name("SYSTEM.json");
  sim->add_option("--output", o.output,
                  "Output CSV: t,v,F,<states> (--model; t,x,v,F,<states> for a t,x input) or "
                  "t,x,v,F,<states> (--system)")
      ->type_name("OUT.csv")
      ->required();
  sim->add_option("--integrator", o.integrator,
                  "--model: exact (default), implicit-euler, euler, rk4; "
                  "--system: trbdf2 (default), rosenbrock, cvode")
      ->check(CLI::IsMember(
          {"exact", "implicit-euler", "euler", "rk4", "trbdf2", "rosenbrock", "cvode"}));
  CLI::Option* o_hold =
      sim->add_option("--hold", o.hold,
                      "--model with a t,v input: input between samples, linear (interpolated, "
                      "default) or zoh (held)")
          ->check(CLI::IsMember({"zoh", "linear"}));
  sim->add_option(
         "--dt", o.dt,
         "--model: largest internal substep [s] (each sample interval is split into "
         "ceil(h/H) substeps); --system: trbdf2/rosenbrock step [s] (default 0.001), cvode "
         "largest step")
      ->type_name("H")
      ->check(positive());
  CLI::Option* o_output_dt = sim->add_option("--output-dt", o.system_options.output_dt,
                                             "--system: output sampling [s] (default: every step)")
                                 ->type_name("T")
                                 ->check(non_negative());
  CLI::Option* o_rtol =
      sim->add_option("--rtol", o.rtol, "--system with cvode: relative tolerance (default 1e-8)")
          ->type_name("R")
          ->check(positive());
  sim->add_option("--plot", o.plot, "Also write an SVG plot of the result")->type_name("OUT.svg");
  o_model->needs(o_input);
  o_input->needs(o_model);
  o_temperature->needs(o_model);
  o_system->needs(o_params);
  o_params->needs(o_system);
  o_model->excludes(o_system);
  o_hold->excludes(o_system);
  o_output_dt->excludes(o_model);
  o_rtol->excludes(o_model);

  // One of the two modes: checked with CLI11's other requirements (the same exit status).
  sim->final_callback([&o, o_hold] {
    o.hold_given = o_hold->count() > 0;
    if (o.model.empty() && o.system.empty())
      throw CLI::RequiredError(
          "simulate needs --model MODEL.json with --input INPUT.csv, or "
          "--system NAME with --params SYSTEM.json",
          CLI::ExitCodes::RequiredError);
  });
}

}  // namespace frictionlab::cli
