// frictionlab CLI: `demo` — the README's main job on built-in data (docs/cli.md, "demo"). The work
// is workflows::run_demo; the files are io/demo_files. This file prints the tables.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "commands.hpp"
#include "frictionlab/format.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/io/demo_files.hpp"
#include "frictionlab/io/errors.hpp"
#include "frictionlab/io/output.hpp"
#include "frictionlab/workflows/demo.hpp"

namespace frictionlab::cli {
namespace {

struct DemoOptions {
  std::string out = "frictionlab-demo";
};

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

void print_step_size(const workflows::StepSizeComparison& a) {
  std::cout << "(a) LuGre, default parameters (sigma0 = 1e5 N/m, sigma1 = 316.2 N s/m, sigma2 = "
               "0.4 N s/m,\n"
               "    Fc = 1 N, Fs = 1.5 N, vs = 1 mm/s), v(t) = 10 sin(2 pi t) + 4 sin(2 pi 2.7 t) "
               "mm/s over 2 s.\n"
               "    Reference: exact step on the input sampled every 0.1 ms (linear hold);\n"
               "    compared at the 10 ms samples. State bound max(Fc, Fs)/sigma0 = "
            << format_scientific(a.state_bound, 2) << " m.\n\n";
  print_row("scheme", "step", "max |F - F_ref| [N]", "max |z| / bound", "");
  for (const auto& c : a.runs) {
    char note[96] = "";
    if (c.non_finite >= 0) {
      std::snprintf(note, sizeof note, "diverged: not finite from t = %.2f s",
                    a.t[static_cast<std::size_t>(c.non_finite)]);
    } else if (c.left_bound >= 0) {
      std::snprintf(note, sizeof note, "diverged: |z| > bound from t = %.2f s",
                    a.t[static_cast<std::size_t>(c.left_bound)]);
    }
    print_row(c.label, c.step,
              c.non_finite >= 0 ? std::string("-") : format_scientific(c.max_error, 2),
              format_scientific(c.max_z_over_bound, 2), note);
  }
  std::cout << '\n';
}

void print_stick_slip(const workflows::StickSlipComparison& b) {
  std::printf(
      "(b) Stick-slip benchmark: m = %g kg, k = %g N/m, spring end pulled at %g m/s for %g s,\n"
      "    LuGre friction (default parameters). Peak spring elongation %.3f m.\n\n",
      b.spec.m, b.spec.k, b.spec.v_drive, b.spec.t_end, b.peak_elongation);
  std::printf("    %-30s %8s %10s %9s  %s\n", "integrator", "steps", "rhs evals", "time [s]",
              "max |x - x_cvode| (of peak)");
  for (const auto& r : b.runs) {
    char err[64] = "reference";
    if (!r.reference)
      std::snprintf(err, sizeof err, "%s m (%.2f %%)", format_scientific(r.max_dx, 2).c_str(),
                    100 * r.max_dx / b.peak_elongation);
    std::printf("    %-30s %8ld %10ld %9.3f  %s\n", r.label.c_str(), r.trajectory.steps,
                r.trajectory.rhs_evals, r.seconds, err);
  }
  std::printf("\n");
}

void print_identification(const workflows::DemoIdentification& c) {
  std::printf(
      "(c) Identification: sensorless torque (torque = Km*current - LuGre friction, reference "
      "000),\n"
      "    built-in record simulated from the true parameters below: %.0f s at %.0f Hz, torque "
      "noise %.3g Nm;\n"
      "    fitted by lsq in %.2f s; validated on a second record (%.0f s, another excitation).\n\n",
      c.train_options.excitation.duration, c.train_options.excitation.rate_hz,
      c.train_options.noise_std, c.fit.run_time_s, c.validation_options.excitation.duration);
  std::printf("    %-6s %12s %12s %12s %14s\n", "param", "truth", "estimate", "std error",
              "error / std e.");
  for (const auto& p : c.parameters)
    std::printf("    %-6s %12.6g %12.6g %12.3g %14.2f\n", p.name.c_str(), p.truth, p.estimate,
                p.std_error, p.z);
  std::printf(
      "\n    torque RMSE: training %.4g Nm, validation %.4g Nm (noise std %.3g Nm), validation "
      "R^2 %.6f\n\n",
      c.fit.training.rmse, c.validation_metrics.rmse, c.train_options.noise_std,
      c.validation_metrics.r2);
}

void run_demo(const DemoOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  io::check_output_directory(o.out);  // the message of every --out DIR, before any work
  check_result_files(io::demo_file_paths(o.out), "", {});
  io::make_directories(o.out);
  const std::filesystem::path dir(o.out);

  if (!quiet())
    std::cout << "frictionlab demo: writing to " << dir.string() << "/\n\n" << std::flush;
  const workflows::DemoOutcome r = workflows::run_demo(stderr_progress());
  const std::vector<std::string> files = io::write_demo_files(r, dir.string());
  if (quiet()) return print_files(files);
  print_step_size(r.step_size);
  print_stick_slip(r.stick_slip);
  print_identification(r.identification);

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
  std::printf("Done in %.2f s.\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

void register_demo(CLI::App& app, Registry& registry) {
  auto [cmd, o] = add_command<DemoOptions>(
      app, registry, "demo",
      "Run the main job on built-in data: LuGre at 10 ms vs 0.1 ms (exact step vs forward "
      "Euler), the stick-slip benchmark (TR-BDF2, ROS2, CVODE), and a sensorless-torque LuGre "
      "fit on a built-in record against its true parameters; writes CSV, JSON and SVG files.",
      run_demo);
  add_out_option(cmd, o.out);
}

}  // namespace frictionlab::cli
