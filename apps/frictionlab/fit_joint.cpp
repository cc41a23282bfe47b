// frictionlab fit-joint: identify a robot joint (inertia, gravity, offset, friction) from one
// trajectory (docs/cli.md, "fit-joint"; docs/joint-identification.md). Loading
// (io/record_io), preprocessing (identify/joint_data), the methods (identify/joint_*), the
// validation (identify/joint_validate) and the outputs (io/joint_json, io/csv, io/plot_svg)
// are library calls; this file wires them to the command line and prints the summary.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "frictionlab/identify/joint_controller.hpp"
#include "frictionlab/identify/joint_data.hpp"
#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/joint_oe.hpp"
#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/identify/joint_validate.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/joint_json.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/io/record_io.hpp"
#include "frictionlab/signal/resample.hpp"
#include "records.hpp"

namespace frictionlab::cli {
namespace {

struct FitJointOptions {
  std::string input, out = "frictionlab-joint";
  std::vector<std::string> validate;
  std::string method = "idim", init;
  // channels
  std::string time = "t", position, velocity, torque, command;
  double gain = 1.0;
  // structure
  bool no_gravity = false, no_offset = false;
  // preprocessing
  double resample = 0, lowpass = 0, trim = 0, diff_window = 0.02;
  int decimate = 1;
  std::string diff = "savgol";
  double tv_alpha = 0, tv_alpha2 = 0, tv_torque = 0;
  int tv_order = 2;
  bool reintegrate = false;
  bool use_velocity = false;
  // sr3
  double K = 0;
  int viscous_powers = 3, aic_observations = 0;
  std::vector<double> delta{0.5, 1.0, 2.0, 4.0}, sigma0_init{1e3, 5e3, 1e4, 5e4, 1e5};
  // idim
  bool asymmetric = false;
  double v_deadband = 0;
  // oe
  std::string desired, desired_position = "position", desired_velocity = "velocity",
                       desired_torque = "torque", controller = "fit";
  bool closed_loop = false;
  std::string oe_output = "both";
  double segment = 0.25;
  int iterations = 50;
  // validation
  double horizon = 0, max_step = 1e-3;
  bool no_plots = false;
};

void progress(std::string_view msg) { std::cerr << "frictionlab: " << msg << '\n'; }

identify::JointData load(const FitJointOptions& o, const std::string& path) {
  io::RecordSpec spec;
  spec.time = o.time;
  spec.position = o.position;
  spec.velocity = o.use_velocity ? o.velocity : std::string();
  spec.force = o.torque;
  spec.current = o.command;
  const data::Record rec = io::read_record(path, spec);
  identify::JointPrepOptions p;
  p.torque_from_command = !o.command.empty();
  p.gain = o.gain;
  p.resample_rate = o.resample;
  p.lowpass_hz = o.lowpass;
  p.decimate = o.decimate;
  p.trim_s = o.trim;
  p.diff = o.diff == "central" ? identify::JointDiff::central
           : o.diff == "tvreg"  ? identify::JointDiff::tvreg
                                : identify::JointDiff::savgol;
  p.diff_window_s = o.diff_window;
  p.tv_alpha = o.tv_alpha;
  p.tv_order = o.tv_order;
  p.tv_second_alpha = o.tv_alpha2;
  p.reintegrate = o.reintegrate;
  p.tv_torque_alpha = o.tv_torque;
  p.use_measured_velocity = o.use_velocity;
  return identify::joint_data(rec, p);
}

/// The desired trajectory of --desired on the training record's samples: the desired record
/// goes through the same preprocessing (the controller relation then holds between the
/// filtered signals), q_des and qd_des from its position and velocity channels, tau_ff from its
/// torque channel (0 without --desired-torque), linearly interpolated onto d.t.
void attach_desired(const FitJointOptions& o, identify::JointData& d) {
  io::RecordSpec spec;
  spec.time = o.time;
  spec.position = o.desired_position;
  spec.velocity = o.desired_velocity;
  spec.force = o.desired_torque;
  data::Record rec = io::read_record(o.desired, spec);
  if (o.desired_torque.empty()) rec.force.assign(rec.t.size(), 0.0);
  identify::JointPrepOptions p;
  p.resample_rate = o.resample;
  p.lowpass_hz = o.lowpass;
  p.use_measured_velocity = true;
  const identify::JointData des = identify::joint_data(rec, p);
  if (d.t.front() < des.t.front() - 1e-9 || d.t.back() > des.t.back() + 1e-9)
    throw io::InputError(o.desired, 0, 0,
                         "the desired record covers t = " + fmt(des.t.front()) + " .. " +
                             fmt(des.t.back()) + " s, the training record " + fmt(d.t.front()) +
                             " .. " + fmt(d.t.back()) + " s: it must cover the training record");
  auto at = [&](const std::vector<double>& x) {
    std::vector<double> tt = d.t;
    for (double& v : tt) v = std::clamp(v, des.t.front(), des.t.back());  // rounding only
    return signal::interp_linear(des.t, x, tt);
  };
  d.q_des = at(des.q);
  d.qd_des = at(des.qd);
  d.tau_ff = at(des.tau);
}

identify::JointStructure structure(const FitJointOptions& o) {
  return identify::JointStructure{!o.no_gravity, !o.no_offset};
}

/// The stem of a record's file name, for output file names.
std::string stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

void write_prediction(const std::filesystem::path& dir, const std::string& name,
                      const identify::JointData& d, const identify::JointEvaluation& e,
                      bool plots, std::vector<std::string>& files) {
  const auto csv = (dir / ("prediction_" + name + ".csv")).string();
  io::write_csv(csv, {"t", "q", "q_sim", "qd", "qd_sim", "tau", "tau_pred"},
                {&d.t, &d.q, &e.q_sim, &d.qd, &e.qd_sim, &d.tau, &e.tau_pred});
  files.push_back(csv);
  if (!plots) return;
  io::Plot p;
  p.title = "frictionlab fit-joint: " + name + " (torque from the measured motion; position "
            "and velocity simulated from the applied torque)";
  p.xlabel = "t [s]";
  p.x = d.t;
  p.panels.push_back({"torque [N m]", {{"measured", d.tau}, {"model", e.tau_pred}}});
  p.panels.push_back({"position [rad]", {{"measured", d.q}, {"simulated", e.q_sim}}});
  p.panels.push_back({"velocity [rad/s]", {{"measured", d.qd}, {"simulated", e.qd_sim}}});
  const auto svg = (dir / ("prediction_" + name + ".svg")).string();
  io::write_svg(svg, p);
  files.push_back(svg);
}

void write_static_curve(const std::filesystem::path& dir, const identify::JointModel& m,
                        const identify::JointData& d,
                        const std::vector<identify::StaticCurvePoint>& pts, bool plots,
                        std::vector<std::string>& files) {
  std::vector<double> v, meas, model;
  for (const auto& p : pts) {
    v.push_back(p.qd);
    meas.push_back(p.measured);
    model.push_back(p.model);
  }
  const auto csv = (dir / "static_curve.csv").string();
  io::write_csv(csv, {"qd", "friction_measured", "friction_model"}, {&v, &meas, &model});
  files.push_back(csv);
  if (!plots) return;
  // The model's curve on a grid over the data's velocity range, the segment means as points.
  double lo = 0, hi = 0;
  for (double x : d.qd) {
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  io::Plot p;
  p.title = "Static friction: constant-velocity segments of the data and the model (zdot = 0)";
  p.xlabel = "qd [rad/s]";
  const int n = 401;
  std::vector<double> curve, seg(n, std::nan(""));
  for (int i = 0; i < n; ++i) {
    const double x = lo + (hi - lo) * i / (n - 1);
    p.x.push_back(x);
    curve.push_back(identify::steady_friction(m, x));
  }
  // Each segment mean at its nearest grid abscissa (points only).
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto j = static_cast<std::size_t>(std::lround((v[i] - lo) / (hi - lo) * (n - 1)));
    if (j < seg.size()) seg[j] = meas[i];
  }
  p.panels.push_back({"friction [N m]", {{"model", curve}, {"data (segment means)", seg, true}}});
  const auto svg = (dir / "static_curve.svg").string();
  io::write_svg(svg, p);
  files.push_back(svg);
}

/// sr3 gives no standard errors: every parameter with NaN std_error / interval.
std::vector<identify::ParameterEstimate> sr3_parameters(const identify::JointModel& m) {
  std::vector<identify::ParameterEstimate> out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto add = [&](std::string name, std::string unit, double v) {
    identify::ParameterEstimate e;
    e.field = name;
    e.name = std::move(name);
    e.unit = std::move(unit);
    e.value = v;
    e.std_error = e.ci_low = e.ci_high = nan;
    out.push_back(std::move(e));
  };
  add("I", "kg m^2", m.I);
  if (m.structure.gravity) {
    add("mgCx", "N m", m.mgCx);
    add("mgCy", "N m", m.mgCy);
  }
  if (m.structure.offset) add("offset", "N m", m.offset);
  const auto& p = std::get<JointLuGre<double>::Params>(m.friction);
  add("sigma0", "N m/rad", p.sigma0);
  add("sigma1", "N m s/rad", p.sigma1);
  add("Fc", "N m", p.Fc);
  for (int i = 0; i < p.n_stribeck; ++i)
    add("Fs[" + std::to_string(i) + "]", "N m", p.Fs[static_cast<std::size_t>(i)]);
  if (p.n_stribeck > 0) add("Omega_s", "rad/s", p.Omega_s);
  for (int i = 0; i < p.n_viscous; ++i)
    add("cv[" + std::to_string(i) + "]", "N m (s/rad)^" + std::to_string(i + 1),
        p.cv[static_cast<std::size_t>(i)]);
  return out;
}

nlohmann::ordered_json num_or_null(double x) {
  return std::isfinite(x) ? nlohmann::ordered_json(x) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json sr3_details(const identify::JointSr3Result& r) {
  nlohmann::ordered_json d = nlohmann::ordered_json::object();
  d["candidates"] = r.candidates;
  d["active"] = r.active;
  d["lambda"] = r.lambda;
  d["aic_observations"] = r.aic_observations;
  d["aic_on_held_out_training"] = r.held_out;
  d["static_velocity_floor"] = r.static_velocity_floor;
  d["static_rel_error"] = r.static_rel_error;
  d["rel_error"] = r.rel_error;
  d["sigma0_start"] = r.starts.empty() ? 0.0 : r.starts[r.chosen_start].sigma0_init;
  nlohmann::ordered_json st = nlohmann::ordered_json::array();
  for (const auto& x : r.starts)
    st.push_back({{"sigma0_init", x.sigma0_init},
                  {"rel_error", num_or_null(x.rel_error)},
                  {"outer_iterations", x.outer_iterations},
                  {"converged", x.converged},
                  {"sigma0", num_or_null(x.sigma0)},
                  {"sigma1", num_or_null(x.sigma1)}});
  d["starts"] = std::move(st);
  d["seconds"] = r.seconds;
  return d;
}

/// sr3_scan.csv / .svg (step 1, one row per lambda) and sr3_history.csv / .svg (steps 2-3,
/// one row per inner iteration; the plot shows the kept sigma0 start), like 04_* fig. 4-6, 9-10.
void write_sr3_tables(const std::filesystem::path& dir, const identify::JointSr3Result& r,
                      bool plots, std::vector<std::string>& files) {
  {
    std::vector<std::string> names{"lambda", "threshold", "Omega_s", "n_active", "n_zero",
                                   "train_rel_error", "validation_rss", "aic", "aic_r",
                                   "admissible", "chosen"};
    for (const auto& c : r.candidates) names.push_back("xi:" + c);
    std::vector<std::vector<double>> cols(names.size());
    for (std::size_t i = 0; i < r.scan.size(); ++i) {
      const auto& row = r.scan[i];
      const std::vector<double> v{row.lambda, row.threshold, row.Omega_s,
                                  static_cast<double>(row.n_active),
                                  static_cast<double>(row.n_zero), row.train_rel_error,
                                  row.validation_rss, row.aic, row.aic_r,
                                  row.admissible ? 1.0 : 0.0, i == r.chosen ? 1.0 : 0.0};
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
        text += (j ? "," : "") +
                (std::isfinite(cols[j][i]) ? io::format_double(cols[j][i]) : std::string("nan"));
      text += '\n';
    }
    const auto csv = (dir / "sr3_scan.csv").string();
    io::write_text_file(csv, text);
    files.push_back(csv);
    if (plots) {
      io::Plot p;
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
        io::write_svg(svg, p);
        files.push_back(svg);
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
    io::write_csv(csv, {"start", "outer", "inner", "rel_error", "xi_u", "sigma0", "sigma1",
                        "Omega_s", "Fc", "accepted"},
                  {&start, &outer, &inner, &err, &xi_u, &s0, &s1, &om, &fc, &acc});
    files.push_back(csv);
    if (plots) {
      io::Plot p;
      p.title = "frictionlab fit-joint sr3, steps 2-3: convergence (sigma0 start " +
                fmt(r.starts.empty() ? 0.0 : r.starts[r.chosen_start].sigma0_init) + ")";
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
        io::write_svg(svg, p);
        files.push_back(svg);
      }
    }
  }
}

void print_errors(const char* name, const identify::JointEvaluation& e) {
  std::printf("  %-34s %9s %9s %9s   %9s %9s %9s\n", name, fmt(e.torque.rel).c_str(),
              fmt(e.position.rel).c_str(), fmt(e.velocity.rel).c_str(),
              fmt(e.torque.rmse).c_str(), fmt(e.position.rmse).c_str(),
              fmt(e.velocity.rmse).c_str());
}

void run_fit_joint(const FitJointOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  identify::JointData train = load(o, o.input);
  if (!o.desired.empty()) attach_desired(o, train);
  if (o.closed_loop && o.desired.empty())
    throw std::invalid_argument("--closed-loop needs --desired RECORD (the controller's desired "
                                "trajectory and feedforward torque)");
  std::vector<identify::JointData> val;
  for (const auto& path : o.validate) val.push_back(load(o, path));
  const std::span<const identify::JointData> train_span(&train, 1);

  std::vector<std::string> sr3_files;
  {
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (ec) throw io::InputError(o.out, 0, 0, "cannot create the directory: " + ec.message());
  }
  io::JointFitSummary s;
  s.method = o.method;
  // oe: the start's training torque error (NaN otherwise), compared with the result's below.
  double oe_start_torque_error = std::numeric_limits<double>::quiet_NaN();
  s.input = o.input;
  if (o.method == "idim" || (o.method == "oe" && o.init == "idim")) {
    identify::JointIdimOptions io;
    io.structure = structure(o);
    io.asymmetric = o.asymmetric;
    io.v_deadband = o.v_deadband;
    const auto r = identify::fit_joint_idim(train_span, io);
    s.model = r.model;
    s.parameters = r.parameters;
    s.warnings = r.warnings;
    s.method_details["idim"] = {{"samples", r.n_used},
                                {"sigma", r.sigma},
                                {"condition_number", r.condition_number},
                                {"rmse", r.training.rmse}};
  } else if (o.method == "sr3" || (o.method == "oe" && o.init == "sr3")) {
    identify::JointSr3Options so;
    so.structure = structure(o);
    so.K = o.K;
    so.n_viscous = o.viscous_powers;
    so.delta = o.delta;
    so.sigma0_init = o.sigma0_init;
    so.aic_observations = o.aic_observations;
    const auto r = identify::fit_joint_sr3(train_span, val, so);
    s.model = r.model;
    s.parameters = sr3_parameters(r.model);
    s.warnings = r.warnings;
    s.method_details["sr3"] = sr3_details(r);
    write_sr3_tables(std::filesystem::path(o.out), r, !o.no_plots, sr3_files);
  } else if (o.method == "oe") {
    if (o.init.empty())
      throw std::invalid_argument("fit-joint --method oe needs --init idim, --init sr3 or --init "
                                  "JOINT.json (a joint file or a fit-joint result)");
    const io::JointFile jf = io::read_joint_file(o.init);
    for (const auto& w : jf.warnings) print_warning(w);
    s.model = jf.model;
  } else {
    throw std::invalid_argument("--method must be sr3, idim or oe, got '" + o.method + "'");
  }
  if (o.method == "oe") {
    identify::JointOeOptions oo;
    oo.output = o.oe_output == "position"   ? identify::JointOeOptions::Output::position
                : o.oe_output == "velocity" ? identify::JointOeOptions::Output::velocity
                                            : identify::JointOeOptions::Output::both;
    oo.segment_s = o.segment;
    oo.max_step = o.max_step;
    oo.max_iterations = o.iterations;
    oo.progress = progress;
    nlohmann::ordered_json ctrl_json = nullptr;
    if (o.closed_loop) {
      oo.closed_loop = true;
      double ctrl_rel = std::numeric_limits<double>::quiet_NaN();
      if (o.controller == "fit") {
        const auto cf = identify::fit_joint_controller(train);
        oo.controller = cf.controller;
        ctrl_rel = cf.rel_error;
      } else {
        oo.controller = io::read_controller_file(o.controller);
        ctrl_rel = identify::channel_error(train.tau,
                                           identify::controller_torque(oo.controller, train))
                       .rel;
      }
      const auto& c = oo.controller;
      std::fprintf(stderr,
                   "frictionlab: controller (%s): kp %s N m/rad, kd %s N m s/rad, kff %s, bias "
                   "%s N m; it explains the training torque to ||e||/||tau|| = %s\n",
                   o.controller.c_str(), fmt(c.kp).c_str(), fmt(c.kd).c_str(),
                   fmt(c.kff).c_str(), fmt(c.bias).c_str(), fmt(ctrl_rel).c_str());
      ctrl_json = {{"source", o.controller}, {"kp", c.kp},   {"kd", c.kd},
                   {"kff", c.kff},          {"bias", c.bias}, {"torque_rel_error", ctrl_rel}};
    }
    oe_start_torque_error =
        identify::channel_error(train.tau, identify::inverse_torque(s.model, train)).rel;
    const auto r = identify::fit_joint_oe(train_span, s.model, oo);
    s.model = r.model;
    s.parameters = r.parameters;
    s.warnings.insert(s.warnings.end(), r.warnings.begin(), r.warnings.end());
    s.method_details["oe"] = {{"init", o.init},
                              {"closed_loop", o.closed_loop},
                              {"controller", ctrl_json},
                              {"initial_cost", r.initial_cost},
                              {"final_cost", r.final_cost},
                              {"iterations", r.iterations},
                              {"converged", r.converged},
                              {"termination", r.termination},
                              {"segments", r.segments},
                              {"condition_number", r.condition_number}};
  }
  for (const auto& w : s.warnings) print_warning(w);

  identify::JointEvalOptions eo;
  eo.max_step = o.max_step;
  eo.horizon_s = o.horizon;
  s.training = identify::evaluate_joint(s.model, train, eo);
  // The output error fits the simulated motion; on a record whose motion the open-loop model
  // cannot follow (e.g. a joint under a position controller) it can buy that fit with a
  // friction that no longer explains the torque: say so.
  if (s.training.torque.rel > 1.5 * oe_start_torque_error) {
    s.warnings.push_back("oe raised the training torque error ||e||/||tau|| from " +
                         fmt(oe_start_torque_error) + " (" + o.init + ") to " +
                         fmt(s.training.torque.rel) +
                         ": the refined model fits the simulated motion at the expense of the "
                         "torque; compare both on the validation records");
    print_warning(s.warnings.back());
  }
  for (std::size_t i = 0; i < val.size(); ++i)
    s.validation.emplace_back(o.validate[i], identify::evaluate_joint(s.model, val[i], eo));
  s.static_curve = identify::static_curve_check(s.model, train);
  s.run_time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::InputError(o.out, 0, 0, "cannot create the directory: " + ec.message());
  std::vector<std::string> files;
  const auto fit_path = (dir / "joint_fit.json").string();
  files.insert(files.end(), sr3_files.begin(), sr3_files.end());
  io::write_text_file(fit_path, io::joint_fit_to_json(s).dump(2) + "\n");
  files.push_back(fit_path);
  write_prediction(dir, stem(o.input), train, s.training, !o.no_plots, files);
  for (std::size_t i = 0; i < val.size(); ++i)
    write_prediction(dir, stem(o.validate[i]), val[i], s.validation[i].second, !o.no_plots,
                     files);
  write_static_curve(dir, s.model, train, s.static_curve, !o.no_plots, files);

  std::printf("frictionlab fit-joint: method %s, %zu samples (%.3g s), %.2f s\n", o.method.c_str(),
              train.size(), train.t.back() - train.t.front(), s.run_time_s);
  std::printf("\n  %-10s %14s %12s %28s  %s\n", "parameter", "value", "std. error",
              "95 % interval", "unit");
  for (const auto& e : s.parameters) {
    const bool has_se = std::isfinite(e.std_error);
    const std::string ci = e.fixed   ? std::string("(fixed)")
                           : !has_se ? std::string("-")
                                     : "[" + fmt(e.ci_low) + ", " + fmt(e.ci_high) + "]";
    const std::string se = e.fixed ? std::string() : has_se ? fmt(e.std_error) : "-";
    std::printf("  %-10s %14s %12s %28s  %s\n", e.name.c_str(), fmt(e.value).c_str(),
                se.c_str(), ci.c_str(), e.unit.c_str());
  }
  std::printf("\n  %-34s %9s %9s %9s   %9s %9s %9s\n", "relative error ||e||/||y||, RMSE",
              "torque", "position", "velocity", "[N m]", "[rad]", "[rad/s]");
  print_errors(("training: " + std::filesystem::path(o.input).filename().string()).c_str(),
               s.training);
  for (const auto& [file, e] : s.validation)
    print_errors(("validation: " + std::filesystem::path(file).filename().string()).c_str(), e);
  std::printf("\n  static curve: %zu constant-velocity segments in the training record\n",
              s.static_curve.size());
  std::printf("\nFiles:\n");
  for (const auto& f : files) std::printf("  %s\n", f.c_str());
}

struct EvalJointOptions {
  FitJointOptions rec;  ///< record, channels, preprocessing, validation simulation
  std::string joint;    ///< JOINT.json or joint_fit.json
  std::vector<std::string> inputs;
};

void run_eval_joint(const EvalJointOptions& o) {
  const io::JointFile jf = io::read_joint_file(o.joint);
  for (const auto& w : jf.warnings) print_warning(w);
  identify::JointEvalOptions eo;
  eo.max_step = o.rec.max_step;
  eo.horizon_s = o.rec.horizon;
  const std::filesystem::path dir(o.rec.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::InputError(o.rec.out, 0, 0, "cannot create the directory: " + ec.message());
  std::vector<std::string> files;
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();
  summary["format"] = "frictionlab-joint-eval";
  summary["version"] = 1;
  summary["joint_file"] = o.joint;
  summary["joint"] = io::joint_to_json(jf.model);
  summary["records"] = nlohmann::ordered_json::array();
  std::printf("frictionlab eval-joint: %s\n\n", o.joint.c_str());
  std::printf("  %-34s %9s %9s %9s   %9s %9s %9s\n", "relative error ||e||/||y||, RMSE",
              "torque", "position", "velocity", "[N m]", "[rad]", "[rad/s]");
  for (const auto& path : o.inputs) {
    const identify::JointData d = load(o.rec, path);
    const auto e = identify::evaluate_joint(jf.model, d, eo);
    print_errors(std::filesystem::path(path).filename().string().c_str(), e);
    nlohmann::ordered_json r = nlohmann::ordered_json::object();
    r["file"] = path;
    r.update(io::joint_errors_json(e));
    summary["records"].push_back(std::move(r));
    write_prediction(dir, stem(path), d, e, !o.rec.no_plots, files);
  }
  const auto json_path = (dir / "joint_eval.json").string();
  io::write_text_file(json_path, summary.dump(2) + "\n");
  files.insert(files.begin(), json_path);
  std::printf("\nFiles:\n");
  for (const auto& f : files) std::printf("  %s\n", f.c_str());
}

/// The options fit-joint and eval-joint share: channels, structure-free preprocessing and the
/// validation simulation.
void add_record_options(CLI::App* cmd, FitJointOptions& o_ref) {
  FitJointOptions* o = &o_ref;
  cmd->add_option("--time", o->time, "Time column / variable [s]")->capture_default_str();
  cmd->add_option("--position", o->position, "Joint angle column [rad]")->required();
  cmd->add_option("--velocity", o->velocity,
                  "Measured velocity column [rad/s] (used with --use-velocity)");
  auto* tq = cmd->add_option("--torque", o->torque, "Applied torque column [N m]");
  auto* cm = cmd->add_option("--command", o->command,
                             "Command column (current or torque command); tau = gain * command");
  tq->excludes(cm);
  cmd->callback([tq, cm]() {
    if (tq->count() == 0 && cm->count() == 0)
      throw CLI::RequiredError("--torque COLUMN, or --command COLUMN with --gain K,");
  });
  cmd->add_option("--gain", o->gain, "Gain of --command [N m per unit]")->needs(cm);
  cmd->add_option("--resample", o->resample, "Resample to this uniform rate [Hz] first")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--lowpass", o->lowpass,
                  "Zero-phase Butterworth low-pass of position, velocity and torque [Hz]")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--diff", o->diff, "Differentiator for qd, qdd: savgol, central or tvreg")
      ->check(CLI::IsMember({"savgol", "central", "tvreg"}))
      ->capture_default_str();
  cmd->add_option("--tv-alpha", o->tv_alpha,
                  "tvreg: regularisation weight, sample-rate independent [rad s^(order+1)]")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--tv-order", o->tv_order,
                  "tvreg: 2 (TV of qdd's derivative, default) or 1 (TVRegDiff twice)")
      ->check(CLI::IsMember({1, 2}))
      ->capture_default_str();
  cmd->add_option("--tv-alpha2", o->tv_alpha2,
                  "tvreg order 1: weight of the second TVRegDiff (of qd) [rad s]")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--reintegrate", o->reintegrate,
                "q, qd from the double integral of the de-noised qdd (reference 004 sec. 5.1)");
  cmd->add_option("--tv-torque", o->tv_torque,
                  "De-noise the torque by TV regularisation with this weight [N m s^2]")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--diff-window", o->diff_window, "savgol window [s]")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--use-velocity", o->use_velocity,
                "qd = the measured --velocity channel, qdd its derivative");
  cmd->add_option("--decimate", o->decimate, "Keep every N-th sample after filtering")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--trim", o->trim, "Seconds dropped at both ends after filtering")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--horizon", o->horizon,
                  "Validation: restart the simulation from the measured state every this many "
                  "seconds (0: one open-loop simulation of the whole record)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-step", o->max_step, "Largest simulation step [s]")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

}  // namespace

