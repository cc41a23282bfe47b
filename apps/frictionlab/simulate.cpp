// frictionlab CLI: `simulate` (docs/cli.md).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/model_run.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/io/system_json.hpp"
#include "frictionlab/sim/systems.hpp"

namespace frictionlab::cli {
namespace {

constexpr std::size_t kMaxPlottedStates = 8;

// Index of the first sample at which any of the columns is not finite, or -1.
long first_non_finite(const std::vector<const std::vector<double>*>& cols) {
  if (cols.empty()) return -1;
  const std::size_t n = cols[0]->size();
  for (std::size_t k = 0; k < n; ++k)
    for (const auto* c : cols)
      if (!std::isfinite((*c)[k])) return static_cast<long>(k);
  return -1;
}

void add_state_panel(io::Plot& plot, const std::vector<std::string>& names,
                     const std::vector<std::vector<double>>& states, const std::string& unit) {
  if (names.empty()) return;
  io::PlotPanel panel;
  const std::size_t shown = std::min(names.size(), kMaxPlottedStates);
  panel.ylabel = (names.size() == 1 ? names[0] : std::string("state")) + " [" + unit + "]";
  if (shown < names.size())
    panel.ylabel = "state [" + unit + "] (" + names[0] + ".." + names[shown - 1] + " of " +
                   std::to_string(names.size()) + ")";
  for (std::size_t i = 0; i < shown; ++i) panel.series.push_back({names[i], states[i]});
  plot.panels.push_back(std::move(panel));
}

void report_written(const std::string& path, std::size_t rows,
                    const std::vector<std::string>& names) {
  std::string cols;
  for (std::size_t i = 0; i < names.size(); ++i) cols += (i ? "," : "") + names[i];
  std::cout << "frictionlab: wrote " << path << " (" << rows << " rows: " << cols << ")\n";
}

void simulate_model(const SimulateOptions& o) {
  const io::ModelFile mf = io::read_model_file(o.model);
  for (const auto& w : mf.warnings) print_warning(w);
  const std::string name = io::model_name(mf.spec);

  const std::string integrator = o.integrator.empty() ? "exact" : o.integrator;
  const auto method = io::parse_method(integrator);
  if (!method)
    throw std::invalid_argument("--integrator " + integrator +
                                " applies to --system; with --model use exact, implicit-euler, "
                                "euler or rk4");
  if (!io::supports(mf.spec, *method))
    throw std::invalid_argument("model '" + name + "' (" + o.model +
                                ") does not support --integrator " + integrator +
                                " (supported: " + io::supported_methods(mf.spec) + ")");

  const io::CsvTable in = io::read_csv(o.input);
  const bool has_v = in.has("v"), has_x = in.has("x");
  if (has_v && has_x)
    throw io::InputError(in.file, in.header_line, 0,
                         "has both a 'v' and an 'x' column; give one: t,v (velocity-driven) or "
                         "t,x (displacement-driven)");
  if (!has_v && !has_x)
    throw io::InputError(
        in.file, in.header_line, 0,
        "needs a column 'v' (velocity) or 'x' (displacement); columns found: " + [&] {
          std::string s;
          for (std::size_t i = 0; i < in.names.size(); ++i) s += (i ? ", " : "") + in.names[i];
          return s;
        }());
  io::require_strictly_increasing(in, "t");
  if (in.rows() < 2)
    throw io::InputError(in.file, 0, 0,
                         "needs at least 2 data rows, found " + std::to_string(in.rows()));
  const std::vector<double>& t = in.column("t");

  Hold hold = o.hold == "linear" ? Hold::linear : Hold::zoh;
  std::vector<double> v;
  if (has_x) {
    if (o.hold_given && hold == Hold::linear)
      throw std::invalid_argument(
          "--hold linear does not apply to a displacement input (t,x): x is interpolated "
          "linearly, so the velocity is constant over each sample interval (zoh)");
    hold = Hold::zoh;
    v = io::velocity_from_displacement(t, in.column("x"));
  } else {
    v = in.column("v");
  }

  const io::ModelRun run = io::run_model(mf.spec, t, v, *method, hold, o.dt);

  std::vector<std::string> names = {"t"};
  std::vector<const std::vector<double>*> cols = {&t};
  if (has_x) {
    names.push_back("x");
    cols.push_back(&in.column("x"));
  }
  names.insert(names.end(), {"v", "F"});
  cols.insert(cols.end(), {&v, &run.F});
  for (std::size_t i = 0; i < run.state_names.size(); ++i) {
    names.push_back(run.state_names[i]);
    cols.push_back(&run.states[i]);
  }
  if (const long k = first_non_finite(cols); k >= 0)
    throw std::runtime_error("--integrator " + integrator +
                             " diverged: the result is not finite from t = " +
                             io::format_double(t[static_cast<std::size_t>(k)]) + " s (" + in.file +
                             " line " + std::to_string(in.row_lines[static_cast<std::size_t>(k)]) +
                             "); use --integrator exact (stable for any step) or a smaller --dt");
  if (run.bound_exceeded >= 0) {
    const auto k = static_cast<std::size_t>(run.bound_exceeded);
    print_warning(
        "the state left its invariant bound |z| <= " + io::format_double(run.state_bound) +
        " m from t = " + io::format_double(t[k]) + " s (" + in.file + " line " +
        std::to_string(in.row_lines[k]) + "): --integrator " + integrator +
        " is unstable at this step; the result is not trustworthy (--integrator exact "
        "keeps the bound for any step)");
  }
  io::write_csv(o.output, names, cols);
  report_written(o.output, t.size(), names);

  if (!o.plot.empty()) {
    io::Plot plot;
    plot.title = "frictionlab simulate: " + name + " (" + integrator + "), " + o.input;
    plot.xlabel = "t [s]";
    plot.x = t;
    if (has_x) plot.panels.push_back({"x [m]", {{"x", in.column("x")}}});
    plot.panels.push_back({"v [m/s]", {{"v", v}}});
    plot.panels.push_back({"F [N]", {{"F", run.F}}});
    add_state_panel(plot, run.state_names, run.states, "m");
    io::write_svg(o.plot, plot);
    std::cout << "frictionlab: wrote " << o.plot << '\n';
  }
}

void simulate_system(const SimulateOptions& o) {
  const io::SystemFile sf = io::read_system_file(o.params);
  if (o.system != io::system_name(sf.kind))
    throw io::InputError(o.params, 0, 0,
                         std::string("describes the system '") + io::system_name(sf.kind) +
                             "', but --system " + o.system + " was given");
  for (const auto& w : sf.warnings) print_warning(w);

  sim::SimOptions opt;
  const std::string integrator = o.integrator.empty() ? "trbdf2" : o.integrator;
  if (integrator == "trbdf2") {
    opt.integrator = sim::SystemIntegrator::trbdf2;
  } else if (integrator == "rosenbrock") {
    opt.integrator = sim::SystemIntegrator::rosenbrock;
  } else if (integrator == "cvode") {
    opt.integrator = sim::SystemIntegrator::cvode;
  } else {
    throw std::invalid_argument("--integrator " + integrator +
                                " applies to --model; with --system use trbdf2, rosenbrock or cvode");
  }
  if (o.dt > 0) opt.h = o.dt;
  opt.output_dt = o.output_dt;
  if (o.rtol > 0) {
    if (opt.integrator != sim::SystemIntegrator::cvode)
      throw std::invalid_argument("--rtol applies to --integrator cvode only");
    opt.rtol = o.rtol;
  }

  sim::SystemTrajectory tr;
  try {
    tr = sf.kind == io::SystemKind::stick_slip
             ? sim::simulate_stick_slip(sf.stick_slip, sf.friction, opt)
             : sim::simulate_joint(sf.joint, sf.friction, opt);
  } catch (const std::invalid_argument& e) {
    // The library names its options (h, output_dt, rtol); say which flags set them.
    throw std::invalid_argument(std::string(e.what()) +
                                " (on the command line: --dt sets h, --output-dt sets output_dt, "
                                "--rtol sets rtol)");
  }

  std::vector<std::string> names = {"t", "x", "v", "F"};
  std::vector<const std::vector<double>*> cols = {&tr.t, &tr.x, &tr.v, &tr.F};
  for (std::size_t i = 0; i < tr.state_names.size(); ++i) {
    names.push_back(tr.state_names[i]);
    cols.push_back(&tr.states[i]);
  }
  if (const long k = first_non_finite(cols); k >= 0)
    throw std::runtime_error(
        "--integrator " + integrator + " failed: the result is not finite from t = " +
        io::format_double(tr.t[static_cast<std::size_t>(k)]) + " s; try a smaller --dt");
  io::write_csv(o.output, names, cols);
  report_written(o.output, tr.t.size(), names);
  std::cout << "frictionlab: " << integrator << ": " << tr.steps << " steps, " << tr.rhs_evals
            << " right-hand-side evaluations\n";
  if (tr.unconverged_stages > 0)
    print_warning(std::to_string(tr.unconverged_stages) +
                  " implicit stages ended without Newton convergence (the last iterate was "
                  "used): the step is near the scheme's limit; compare with a smaller --dt or "
                  "--integrator cvode");

  if (!o.plot.empty()) {
    const bool joint = sf.kind == io::SystemKind::joint;
    io::Plot plot;
    plot.title = std::string("frictionlab simulate: ") + io::system_name(sf.kind) + " with " +
                 sf.friction_model + " friction (" + integrator + ")";
    plot.xlabel = "t [s]";
    plot.x = tr.t;
    plot.panels.push_back({joint ? "q [rad]" : "x [m]", {{joint ? "x = q" : "x", tr.x}}});
    plot.panels.push_back({joint ? "qd [rad/s]" : "v [m/s]", {{joint ? "v = qd" : "v", tr.v}}});
    plot.panels.push_back(
        {joint ? "friction torque [N m]" : "F [N]", {{joint ? "F = tau_f" : "F", tr.F}}});
    add_state_panel(plot, tr.state_names, tr.states, joint ? "rad" : "m");
    io::write_svg(o.plot, plot);
    std::cout << "frictionlab: wrote " << o.plot << '\n';
  }
}

}  // namespace

void run_simulate(const SimulateOptions& o) {
  if (!o.model.empty()) {
    simulate_model(o);
  } else {
    simulate_system(o);
  }
}

}  // namespace frictionlab::cli
