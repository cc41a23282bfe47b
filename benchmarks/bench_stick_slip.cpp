// The stick-slip benchmark (Canudas de Wit et al. 1995; docs/simulation.md): cost of the
// fixed-step ROS2 scheme per step and of the CVODE reference run, and the largest ROS2 step that
// still reproduces the reference.
//
// Before the timings, the program prints a step-size sweep (skip it with --sweep=0):
//   reference  x_ref(t): CVODE BDF, rtol 1e-10, atol 1e-12, sampled at every ROS2 step t_k = k h;
//   error      e(h) = max_k |x_h(t_k) - x_ref(t_k)| over the 20 s run [m];
//   scale      P = max_k |v_drive t_k - x_ref(t_k)|, the peak spring elongation [m] (peak spring
//              force / k; 0.754 m here, against max|x| = 1.27 m);
//   pass       e(h) <= 1% of P.
// Steps h = 0.1 s / n: first n = round(10 * 2^(j/8)) (8 per octave, 10 ms .. 0.1 ms), then every
// integer n around the threshold. Reported: h_max, the largest h in the sweep such that it and
// every smaller h of the sweep pass (failures are not monotone in h: see the table).
//
// Run: ./build/benchmarks/bench_stick_slip  (Release build)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <stdexcept>
#include <vector>

#include "frictionlab/sim/systems.hpp"

namespace {

using namespace frictionlab;
using sim::SimOptions;
using sim::SystemIntegrator;

LuGre<double>::Params classic() {
  LuGre<double>::Params p;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0);
  return p;
}

SimOptions ros2(double h, double output_dt) {
  SimOptions o;
  o.integrator = SystemIntegrator::rosenbrock;
  o.h = h;
  o.output_dt = output_dt;
  return o;
}

SimOptions cvode(double rtol, double output_dt) {
  SimOptions o;
  o.integrator = SystemIntegrator::cvode;
  o.h = 0.0;
  o.output_dt = output_dt;
  o.rtol = rtol;
  o.atol = rtol * 1e-2;
  return o;
}

struct SweepPoint {
  double h = 0, err = 0, peak = 0;
  bool pass = false;
};

SweepPoint evaluate(int n) {
  const sim::StickSlipSpec spec;
  const double h = 0.1 / n;
  SweepPoint s;
  s.h = h;
  const auto ref = sim::simulate_stick_slip(spec, classic(), cvode(1e-10, h));
  for (std::size_t k = 0; k < ref.t.size(); ++k)
    s.peak = std::max(s.peak, std::abs(spec.v_drive * ref.t[k] - ref.x[k]));
  try {
    const auto r = sim::simulate_stick_slip(spec, classic(), ros2(h, 0.0));
    for (std::size_t k = 0; k < r.t.size(); ++k)
      s.err = std::max(s.err, std::abs(r.x[k] - ref.x[k]));
  } catch (const std::runtime_error&) {
    s.err = INFINITY;  // blew up (non-finite state)
  }
  s.pass = s.err <= 0.01 * s.peak;
  return s;
}

void sweep() {
  std::map<int, SweepPoint> pts;  // keyed by n, h = 0.1 / n
  for (int j = 0; j <= 56; ++j) {
    const int n = static_cast<int>(std::lround(10.0 * std::exp2(j / 8.0)));
    if (!pts.count(n)) pts[n] = evaluate(n);
  }
  // Smallest n (largest h) from which every larger n passes, then refine between it and the
  // failing n just below it.
  auto threshold = [&] {
    int n_ok = pts.rbegin()->first;
    for (auto it = pts.rbegin(); it != pts.rend() && it->second.pass; ++it) n_ok = it->first;
    return n_ok;
  };
  int n_ok = threshold();
  auto below = pts.find(n_ok);
  if (below != pts.begin()) {
    const int n_fail = std::prev(below)->first;
    for (int n = n_fail + 1; n < n_ok; ++n) pts[n] = evaluate(n);
    n_ok = threshold();
  }
  std::printf("ROS2 step-size sweep, stick-slip benchmark (20 s), reference CVODE rtol 1e-10\n");
  std::printf("%12s %14s %12s %6s\n", "h [s]", "e(h) [m]", "e(h) / P", "pass");
  for (auto it = pts.begin(); it != pts.end(); ++it) {
    const auto& s = it->second;
    std::printf("%12.6g %14.4e %12.4e %6s\n", s.h, s.err, s.err / s.peak, s.pass ? "yes" : "no");
  }
  const auto& best = pts[n_ok];
  std::printf("peak spring elongation P = %.6f m\n", best.peak);
  std::printf(
      "largest h within 1%% of P (it and every smaller h in the sweep pass): h_max = %.6g s "
      "(0.1/%d), e = %.4e m = %.3f%% of P\n\n",
      best.h, n_ok, best.err, 100 * best.err / best.peak);
}

/// One 20 s ROS2 run with output at 0 and t_end only: time per step.
void BM_Ros2StickSlip(benchmark::State& st) {
  const double h = 1e-6 * static_cast<double>(st.range(0));
  const sim::StickSlipSpec spec;
  const auto p = classic();
  long steps = 0;
  for (auto _ : st) {
    const auto r = sim::simulate_stick_slip(spec, p, ros2(h, spec.t_end));
    benchmark::DoNotOptimize(r.x.back());
    steps += r.steps;
  }
  st.SetItemsProcessed(steps);
  // Seconds per step (printed with an SI prefix: "287n" = 287 ns).
  st.counters["time_per_step"] = benchmark::Counter(
      static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  st.counters["steps"] = static_cast<double>(steps) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_Ros2StickSlip)->Arg(1000)->Arg(250)->Arg(100)->Unit(benchmark::kMillisecond);

/// One 20 s CVODE run (output every 10 ms), rtol = 10^-range.
void BM_CvodeStickSlip(benchmark::State& st) {
  const double rtol = std::pow(10.0, -static_cast<double>(st.range(0)));
  const sim::StickSlipSpec spec;
  const auto p = classic();
  long steps = 0, rhs = 0;
  for (auto _ : st) {
    const auto r = sim::simulate_stick_slip(spec, p, cvode(rtol, 0.01));
    benchmark::DoNotOptimize(r.x.back());
    steps = r.steps;
    rhs = r.rhs_evals;
  }
  st.counters["steps"] = static_cast<double>(steps);
  st.counters["rhs_evals"] = static_cast<double>(rhs);
  st.counters["time_per_step"] =
      benchmark::Counter(static_cast<double>(steps) * static_cast<double>(st.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_CvodeStickSlip)->Arg(6)->Arg(8)->Arg(10)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  bool do_sweep = true;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--sweep=0") == 0) {
      do_sweep = false;
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  if (do_sweep) sweep();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
