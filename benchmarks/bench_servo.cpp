// Servo actuator benchmark (docs/actuators.md, "Speed"): the cost of one closed-loop
// re-simulation of a 6 s log (1201 entries at 5 ms) for each model M1..M6, and of one loss
// evaluation over the training batch of the acceptance run (the 12 shared XL330 logs with kp in
// {100, 400, 800}), single-threaded. Parameters: the reference package's fits
// (../shared/data/servo_xl330/reference_params). Without the shared data the benchmark prints a
// note and runs nothing.
//
// Run: ./build/benchmarks/bench_servo  (Release build)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "frictionlab/identify/servo_fit.hpp"
#include "frictionlab/io/servo_json.hpp"

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
    sink += identify::servo_log_error(p.constants, p.params, log).position_mae;
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %zu steps", static_cast<int>(state.range(0)) + 1,
                log.size());
  state.SetLabel(label);
  state.counters["ns_per_step"] = benchmark::Counter(
      static_cast<double>(log.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_TrainingLoss(benchmark::State& state) {
  const auto& d = data_once();
  const auto& p = d.params[static_cast<std::size_t>(state.range(0))];
  double sink = 0;
  for (auto _ : state) {
    sink += identify::servo_loss(p.constants, p.params, d.train, {});
    benchmark::DoNotOptimize(sink);
  }
  char label[64];
  std::snprintf(label, sizeof label, "m%d, %zu logs", static_cast<int>(state.range(0)) + 1,
                d.train.size());
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
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
