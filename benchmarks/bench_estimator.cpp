// Per-cycle cost of the torque estimator (estimator/torque_estimator.hpp and the C API), float
// and double, every input mode. Not a test: run `./build/benchmarks/bench_estimator`
// (docs/estimator.md has recorded figures).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "estimator_fixtures.hpp"  // tests/: the joint parameter set
#include "frictionlab/estimator/adaptive_estimator.h"
#include "frictionlab/estimator/builder.hpp"
#include "frictionlab/estimator/torque_estimator.h"
#include "frictionlab/estimator/torque_estimator.hpp"

namespace {

using namespace frictionlab;

/// The joint of tests/estimator_fixtures.hpp (sigma0 = 1e4 Nm/rad, asymmetric, alpha = 1).
estimator::EstimatorParams<double> params(Hold hold) { return test::joint_params(hold); }

/// A 1 kHz joint motion with reversals, 0.5 rad/s amplitude (velocity, position increment).
template <class S>
struct Input {
  std::vector<S> v, dx, i;
  Input() : v(4096), dx(4096), i(4096) {
    for (std::size_t k = 0; k < v.size(); ++k) {
      const double t = 1e-3 * double(k);
      v[k] = S(0.4 * std::sin(2 * 3.14159265 * 0.5 * t) + 0.1 * std::sin(2 * 3.14159265 * 3 * t));
      dx[k] = S(1e-3 * double(v[k]));
      i[k] = S(0.3 * std::sin(2 * 3.14159265 * 0.7 * t));
    }
  }
};

template <class S>
const Input<S>& input() {
  static const Input<S> in;
  return in;
}

enum class Mode { linear, zoh, displacement };

template <class S, Mode mode>
void BM_Estimator(benchmark::State& st) {
  const auto& in = input<S>();
  auto e = estimator::make_estimator<S>(params(mode == Mode::zoh ? Hold::zoh : Hold::linear));
  const S dt = S(1e-3);
  std::size_t k = 0;
  for (auto _ : st) {
    const auto o = mode == Mode::displacement ? e.step_displacement(in.i[k], in.dx[k], dt)
                                              : e.step(in.i[k], in.v[k], dt);
    benchmark::DoNotOptimize(o.torque);
    k = (k + 1) & 4095;
  }
  st.SetItemsProcessed(static_cast<long>(st.iterations()));
}

BENCHMARK(BM_Estimator<float, Mode::linear>)->Name("estimator/float/velocity-linear");
BENCHMARK(BM_Estimator<float, Mode::zoh>)->Name("estimator/float/velocity-zoh");
BENCHMARK(BM_Estimator<float, Mode::displacement>)->Name("estimator/float/displacement");
BENCHMARK(BM_Estimator<double, Mode::linear>)->Name("estimator/double/velocity-linear");
BENCHMARK(BM_Estimator<double, Mode::zoh>)->Name("estimator/double/velocity-zoh");
BENCHMARK(BM_Estimator<double, Mode::displacement>)->Name("estimator/double/displacement");

/// The joint as the C API's float parameters.
fl_estimator_params_f32 c_params() {
  return estimator::to_c_params<fl_estimator_params_f32>(params(Hold::linear));
}

void BM_CApiFloat(benchmark::State& st) {
  const auto& in = input<float>();
  const fl_estimator_params_f32 c = c_params();
  fl_estimator_f32 e;
  fl_estimator_f32_init(&e, &c);
  std::size_t k = 0;
  for (auto _ : st) {
    const auto o = fl_estimator_f32_step(&e, in.i[k], in.v[k], 1e-3f, 0.0f);
    benchmark::DoNotOptimize(o.torque);
    k = (k + 1) & 4095;
  }
  st.SetItemsProcessed(static_cast<long>(st.iterations()));
}
BENCHMARK(BM_CApiFloat)->Name("c_api/float/velocity-linear");

// The adaptive estimator (adaptive_estimator.h) with a reference torque every cycle: the bristle
// step above plus the RLS update of the four default parameters (Km and kT frozen, their
// entries multiplied anyway: the loop has no branch per parameter).
void BM_AdaptiveFloat(benchmark::State& st) {
  const auto& in = input<float>();
  const fl_estimator_params_f32 c = c_params();
  fl_adaptive_options_f32 o;
  fl_adaptive_f32_default_options(&o);
  fl_adaptive_f32 a;
  fl_adaptive_f32_init(&a, &c, &o);
  std::size_t k = 0;
  for (auto _ : st) {
    const auto r = fl_adaptive_f32_step(&a, in.i[k], in.v[k], 1e-3f, 25.0f, 0.1f * in.i[k], 1);
    benchmark::DoNotOptimize(r.torque);
    k = (k + 1) & 4095;
  }
  st.SetItemsProcessed(static_cast<long>(st.iterations()));
}
BENCHMARK(BM_AdaptiveFloat)->Name("c_api/float/adaptive");

// The firmware form of reference 000 (forward Euler at 1 ms, double), for scale only: it is
// unstable for these parameters, so it runs with sigma0 = 100.
void BM_FirmwareEuler(benchmark::State& st) {
  const auto& in = input<double>();
  auto p = params(Hold::zoh).friction;
  p.sigma0 = 100;
  double z = 0;
  std::size_t k = 0;
  for (auto _ : st) {
    const double v = in.v[k];
    const double zdot = v - LuGre<double>::rate(p, v) * z;
    const double F = p.sigma0 * z + p.sigma1 * zdot + p.sigma2 * v;
    z += 1e-3 * zdot;
    benchmark::DoNotOptimize(F);
    k = (k + 1) & 4095;
  }
}
BENCHMARK(BM_FirmwareEuler)->Name("reference000/double/forward-euler");

}  // namespace

BENCHMARK_MAIN();
