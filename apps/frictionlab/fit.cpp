// frictionlab fit: identify friction parameters from a measured record (docs/cli.md, "fit").
// Loading with checks and preprocessing (records.hpp, shared with `compare`), the fit
// (identify/), and the outputs (io/fit_json, io/plot_svg, io/model_json) are library calls;
// this file only wires them to the command line and prints the summary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

void write_plots(const std::filesystem::path& dir, const identify::FitResult& r,
                 const data::Record& rec, const std::vector<double>& pred,
                 std::vector<std::string>& files) {
  // 1. Measured vs predicted over time, and the residual.
  io::Plot p;
  p.title = "frictionlab fit: " + r.model_name + " (" + identify::method_name(r.method) + "), " +
            rec.source;
  p.xlabel = "t [s]";
  p.x = rec.t;
  std::vector<double> res(pred.size());
  for (std::size_t k = 0; k < pred.size(); ++k) res[k] = rec.force[k] - pred[k];
  const std::string unit = r.problem == identify::ProblemKind::sensorless ? "[N m]" : "[N | N m]";
  p.panels.push_back({"force " + unit, {{"measured", rec.force}, {"predicted", pred}}});
  p.panels.push_back({"residual " + unit, {{"measured - predicted", res}}});
  p.panels.push_back({"velocity", {{"v", rec.velocity}}});
  const auto f1 = (dir / "prediction.svg").string();
  io::write_svg(f1, p);
  files.push_back(f1);

  // 2. Friction against velocity: the data (friction problem: the measured force; sensorless:
  // Km*current - torque) and the fitted static curve on a sorted velocity grid.
  std::vector<std::size_t> order(rec.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return rec.velocity[a] < rec.velocity[b]; });
  io::Plot q;
  q.title = "Friction against velocity: data and the fitted static curve";
  q.xlabel = "velocity";
  std::vector<double> data_f, model_f, dyn_f;
  for (std::size_t k : order) {
    const double v = rec.velocity[k];
    q.x.push_back(v);
    double f = rec.force[k];
    double fp = pred[k];
    if (r.problem == identify::ProblemKind::sensorless && r.Km) {
      f = *r.Km * rec.current[k] - rec.force[k];
      fp = *r.Km * rec.current[k] - pred[k];
    }
    data_f.push_back(f);
    dyn_f.push_back(fp);
    model_f.push_back(identify::steady_force(r, v));
  }
  q.panels.push_back({"friction " + unit,
                      {{"data", data_f, true},
                       {"model, simulated", dyn_f, true},
                       {"model, static curve", model_f}}});
  const auto f2 = (dir / "friction_velocity.svg").string();
  io::write_svg(f2, q);
  files.push_back(f2);
}

}  // namespace

void run_fit(const FitOptions& o) {
  const identify::FitOptions fo = identify_options(o);
  const data::Record train = load_record(o, o.input);
  const identify::FitResult r = identify::fit(train, fo);
  for (const auto& w : r.warnings) print_warning(w);

  std::vector<io::ValidationEntry> val;
  for (const auto& path : o.validate)
    val.emplace_back(path, identify::evaluate(r, load_record(o, path)));

  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::InputError(o.out, 0, 0, "cannot create the directory: " + ec.message());
  std::vector<std::string> files;
  const auto fit_path = (dir / "fit.json").string();
  io::write_text_file(fit_path, io::fit_to_json(r, o.input, val).dump(2) + "\n");
  files.push_back(fit_path);
  const auto model_path = (dir / "model.json").string();
  io::write_text_file(model_path, io::to_json_text(io::model_spec(r)));
  files.push_back(model_path);
  if (!o.no_plots) write_plots(dir, r, train, identify::predict(r, train), files);

  std::printf("frictionlab fit: %s, %s, method %s, %ld samples (%.3g s at %.4g Hz), %.2f s\n",
              r.model_name.c_str(),
              r.problem == identify::ProblemKind::sensorless ? "sensorless torque" : "friction",
              identify::method_name(r.method).c_str(), r.data.n, r.data.duration,
              r.data.rate_hz, r.run_time_s);
  std::printf("\n  %-10s %14s %12s %28s  %s\n", "parameter", "value", "std. error",
              "95 % interval", "unit");
  for (const auto& e : r.parameters) {
    const std::string ci =
        e.fixed ? std::string("(fixed)") : "[" + fmt(e.ci_low) + ", " + fmt(e.ci_high) + "]";
    std::printf("  %-10s %14s %12s %28s  %s%s\n", e.name.c_str(), fmt(e.value).c_str(),
                e.fixed ? "" : fmt(e.std_error).c_str(), ci.c_str(), e.unit.c_str(),
                e.at_bound ? "  (at bound)" : "");
  }
  std::printf("\n  %-28s %12s %10s %10s\n", "record", "RMSE", "NRMSE", "R^2");
  std::printf("  %-28s %12s %10s %10s\n", "training", fmt(r.training.rmse).c_str(),
              fmt(r.training.nrmse).c_str(), fmt(r.training.r2).c_str());
  for (const auto& [file, m] : val)
    std::printf("  %-28s %12s %10s %10s\n",
                std::filesystem::path(file).filename().string().c_str(), fmt(m.rmse).c_str(),
                fmt(m.nrmse).c_str(), fmt(m.r2).c_str());
  std::printf("\n  condition number %s, AICc %s, BIC %s%s\n", fmt(r.condition_number).c_str(),
              fmt(r.aicc).c_str(), fmt(r.bic).c_str(),
              r.passive ? (*r.passive ? ", passive" : ", NOT passive") : "");
  std::printf("\nFiles:\n");
  for (const auto& f : files) std::printf("  %s\n", f.c_str());
}

}  // namespace frictionlab::cli
