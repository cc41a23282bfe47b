// Per-step cost of every model's default update (step + force), in float and double.
// Not a test: run `./build/benchmarks/bench_models` (docs/benchmarks.md has recorded figures).
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/actuator_budgets.hpp"
#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/maxwell_slip.hpp"
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

/// Time one step of M plus M::force per iteration with a 1 ms step: M::step on the held input
/// (Hold::zoh) or `advance` on the linearly interpolated one (Hold::linear). With `shared`, a
/// model that has M::at evaluates its velocity terms once for both (as a ZOH simulation can),
/// and once per sample for the force there and the two linear steps that share the sample (as
/// a linear-input simulation does: drive, the fits).
template <class M, Hold hold, bool shared = true>
void run(benchmark::State& st, const typename M::Params& p) {
  using S = typename M::Scalar;
  const auto& v = velocities<S>();
  typename M::State x{};
  const S h = S(1e-3);
  std::size_t k = 0;
  if constexpr (hold == Hold::linear && shared && HasLinearAt<M>) {
    auto w = M::at(p, v[0]);
    for (auto _ : st) {
      const std::size_t k1 = (k + 1) & (v.size() - 1);
      const auto w1 = M::at(p, v[k1]);
      x = M::step_linear(p, x, w, w1, h);
      benchmark::DoNotOptimize(M::force(p, x, w1));
      w = w1;
      k = k1;
    }
    return;
  }
  for (auto _ : st) {
    const std::size_t k1 = (k + 1) & (v.size() - 1);
    if constexpr (hold == Hold::zoh && shared && HasAtVelocity<M>) {
      const auto w = M::at(p, v[k]);
      x = M::step(p, x, w, h);
      benchmark::DoNotOptimize(M::force(p, x, w));
    } else if constexpr (hold == Hold::zoh) {
      x = M::step(p, x, v[k], h);
      benchmark::DoNotOptimize(M::force(p, x, v[k]));
    } else {
      x = advance<M>(p, x, v[k], v[k1], h, Method::exact, Hold::linear);
      benchmark::DoNotOptimize(M::force(p, x, v[k1]));
    }
    k = k1;
  }
}

template <class M>
void run_zoh(benchmark::State& st, const typename M::Params& p) {
  run<M, Hold::zoh>(st, p);
}

