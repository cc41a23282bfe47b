// frictionlab: the files of `frictionlab demo` (include/frictionlab/io/demo_files.hpp).
#include "frictionlab/io/demo_files.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/simulate_io.hpp"

namespace frictionlab::io {

Plot step_size_plot(const workflows::StepSizeComparison& a) {
  Plot plot;
  plot.title = "LuGre, default parameters: 10 ms steps vs the 0.1 ms reference";
  plot.xlabel = "t [s]";
  plot.x = a.t;
  PlotPanel forces{"F [N]", {{"F_ref_0.1ms", a.F_ref}}};
  PlotPanel errors{"F - F_ref [N]", {}};
  std::vector<PlotPanel> diverged;
  for (const auto& c : a.runs) {
    if (c.non_finite >= 0) continue;
    if (c.left_bound >= 0) {
      diverged.push_back({c.column + " [N]", {{c.column, c.F}}});
      continue;
    }
    forces.series.push_back({c.column, c.F});
    errors.series.push_back({c.column, c.error});
  }
  plot.panels.push_back({"v [m/s]", {{"v (10 ms samples)", a.v}}});
  plot.panels.push_back(forces);
  plot.panels.push_back(errors);
  plot.panels.insert(plot.panels.end(), diverged.begin(), diverged.end());
  return plot;
}

Plot stick_slip_plot(const workflows::StickSlipComparison& b) {
  Plot plot;
  plot.title = "Stick-slip benchmark, LuGre friction: TR-BDF2 (10 ms), ROS2 (1 ms), CVODE";
  plot.xlabel = "t [s]";
  plot.x = b.runs.back().trajectory.t;
  auto panel = [&](const char* label, auto member) {
    PlotPanel p{label, {}};
    for (const auto& r : b.runs) p.series.push_back({r.short_name, r.trajectory.*member});
    plot.panels.push_back(p);
  };
  panel("x [m]", &sim::SystemTrajectory::x);
  panel("v [m/s]", &sim::SystemTrajectory::v);
  panel("F [N]", &sim::SystemTrajectory::F);
  return plot;
}

std::vector<std::string> demo_file_paths(const std::string& dir) {
  std::vector<std::string> names{"lugre_step_size.csv", "lugre_step_size.svg", "lugre.json",
                                 "velocity_10ms.csv"};
  for (const char* run : workflows::kStickSlipRunNames)
    names.push_back("stick_slip_" + std::string(run) + ".csv");
  for (const char* name :
       {"stick_slip.svg", "sensorless_train.csv", "sensorless_validation.csv", "fit.json"})
    names.emplace_back(name);
  std::vector<std::string> paths;
  for (const auto& n : names) paths.push_back((std::filesystem::path(dir) / n).string());
  return paths;
}

std::vector<std::string> write_demo_files(const workflows::DemoOutcome& r, const std::string& dir) {
  const std::filesystem::path d(dir);
  std::vector<std::string> files;
  auto path = [&](const std::string& name) {
    files.push_back((d / name).string());
    return files.back();
  };

  // (a): only finite runs go to the CSV file (the reader rejects nan/inf).
  const auto& a = r.step_size;
  std::vector<std::string> names = {"t", "v", "F_ref_0.1ms"};
  std::vector<const std::vector<double>*> cols = {&a.t, &a.v, &a.F_ref};
  for (const auto& c : a.runs) {
    if (c.non_finite >= 0) continue;
    names.push_back(c.column);
    cols.push_back(&c.F);
  }
  write_csv(path("lugre_step_size.csv"), names, cols);
  write_svg(path("lugre_step_size.svg"), step_size_plot(a));
  // The same job through the command line: the model file and the 10 ms input.
  write_text_file(path("lugre.json"), to_json_text(ModelSpec{a.params}));
  write_csv(path("velocity_10ms.csv"), {"t", "v"}, {&a.t, &a.v});

  // (b)
  for (const auto& run : r.stick_slip.runs)
    write_system_trajectory_csv(path("stick_slip_" + run.name + ".csv"), run.trajectory);
  write_svg(path("stick_slip.svg"), stick_slip_plot(r.stick_slip));

  // (c)
  const auto& c = r.identification;
  auto write_record = [&](const data::Record& rec, const std::string& name) {
    write_csv(path(name), {"t", "current", "velocity", "torque"},
              {&rec.t, &rec.current, &rec.velocity, &rec.force});
  };
  write_record(c.train, "sensorless_train.csv");
  write_record(c.validation, "sensorless_validation.csv");
  const std::string train = (d / "sensorless_train.csv").string();
  const std::string validation = (d / "sensorless_validation.csv").string();
  write_text_file(path("fit.json"),
                  fit_to_json(c.fit, train, {{validation, c.validation_metrics}}).dump(2) + "\n");
  if (files != demo_file_paths(dir))
    throw std::logic_error("write_demo_files: the files written are not demo_file_paths");
  return files;
}

}  // namespace frictionlab::io
