#include "frictionlab/io/fit_plots.hpp"

#include <filesystem>
#include <string>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/output.hpp"

namespace frictionlab::io {
namespace {

std::string force_unit(const workflows::FitOutcome& f) {
  return f.result.problem == identify::ProblemKind::sensorless ? "[N m]" : "[N | N m]";
}

}  // namespace

Plot fit_prediction_plot(const workflows::FitOutcome& f) {
  const std::string unit = force_unit(f);
  Plot p;
  p.title = "frictionlab fit: " + f.result.model_name + " (" +
            identify::method_name(f.result.method) + "), " + f.input;
  p.xlabel = "t [s]";
  p.x = f.training.t;
  const bool torque = f.result.problem == identify::ProblemKind::sensorless;
  p.panels.push_back({(torque ? "torque " : "force ") + unit,
                      {{"measured", f.training.force}, {"predicted", f.prediction}}});
  p.panels.push_back({"residual " + unit, {{"measured - predicted", f.residual}}});
  p.panels.push_back({"velocity", {{"v", f.training.velocity}}});
  return p;
}

Plot fit_friction_velocity_plot(const workflows::FitOutcome& f) {
  Plot q;
  q.title = "Friction against velocity: data and the fitted static curve";
  q.xlabel = "velocity";
  q.x = f.friction.velocity;
  q.panels.push_back({"friction " + force_unit(f),
                      {{"data", f.friction.measured, true},
                       {"model, simulated", f.friction.simulated, true},
                       {"model, static curve", f.friction.static_curve}}});
  return q;
}

std::vector<std::string> fit_output_paths(const std::string& dir, bool plots) {
  const std::filesystem::path d(dir);
  std::vector<std::string> out{(d / "fit.json").string(), (d / "model.json").string()};
  if (plots) {
    out.push_back((d / "prediction.svg").string());
    out.push_back((d / "friction_velocity.svg").string());
  }
  return out;
}

std::vector<std::string> write_fit_outputs(const std::string& dir, const workflows::FitOutcome& f,
                                           bool plots, const std::vector<NamedPath>& inputs,
                                           const std::string& report,
                                           const ReportOptions& report_options) {
  const std::vector<std::string> paths = fit_output_paths(dir, plots);
  OutputFiles files;
  files.protect(inputs);
  const nlohmann::ordered_json fit_json = fit_outcome_to_json(f);
  files.write(paths[0], fit_json.dump(2) + "\n");
  files.write(paths[1], to_json_text(f.result.params));
  if (plots) {
    files.write(paths[2], render_svg(fit_prediction_plot(f)));
    files.write(paths[3], render_svg(fit_friction_velocity_plot(f)));
  }
  if (!report.empty()) files.write(report, report_html({{paths[0], fit_json}}, report_options));
  files.commit();
  return files.paths();
}

}  // namespace frictionlab::io