template <class M>
void run_linear(benchmark::State& st, const typename M::Params& p) {
  run<M, Hold::linear>(st, p);
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
/// The same with M::step(p, x, v, h) and M::force(p, x, v) called separately (g(v) twice).
template <class S>
void BM_LuGre_zoh_separate(benchmark::State& st) {
  run<LuGre<S>, Hold::zoh, false>(st, lugre_params<S>());
}
template <class S>
void BM_LuGre_linear(benchmark::State& st) {
  run_linear<LuGre<S>>(st, lugre_params<S>());
}
template <class S>
void BM_LuGre_linear_separate(benchmark::State& st) {
  run<LuGre<S>, Hold::linear, false>(st, lugre_params<S>());
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

/// The reference for the LuGre rows: a plain loop over the same velocity samples that only calls
/// exp twice per iteration, chained the way an exact LuGre step chains them (the Stribeck shape
/// exp(-(v/vs)^2), then the decay exp(-a h) with a rate that depends on it). docs/benchmarks.md
/// reports every LuGre row as a multiple of this loop (ratios survive a noisy machine better
/// than absolute times).
template <class S>
void BM_two_exp_reference(benchmark::State& st) {
  using std::exp;
  const auto& v = velocities<S>();
  const S inv_vs = S(1000);  // 1 / vs of lugre_params
  std::size_t k = 0;
  for (auto _ : st) {
    const S r = v[k] * inv_vs;
    const S e1 = exp(-(r * r));
    benchmark::DoNotOptimize(exp(-S(100) * absval(v[k]) * (S(1) + e1)));
    k = (k + 1) & (v.size() - 1);
  }
}

template <class S>
void BM_Coulomb(benchmark::State& st) {
  typename StaticFriction<S>::Params p;  // Fc = Fs: no Stribeck term
  p.curve = StribeckCurve<S>::symmetric(S(1), S(1), S(0.001), S(2));
  p.sigma2 = S(0);
  run_zoh<StaticFriction<S>>(st, p);
}
template <class S>
void BM_Stribeck_rational_smooth(benchmark::State& st) {
  auto p = stribeck_params<S>();
  p.curve.shape = StribeckShape::rational;
  p.v_smooth = S(1e-4);
  run_zoh<StaticFriction<S>>(st, p);
}
template <class S>
void BM_LuGre_asym_vd(benchmark::State& st) {
  auto p = lugre_params<S>();
  p.curve =
      StribeckCurve<S>{S(1), S(0.7), S(1.6), S(1.2), S(0.002), S(1.5), StribeckShape::rational};
  p.vd = S(0.004);
  run_zoh<LuGre<S>>(st, p);
}
template <class S>
void BM_Dahl(benchmark::State& st) {
  typename Dahl<S>::Params p;
  p.n = S(1.5);  // general exponent: the log1p/pow branch
  run_zoh<Dahl<S>>(st, p);
}
template <class S>
void BM_ElastoPlastic(benchmark::State& st) {
  run_zoh<ElastoPlastic<S>>(st, typename ElastoPlastic<S>::Params{});
}
template <class S>
void BM_ModifiedStribeck(benchmark::State& st) {
  run_zoh<ModifiedStribeck<S>>(st, typename ModifiedStribeck<S>::Params{});
}
/// Maxwell slip and GMS with n elements (the cost is linear in n; state arrays hold 64).
template <class S>
void BM_MaxwellSlip(benchmark::State& st) {
  using M = MaxwellSlip<S>;
  typename M::Params p;
  p.n = int(st.range(0));
  for (int i = 0; i < p.n; ++i) {
    p.k[i] = S(1e5 / p.n);
    p.Delta[i] = S(1e-5 * (i + 1));
  }
  run_zoh<M>(st, p);
}
template <class S>
void BM_GMS(benchmark::State& st) {
  using M = GMS<S>;
  typename M::Params p;
  p.n = int(st.range(0));
  for (int i = 0; i < p.n; ++i) {
    p.k[i] = S(1e5 * (i + 1));
    p.nu[i] = S(1.0 / p.n);
  }
  run_zoh<M>(st, p);
}
/// Actuator friction budget M6 (the most expensive of M1..M6), one evaluation per iteration.
template <class S>
void BM_ActuatorM6(benchmark::State& st) {
  ActuatorFrictionParams<S> p;
  p.Kv = S(0.05);
  p.Kc = S(0.02);
  p.Kcs = S(0.03);
  p.vs = S(0.5);
  p.Km = S(0.01);
  p.Ke = S(0.02);
  p.Kms = S(0.01);
  p.Kes = S(0.01);
  p.Keq = S(0.001);
  p.Kmq = S(0.002);
  const auto& v = velocities<S>();
  std::size_t k = 0;
  for (auto _ : st) {
    const S vk = S(100) * v[k];
    const S tau_m = S(2) * v[(k + 7) & (v.size() - 1)] * S(100);
    const S tau_e = -v[(k + 131) & (v.size() - 1)] * S(100);
    benchmark::DoNotOptimize(friction_budget(ActuatorModel::M6, p, vk, tau_m, tau_e));
    k = (k + 1) & (v.size() - 1);
  }
}

BENCHMARK(BM_two_exp_reference<float>);
BENCHMARK(BM_two_exp_reference<double>);
BENCHMARK(BM_Coulomb<float>);
BENCHMARK(BM_Coulomb<double>);
BENCHMARK(BM_Stribeck<float>);
BENCHMARK(BM_Stribeck<double>);
BENCHMARK(BM_LuGre_zoh<float>);
BENCHMARK(BM_LuGre_zoh<double>);
BENCHMARK(BM_LuGre_zoh_separate<float>);
BENCHMARK(BM_LuGre_zoh_separate<double>);
BENCHMARK(BM_LuGre_linear<float>);
BENCHMARK(BM_LuGre_linear<double>);
BENCHMARK(BM_LuGre_linear_separate<float>);
BENCHMARK(BM_LuGre_linear_separate<double>);
BENCHMARK(BM_LuGre_forward_euler<float>);
BENCHMARK(BM_LuGre_forward_euler<double>);
BENCHMARK(BM_Stribeck_rational_smooth<float>);
BENCHMARK(BM_Stribeck_rational_smooth<double>);
BENCHMARK(BM_LuGre_asym_vd<float>);
BENCHMARK(BM_LuGre_asym_vd<double>);
BENCHMARK(BM_Dahl<float>);
BENCHMARK(BM_Dahl<double>);
BENCHMARK(BM_ElastoPlastic<float>);
BENCHMARK(BM_ElastoPlastic<double>);
BENCHMARK(BM_ModifiedStribeck<float>);
BENCHMARK(BM_ModifiedStribeck<double>);
BENCHMARK(BM_MaxwellSlip<float>)->Arg(4)->Arg(16);
BENCHMARK(BM_MaxwellSlip<double>)->Arg(4)->Arg(16);
BENCHMARK(BM_GMS<float>)->Arg(4)->Arg(16);
BENCHMARK(BM_GMS<double>)->Arg(4)->Arg(16);
BENCHMARK(BM_ActuatorM6<float>);
BENCHMARK(BM_ActuatorM6<double>);

}  // namespace

BENCHMARK_MAIN();
