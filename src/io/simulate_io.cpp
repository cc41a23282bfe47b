// frictionlab: the files of `frictionlab simulate` (include/frictionlab/io/simulate_io.hpp).
#include "frictionlab/io/simulate_io.hpp"

#include <algorithm>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"

namespace frictionlab::io {
namespace {

constexpr std::size_t kMaxPlottedStates = 8;

void add_state_panel(Plot& plot, const std::vector<std::string>& names,
                     const std::vector<std::vector<double>>& states, const std::string& unit) {
  if (names.empty()) return;
  PlotPanel panel;
  const std::size_t shown = std::min(names.size(), kMaxPlottedStates);
  panel.ylabel = (names.size() == 1 ? names[0] : std::string("state")) + " [" + unit + "]";
  if (shown < names.size())
    panel.ylabel = "state [" + unit + "] (" + names[0] + ".." + names[shown - 1] + " of " +
                   std::to_string(names.size()) + ")";
  for (std::size_t i = 0; i < shown; ++i) panel.series.push_back({names[i], states[i]});
  plot.panels.push_back(std::move(panel));
}

std::vector<const std::vector<double>*> model_columns(const workflows::SimulateModelOutcome& r) {
  std::vector<const std::vector<double>*> cols = {&r.t};
  if (!r.x.empty()) cols.push_back(&r.x);
  cols.insert(cols.end(), {&r.v, &r.F});
  for (const auto& s : r.states) cols.push_back(&s);
  return cols;
}

}  // namespace

workflows::ModelInput read_model_input(const std::string& path,
                                       const std::string& temperature_column) {
  return parse_model_input(read_text_file(path, "a CSV file", kMaxRecordFileBytes), path,
                           temperature_column);
}

workflows::ModelInput parse_model_input(std::string_view text, const std::string& file,
                                        const std::string& temperature_column) {
  const CsvTable in = parse_csv(text, file);
  const bool has_v = in.has("v"), has_x = in.has("x");
  if (has_v && has_x)
    throw InputError(in.file, in.header_line, 0,
                     "has both a 'v' and an 'x' column; give one: t,v (velocity-driven) or "
                     "t,x (displacement-driven)");
  if (!has_v && !has_x)
    throw InputError(in.file, in.header_line, 0,
                     "needs a column 'v' (velocity) or 'x' (displacement); columns found: " +
                         in.names_for_message());
  if (!temperature_column.empty() && !in.has(temperature_column))
    throw InputError(in.file, in.header_line, 0,
                     "has no column '" + temperature_column +
                         "' (--temperature): columns found: " + in.names_for_message());
  require_strictly_increasing(in, "t");
  if (in.rows() < 2)
    throw InputError(in.file, 0, 0,
                     "needs at least 2 data rows, found " + std::to_string(in.rows()));
  workflows::ModelInput r;
  r.t = in.column("t");
  (has_v ? r.v : r.x) = in.column(has_v ? "v" : "x");
  if (!temperature_column.empty()) r.temperature = in.column(temperature_column);
  r.source = in.file;
  r.lines = in.row_lines;
  return r;
}

std::vector<std::string> model_simulation_columns(const workflows::SimulateModelOutcome& r) {
  std::vector<std::string> names = {"t"};
  if (!r.x.empty()) names.push_back("x");
  names.insert(names.end(), {"v", "F"});
  names.insert(names.end(), r.state_names.begin(), r.state_names.end());
  return names;
}

std::vector<std::string> write_model_simulation_csv(const std::string& path,
                                                    const workflows::SimulateModelOutcome& r) {
  auto names = model_simulation_columns(r);
  write_csv(path, names, model_columns(r));
  return names;
}

std::vector<std::string> system_trajectory_columns(const sim::SystemTrajectory& tr) {
  std::vector<std::string> names = {"t", "x", "v", "F"};
  names.insert(names.end(), tr.state_names.begin(), tr.state_names.end());
  return names;
}

std::vector<std::string> write_system_trajectory_csv(const std::string& path,
                                                     const sim::SystemTrajectory& tr) {
  auto names = system_trajectory_columns(tr);
  std::vector<const std::vector<double>*> cols = {&tr.t, &tr.x, &tr.v, &tr.F};
  for (const auto& s : tr.states) cols.push_back(&s);
  write_csv(path, names, cols);
  return names;
}

Plot model_simulation_plot(const workflows::SimulateModelOutcome& r, const std::string& title) {
  Plot plot;
  plot.title = title;
  plot.xlabel = "t [s]";
  plot.x = r.t;
  if (!r.x.empty()) plot.panels.push_back({"x [m]", {{"x", r.x}}});
  plot.panels.push_back({"v [m/s]", {{"v", r.v}}});
  plot.panels.push_back({"F [N]", {{"F", r.F}}});
  add_state_panel(plot, r.state_names, r.states, "m");
  return plot;
}

Plot system_trajectory_plot(const sim::SystemTrajectory& tr, sim::SystemKind kind,
                            const std::string& title) {
  const bool joint = kind == sim::SystemKind::joint;
  Plot plot;
  plot.title = title;
  plot.xlabel = "t [s]";
  plot.x = tr.t;
  plot.panels.push_back({joint ? "q [rad]" : "x [m]", {{joint ? "x = q" : "x", tr.x}}});
  plot.panels.push_back({joint ? "qd [rad/s]" : "v [m/s]", {{joint ? "v = qd" : "v", tr.v}}});
  plot.panels.push_back(
      {joint ? "friction torque [N m]" : "F [N]", {{joint ? "F = tau_f" : "F", tr.F}}});
  add_state_panel(plot, tr.state_names, tr.states, joint ? "rad" : "m");
  return plot;
}

}  // namespace frictionlab::io
