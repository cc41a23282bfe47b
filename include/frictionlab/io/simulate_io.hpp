// frictionlab: the files of `frictionlab simulate` (docs/cli.md, "simulate"; docs/file-formats.md):
// the input CSV of --model (t,v velocity-driven or t,x displacement-driven), the output CSVs of
// workflows::simulate_model and workflows::simulate_system, and their SVG plots.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/workflows/simulate.hpp"

namespace frictionlab::io {

/// Read the input of `simulate --model`: a CSV with a column t [s] (strictly increasing, at least
/// 2 rows) and exactly one of v [m/s] or x [m]. `source` is the path and `lines` the line of every
/// row. `temperature_column`, if not empty, names the column of the temperature [degC] (a model
/// with a temperature law). Throws InputError naming the file and line (both or neither of v and
/// x, t not increasing, fewer than 2 rows, the temperature column missing, and every CSV error
/// of read_csv).
workflows::ModelInput read_model_input(const std::string& path,
                                       const std::string& temperature_column = "");

/// read_model_input of CSV text; `file` names it in messages and is the input's `source`.
workflows::ModelInput parse_model_input(std::string_view text, const std::string& file,
                                        const std::string& temperature_column = "");

/// The output columns of a model simulation: t, [x,] v, F, then the state names.
std::vector<std::string> model_simulation_columns(const workflows::SimulateModelOutcome& r);

/// Write the CSV of model_simulation_columns. Returns the column names.
std::vector<std::string> write_model_simulation_csv(const std::string& path,
                                                    const workflows::SimulateModelOutcome& r);

/// The output columns of a system trajectory: t, x, v, F, then the state names.
std::vector<std::string> system_trajectory_columns(const sim::SystemTrajectory& tr);

/// Write the CSV of system_trajectory_columns. Returns the column names.
std::vector<std::string> write_system_trajectory_csv(const std::string& path,
                                                     const sim::SystemTrajectory& tr);

/// The plot of a model simulation: [x,] v, F and up to 8 states, one panel each. `title` is the
/// whole title line.
Plot model_simulation_plot(const workflows::SimulateModelOutcome& r, const std::string& title);

/// The plot of a system trajectory: position, velocity, friction and up to 8 states (rotary
/// labels, q and qd, for the joint).
Plot system_trajectory_plot(const sim::SystemTrajectory& tr, sim::SystemKind kind,
                            const std::string& title);

}  // namespace frictionlab::io
