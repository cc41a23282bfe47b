// Signal-layer benchmark (docs/preprocessing.md, "TV-regularised differentiation"): cost of
// TVRegDiff (order 1 and 2) on 25 000 samples (25 s at 1 kHz), against Savitzky-Golay, central
// differences, re-integration and the inverse-model setting of the record pipeline
// (data::preprocess) on the same record.
//
// Record: point-to-point moves with trapezoidal velocity profiles (acceleration +-4 rad/s^2,
// cruise 0.3..2 rad/s, dwell 0.1..0.8 s; seed 7) plus Gaussian position noise 1e-4 rad (seed 11).
// Each benchmark reports ns per sample (items = samples) and, for TVRegDiff, the Newton iterations
// and the RMS errors of velocity and acceleration against the exact motion.
//
// Before the timings the program prints four accuracy tables (skip them with --table=0):
//   1. the synthetic record: RMS errors of velocity and acceleration (50 samples trimmed at each
//      end) for TV order 2 and order 1 over alpha, order 1 applied twice, Savitzky-Golay;
//   2. epsilon on the point-to-point record and on a smooth two-sine record;
//   3. the best alpha of order 2 against the noise level;
//   4. the DFKI pendulum record (../shared/data/pendulum_dfki/gravcomp_data_measured.csv,
//      resampled to 1 kHz), if present: RMS difference of each velocity estimate to the motor
//      driver's velocity, raw and through a 10 Hz zero-phase Butterworth (order 4), the RMS
//      residual y - q of TV, iterations and wall time.
//
// Run: ./build/benchmarks/bench_signal  (Release build)
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "frictionlab/io/csv.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/resample.hpp"

#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/reintegrate.hpp"
#include "frictionlab/signal/savgol.hpp"
#include "frictionlab/signal/tvreg.hpp"

