// Joint identification benchmark (docs/joint-identification.md, "Run time"): every method of
// `fit-joint` on the same synthetic 25 s, 1 kHz record of a pendulum joint.
//
// Record: tests/joint_test_models.hpp's pendulum, I = 0.0626 kg m^2, mgCx = 0.05 N m, mgCy = -1 N
// m, offset = -0.04 N m; joint LuGre friction sigma0 = 300 N m/rad, sigma1 = 2 N m s/rad, Fc = 0.15
// N m, one Stribeck term Fs = 0.08 N m (delta = 1, Omega_s = 0.1 rad/s), cv = 0.05 N m s/rad;
// driven by a three-sine torque (0.5, 1.3, 3.1 Hz); simulated by sim::simulate_joint_model at 0.1
// ms; measured q with Gaussian noise 1e-4 rad, tau with 0.005 N m (seed 1); qd, qdd by
// Savitzky-Golay (21 samples, order 3) from the noisy q, as `fit-joint` does by default.
//
// Before the timings the program prints, per method, the wall time of one run and the relative
// error of every parameter against the truth (--table=0 skips it).
//
// Run: ./build/benchmarks/bench_joint   (Release build)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/identify/joint_idim.hpp"
#include "frictionlab/identify/joint_oe.hpp"
#include "frictionlab/identify/joint_sr3.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "joint_test_models.hpp"  // tests/: the synthetic joint

