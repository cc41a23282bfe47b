// Batch simulation (models/lugre/batch.hpp) against the scalar LuGre model on one core: 64
// parameter sets driven by one 4096-sample record with reversals (the velocity sequence of
// bench_models.cpp, 1 ms steps), the exact step with the velocity held (Hold::zoh) plus the
// force at every sample.
//   BM_LuGre_single_zoh<S>         LuGre<S>::force + LuGre<S>::step over the same record, one set
//   BM_LuGre_batch<S>/64/portable  LuGreBatch<S>::simulate over the record for 64 sets, on the
//   BM_LuGre_batch<S>/64/avx2      SIMD path named (workflows/batch_simd.hpp); a path this CPU
//   BM_LuGre_batch<S>/64/avx512    lacks reports an error instead
// All report the CPU time per set-step (one set, one sample: force + step) in the counter
// "per_set_step" (seconds, with an SI prefix); at the end the run prints each batch path's
// speed-up over the single scalar step (from the medians when run with repetitions)
// (docs/benchmarks.md, "Batch simulation"). Not a test: run `./build/benchmarks/bench_batch`.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "frictionlab/models/lugre/batch.hpp"
#include "frictionlab/models/lugre/model.hpp"
#include "frictionlab/workflows/batch_simd.hpp"

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
  const auto simd = static_cast<workflows::BatchSimd>(st.range(1));
  if (!workflows::batch_simd_available(simd)) {
    st.SkipWithError("this SIMD path is not available on this build or CPU");
    return;
  }
  const Record<S> rec;
  std::vector<typename LuGre<S>::Params> sets;
  for (long i = 0; i < P; ++i) sets.push_back(set<S>(i, P));
  LuGreBatch<S> batch(sets, workflows::lugre_batch_kernels<S>(simd));
  st.SetLabel(batch.simd());
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
  st.counters["per_set_step"] =
      benchmark::Counter(double(kSamples), benchmark::Counter::kIsIterationInvariantRate |
                                               benchmark::Counter::kInvert);
}

void paths(benchmark::internal::Benchmark* b) {
  for (auto s :
       {workflows::BatchSimd::portable, workflows::BatchSimd::avx2, workflows::BatchSimd::avx512})
    b->Args({64, static_cast<long>(s)});
}

BENCHMARK_TEMPLATE(BM_LuGre_single_zoh, double);
BENCHMARK_TEMPLATE(BM_LuGre_batch, double)->Apply(paths);
BENCHMARK_TEMPLATE(BM_LuGre_single_zoh, float);
BENCHMARK_TEMPLATE(BM_LuGre_batch, float)->Apply(paths);

/// The console output, then the speed-ups: per_set_step of the single scalar step over that of
/// each batch path, per scalar type (the medians when there are repetitions, else the runs).
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (!median && r.run_type != Run::RT_Iteration) continue;
      const auto c = r.counters.find("per_set_step");
      if (c == r.counters.end()) continue;
      // A median replaces the single runs of its benchmark.
      std::string name = r.run_name.str();
      if (median) medians_.insert(name);
      if (median || !medians_.count(name)) per_set_step_[name] = c->second.value;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nper set-step [ns] and speed-up over the single scalar step (%s):\n",
                medians_.empty() ? "single runs" : "medians");
    for (const char* s : {"double", "float"}) {
      const auto single = per_set_step_.find(std::string("BM_LuGre_single_zoh<") + s + ">");
      if (single == per_set_step_.end()) continue;
      std::printf("  %-6s scalar %6.2f", s, single->second * 1e9);
      for (const char* path : {"portable", "avx2", "avx512"}) {
        const int id = path[0] == 'p' ? 0 : path[3] == '2' ? 1 : 2;
        const auto b =
            per_set_step_.find(std::string("BM_LuGre_batch<") + s + ">/64/" + std::to_string(id));
        if (b == per_set_step_.end()) {
          std::printf("   %s -", path);
          continue;
        }
        std::printf("   %s %6.2f (%.2fx)", path, b->second * 1e9, single->second / b->second);
      }
      std::printf("\n");
    }
  }

 private:
  std::map<std::string, double> per_set_step_;
  std::set<std::string> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