namespace {

using namespace frictionlab::signal;
namespace data = frictionlab::data;

struct Motion {
  std::vector<double> t, q, v, a, noisy;
};

Motion make_motion() {
  const double fs = 1000, duration = 24.999;
  std::mt19937 g(7);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  struct Seg {
    double d, a;
  };
  std::vector<Seg> segs;
  double total = 0, x = 0;
  while (total < duration + 1) {
    const double target = -1.2 + 2.4 * U(g), d = target - x, vmax = 0.3 + 1.7 * U(g);
    const double s = d > 0 ? 1 : -1, dist = std::abs(d);
    double ta = vmax / 4.0, tc = 0;
    if (vmax * ta > dist)
      ta = std::sqrt(dist / 4.0);
    else
      tc = (dist - vmax * ta) / vmax;
    const double dwell = 0.1 + 0.7 * U(g);
    segs.push_back({ta, s * 4.0});
    segs.push_back({tc, 0});
    segs.push_back({ta, -s * 4.0});
    segs.push_back({dwell, 0});
    total += 2 * ta + tc + dwell;
    x = target;
  }
  const std::size_t n = 25000;
  Motion m;
  m.t.resize(n), m.q.resize(n), m.v.resize(n), m.a.resize(n);
  double tb = 0, v0 = 0, p0 = 0;
  std::size_t si = 0;
  for (std::size_t i = 0; i < n; ++i) {
    m.t[i] = static_cast<double>(i) / fs;
    while (m.t[i] >= tb + segs[si].d) {
      p0 += v0 * segs[si].d + 0.5 * segs[si].a * segs[si].d * segs[si].d;
      v0 += segs[si].a * segs[si].d;
      tb += segs[si].d;
      ++si;
    }
    const double tau = m.t[i] - tb;
    m.a[i] = segs[si].a;
    m.v[i] = v0 + segs[si].a * tau;
    m.q[i] = p0 + v0 * tau + 0.5 * segs[si].a * tau * tau;
  }
  std::mt19937 gn(11);
  std::normal_distribution<double> noise(0.0, 1e-4);
  m.noisy = m.q;
  for (double& y : m.noisy) y += noise(gn);
  return m;
}

const Motion& motion() {
  static const Motion m = make_motion();
  return m;
}

double rms(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  const std::size_t skip = 50;
  for (std::size_t i = skip; i + skip < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s / static_cast<double>(a.size() - 2 * skip));
}

void BM_TVRegDiff(benchmark::State& state) {
  const Motion& m = motion();
  TVRegOptions o;
  o.order = static_cast<int>(state.range(0));
  o.alpha = o.order == 1 ? 3e-9 : 3e-10;
  TVRegResult r;
  for (auto _ : state) {
    r = tvreg(m.t, m.noisy, o);
    benchmark::DoNotOptimize(r.first.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.t.size()));
  state.counters["iterations"] = r.iterations;
  state.counters["converged"] = r.converged ? 1 : 0;
  state.counters["vel_rms"] = rms(r.first, m.v);
  if (o.order == 2) state.counters["acc_rms"] = rms(r.second, m.a);
}
BENCHMARK(BM_TVRegDiff)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_SavitzkyGolay(benchmark::State& state) {
  const Motion& m = motion();
  DiffOptions d;  // window 21, order 3: velocity and acceleration
  d.window = 51;
  Derivatives r;
  for (auto _ : state) {
    r = differentiate(m.t, m.noisy, d);
    benchmark::DoNotOptimize(r.first.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.t.size()));
  state.counters["vel_rms"] = rms(r.first, m.v);
  state.counters["acc_rms"] = rms(r.second, m.a);
}
BENCHMARK(BM_SavitzkyGolay)->Unit(benchmark::kMillisecond);

void BM_Reintegrate(benchmark::State& state) {
  const Motion& m = motion();
  for (auto _ : state) {
    Reintegrated r = reintegrate(m.t, m.a, m.noisy);
    benchmark::DoNotOptimize(r.position.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.t.size()));
}
BENCHMARK(BM_Reintegrate)->Unit(benchmark::kMillisecond);

void BM_InverseModelSignals(benchmark::State& state) {
  const Motion& m = motion();
  data::Record rec;
  rec.t = m.t;
  rec.position = m.noisy;
  rec.force = m.a;
  data::PreprocessOptions o;  // the inverse-model setting of the record pipeline
  o.lowpass_cutoff = 20;
  o.derivatives = data::DerivativesFrom::position;
  o.diff.method = DiffMethod::central;
  o.decimate = 10;
  o.decimate_filter = data::DecimateFilter::antialias;
  for (auto _ : state) {
    data::Record s = data::preprocess(rec, o);
    benchmark::DoNotOptimize(s.acceleration.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(m.t.size()));
}
BENCHMARK(BM_InverseModelSignals)->Unit(benchmark::kMillisecond);

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void synthetic_table() {
  const Motion& m = motion();
  std::printf("Synthetic point-to-point record, 25 000 samples at 1 kHz, noise 1e-4 rad\n");
  std::printf("%-34s %10s %12s %6s %8s\n", "method", "vel RMS", "acc RMS", "iter", "time s");
  for (int order = 2; order >= 1; --order) {
    const std::vector<double> alphas = order == 2 ? std::vector<double>{1e-10, 3e-10, 1e-9, 3e-9}
                                                  : std::vector<double>{1e-9, 3e-9, 1e-8, 3e-8};
    for (double a : alphas) {
      TVRegOptions o;
      o.order = order;
      o.alpha = a;
      const auto t0 = std::chrono::steady_clock::now();
      const TVRegResult r = tvreg(m.t, m.noisy, o);
      const double dt = seconds_since(t0);
      char name[64];
      std::snprintf(name, sizeof name, "TV order %d, alpha %.0e", order, a);
      std::printf("%-34s %10.3e %12s %6d %8.3f%s\n", name, rms(r.first, m.v),
                  order == 2 ? std::to_string(rms(r.second, m.a)).c_str() : "-", r.iterations, dt,
                  r.converged ? "" : " (not converged)");
    }
  }
  for (double a2 : {1e-7, 1e-6, 1e-5}) {
    DiffOptions d;
    d.method = DiffMethod::tvreg;
    d.tv.order = 1;
    d.tv.alpha = 3e-9;
    d.tv_second_alpha = a2;
    const auto t0 = std::chrono::steady_clock::now();
    const Derivatives r = differentiate(m.t, m.noisy, d);
    const double dt = seconds_since(t0);
    char name[64];
    std::snprintf(name, sizeof name, "TV order 1 twice, 3e-09 / %.0e", a2);
    std::printf("%-34s %10.3e %12.6f %6s %8.3f\n", name, rms(r.first, m.v), rms(r.second, m.a), "-",
                dt);
  }
  for (int w : {21, 51, 101, 201}) {
    DiffOptions d;
    d.window = w;
    const Derivatives r = differentiate(m.t, m.noisy, d);
    char name[64];
    std::snprintf(name, sizeof name, "Savitzky-Golay p = 3, w = %d", w);
    std::printf("%-34s %10.3e %12.6f %6s %8s\n", name, rms(r.first, m.v), rms(r.second, m.a), "-",
                "-");
  }
  std::printf("\n");
}

/// epsilon on two kinds of motion: the point-to-point record (piecewise-constant acceleration,
/// the TV prior) and a smooth two-sine record q = 0.8 sin(2 pi 0.3 t) + 0.3 sin(2 pi 1.1 t + 0.5)
/// with the same noise; TV order 2, best alpha of a decade grid (1e-11 .. 1e-7, half decades)
/// for the acceleration at each epsilon.
void epsilon_table() {
  Motion smooth;
  smooth.t = motion().t;
  const std::size_t n = smooth.t.size();
  smooth.q.resize(n), smooth.v.resize(n), smooth.a.resize(n);
  const double w1 = 2 * 3.141592653589793 * 0.3, w2 = 2 * 3.141592653589793 * 1.1;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = smooth.t[i];
    smooth.q[i] = 0.8 * std::sin(w1 * x) + 0.3 * std::sin(w2 * x + 0.5);
    smooth.v[i] = 0.8 * w1 * std::cos(w1 * x) + 0.3 * w2 * std::cos(w2 * x + 0.5);
    smooth.a[i] = -0.8 * w1 * w1 * std::sin(w1 * x) - 0.3 * w2 * w2 * std::sin(w2 * x + 0.5);
  }
  std::mt19937 gn(11);
  std::normal_distribution<double> noise(0.0, 1e-4);
  smooth.noisy = smooth.q;
  for (double& y : smooth.noisy) y += noise(gn);
  std::printf(
      "TV order 2, effect of epsilon (best alpha for the acceleration on a half-decade grid)\n");
  std::printf("%-16s %10s %10s %10s %10s %6s\n", "record", "epsilon", "alpha", "vel RMS", "acc RMS",
              "iter");
  for (const Motion* m : {&motion(), static_cast<const Motion*>(&smooth)}) {
    for (double eps : {0.0, 0.1, 10.0, 1000.0}) {
      double best = 1e300, best_alpha = 0, best_v = 0, used_eps = 0;
      int best_it = 0;
      for (double la = -11; la <= -7.01; la += 0.5) {
        TVRegOptions o;
        o.order = 2;
        o.alpha = std::pow(10.0, la);
        o.epsilon = eps;
        TVRegResult r;
        try {
          r = tvreg(m->t, m->noisy, o);
        } catch (const std::invalid_argument&) {
          continue;  // epsilon below the precision limit for this alpha
        }
        if (!r.converged) continue;
        const double ea = rms(r.second, m->a);
        if (ea < best)
          best = ea, best_alpha = o.alpha, best_v = rms(r.first, m->v), best_it = r.iterations,
          used_eps = r.epsilon;
      }
      char e[32];
      std::snprintf(e, sizeof e, eps == 0 ? "auto %.2g" : "%.2g", used_eps);
      std::printf("%-16s %10s %10.1e %10.3e %10.4f %6d\n",
                  m == &smooth ? "two sines" : "point-to-point", e, best_alpha, best_v, best,
                  best_it);
    }
    double best_sg = 1e300, best_sg_v = 0;
    int best_w = 0;
    for (int w = 21; w <= 401; w += 20) {
      DiffOptions d;
      d.window = w;
      const Derivatives r = differentiate(m->t, m->noisy, d);
      const double ea = rms(r.second, m->a);
      if (ea < best_sg) best_sg = ea, best_w = w, best_sg_v = rms(r.first, m->v);
    }
    char name[32];
    std::snprintf(name, sizeof name, "SG p=3 w=%d", best_w);
    std::printf("%-16s %10s %10s %10.3e %10.4f %6s\n",
                m == &smooth ? "two sines" : "point-to-point", name, "-", best_sg_v, best_sg, "-");
  }
  std::printf("\n");
}

/// The best alpha of order 2 (half-decade grid) against the noise level, on the point-to-point
/// record: the basis of the rule of thumb alpha ~ (3e-3 .. 1e-2 s^2) sigma h.
void noise_table() {
  const Motion& m = motion();
  std::printf(
      "TV order 2, best alpha against the position noise sigma (point-to-point, h = 1 ms)\n");
  std::printf("%10s %12s %12s %14s %12s %12s %10s\n", "sigma", "alpha(vel)", "vel RMS",
              "alpha/(s h)", "alpha(acc)", "acc RMS", "resid/sig");
  for (double sigma : {1e-5, 1e-4, 1e-3}) {
    std::mt19937 gn(11);
    std::normal_distribution<double> noise(0.0, sigma);
    std::vector<double> q = m.q;
    for (double& y : q) y += noise(gn);
    double bv = 1e300, ba = 1e300, av = 0, aa = 0, res = 0;
    for (double la = -12; la <= -6.99; la += 0.5) {
      TVRegOptions o;
      o.order = 2;
      o.alpha = std::pow(10.0, la);
      const TVRegResult r = tvreg(m.t, q, o);
      if (!r.converged) continue;
      const double ev = rms(r.first, m.v), ea = rms(r.second, m.a);
      if (ev < bv) bv = ev, av = o.alpha, res = r.residual_rms;
      if (ea < ba) ba = ea, aa = o.alpha;
    }
    std::printf("%10.0e %12.1e %12.3e %14.2e %12.1e %12.4f %10.3f\n", sigma, av, bv,
                av / (sigma * 1e-3), aa, ba, res / sigma);
  }
  std::printf("\n");
}

void pendulum_table() {
  const std::string path =
      std::string(FRICTIONLAB_SHARED_DIR) + "/data/pendulum_dfki/gravcomp_data_measured.csv";
  if (!std::filesystem::exists(path)) {
    std::printf("(no %s: DFKI table skipped)\n\n", path.c_str());
    return;
  }
  const auto table = frictionlab::io::read_csv(path);
  const auto& t0 = table.column("time");
  const double fs = 1000;
  const auto t = uniform_grid(t0.front(), t0.back(), fs);
  const auto q = interp_linear(t0, table.column("position"), t);
  const auto v = interp_linear(t0, table.column("velocity"), t);
  const auto v_lp = lowpass_filtfilt(v, fs, 10, 4);
  auto row = [&](const char* name, const std::vector<double>& vel, double res, int it, double dt) {
    const double a = rms(vel, v), b = rms(vel, v_lp);
    std::printf("%-40s %9.4f %9.4f %10s %5s %7s\n", name, a, b,
                res >= 0 ? std::to_string(res).c_str() : "-",
                it >= 0 ? std::to_string(it).c_str() : "-",
                dt >= 0 ? std::to_string(dt).substr(0, 5).c_str() : "-");
  };
  std::printf(
      "DFKI pendulum gravcomp record, %zu samples resampled to 1 kHz; velocity vs driver [rad/s]\n",
      t.size());
  std::printf("%-40s %9s %9s %10s %5s %7s\n", "method", "raw", "10 Hz", "resid rad", "iter",
              "time s");
  std::printf("%-40s %9.4f %9.4f %10s %5s %7s\n", "driver velocity through 10 Hz low-pass",
              rms(v_lp, v), 0.0, "-", "-", "-");
  for (double a : {1e-10, 1e-9, 1e-8, 1e-7}) {
    TVRegOptions o;
    o.order = 2;
    o.alpha = a;
    const auto c0 = std::chrono::steady_clock::now();
    const TVRegResult r = tvreg(t, q, o);
    const double dt = seconds_since(c0);
    char name[64];
    std::snprintf(name, sizeof name, "TV order 2, alpha %.0e%s", a,
                  r.converged ? "" : " (not conv.)");
    row(name, r.first, r.residual_rms, r.iterations, dt);
  }
  {
    // the paper's "hyperparameter 1000" in Chartrand's convention with dx = h (order 1)
    TVRegOptions o;
    o.order = 1;
    o.alpha = 1000;
    o.scaling = TVScaling::per_sample;
    const auto c0 = std::chrono::steady_clock::now();
    const TVRegResult r = tvreg(t, q, o);
    const double dt = seconds_since(c0);
    char name[96];
    std::snprintf(name, sizeof name, "TV order 1, per-sample 1000 (eps %.2g)%s", r.epsilon,
                  r.converged ? "" : " (not conv.)");
    row(name, r.first, r.residual_rms, r.iterations, dt);
  }
  for (int w : {21, 51, 101, 201}) {
    char name[64];
    std::snprintf(name, sizeof name, "Savitzky-Golay p = 3, w = %d", w);
    row(name, savgol_filter(q, w, 3, 1, 1 / fs), -1, -1, -1);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool table = true;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--table=0") == 0) table = false;
  if (table) {
    synthetic_table();
    epsilon_table();
    noise_table();
    pendulum_table();
  }
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i)
    if (std::strcmp(argv[i], "--table=0") != 0) args.push_back(argv[i]);
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
