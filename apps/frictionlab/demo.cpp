// frictionlab CLI: `demo` — the README's main job on built-in data (docs/cli.md, "demo").
//
// (a) LuGre with the default (Canudas de Wit 1995) parameters, driven by a smooth velocity with
//     reversals sampled at 10 ms and at 0.1 ms: exact step vs implicit and forward Euler, each
//     compared with the exact step on the 0.1 ms record.
// (b) The stick-slip benchmark with LuGre friction by the fixed-step ROS2 scheme and by CVODE.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "frictionlab/identify/fit.hpp"
#include "frictionlab/identify/synthetic.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/fit_json.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/model_json.hpp"
#include "frictionlab/io/model_run.hpp"
#include "frictionlab/io/plot_svg.hpp"
#include "frictionlab/io/system_json.hpp"
#include "frictionlab/sim/systems.hpp"

namespace frictionlab::cli {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDuration = 2.0;  // [s]

// The test velocity of tests/test_lugre.cpp: 10 mm/s at 1 Hz plus 4 mm/s at 2.7 Hz.
double demo_velocity(double t) {
  return 0.01 * std::sin(2 * kPi * t) + 0.004 * std::sin(2 * kPi * 2.7 * t);
}

struct Record {
  std::vector<double> t, v;
};

Record sampled(double h) {
  Record r;
  const long n = std::lround(kDuration / h) + 1;
  for (long k = 0; k < n; ++k) {
    r.t.push_back(static_cast<double>(k) * h);
    r.v.push_back(demo_velocity(r.t.back()));
  }
  return r;
}

struct Comparison {
  std::string label, step, column;
  io::ModelRun run;
  long stride = 1;  // samples of this run per 10 ms
};

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

// One row of the step-size table (no trailing blanks).
void print_row(const std::string& a, const std::string& b, const std::string& c,
               const std::string& d, const std::string& e) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "    %-15s %-7s %-20s %-16s %s", a.c_str(), b.c_str(), c.c_str(),
                d.c_str(), e.c_str());
  std::string line(buf);
  line.erase(line.find_last_not_of(' ') + 1);
  std::cout << line << '\n';
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void lugre_step_size(const std::filesystem::path& dir, std::vector<std::string>& files) {
  const LuGre<double>::Params p;  // defaults: sigma0 = 1e5, Fc = 1, Fs = 1.5, vs = 1 mm/s
  const io::ModelSpec spec = p;
  const Record coarse = sampled(1e-2), fine = sampled(1e-4);
  const long ratio = 100;

  const io::ModelRun ref = io::run_model(spec, fine.t, fine.v, Method::exact, Hold::linear, 0);
  std::vector<Comparison> runs = {
      {"exact", "10 ms", "F_exact_10ms",
       io::run_model(spec, coarse.t, coarse.v, Method::exact, Hold::linear, 0)},
      {"implicit Euler", "10 ms", "F_implicit_euler_10ms",
       io::run_model(spec, coarse.t, coarse.v, Method::implicit_euler, Hold::linear, 0)},
      {"forward Euler", "10 ms", "F_euler_10ms",
       io::run_model(spec, coarse.t, coarse.v, Method::forward_euler, Hold::linear, 0)},
      {"forward Euler", "0.1 ms", "F_euler_0.1ms",
       io::run_model(spec, fine.t, fine.v, Method::forward_euler, Hold::linear, 0), ratio},
  };
  const double bound = LuGre<double>::state_bound(p);

  std::cout << "(a) LuGre, default parameters (sigma0 = 1e5 N/m, sigma1 = 316.2 N s/m, sigma2 = "
               "0.4 N s/m,\n"
               "    Fc = 1 N, Fs = 1.5 N, vs = 1 mm/s), v(t) = 10 sin(2 pi t) + 4 sin(2 pi 2.7 t) "
               "mm/s over 2 s.\n"
               "    Reference: exact step on the input sampled every 0.1 ms (linear hold);\n"
               "    compared at the 10 ms samples. State bound max(Fc, Fs)/sigma0 = "
            << sci(bound) << " m.\n\n";
  print_row("scheme", "step", "max |F - F_ref| [N]", "max |z| / bound", "");
  std::vector<std::string> names = {"t", "v", "F_ref_0.1ms"};
  std::vector<std::vector<double>> columns = {coarse.t, coarse.v, {}};
  for (std::size_t k = 0; k < coarse.t.size(); ++k)
    columns[2].push_back(ref.F[k * static_cast<std::size_t>(ratio)]);
  std::vector<bool> bounded = {true};  // per column from index 2: plotted with the reference
  for (const auto& c : runs) {
    double err = 0, zmax = 0;
    long non_finite = -1, left_bound = -1;
    for (std::size_t k = 0; k < coarse.t.size(); ++k) {
      const std::size_t i = k * static_cast<std::size_t>(c.stride);
      const double F = c.run.F[i], z = c.run.states[0][i];
      if (!std::isfinite(F) || !std::isfinite(z)) {
        non_finite = static_cast<long>(k);
        break;
      }
      if (left_bound < 0 && std::abs(z) > bound * (1 + 1e-9)) left_bound = static_cast<long>(k);
      err = std::max(err, std::abs(F - ref.F[k * static_cast<std::size_t>(ratio)]));
      zmax = std::max(zmax, std::abs(z));
    }
    char note[96] = "";
    if (non_finite >= 0) {
      std::snprintf(note, sizeof note, "diverged: not finite from t = %.2f s",
                    coarse.t[static_cast<std::size_t>(non_finite)]);
    } else if (left_bound >= 0) {
      std::snprintf(note, sizeof note, "diverged: |z| > bound from t = %.2f s",
                    coarse.t[static_cast<std::size_t>(left_bound)]);
    }
    const std::string err_s = non_finite >= 0 ? std::string("-") : sci(err);
    print_row(c.label, c.step, err_s, sci(zmax / bound), note);
    if (non_finite < 0) {
      // Only finite runs go to the CSV file (the reader rejects nan/inf).
      names.push_back(c.column);
      columns.emplace_back();
      for (std::size_t k = 0; k < coarse.t.size(); ++k)
        columns.back().push_back(c.run.F[k * static_cast<std::size_t>(c.stride)]);
      bounded.push_back(left_bound < 0);
    }
  }
  std::cout << '\n';

  std::vector<const std::vector<double>*> cols;
  cols.reserve(columns.size());
  for (const auto& c : columns) cols.push_back(&c);
  const auto csv = (dir / "lugre_step_size.csv").string();
  io::write_csv(csv, names, cols);
  files.push_back(csv);

  io::Plot plot;
  plot.title = "LuGre, default parameters: 10 ms steps vs the 0.1 ms reference";
  plot.xlabel = "t [s]";
  plot.x = coarse.t;
  plot.panels.push_back({"v [m/s]", {{"v (10 ms samples)", coarse.v}}});
  io::PlotPanel forces{"F [N]", {}};
  io::PlotPanel errors{"F - F_ref [N]", {}};
  for (std::size_t c = 2; c < names.size(); ++c) {
    if (!bounded[c - 2]) {
      // A diverged run gets its own panel (its scale would hide the others).
      plot.panels.push_back({names[c] + " [N]", {{names[c], columns[c]}}});
      continue;
    }
    forces.series.push_back({names[c], columns[c]});
    if (c > 2) {
      std::vector<double> e(coarse.t.size());
      for (std::size_t k = 0; k < e.size(); ++k) e[k] = columns[c][k] - columns[2][k];
      errors.series.push_back({names[c], e});
    }
  }
  plot.panels.insert(plot.panels.begin() + 1, forces);
  plot.panels.insert(plot.panels.begin() + 2, errors);
  const auto svg = (dir / "lugre_step_size.svg").string();
  io::write_svg(svg, plot);
  files.push_back(svg);

  // The same job through the command line: the model file and the 10 ms input.
  const auto model = (dir / "lugre.json").string();
  io::write_text_file(model, io::to_json_text(spec));
  files.push_back(model);
  const auto input = (dir / "velocity_10ms.csv").string();
  io::write_csv(input, {"t", "v"}, {&coarse.t, &coarse.v});
  files.push_back(input);
}

