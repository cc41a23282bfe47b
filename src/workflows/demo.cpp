// frictionlab workflows: demo (include/frictionlab/workflows/demo.hpp).
#include "frictionlab/workflows/demo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "frictionlab/models/model_spec.hpp"
#include "frictionlab/sim/model_run.hpp"

namespace frictionlab::workflows {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDuration = 2.0;  // [s]
constexpr double kCoarse = 1e-2, kFine = 1e-4;
constexpr long kRatio = 100;  // fine samples per coarse sample

// The test velocity of tests/test_lugre.cpp: 10 mm/s at 1 Hz plus 4 mm/s at 2.7 Hz.
double demo_velocity(double t) {
  return 0.01 * std::sin(2 * kPi * t) + 0.004 * std::sin(2 * kPi * 2.7 * t);
}

void sampled(double h, std::vector<double>& t, std::vector<double>& v) {
  const long n = std::lround(kDuration / h) + 1;
  for (long k = 0; k < n; ++k) {
    t.push_back(static_cast<double>(k) * h);
    v.push_back(demo_velocity(t.back()));
  }
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

StepSizeComparison step_size(const Progress& progress) {
  StepSizeComparison r;
  r.duration = kDuration;
  const ModelSpec spec = r.params;  // defaults: sigma0 = 1e5, Fc = 1, Fs = 1.5, vs = 1 mm/s
  r.state_bound = LuGre<double>::state_bound(r.params);
  std::vector<double> fine_t, fine_v;
  sampled(kCoarse, r.t, r.v);
  sampled(kFine, fine_t, fine_v);

  const sim::ModelRun ref = sim::run_model(spec, fine_t, fine_v, Method::exact, Hold::linear, 0);
  for (std::size_t k = 0; k < r.t.size(); ++k)
    r.F_ref.push_back(ref.F[k * static_cast<std::size_t>(kRatio)]);

  auto scheme = [](const char* label, const char* step, const char* column, Method m, double h) {
    StepSizeRun c;
    c.label = label;
    c.step = step;
    c.column = column;
    c.method = m;
    c.h = h;
    return c;
  };
  r.runs = {
      scheme("exact", "10 ms", "F_exact_10ms", Method::exact, kCoarse),
      scheme("implicit Euler", "10 ms", "F_implicit_euler_10ms", Method::implicit_euler, kCoarse),
      scheme("forward Euler", "10 ms", "F_euler_10ms", Method::forward_euler, kCoarse),
      scheme("forward Euler", "0.1 ms", "F_euler_0.1ms", Method::forward_euler, kFine)};
  for (auto& c : r.runs) {
    progress.check();
    const bool coarse = c.h == kCoarse;
    const std::size_t stride = coarse ? 1 : static_cast<std::size_t>(kRatio);
    const sim::ModelRun run = sim::run_model(spec, coarse ? r.t : fine_t, coarse ? r.v : fine_v,
                                             c.method, Hold::linear, 0);
    std::vector<double> F, error;
    for (std::size_t k = 0; k < r.t.size(); ++k) {
      const std::size_t i = k * stride;
      const double f = run.F[i], z = run.states[0][i];
      if (!std::isfinite(f) || !std::isfinite(z)) {
        c.non_finite = static_cast<long>(k);
        break;
      }
      if (c.left_bound < 0 && std::abs(z) > r.state_bound * (1 + 1e-9))
        c.left_bound = static_cast<long>(k);
      c.max_error = std::max(c.max_error, std::abs(f - r.F_ref[k]));
      c.max_z_over_bound = std::max(c.max_z_over_bound, std::abs(z) / r.state_bound);
      F.push_back(f);
      error.push_back(f - r.F_ref[k]);
    }
    if (c.non_finite < 0) {
      c.F = std::move(F);
      c.error = std::move(error);
    }
  }
  return r;
}

StickSlipComparison stick_slip(const Progress& progress) {
  StickSlipComparison r;  // m = 1 kg, k = 2 N/m, v_drive = 0.1 m/s, 20 s; default LuGre
  const sim::FrictionParams friction = r.friction;

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

  auto integrator = [](const char* name, const char* label, const char* short_name,
                       const sim::SimOptions& options) {
    StickSlipRun run;
    run.name = name;
    run.label = label;
    run.short_name = short_name;
    run.options = options;
    return run;
  };
  r.runs = {
      integrator(kStickSlipRunNames[0], "trbdf2 (TR-BDF2, h = 10 ms)", "TR-BDF2 10 ms", trbdf2),
      integrator(kStickSlipRunNames[1], "rosenbrock (ROS2, h = 1 ms)", "ROS2 1 ms", ros2),
      integrator(kStickSlipRunNames[2], "cvode (BDF, rtol = 1e-10)", "CVODE", cvode)};
  r.runs.back().reference = true;
  for (auto& run : r.runs) {
    progress.check();
    const auto t0 = std::chrono::steady_clock::now();
    run.trajectory = sim::simulate_stick_slip(r.spec, friction, run.options);
    run.seconds = seconds_since(t0);
  }
  const sim::SystemTrajectory& ref = r.runs.back().trajectory;
  for (std::size_t k = 0; k < ref.t.size(); ++k)
    r.peak_elongation = std::max(r.peak_elongation, std::abs(r.spec.v_drive * ref.t[k] - ref.x[k]));
  for (auto& run : r.runs) {
    // All runs sample the same output grid (t = 0, every output_dt, t_end).
    if (run.trajectory.t != ref.t) throw std::logic_error("demo: the output grids differ");
    for (std::size_t k = 0; k < ref.t.size(); ++k)
      run.max_dx = std::max(run.max_dx, std::abs(run.trajectory.x[k] - ref.x[k]));
  }
  return r;
}

DemoIdentification identification(const Progress& progress) {
  DemoIdentification r;
  // Truth (reference 000's names): Km = 2 Nm/A, Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm,
  // Vth = 0.1 rad/s, S0 = 500 Nm/rad, S1 = 0.5 Nm s/rad, Stribeck exponent 1.
  r.Km = 2.0;
  r.truth.sigma0 = 500;
  r.truth.sigma1 = 0.5;
  r.truth.sigma2 = 0.5;
  r.truth.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.1, 1.0);
  const std::vector<std::pair<std::string, double>> true_values = {
      {"Km", r.Km}, {"Kw", 0.5}, {"Fc", 1.0}, {"Fs", 1.5}, {"Vth", 0.1}, {"S0", 500}, {"S1", 0.5}};

  // 20 s at 1 kHz, v_max 1 rad/s, plateaus then decaying sine; noise on the measured torque.
  r.train_options.noise_std = 0.02;  // [Nm]
  r.train_options.seed = 1;
  r.validation_options = r.train_options;
  r.validation_options.excitation.duration = 10;
  r.validation_options.excitation.frequency = 0.7;
  r.validation_options.excitation.v_max = 0.8;
  r.validation_options.seed = 2;
  r.train = identify::synthetic_sensorless_record(r.truth, r.Km, r.train_options);
  r.validation = identify::synthetic_sensorless_record(r.truth, r.Km, r.validation_options);
  progress.check();

  identify::FitOptions fo;
  fo.problem = identify::ProblemKind::sensorless;
  fo.model = identify::parse_model("lugre");
  fo.method = identify::FitMethod::lsq;
  fo.progress = progress;
  r.fit = identify::fit(r.train, fo);
  progress.check();
  r.validation_metrics = identify::evaluate(r.fit, r.validation);

  for (const auto& truth : true_values) {
    const std::string& name = truth.first;
    const double value = truth.second;
    const auto it =
        std::find_if(r.fit.parameters.begin(), r.fit.parameters.end(),
                     [&](const identify::ParameterEstimate& e) { return e.name == name; });
    if (it == r.fit.parameters.end()) throw std::logic_error("demo: no estimate of " + name);
    r.parameters.push_back(
        {name, value, it->value, it->std_error, (it->value - value) / it->std_error});
  }
  return r;
}

}  // namespace

DemoOutcome run_demo(const Progress& progress) {
  DemoOutcome r;
  progress.check();
  progress.say("demo: (a) LuGre step sizes", 0.0);
  r.step_size = step_size(progress);
  progress.check();
  progress.say("demo: (b) stick-slip benchmark", 1.0 / 3);
  r.stick_slip = stick_slip(progress);
  progress.check();
  progress.say("demo: (c) identification", 2.0 / 3);
  r.identification = identification(progress);
  progress.say("demo: done", 1.0);
  return r;
}

}  // namespace frictionlab::workflows
