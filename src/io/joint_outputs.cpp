// frictionlab io: fit-joint's and eval-joint's files (include/frictionlab/io/joint_outputs.hpp).
#include "frictionlab/io/joint_outputs.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/io/plot_svg.hpp"

namespace frictionlab::io {
namespace {

/// The stem of a record's file name, for output file names.
std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void write_prediction(const std::filesystem::path& dir, const std::string& name,
                      const identify::JointData& d, const identify::JointEvaluation& e, bool plots,
                      OutputFiles& files) {
  const auto csv = (dir / ("prediction_" + name + ".csv")).string();
  files.write(csv, format_csv({"t", "q", "q_sim", "qd", "qd_sim", "tau", "tau_pred"},
                              {&d.t, &d.q, &e.q_sim, &d.qd, &e.qd_sim, &d.tau, &e.tau_pred}));
  if (!plots) return;
  Plot p;
  p.title = "frictionlab fit-joint: " + name +
            " (torque from the measured motion; position "
            "and velocity simulated from the applied torque)";
  p.xlabel = "t [s]";
  p.x = d.t;
  p.panels.push_back({"torque [N m]", {{"measured", d.tau}, {"model", e.tau_pred}}});
  p.panels.push_back({"position [rad]", {{"measured", d.q}, {"simulated", e.q_sim}}});
  p.panels.push_back({"velocity [rad/s]", {{"measured", d.qd}, {"simulated", e.qd_sim}}});
  const auto svg = (dir / ("prediction_" + name + ".svg")).string();
  files.write(svg, render_svg(p));
}

void write_static_curve(const std::filesystem::path& dir, const workflows::FitJointOutcome& r,
                        bool plots, OutputFiles& files) {
  std::vector<double> v, meas, model;
  for (const auto& p : r.static_curve) {
    v.push_back(p.qd);
    meas.push_back(p.measured);
    model.push_back(p.model);
  }
  const auto csv = (dir / "static_curve.csv").string();
  files.write(csv, format_csv({"qd", "friction_measured", "friction_model"}, {&v, &meas, &model}));
  if (!plots) return;
  // The model's curve on its grid over the data's velocity range, the segment means as points.
  const std::vector<double>& grid = r.steady_curve.qd;
  Plot p;
  p.title = "Static friction: constant-velocity segments of the data and the model (zdot = 0)";
  p.xlabel = "qd [rad/s]";
  p.x = grid;
  std::vector<double> seg(grid.size(), std::nan(""));
  // Each segment mean at its nearest grid abscissa (points only).
  if (grid.size() > 1 && grid.back() > grid.front()) {
    const double lo = grid.front(), hi = grid.back();
    const auto n = static_cast<double>(grid.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto j = static_cast<std::size_t>(std::lround((v[i] - lo) / (hi - lo) * (n - 1)));
      if (j < seg.size()) seg[j] = meas[i];
    }
  }
  p.panels.push_back({"friction [N m]",
                      {{"model", r.steady_curve.friction}, {"data (segment means)", seg, true}}});
  const auto svg = (dir / "static_curve.svg").string();
  files.write(svg, render_svg(p));
}

/// sr3_scan.csv / .svg (step 1, one row per lambda) and sr3_history.csv / .svg (steps 2-3,
/// one row per inner iteration; the plot shows the kept sigma0 start), like 04_* fig. 4-6, 9-10.
void write_sr3_tables(const std::filesystem::path& dir, const identify::JointSr3Result& r,
                      bool plots, OutputFiles& files) {
  {
    std::vector<std::string> names{"lambda", "threshold",       "Omega_s",        "n_active",
                                   "n_zero", "train_rel_error", "validation_rss", "aic",
                                   "aic_r",  "admissible",      "chosen"};
    for (const auto& c : r.candidates) names.push_back("xi:" + c);
    std::vector<std::vector<double>> cols(names.size());
    for (std::size_t i = 0; i < r.scan.size(); ++i) {
      const auto& row = r.scan[i];
      const std::vector<double> v{row.lambda,
                                  row.threshold,
                                  row.Omega_s,
                                  static_cast<double>(row.n_active),
                                  static_cast<double>(row.n_zero),
                                  row.train_rel_error,
                                  row.validation_rss,
                                  row.aic,
                                  row.aic_r,
                                  row.admissible ? 1.0 : 0.0,
                                  i == r.chosen ? 1.0 : 0.0};
      for (std::size_t j = 0; j < v.size(); ++j) cols[j].push_back(v[j]);
      for (std::size_t j = 0; j < r.candidates.size(); ++j)
        cols[v.size() + j].push_back(j < row.xi.size() ? row.xi[j] : 0.0);
    }
    // aic and aic_r are undefined (m - k - 2 <= 0) for some rows: written as "nan", which
    // write_csv (finite values only) does not allow.
    std::string text;
    for (std::size_t j = 0; j < names.size(); ++j) text += (j ? "," : "") + names[j];
    text += '\n';
    for (std::size_t i = 0; i < r.scan.size(); ++i) {
      for (std::size_t j = 0; j < cols.size(); ++j)
        text.append(j ? "," : "")
            .append(std::isfinite(cols[j][i]) ? format_exact(cols[j][i]) : std::string("nan"));
      text += '\n';
    }
    const auto csv = (dir / "sr3_scan.csv").string();
    files.write(csv, text);
    if (plots) {
      Plot p;
      p.title = "frictionlab fit-joint sr3, step 1: lambda scan (AIC on validation data)";
      p.xlabel = "log10 lambda";
      std::vector<double> aic_r, nz, err;
      for (const auto& row : r.scan) {
        if (!(row.lambda > 0)) continue;
        p.x.push_back(std::log10(row.lambda));
        aic_r.push_back(row.admissible ? row.aic_r : std::numeric_limits<double>::quiet_NaN());
        nz.push_back(static_cast<double>(row.n_zero));
        err.push_back(row.train_rel_error);
      }
      if (!p.x.empty()) {
        p.panels.push_back({"AIC_r", {{"AIC - min AIC (admissible)", aic_r, true}}});
        p.panels.push_back({"eliminated terms", {{"NZ", nz, true}}});
        p.panels.push_back({"training error / ||tau||", {{"static fit", err, true}}});
        const auto svg = (dir / "sr3_scan.svg").string();
        files.write(svg, render_svg(p));
      }
    }
  }
  {
    std::vector<double> start, outer, inner, err, xi_u, s0, s1, om, fc, acc;
    for (const auto& h : r.history) {
      start.push_back(h.start);
      outer.push_back(h.outer);
      inner.push_back(h.inner);
      err.push_back(h.rel_error);
      xi_u.push_back(h.xi_u);
      s0.push_back(h.sigma0);
      s1.push_back(h.sigma1);
      om.push_back(h.Omega_s);
      fc.push_back(h.Fc);
      acc.push_back(h.accepted ? 1.0 : 0.0);
    }
    const auto csv = (dir / "sr3_history.csv").string();
    files.write(csv, format_csv({"start", "outer", "inner", "rel_error", "xi_u", "sigma0", "sigma1",
                                 "Omega_s", "Fc", "accepted"},
                                {&start, &outer, &inner, &err, &xi_u, &s0, &s1, &om, &fc, &acc}));
    if (plots) {
      Plot p;
      p.title = "frictionlab fit-joint sr3, steps 2-3: convergence (sigma0 start " +
                format_display(r.starts.empty() ? 0.0 : r.starts[r.chosen_start].sigma0_init) + ")";
      p.xlabel = "iteration";
      std::vector<double> e, x, a, b, w;
      for (const auto& h : r.history) {
        if (static_cast<std::size_t>(h.start) != r.chosen_start) continue;
        p.x.push_back(static_cast<double>(p.x.size() + 1));
        e.push_back(h.rel_error);
        x.push_back(h.xi_u);
        a.push_back(h.sigma0);
        b.push_back(h.sigma1);
        w.push_back(h.Omega_s);
      }
      if (!p.x.empty()) {
        p.panels.push_back({"E_tau / ||tau||", {{"training error", e}}});
        p.panels.push_back({"xi_u", {{"xi_u", x}}});
        p.panels.push_back({"sigma0 [N m/rad]", {{"sigma0", a}}});
        p.panels.push_back({"sigma1 [N m s/rad]", {{"sigma1", b}}});
        p.panels.push_back({"Omega_s [rad/s]", {{"Omega_s", w}}});
        const auto svg = (dir / "sr3_history.svg").string();
        files.write(svg, render_svg(p));
      }
    }
  }
}

}  // namespace

std::vector<std::string> write_fit_joint(const std::string& out,
                                         const workflows::FitJointOutcome& r, bool plots,
                                         const std::vector<NamedPath>& inputs,
                                         const std::string& report,
                                         const ReportOptions& report_options) {
  const std::filesystem::path dir(out);
  OutputFiles files;
  files.protect(inputs);
  if (r.sr3) write_sr3_tables(dir, *r.sr3, plots, files);
  const auto fit_path = (dir / kJointFitFile).string();
  const nlohmann::ordered_json fit_json = joint_fit_to_json(r);
  files.write(fit_path, fit_json.dump(2) + "\n");
  write_prediction(dir, stem(r.input), r.training_data, r.training, plots, files);
  for (std::size_t i = 0; i < r.validation.size(); ++i)
    write_prediction(dir, stem(r.validation_data[i].source), r.validation_data[i], r.validation[i],
                     plots, files);
  write_static_curve(dir, r, plots, files);
  if (!report.empty()) files.write(report, report_html({{fit_path, fit_json}}, report_options));
  files.commit();
  return files.paths();
}

std::vector<std::string> write_eval_joint(
    const std::string& out, const workflows::EvalJointOutcome& r, const sim::JointModel& model,
    const std::string& joint_file, bool plots, const std::vector<NamedPath>& inputs,
    const std::string& report, const ReportOptions& report_options) {
  const std::filesystem::path dir(out);
  OutputFiles files;
  files.protect(inputs);
  const auto json_path = (dir / kJointEvalFile).string();
  const nlohmann::ordered_json eval_json = joint_eval_to_json(r, model, joint_file);
  files.write(json_path, eval_json.dump(2) + "\n");
  for (std::size_t i = 0; i < r.evaluations.size(); ++i)
    write_prediction(dir, stem(r.data[i].source), r.data[i], r.evaluations[i], plots, files);
  if (!report.empty()) files.write(report, report_html({{json_path, eval_json}}, report_options));
  files.commit();
  return files.paths();
}

}  // namespace frictionlab::io