void stick_slip(const std::filesystem::path& dir, std::vector<std::string>& files) {
  const sim::StickSlipSpec spec;  // m = 1 kg, k = 2 N/m, v_drive = 0.1 m/s, 20 s
  const LuGre<double>::Params lugre;
  const sim::FrictionParams friction = lugre;

  // The recommended real-time scheme at a coarse step, ROS2 at its usual 1 ms, and the CVODE
  // reference at a tight tolerance, all sampled on the same 10 ms output grid.
  sim::SimOptions trbdf2;
  trbdf2.integrator = sim::SystemIntegrator::trbdf2;
  trbdf2.h = 0.01;
  trbdf2.output_dt = 0.01;
  sim::SimOptions ros2 = trbdf2;
  ros2.integrator = sim::SystemIntegrator::rosenbrock;
  ros2.h = 0.001;
  sim::SimOptions cvode = trbdf2;
  cvode.integrator = sim::SystemIntegrator::cvode;
  cvode.h = 0;
  cvode.rtol = 1e-10;

  struct Run {
    const char* label;
    const char* file;
    const char* short_name;
    sim::SimOptions opt;
    sim::SystemTrajectory tr;
    double seconds = 0;
  };
  std::vector<Run> runs = {
      {"trbdf2 (TR-BDF2, h = 10 ms)", "stick_slip_trbdf2.csv", "TR-BDF2 10 ms", trbdf2, {}},
      {"rosenbrock (ROS2, h = 1 ms)", "stick_slip_rosenbrock.csv", "ROS2 1 ms", ros2, {}},
      {"cvode (BDF, rtol = 1e-10)", "stick_slip_cvode.csv", "CVODE", cvode, {}}};
  for (auto& r : runs) {
    const auto t0 = std::chrono::steady_clock::now();
    r.tr = sim::simulate_stick_slip(spec, friction, r.opt);
    r.seconds = seconds_since(t0);
  }
  const sim::SystemTrajectory& ref = runs.back().tr;
  double peak = 0;  // peak spring elongation |v_drive t - x| of the reference [m]
  for (std::size_t k = 0; k < ref.t.size(); ++k)
    peak = std::max(peak, std::abs(spec.v_drive * ref.t[k] - ref.x[k]));

  std::printf(
      "(b) Stick-slip benchmark: m = %g kg, k = %g N/m, spring end pulled at %g m/s for %g s,\n"
      "    LuGre friction (default parameters). Peak spring elongation %.3f m.\n\n",
      spec.m, spec.k, spec.v_drive, spec.t_end, peak);
  std::printf("    %-30s %8s %10s %9s  %s\n", "integrator", "steps", "rhs evals", "time [s]",
              "max |x - x_cvode| (of peak)");
  for (const auto& r : runs) {
    // All runs sample the same output grid (t = 0, every output_dt, t_end).
    if (r.tr.t != ref.t) throw std::logic_error("demo: the output grids differ");
    double dx = 0;
    for (std::size_t k = 0; k < ref.t.size(); ++k)
      dx = std::max(dx, std::abs(r.tr.x[k] - ref.x[k]));
    char err[64] = "reference";
    if (&r != &runs.back())
      std::snprintf(err, sizeof err, "%s m (%.2f %%)", sci(dx).c_str(), 100 * dx / peak);
    std::printf("    %-30s %8ld %10ld %9.3f  %s\n", r.label, r.tr.steps, r.tr.rhs_evals, r.seconds,
                err);
  }
  std::printf("\n");

  auto write = [&](const sim::SystemTrajectory& tr, const std::string& name) {
    std::vector<std::string> names = {"t", "x", "v", "F"};
    std::vector<const std::vector<double>*> cols = {&tr.t, &tr.x, &tr.v, &tr.F};
    for (std::size_t i = 0; i < tr.state_names.size(); ++i) {
      names.push_back(tr.state_names[i]);
      cols.push_back(&tr.states[i]);
    }
    const auto path = (dir / name).string();
    io::write_csv(path, names, cols);
    files.push_back(path);
  };
  for (const auto& r : runs) write(r.tr, r.file);

  io::Plot plot;
  plot.title = "Stick-slip benchmark, LuGre friction: TR-BDF2 (10 ms), ROS2 (1 ms), CVODE";
  plot.xlabel = "t [s]";
  plot.x = ref.t;
  auto panel = [&](const char* label, auto member) {
    io::PlotPanel p{label, {}};
    for (const auto& r : runs) p.series.push_back({r.short_name, r.tr.*member});
    plot.panels.push_back(p);
  };
  panel("x [m]", &sim::SystemTrajectory::x);
  panel("v [m/s]", &sim::SystemTrajectory::v);
  panel("F [N]", &sim::SystemTrajectory::F);
  const auto svg = (dir / "stick_slip.svg").string();
  io::write_svg(svg, plot);
  files.push_back(svg);
}

