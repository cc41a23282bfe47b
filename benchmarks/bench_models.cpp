// Per-step cost of every model's default update (step + force), in float and double.
// Not a test: run `./build/benchmarks/bench_models` (docs/benchmarks.md has recorded figures).
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/stribeck.hpp"

namespace {

using namespace frictionlab;

/// A velocity sequence with reversals (so that branches are exercised as in use).
template <class S>
const std::vector<S>& velocities() {
  static const std::vector<S> v = [] {
    std::vector<S> out(4096);
    for (std::size_t k = 0; k < out.size(); ++k)
      out[k] = S(0.01 * std::sin(0.0123 * double(k)) + 0.002 * std::sin(0.21 * double(k)));
    return out;
  }();
  return v;
}

/// Time one call of M::step + M::force per iteration with a 1 ms step, ZOH input.
template <class M>
void run_zoh(benchmark::State& st, const typename M::Params& p) {
  using S = typename M::Scalar;
  const auto& v = velocities<S>();
  typename M::State x{};
  const S h = S(1e-3);
  std::size_t k = 0;
  for (auto _ : st) {
    const S vk = v[k];
    x = M::step(p, x, vk, h);
    benchmark::DoNotOptimize(M::force(p, x, vk));
    k = (k + 1) & (v.size() - 1);
  }
}

/// The same with the linearly interpolated input (Hold::linear through `advance`).
template <class M>
void run_linear(benchmark::State& st, const typename M::Params& p) {
  using S = typename M::Scalar;
  const auto& v = velocities<S>();
  typename M::State x{};
  const S h = S(1e-3);
  std::size_t k = 0;
  for (auto _ : st) {
    const std::size_t k1 = (k + 1) & (v.size() - 1);
    x = advance<M>(p, x, v[k], v[k1], h, Method::exact, Hold::linear);
    benchmark::DoNotOptimize(M::force(p, x, v[k1]));
    k = k1;
  }
}

template <class S>
typename LuGre<S>::Params lugre_params() {
  typename LuGre<S>::Params p;  // ref 003 defaults: sigma0 = 1e5
  return p;
}

template <class S>
typename StaticFriction<S>::Params stribeck_params() {
  typename StaticFriction<S>::Params p;
  p.curve = StribeckCurve<S>::symmetric(S(1), S(1.5), S(0.001), S(2));
  p.sigma2 = S(0.4);
  return p;
}

template <class S>
void BM_Stribeck(benchmark::State& st) {
  run_zoh<StaticFriction<S>>(st, stribeck_params<S>());
}
template <class S>
void BM_LuGre_zoh(benchmark::State& st) {
  run_zoh<LuGre<S>>(st, lugre_params<S>());
}
template <class S>
void BM_LuGre_linear(benchmark::State& st) {
  run_linear<LuGre<S>>(st, lugre_params<S>());
}
template <class S>
void BM_LuGre_forward_euler(benchmark::State& st) {
  // The reference firmware's scheme, for comparison only (unstable at this sigma0 and step).
  using M = LuGre<S>;
  const auto p = lugre_params<S>();
  const auto& v = velocities<S>();
  typename M::State x{};
  std::size_t k = 0;
  for (auto _ : st) {
    x = advance<M>(p, x, v[k], v[k], S(1e-5), Method::forward_euler, Hold::zoh);
    benchmark::DoNotOptimize(M::force(p, x, v[k]));
    k = (k + 1) & (v.size() - 1);
  }
}

BENCHMARK(BM_Stribeck<float>);
BENCHMARK(BM_Stribeck<double>);
BENCHMARK(BM_LuGre_zoh<float>);
BENCHMARK(BM_LuGre_zoh<double>);
BENCHMARK(BM_LuGre_linear<float>);
BENCHMARK(BM_LuGre_linear<double>);
BENCHMARK(BM_LuGre_forward_euler<float>);
BENCHMARK(BM_LuGre_forward_euler<double>);

}  // namespace

BENCHMARK_MAIN();
