// Identification benchmark: `lsq` against `grid` (reference 000's brute force) on the same
// synthetic sensorless-torque record (docs/identification.md, "Measured accuracy and time"), and
// `lsq` of every dynamic model of the registry on that record (BM_FitModel/<model>/sensorless) and
// on a friction-problem record of the same truth (BM_FitModel/<model>/friction): each model's fit
// against LuGre's in the same run (docs/benchmarks.md, "Dynamic models' fits").
//
// Record: 30 s at 1 kHz, the default excitation of identify/synthetic.hpp (v_max = 1 rad/s),
// LuGre truth Km = 2 Nm/A, Kw = 0.5 Nm s/rad, Fc = 1 Nm, Fs = 1.5 Nm, Vth = 0.1 rad/s, alpha = 1,
// S0 = 500 Nm/rad, S1 = 0.5 Nm s/rad; truth simulated with the exact step at 20 kHz; Gaussian
// torque noise 0.02 Nm (seed 1); current noise-free.
//
// Before the timings the program prints, per method: wall time of one fit, iterations (lsq:
// Levenberg-Marquardt iterations of the best start; grid: grid passes), RMSE against the noisy
// measurement, RMSE against the noise-free torque, and the relative error of every parameter.
// Skip it with --table=0.
//
// Run: ./build/benchmarks/bench_identify  (Release build)
// --write-records=DIR writes the records (noisy.csv, clean.csv: t, current, velocity, torque;
// friction.csv: t, velocity, force) and exits: benchmarks/python/bench_fit_scipy.py fits the
// first two with frictionlab and with scipy.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "frictionlab/identify/fit.hpp"
#include "frictionlab/io/csv.hpp"
#include "lugre_test_record.hpp"

namespace {

using namespace frictionlab;
using namespace frictionlab::identify;

using testing::kReferenceKm;
using testing::reference_lugre;
using testing::reference_record;

const data::Record& noisy_record() {
  static const data::Record r = reference_record(ProblemKind::sensorless, 1);
  return r;
}

/// The friction problem (force = friction): the same truth's friction force, noise 0.02 N.
const data::Record& friction_record() {
  static const data::Record r = reference_record(ProblemKind::friction, 1);
  return r;
}

const data::Record& clean_record() {
  static const data::Record r = reference_record(ProblemKind::sensorless, 1, 0.0);
  return r;
}

FitOptions options(FitMethod m) {
  FitOptions fo;
  fo.problem = ProblemKind::sensorless;
  fo.model = parse_model("lugre");
  fo.method = m;
  return fo;
}

void print_table() {
  const auto p = reference_lugre();
  const std::vector<std::pair<const char*, double>> want = {
      {"Km", kReferenceKm}, {"Kw", p.sigma2}, {"Fc", p.curve.Fc_pos}, {"Fs", p.curve.Fs_pos},
      {"Vth", p.curve.vs},  {"S0", p.sigma0}, {"S1", p.sigma1}};
  std::printf("30 s, 1 kHz sensorless record, torque noise 0.02 Nm; %u hardware threads\n",
              std::thread::hardware_concurrency());
  std::printf("%-6s %8s %6s %12s %12s", "method", "time[s]", "iters", "RMSE_meas", "RMSE_true");
  for (const auto& w : want) std::printf(" %9s", w.first);
  std::printf("   (relative errors)\n");
  for (FitMethod m : {FitMethod::lsq, FitMethod::grid}) {
    const auto r = fit(noisy_record(), options(m));
    const auto e_true = evaluate(r, clean_record());
    std::printf("%-6s %8.3f %6d %12.5g %12.5g", method_name(m).c_str(), r.run_time_s, r.iterations,
                r.training.rmse, e_true.rmse);
    for (const auto& w : want) {
      double v = NAN;
      for (const auto& q : r.parameters)
        if (q.name == w.first) v = q.value;
      std::printf(" %9.2e", (v - w.second) / w.second);
    }
    std::printf("\n");
  }
  std::fflush(stdout);
}

void BM_Fit(benchmark::State& state, FitMethod m) {
  const auto& rec = noisy_record();
  FitResult r;
  for (auto _ : state) {
    r = fit(rec, options(m));
    benchmark::ClobberMemory();  // (DoNotOptimize on a double clobbers it with GCC 12)
  }
  char label[96];
  std::snprintf(label, sizeof label, "iterations %d, RMSE %.4g Nm", r.iterations, r.training.rmse);
  state.SetLabel(label);
}

BENCHMARK_CAPTURE(BM_Fit, lsq, FitMethod::lsq)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(BM_Fit, grid, FitMethod::grid)->Unit(benchmark::kMillisecond)->Iterations(3);

/// One dynamic model's lsq fit on the sensorless record (sensorless = true) or on the
/// friction-problem record; the label gives the training RMSE to 12 digits (a change that should
/// keep the estimates shows there first).
void BM_FitModel(benchmark::State& state, const char* model, bool sensorless) {
  const auto& rec = sensorless ? noisy_record() : friction_record();
  FitOptions fo;
  fo.problem = sensorless ? ProblemKind::sensorless : ProblemKind::friction;
  fo.model = parse_model(model);
  fo.method = FitMethod::lsq;
  FitResult r;
  for (auto _ : state) {
    r = fit(rec, fo);
    benchmark::ClobberMemory();
  }
  char label[96];
  std::snprintf(label, sizeof label, "iterations %d, RMSE %.12g", r.iterations, r.training.rmse);
  state.SetLabel(label);
}

#define FRICTIONLAB_FIT_MODEL(tag, name)                       \
  BENCHMARK_CAPTURE(BM_FitModel, tag##_sensorless, name, true) \
      ->Unit(benchmark::kMillisecond)                          \
      ->Iterations(3);                                         \
  BENCHMARK_CAPTURE(BM_FitModel, tag##_friction, name, false)  \
      ->Unit(benchmark::kMillisecond)                          \
      ->Iterations(3)
FRICTIONLAB_FIT_MODEL(lugre, "lugre");
FRICTIONLAB_FIT_MODEL(dahl, "dahl");
FRICTIONLAB_FIT_MODEL(elasto_plastic, "elasto-plastic");
FRICTIONLAB_FIT_MODEL(maxwell_slip, "maxwell-slip");
FRICTIONLAB_FIT_MODEL(gms, "gms");
#undef FRICTIONLAB_FIT_MODEL

}  // namespace

int main(int argc, char** argv) {
  bool table = true;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table=0") == 0) {
      table = false;
      continue;
    }
    if (std::strncmp(argv[i], "--write-records=", 16) == 0) {
      const std::string dir = argv[i] + 16;
      for (const auto& [name, rec] :
           {std::pair{"noisy.csv", &noisy_record()}, std::pair{"clean.csv", &clean_record()}})
        io::write_csv(dir + "/" + name, {"t", "current", "velocity", "torque"},
                      {&rec->t, &rec->current, &rec->velocity, &rec->force});
      const auto& fr = friction_record();
      io::write_csv(dir + "/friction.csv", {"t", "velocity", "force"},
                    {&fr.t, &fr.velocity, &fr.force});
      return 0;
    }
    args.push_back(argv[i]);
  }
  if (table) print_table();
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
