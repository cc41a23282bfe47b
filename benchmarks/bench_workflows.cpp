// Per-sample cost of the library's whole simulate workflow (workflows::simulate_model: input
// checks, the exact step, F and z stored per sample, finiteness and bound checks) on a
// 1e6-sample record, beside the bare step of bench_models. The Python binding's figure
// (benchmarks/python/bench_simulate.py) is compared with these in docs/python.md.
// Not a test: run `./build/benchmarks/bench_workflows`.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "frictionlab/workflows/simulate.hpp"

namespace {

using namespace frictionlab;

/// bench_models' velocity sequence (4096 samples with reversals) repeated over n samples, h = 1 ms.
workflows::ModelInput record(std::size_t n) {
  workflows::ModelInput in;
  in.t.resize(n);
  in.v.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double j = static_cast<double>(k % 4096);
    in.t[k] = static_cast<double>(k) * 1e-3;
    in.v[k] = 0.01 * std::sin(0.0123 * j) + 0.002 * std::sin(0.21 * j);
  }
  return in;
}

/// simulate_model over the record as the Python binding calls it (spans over the caller's arrays,
/// copy_input = false), default LuGre parameters (bench_models' LuGre<double>::Params{});
/// items = samples.
void BM_simulate_model(benchmark::State& st, Hold hold) {
  static const workflows::ModelInput in = record(1'000'000);
  const ModelSpec spec = LuGre<double>::Params{};
  workflows::SimulateModelOptions o;
  o.hold = hold;
  o.copy_input = false;
  for (auto _ : st) {
    auto r = workflows::simulate_model(spec, workflows::ModelInputView(in), o);
    benchmark::DoNotOptimize(r.F.data());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<std::int64_t>(in.t.size()));
}

}  // namespace

BENCHMARK_CAPTURE(BM_simulate_model, zoh, Hold::zoh)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_simulate_model, linear, Hold::linear)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
