// frictionlab io: the output directory of a `fit` (docs/cli.md, "fit"):
// fit.json, model.json and the plots, which arrange the series of a
// workflows::FitOutcome in panels. The numbers (prediction, residual, the
// friction sorted by velocity) are the outcome's.
#pragma once

#include <string>
#include <vector>

#include "frictionlab/io/output.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/io/report_html.hpp"
#include "frictionlab/workflows/fit.hpp"

namespace frictionlab::io {

/// prediction.svg: against time [s], the measured and predicted force channel,
/// the residual (measured - predicted) and the velocity; the title names the
/// model, the method and the training record's name. Unit of the force panels
/// "[N m]" (sensorless) or "[N | N m]".
Plot fit_prediction_plot(const workflows::FitOutcome& f);

/// friction_velocity.svg: against velocity, the measured friction and the
/// simulated model's (as points) and the fitted static curve (a line), from
/// f.friction.
Plot fit_friction_velocity_plot(const workflows::FitOutcome& f);

/// The files write_fit_outputs writes in `dir`: fit.json, model.json and, with `plots`,
/// prediction.svg and friction_velocity.svg (for the checks before the work).
std::vector<std::string> fit_output_paths(const std::string& dir, bool plots);

/// Create `dir` if missing and write into it fit.json (io::fit_to_json),
/// model.json (FitResult::params) and, if `plots`, prediction.svg and
/// friction_velocity.svg, all or nothing (io::OutputFiles, io/output.hpp). Returns
/// the paths written, in that order. Throws InputError if the directory or a file
/// cannot be written, or a file would replace one of `inputs` (OutputFiles::protect).
/// With a `report` path, the identification report (io::report_html of the fit.json written,
/// `report_options`) is written too, in the same all-or-nothing set, after the directory's files.
std::vector<std::string> write_fit_outputs(const std::string& dir, const workflows::FitOutcome& f,
                                           bool plots, const std::vector<NamedPath>& inputs = {},
                                           const std::string& report = {},
                                           const ReportOptions& report_options = {});

}  // namespace frictionlab::io