void register_fit_joint(CLI::App& app, Registry& registry) {
  auto o = std::make_shared<FitJointOptions>();
  CLI::App* cmd = app.add_subcommand(
      "fit-joint",
      "Identify a robot joint (inertia, gravity terms, offset, friction) from one trajectory: "
      "methods idim (inverse dynamic model, linear least squares) and oe (output-error "
      "refinement); validates on --validate records; writes joint_fit.json, predictions and "
      "plots into --out (docs/joint-identification.md).");
  cmd->add_option("--input", o->input, "Training record (.csv or .mat)")
      ->type_name("RECORD")
      ->required();
  cmd->add_option("--validate", o->validate, "Validation record(s), same channels")
      ->type_name("RECORD");
  cmd->add_option("--out", o->out, "Output directory (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  cmd->add_option("--method", o->method,
                  "sr3 (SINDy-SR3 + iterative LuGre, reference 004), idim (inverse dynamic "
                  "model, least squares) or oe (output-error refinement)")
      ->check(CLI::IsMember({"sr3", "idim", "oe"}))
      ->capture_default_str();
  cmd->add_option("--init", o->init,
                  "oe: start from sr3, idim, or a JOINT.json / joint_fit.json file")
      ->type_name("sr3|idim|FILE");
  cmd->add_option("--K", o->K, "sr3: tanh(K qd) in place of sgn(qd) [s/rad] (0: sgn, model A)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--viscous-powers", o->viscous_powers,
                  "sr3: viscous library qd, qd^2, .., qd^N")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  cmd->add_option("--delta", o->delta, "sr3: Stribeck exponents of the library")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sigma0-init", o->sigma0_init, "sr3: initial sigma0 values [N m/rad]")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--aic-observations", o->aic_observations,
                  "sr3: number m of AIC observations (0: max(40, columns + 10))")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  add_record_options(cmd, *o);
  cmd->add_flag("--no-gravity", o->no_gravity, "No gravity terms (horizontal axis)");
  cmd->add_flag("--no-offset", o->no_offset, "No constant torque offset");
  cmd->add_flag("--asymmetric", o->asymmetric,
                "idim: separate Coulomb levels Fc_pos, Fc_neg (needs --no-offset)");
  cmd->add_option("--v-deadband", o->v_deadband,
                  "idim: leave out samples with |qd| <= this [rad/s]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--oe-output", o->oe_output, "oe: fit position, velocity or both")
      ->check(CLI::IsMember({"position", "velocity", "both"}))
      ->capture_default_str();
  cmd->add_option("--desired", o->desired,
                  "Closed-loop record: the controller's desired trajectory (same time column), "
                  "same preprocessing, interpolated onto the training samples")
      ->type_name("RECORD");
  cmd->add_option("--desired-position", o->desired_position, "--desired: desired angle column")
      ->capture_default_str();
  cmd->add_option("--desired-velocity", o->desired_velocity,
                  "--desired: desired velocity column")
      ->capture_default_str();
  cmd->add_option("--desired-torque", o->desired_torque,
                  "--desired: feedforward torque column (empty: no feedforward)")
      ->capture_default_str();
  cmd->add_option("--controller", o->controller,
                  "oe --closed-loop: the PD law's gains, 'fit' (least squares on the training "
                  "record) or a CONTROLLER.json")
      ->type_name("fit|FILE")
      ->capture_default_str();
  cmd->add_flag("--closed-loop", o->closed_loop,
                "oe: simulate the joint under its controller (--desired) and fit the torque "
                "too (closed-loop output error)");
  cmd->add_option("--segment", o->segment, "oe: multiple-shooting segment length [s] (0: whole)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--iterations", o->iterations, "oe: largest number of solver iterations")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--no-plots", o->no_plots, "Do not write the SVG plots");
  registry.push_back({cmd, [o]() { run_fit_joint(*o); }});

  auto e = std::make_shared<EvalJointOptions>();
  e->rec.out = "frictionlab-joint-eval";
  CLI::App* ev = app.add_subcommand(
      "eval-joint",
      "Validate a joint model (JOINT.json or a fit-joint result) on records: the error measures "
      "of fit-joint (torque from the measured motion, position and velocity simulated from the "
      "applied torque); writes joint_eval.json, predictions and plots into --out.");
  ev->add_option("--joint", e->joint, "Joint model file")->type_name("JOINT.json")->required();
  ev->add_option("--input", e->inputs, "Record(s) (.csv or .mat)")
      ->type_name("RECORD")
      ->required();
  ev->add_option("--out", e->rec.out, "Output directory (created if missing)")
      ->type_name("DIR")
      ->capture_default_str();
  add_record_options(ev, e->rec);
  ev->add_flag("--no-plots", e->rec.no_plots, "Do not write the SVG plots");
  registry.push_back({ev, [e]() { run_eval_joint(*e); }});
}

}  // namespace frictionlab::cli