namespace {

using namespace frictionlab;
using namespace frictionlab::identify;
using frictionlab::testing::lugre_pendulum;
using frictionlab::testing::perturbed_start;
constexpr double kPi = 3.14159265358979323846;

const JointData& record() {
  static const JointData d = [] {
    JointData r;
    r.source = "synthetic 25 s at 1 kHz";
    for (long k = 0; k <= 25000; ++k) {
      const double t = static_cast<double>(k) * 1e-3;
      r.t.push_back(t);
      r.tau.push_back(0.7 * std::sin(2 * kPi * 0.5 * t) + 0.35 * std::sin(2 * kPi * 1.3 * t + 1) +
                      0.1 * std::sin(2 * kPi * 3.1 * t + 2));
    }
    const auto tr = sim::simulate_joint_model(lugre_pendulum(), r.t, r.tau, {}, {1e-4});
    std::mt19937 rng(1);
    std::normal_distribution<double> nq(0.0, 1e-4), nt(0.0, 0.005);
    for (std::size_t k = 0; k < r.t.size(); ++k) {
      r.q.push_back(tr.q[k] + nq(rng));
      r.tau[k] += nt(rng);
      r.temperature.push_back(25.0 + 20.0 * r.t[k] / 25.0);  // for the temperature-law idim
    }
    const auto der = signal::differentiate(r.t, r.q, {});
    r.qd = der.first;
    r.qdd = der.second;
    return r;
  }();
  return d;
}

/// idim, load- and temperature-free or with the load-dependent Coulomb level or the temperature
/// law (Gauss-Newton on the torque error, joint_idim.hpp).
JointIdimResult run_idim(bool load_dependent = false,
                         std::optional<TemperatureLaw> temperature = std::nullopt) {
  const JointData& d = record();
  JointIdimOptions o;
  o.load_dependent = load_dependent;
  o.temperature_law = temperature;
  return fit_joint_idim(std::span<const JointData>(&d, 1), o);
}

/// sr3 with its defaults; no validation record: the AIC uses held-out blocks of the training
/// record.
JointSr3Result run_sr3() {
  const JointData& d = record();
  return fit_joint_sr3(std::span<const JointData>(&d, 1), {}, {});
}

JointOeResult run_oe(const JointModel& start,
                     JointOeOptions::Jacobian jac = JointOeOptions::Jacobian::sensitivities) {
  const JointData& d = record();
  JointOeOptions o;
  o.threads = 2;
  o.jacobian = jac;
  return fit_joint_oe(std::span<const JointData>(&d, 1), start, o);
}

const JointModel& sr3_model() {
  static const JointModel m = run_sr3().model;
  return m;
}

void print_model(const char* name, double seconds, const JointModel& m) {
  const JointModel t = lugre_pendulum();
  std::printf("%-42s %8.2f s   I %+.2e  mgCx %+.2e  mgCy %+.2e  offset %+.2e", name, seconds,
              m.I / t.I - 1, m.mgCx / t.mgCx - 1, m.mgCy / t.mgCy - 1, m.offset / t.offset - 1);
  const auto& q = std::get<JointLuGre<double>::Params>(t.friction);
  if (const auto* p = std::get_if<JointLuGre<double>::Params>(&m.friction)) {
    // sr3 may select other Stribeck exponents or none: Fs[0] / Omega_s only when delta = 1.
    const bool same = p->n_stribeck == 1 && p->delta[0] == 1.0;
    std::printf("  sigma0 %+.2e  sigma1 %+.2e  Fc %+.2e  cv %+.2e", p->sigma0 / q.sigma0 - 1,
                p->sigma1 / q.sigma1 - 1, p->Fc / q.Fc - 1, p->cv[0] / q.cv[0] - 1);
    if (same)
      std::printf("  Fs %+.2e  Omega_s %+.2e\n", p->Fs[0] / q.Fs[0] - 1,
                  p->Omega_s / q.Omega_s - 1);
    else
      std::printf("  (Stribeck: %d terms)\n", p->n_stribeck);
  } else {
    const auto& s = std::get<StaticFriction<double>::Params>(m.friction);
    std::printf("  (Coulomb + viscous: Fc %.4g N m, Fv %.4g N m s/rad)\n", s.curve.Fc_pos,
                s.sigma2);
  }
}

template <class F>
double seconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void table() {
  (void)record();
  std::printf("Relative parameter errors (estimate / truth - 1) on %s:\n", record().source.c_str());
  JointIdimResult id;
  const double t_id = seconds([&] { id = run_idim(); });
  print_model("idim", t_id, id.model);
  JointSr3Result sr;
  const double t_sr = seconds([&] { sr = run_sr3(); });
  print_model("sr3", t_sr, sr.model);
  std::printf("  sr3 active terms:");
  for (const auto& a : sr.active) std::printf(" %s", a.c_str());
  std::printf("\n");
  // oe with its Jacobian by forward sensitivities (the default) and by central differences
  // (the earlier method), one after the other in the same run.
  using Jac = JointOeOptions::Jacobian;
  for (const auto& [label, start] :
       {std::pair<const char*, JointModel>{"from sr3", sr.model},
        std::pair<const char*, JointModel>{"from truth 10-30 % off",
                                           perturbed_start(lugre_pendulum())}}) {
    for (const auto& [jname, jac] :
         {std::pair<const char*, Jac>{"sensitivities", Jac::sensitivities},
          std::pair<const char*, Jac>{"central diff.", Jac::central_differences}}) {
      JointOeResult oe;
      const double t_oe = seconds([&, jac = jac, &start = start] { oe = run_oe(start, jac); });
      const std::string name = std::string("oe ") + label + ", " + jname;
      print_model(name.c_str(), t_oe, oe.model);
      std::printf("  oe: %d iterations, %d segments, final cost %.10g\n", oe.iterations,
                  oe.segments, oe.final_cost);
    }
  }
  std::printf("\n");
}

void BM_Idim(benchmark::State& state) {
  (void)record();
  for (auto _ : state) benchmark::DoNotOptimize(run_idim());
}
BENCHMARK(BM_Idim)->Unit(benchmark::kMillisecond);

void BM_IdimLoadDependent(benchmark::State& state) {
  (void)record();
  for (auto _ : state) benchmark::DoNotOptimize(run_idim(true));
}
BENCHMARK(BM_IdimLoadDependent)->Unit(benchmark::kMillisecond);

void BM_IdimTemperature(benchmark::State& state) {
  (void)record();
  for (auto _ : state)
    benchmark::DoNotOptimize(run_idim(false, static_cast<TemperatureLaw>(state.range(0))));
}
BENCHMARK(BM_IdimTemperature)
    ->Arg(static_cast<int>(TemperatureLaw::linear))
    ->Arg(static_cast<int>(TemperatureLaw::exponential))
    ->Unit(benchmark::kMillisecond);

void BM_Sr3(benchmark::State& state) {
  (void)record();
  for (auto _ : state) benchmark::DoNotOptimize(run_sr3());
}
BENCHMARK(BM_Sr3)->Unit(benchmark::kSecond)->Iterations(1);

/// oe from the sr3 result (argument 0) or from the 10-30 % perturbed truth (1), with the
/// Jacobian by forward sensitivities (second argument 0) or central differences (1).
void BM_Oe(benchmark::State& state) {
  (void)record();
  const JointModel start = state.range(0) == 0 ? sr3_model() : perturbed_start(lugre_pendulum());
  const auto jac = state.range(1) == 0 ? JointOeOptions::Jacobian::sensitivities
                                       : JointOeOptions::Jacobian::central_differences;
  for (auto _ : state) benchmark::DoNotOptimize(run_oe(start, jac));
}
BENCHMARK(BM_Oe)
    ->ArgNames({"from_perturbed", "central"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

/// oe from the truth with a dependence added at zero, estimated with the rest (argument 0: none;
/// 1: a linear temperature law, kT = kT_v = 0 at 35 degC, the record warming 25 -> 45 degC; 2: a
/// load dependence, mu = 0): what a dependence costs. With one oe takes central differences (the
/// forward sensitivities do not carry it); without one, forward sensitivities.
void BM_OeDependence(benchmark::State& state) {
  (void)record();
  JointModel start = lugre_pendulum();
  if (state.range(0) == 1)
    start.temperature = TemperatureDependence<double>{TemperatureLaw::linear, 35.0, 0.0, 0.0};
  if (state.range(0) == 2) start.load = LoadDependence<double>{};
  for (auto _ : state) benchmark::DoNotOptimize(run_oe(start));
}
BENCHMARK(BM_OeDependence)
    ->ArgName("dependence")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

}  // namespace

int main(int argc, char** argv) {
  bool show = true;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--table=0") == 0) {
      show = false;
      continue;
    }
    args.push_back(argv[i]);
  }
  if (show) table();
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