/// (c) The identification main job on a built-in record: a sensorless-torque record (reference
/// 000's channels: time, motor current, velocity, joint torque) simulated from documented true
/// parameters plus noise, fitted by lsq, checked on a second record with another excitation.
void identification(const std::filesystem::path& dir, std::vector<std::string>& files) {
  // Truth (reference 000's names): Km = 2 Nm/A, Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm,
  // Vth = 0.1 rad/s, S0 = 500 Nm/rad, S1 = 0.5 Nm s/rad, Stribeck exponent 1.
  const double Km = 2.0;
  LuGre<double>::Params truth;
  truth.sigma0 = 500;
  truth.sigma1 = 0.5;
  truth.sigma2 = 0.5;
  truth.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0);
  const std::vector<std::pair<std::string, double>> true_values = {
      {"Km", Km}, {"Kw", 0.5}, {"Fc", 1.0}, {"Fs", 1.5}, {"Vth", 0.1}, {"S0", 500}, {"S1", 0.5}};

  identify::SyntheticOptions train_opt;  // 20 s at 1 kHz, v_max 1 rad/s, plateaus then decaying sine
  train_opt.noise_std = 0.02;            // [Nm] on the measured torque
  train_opt.seed = 1;
  identify::SyntheticOptions val_opt = train_opt;
  val_opt.excitation.duration = 10;
  val_opt.excitation.frequency = 0.7;
  val_opt.excitation.v_max = 0.8;
  val_opt.seed = 2;
  const data::Record train = identify::synthetic_sensorless_record(truth, Km, train_opt);
  const data::Record val = identify::synthetic_sensorless_record(truth, Km, val_opt);

  identify::FitOptions fo;
  fo.problem = identify::ProblemKind::sensorless;
  fo.model = identify::parse_model("lugre");
  fo.method = identify::FitMethod::lsq;
  const identify::FitResult r = identify::fit(train, fo);
  const identify::Metrics m = identify::evaluate(r, val);

  std::printf(
      "(c) Identification: sensorless torque (torque = Km*current - LuGre friction, reference "
      "000),\n"
      "    built-in record simulated from the true parameters below: %.0f s at %.0f Hz, torque "
      "noise %.3g Nm;\n"
      "    fitted by lsq in %.2f s; validated on a second record (%.0f s, another excitation).\n\n",
      train_opt.excitation.duration, train_opt.excitation.rate_hz, train_opt.noise_std,
      r.run_time_s, val_opt.excitation.duration);
  std::printf("    %-6s %12s %12s %12s %14s\n", "param", "truth", "estimate", "std error",
              "error / std e.");
  for (const auto& [name, value] : true_values) {
    const auto it = std::find_if(r.parameters.begin(), r.parameters.end(),
                                 [&](const identify::ParameterEstimate& e) { return e.name == name; });
    if (it == r.parameters.end()) throw std::logic_error("demo: no estimate of " + name);
    std::printf("    %-6s %12.6g %12.6g %12.3g %14.2f\n", name.c_str(), value, it->value,
                it->std_error, (it->value - value) / it->std_error);
  }
  std::printf(
      "\n    torque RMSE: training %.4g Nm, validation %.4g Nm (noise std %.3g Nm), validation "
      "R^2 %.6f\n\n",
      r.training.rmse, m.rmse, train_opt.noise_std, m.r2);

  auto write_record = [&](const data::Record& rec, const std::string& name) {
    const auto path = (dir / name).string();
    io::write_csv(path, {"t", "current", "velocity", "torque"},
                  std::vector<const std::vector<double>*>{&rec.t, &rec.current, &rec.velocity,
                                                          &rec.force});
    files.push_back(path);
  };
  write_record(train, "sensorless_train.csv");
  write_record(val, "sensorless_validation.csv");
  const auto fit_path = (dir / "fit.json").string();
  io::write_text_file(fit_path,
                      io::fit_to_json(r, (dir / "sensorless_train.csv").string(),
                                      {{(dir / "sensorless_validation.csv").string(), m}})
                              .dump(2) +
                          "\n");
  files.push_back(fit_path);
}

}  // namespace

void run_demo(const DemoOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw io::InputError(o.out, 0, 0, "cannot create the directory: " + ec.message());

  std::cout << "frictionlab demo: writing to " << dir.string() << "/\n\n";
  std::vector<std::string> files;
  lugre_step_size(dir, files);
  stick_slip(dir, files);
  identification(dir, files);

  std::cout << "Files:\n";
  for (const auto& f : files) std::cout << "  " << f << '\n';
  std::printf(
      "\nThe same through the command line:\n"
      "  frictionlab simulate --model %s --input %s --output lugre_10ms.csv\n"
      "  frictionlab fit --problem sensorless --input %s --time t --velocity velocity "
      "--current current --force torque --validate %s --out fit\n",
      (dir / "lugre.json").string().c_str(), (dir / "velocity_10ms.csv").string().c_str(),
      (dir / "sensorless_train.csv").string().c_str(),
      (dir / "sensorless_validation.csv").string().c_str());
  std::printf("Done in %.2f s.\n", seconds_since(t0));
}

}  // namespace frictionlab::cli
