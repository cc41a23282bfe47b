// frictionlab: the files of `frictionlab demo` (docs/cli.md, "demo") from a workflows::DemoOutcome.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/workflows/demo.hpp"

namespace frictionlab::io {

/// The plot of (a): v; F_ref and the runs that kept the state bound; their F - F_ref; then one
/// panel per run that left the bound (its scale would hide the others).
Plot step_size_plot(const workflows::StepSizeComparison& a);

/// The plot of (b): x, v and F of every run.
Plot stick_slip_plot(const workflows::StickSlipComparison& b);

/// The paths of the files write_demo_files writes in `dir`, in its order (for the checks of the
/// outputs before the work).
std::vector<std::string> demo_file_paths(const std::string& dir);

/// Write the demo's files into the existing directory `dir`, in this order:
/// lugre_step_size.csv (t, v, F_ref_0.1ms, F of every finite run), lugre_step_size.svg,
/// lugre.json (the model), velocity_10ms.csv (t, v), stick_slip_<name>.csv for every run of (b),
/// stick_slip.svg, sensorless_train.csv and sensorless_validation.csv (t, current, velocity,
/// torque), fit.json. Returns the paths written. Throws InputError / std::runtime_error if a file
/// cannot be written.
std::vector<std::string> write_demo_files(const workflows::DemoOutcome& r, const std::string& dir);

}  // namespace frictionlab::io
