// Servo actuator benchmark (docs/actuators.md, "Speed"): the cost of one closed-loop
// re-simulation of a 6 s log (1201 entries at 5 ms) for each model M1..M6, and of one loss
// evaluation over the training batch of the acceptance run (the 12 shared XL330 logs with kp in
// {100, 400, 800}), single-threaded: identify::servo_loss (the logs four at a time in lockstep)
// beside the same sum from one rollout after the other (servo_log_error per log). Parameters:
// the reference package's fits (../shared/data/servo_xl330/reference_params). Then the whole
// fit-actuator pipeline (identify::fit_and_select_servo_models: m1..m6, leave-kp-out on the 16
// logs, the default 9 restarts) at a tenth of the default budget (300 evaluations per fit) with
// 1 and 2 threads, wall time (UseRealTime) and CPU time of the process. The loss with a
// temperature law (the logs' `temp`; docs/actuators.md, "Temperature-dependent friction") beside
// the same loss without. Without the shared data the benchmark prints a note and runs nothing.
//
// Run: ./build/benchmarks/bench_servo  (Release build)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/actuator_file.hpp"
#include "frictionlab/io/servo_json.hpp"
#include "frictionlab/sim/servo_actuators.hpp"

namespace {

using namespace frictionlab;

const std::string kDir = std::string(FRICTIONLAB_SOURCE_DIR) + "/../shared/data/servo_xl330";

struct Data {
  std::vector<data::ServoLog> all, train;
  std::vector<sim::ServoSetup> params;  // m1..m6
};

const Data& data_once() {
  static const Data d = [] {
    Data out;
    for (auto& r : io::read_servo_logs({kDir + "/logs"})) out.all.push_back(std::move(r.log));
    data::ServoLogFilter f;
    f.kp = {100, 400, 800};
    out.train = data::select_servo_logs(out.all, f);
    for (const char* m : {"m1", "m2", "m3", "m4", "m5", "m6"})
      out.params.push_back(io::read_servo_params(kDir + "/reference_params/" + m + ".json"));
    return out;
  }();
  return d;
}

void BM_Rollout6s(benchmark::State& state) {
  const auto& d = data_once();
  const auto& p = d.params[static_cast<std::size_t>(state.range(0))];
  const auto& log = d.all.front();  // 2026-01-15_10h28m10.json: 1201 entries, 6 s
  double sink = 0;
  for (auto _ : state) {
    sink += identify::servo_log_error(p.actuator.constants, p.params, log).position_mae;
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %zu steps", static_cast<int>(state.range(0)) + 1,
                log.size());
  state.SetLabel(label);
  state.counters["ns_per_step"] =
      benchmark::Counter(static_cast<double>(log.size()) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_TrainingLoss(benchmark::State& state) {
  const auto& d = data_once();
  const auto& p = d.params[static_cast<std::size_t>(state.range(0))];
  double sink = 0;
  for (auto _ : state) {
    sink += identify::servo_loss(p.actuator.constants, p.params, d.train, {});
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %zu logs", static_cast<int>(state.range(0)) + 1,
                d.train.size());
  state.SetLabel(label);
}

/// The loss of model state.range(0) with the temperature law state.range(1) (0: none, 1: linear,
/// 2: exponential; kT = kT_v = -0.01 1/K about T_ref = 32 degC): the cost of the two scales per
/// step (an exp each for the exponential law).
void BM_TrainingLossTemperature(benchmark::State& state) {
  const auto& d = data_once();
  const auto& setup = d.params[static_cast<std::size_t>(state.range(0))];
  sim::ServoParams p = setup.params;
  const char* law[] = {"no law", "linear", "exponential"};
  if (state.range(1) > 0)
    p.temperature = TemperatureDependence<double>{
        state.range(1) == 1 ? TemperatureLaw::linear : TemperatureLaw::exponential, 32.0, -0.01,
        -0.01};
  double sink = 0;
  for (auto _ : state) {
    sink += identify::servo_loss(setup.actuator.constants, p, d.train, {});
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %s, %zu logs", static_cast<int>(state.range(0)) + 1,
                law[state.range(1)], d.train.size());
  state.SetLabel(label);
}

/// The loss as a sum of one rollout after the other (what servo_loss computed before it batched
/// the logs; the same value up to the order of the additions).
void BM_TrainingLossSerial(benchmark::State& state) {
  const auto& d = data_once();
  const auto& p = d.params[static_cast<std::size_t>(state.range(0))];
  double sink = 0;
  for (auto _ : state) {
    double sum = 0;
    std::size_t n = 0;
    for (const auto& log : d.train) {
      const auto e = identify::servo_log_error(p.actuator.constants, p.params, log);
      sum += e.position_mae * static_cast<double>(e.samples);
      n += e.samples;
    }
    sink += sum / static_cast<double>(n);
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %zu logs", static_cast<int>(state.range(0)) + 1,
                d.train.size());
  state.SetLabel(label);
}

/// fit-actuator's fits and selection (m1..m6, leave-kp-out: 4 splits + the refit, 30 fits) at
/// 300 evaluations per fit, state.range(0) threads.
void BM_FitActuatorPipeline(benchmark::State& state) {
  const auto& d = data_once();
  const auto family = *io::builtin_actuator("xl330");
  identify::ServoFitOptions o;
  o.cmaes.max_evals = 300;
  o.cmaes.seed = 1;
  o.cmaes.threads = static_cast<int>(state.range(0));
  identify::ServoValidation v;
  v.kind = identify::ServoValidation::Kind::leave_kp;
  const std::vector<ActuatorModel> models{ActuatorModel::M1, ActuatorModel::M2, ActuatorModel::M3,
                                          ActuatorModel::M4, ActuatorModel::M5, ActuatorModel::M6};
  for (auto _ : state) {
    const auto sel =
        identify::fit_and_select_servo_models(models, family, family.constants, d.all, v, o, 0.02);
    benchmark::DoNotOptimize(sel.recommended);
  }
  char label[64];
  std::snprintf(label, sizeof label, "%d thread(s), 16 logs, 30 fits",
                static_cast<int>(state.range(0)));
  state.SetLabel(label);
}

}  // namespace

int main(int argc, char** argv) {
  if (!std::filesystem::exists(kDir + "/reference_mae.json")) {
    std::printf("bench_servo: no shared data at %s; nothing to run\n", kDir.c_str());
    return 0;
  }
  benchmark::RegisterBenchmark("servo/rollout_6s_log", BM_Rollout6s)->DenseRange(0, 5);
  benchmark::RegisterBenchmark("servo/training_loss_12_logs", BM_TrainingLoss)->DenseRange(0, 5);
  benchmark::RegisterBenchmark("servo/training_loss_12_logs_serial", BM_TrainingLossSerial)
      ->DenseRange(0, 5);
  benchmark::RegisterBenchmark("servo/training_loss_12_logs_temperature",
                               BM_TrainingLossTemperature)
      ->ArgsProduct({{2, 5}, {0, 1, 2}});
  benchmark::RegisterBenchmark("servo/fit_actuator_300_evals", BM_FitActuatorPipeline)
      ->Arg(1)
      ->Arg(2)
      ->UseRealTime()
      ->MeasureProcessCPUTime()
      ->Unit(benchmark::kSecond)
      ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
