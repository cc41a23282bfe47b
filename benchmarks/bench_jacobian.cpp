// The sensorless LuGre fit's Jacobian on bench_identify's record (30 s at 1 kHz, 7 free
// parameters, at a point 10 % off the truth): forward sensitivities in plain double
// (models/lugre/sensitivity.hpp, the default) against forward-mode Jets through the step (the
// previous evaluation, still the path of the other models), each on one thread and on two
// (the time segments). Uses lsq's internal cost (src/identify/family.hpp), as lsq does.
//   ./build/benchmarks/bench_jacobian --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <ceres/ceres.h>

#include <vector>

#include "family.hpp"
#include "fit_data.hpp"
#include "frictionlab/identify/options.hpp"
#include "lugre_test_record.hpp"
#include "robust.hpp"

namespace {

using namespace frictionlab;
using namespace frictionlab::identify;
using namespace frictionlab::identify::detail;

struct Problem {
  FitData d;
  std::unique_ptr<Family> fam;
  std::vector<double> theta;
  std::vector<int> free{0, 1, 2, 3, 4, 6, 7};  // alpha (index 5) held at 1
};

const Problem& problem() {
  static const Problem P = [] {
    Problem p{prepare_data(testing::reference_record(ProblemKind::sensorless, 1),
                           ProblemKind::sensorless, 0.0),
              make_family(parse_model("lugre"), ProblemKind::sensorless, true),
              {}};
    // Km, Kw, Fc, Fs, vs, alpha, sigma0, sigma1: 10 % off, alternating.
    p.theta = p.fam->to_internal({2.2, 0.45, 1.1, 1.35, 0.11, 1.0, 450, 0.55});
    return p;
  }();
  return P;
}

/// state.range(0): 1 = Jets, 0 = sensitivities; state.range(1): threads.
void BM_SensorlessLuGreJacobian(benchmark::State& state) {
  const Problem& P = problem();
  const bool jets = state.range(0) != 0;
  const auto cost =
      P.fam->make_cost(P.d, P.theta, P.free, Robust{}, static_cast<int>(state.range(1)), jets);
  // Two points a hair apart, taken in turn: every evaluation is at a new point (the cost keeps
  // the Jacobian of its last point and would hand it back, a copy, not an evaluation).
  std::vector<double> x, x2;
  for (int j : P.free) x.push_back(P.theta[static_cast<std::size_t>(j)]);
  x2 = x;
  for (double& e : x2) e += 1e-9;
  std::vector<double> r(static_cast<std::size_t>(P.d.m())), J(r.size() * P.free.size());
  double* jacs[1] = {J.data()};
  bool second = false;
  for (auto _ : state) {
    const double* params[1] = {second ? x2.data() : x.data()};
    second = !second;
    if (!cost->Evaluate(params, r.data(), jacs)) state.SkipWithError("not finite");
    benchmark::DoNotOptimize(J.data());
  }
  state.SetLabel(jets ? "Jets" : "sensitivities");
}

}  // namespace

BENCHMARK(BM_SensorlessLuGreJacobian)
    ->ArgNames({"jets", "threads"})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Args({1, 2})
    ->Args({0, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();
