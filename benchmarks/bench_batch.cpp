// Batch simulation (models/lugre/batch.hpp) against the scalar LuGre model on one core: 64
// parameter sets driven by one 4096-sample record with reversals (the velocity sequence of
// bench_models.cpp, 1 ms steps), the exact step with the velocity held (Hold::zoh) plus the
// force at every sample.
//   BM_LuGre_batch<S>/64      LuGreBatch<S>::simulate over the record for 64 sets
//   BM_LuGre_single_zoh<S>    LuGre<S>::force + LuGre<S>::step over the same record, one set
// Both report the CPU time per set-step (one set, one sample: force + step) in the counter
// "per_set_step" (seconds, with an SI prefix) (docs/benchmarks.md, "Batch
// simulation"). Not a test: run `./build/benchmarks/bench_batch`.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/models/lugre/model.hpp"

namespace {

using namespace frictionlab;

constexpr long kSamples = 4096;

template <class S>
struct Record {
  std::vector<S> t, v;
  Record() : t(kSamples), v(kSamples) {
    for (long k = 0; k < kSamples; ++k) {
      const auto i = static_cast<std::size_t>(k);
      t[i] = S(1e-3 * double(k));
      v[i] = S(0.01 * std::sin(0.0123 * double(k)) + 0.002 * std::sin(0.21 * double(k)));
    }
  }
};

/// Set i of P: the ref 003 defaults (LuGre<S>::Params{}: sigma0 1e5, alpha 2, exponential)
/// with sigma0, sigma1, Fs and vs spread over the sets.
template <class S>
typename LuGre<S>::Params set(long i, long P) {
  typename LuGre<S>::Params p;
  const double f = double(i) / double(P > 1 ? P - 1 : 1);
  p.sigma0 = S(1e4 * std::pow(100.0, f));
  p.sigma1 = S(2 * std::sqrt(double(p.sigma0)) * 0.1);
  p.curve.Fs_pos = p.curve.Fs_neg = S(1.2 + 0.6 * f);
  p.curve.vs = S(0.001 * (1 + f));
  return p;
}

template <class S>
void BM_LuGre_batch(benchmark::State& st) {
  const long P = st.range(0);
  const Record<S> rec;
  std::vector<typename LuGre<S>::Params> sets;
  for (long i = 0; i < P; ++i) sets.push_back(set<S>(i, P));
  LuGreBatch<S> batch(sets);
  std::vector<S> F(static_cast<std::size_t>(P * kSamples));
  for (auto _ : st) {
    batch.z().setZero();
    batch.simulate(rec.t.data(), rec.v.data(), kSamples, F.data(), kSamples);
    benchmark::DoNotOptimize(F.data());
    benchmark::ClobberMemory();
  }
  const double set_steps = double(P) * double(kSamples);
  st.counters["per_set_step"] = benchmark::Counter(
      set_steps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  st.counters["alpha_path"] = batch.alpha_kind();
}

template <class S>
void BM_LuGre_single_zoh(benchmark::State& st) {
  const Record<S> rec;
  const auto p = set<S>(0, 1);
  std::vector<S> F(kSamples);
  for (auto _ : st) {
    typename LuGre<S>::State x{};
    for (long k = 0; k < kSamples; ++k) {
      const auto i = static_cast<std::size_t>(k);
      F[i] = LuGre<S>::force(p, x, rec.v[i]);
      if (k + 1 < kSamples) x = LuGre<S>::step(p, x, rec.v[i], rec.t[i + 1] - rec.t[i]);
    }
    benchmark::DoNotOptimize(F.data());
    benchmark::ClobberMemory();
  }
  st.counters["per_set_step"] = benchmark::Counter(
      double(kSamples), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK_TEMPLATE(BM_LuGre_batch, double)->Arg(64);
BENCHMARK_TEMPLATE(BM_LuGre_batch, float)->Arg(64);
BENCHMARK_TEMPLATE(BM_LuGre_single_zoh, double);
BENCHMARK_TEMPLATE(BM_LuGre_single_zoh, float);

}  // namespace

BENCHMARK_MAIN();
