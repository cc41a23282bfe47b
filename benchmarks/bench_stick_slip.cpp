// The stick-slip benchmark (Canudas de Wit et al. 1995; docs/simulation.md): the fixed-step
// schemes for the coupled system compared on accuracy, behaviour at large steps, order and cost.
//
// Fixed-step schemes (each advances y = (x, v, z / z_b) by a step h):
//   ros2          SystemIntegrator::rosenbrock (integrate/rosenbrock.hpp), public API
//   trbdf2        SystemIntegrator::trbdf2 (integrate/trbdf2.hpp), full Newton, public API
//   trbdf2-1it    TR-BDF2, exactly one full Newton correction per stage         } candidates,
//   trbdf2-stage  TR-BDF2, Jacobian once per stage (chord iterations)           }
//   trbdf2-step   TR-BDF2, Jacobian once per step (simplified Newton)           } driven here
//   radau         2-stage Radau IIA (benchmarks/candidates/radau.hpp), full Newton          } on a
//   copy of radau-simpl   2-stage Radau IIA, simplified Newton                          } the LuGre
//   midpoint      friction-aware implicit midpoint (benchmarks/candidates/friction_midpoint.hpp)  }
//   systems
// The candidates run on the library's own right-hand sides (sim/system_rhs.hpp: StickSlipRhs,
// JointRhs on a ScaledFriction, the same that src/sim/systems.cpp integrates), driven here; the
// program checks that this driver gives the same trbdf2 result as the public API (printed "copy
// check").
//
// Before the timings, the program prints (skip with --sweep=0):
// 1. A step-size sweep on the 20 s benchmark for every scheme:
//      reference  x_ref(t): CVODE BDF, rtol 1e-10, atol 1e-12, sampled at every step t_k = k h;
//      error      e(h) = max_k |x_h(t_k) - x_ref(t_k)| [m];
//      scale      P = max_k |v_drive t_k - x_ref(t_k)|, the peak spring elongation [m] (0.754 m);
//      pass       e(h) <= 1% of P.
//    Steps h = 0.1 s / n: first n = round(2^(j/8)), j = 0..80 (8 per octave, 0.1 s .. 0.1 ms),
//    then every integer n between each scheme's threshold and the failing n above it. Reported
//    per scheme: h_max, the largest h in the sweep such that it and every smaller h of the
//    sweep pass (failures are not monotone in h), and the worst e/P above h_max.
// 2. The observed order on the joint (the pendulum of tests/test_coupled_systems.cpp, LuGre,
//    10 s): e(h) = max |q_h - q_ref| on a 10 ms grid, reference CVODE rtol 1e-12, h = 10 ms / 2^k.
//
// Timings (Google Benchmark): one 20 s run per iteration, output at 0 and t_end only; the
// counter time_per_step is the cost of one step including the per-step driver.
//
// Run: ./build/benchmarks/bench_stick_slip  (Release build)
#include <benchmark/benchmark.h>
#include <ceres/jet.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "candidates/friction_midpoint.hpp"
#include "candidates/radau.hpp"
#include "coupled_test_systems.hpp"  // tests/: the systems and options of the coupled-system tests
#include "frictionlab/integrate/rosenbrock.hpp"
#include "frictionlab/integrate/trbdf2.hpp"
#include "frictionlab/sim/system_rhs.hpp"
#include "frictionlab/sim/systems.hpp"

namespace {

using namespace frictionlab;
using sim::SimOptions;
using sim::SystemIntegrator;

// The systems and options of tests/test_coupled_systems.cpp (tests/coupled_test_systems.hpp).
using testing::classic;
using testing::cvode_opts;
using testing::fixed_opts;
using testing::joint_lugre;
using testing::pendulum_spec;

// ---- the LuGre systems of sim/system_rhs.hpp, for the candidate schemes ---------------------

using J4 = RhsJet<3>;
using J1 = ceres::Jet<double, 1>;

/// (expm1(-x) + x) / x^2, 1/2 at x = 0: <z> = z0 + h (v - a z0) phi2(a h) is the time average
/// of z over a step of z' = v - a z with v held (LuGre for a held velocity).
template <class T>
T phi2_neg(const T& x) {
  using std::abs;
  using std::expm1;
  if (abs(x) < T(1e-3)) return T(0.5) - x / T(6) + x * x / T(24) - x * x * x / T(120);
  return (expm1(-x) + x) / (x * x);
}

/// LuGre on the scaled state s = z / z_b, in double, RhsJet<3> and Jet<double, 1>, plus what
/// the friction-aware midpoint scheme needs.
struct LuGreFriction : sim::ScaledFriction<LuGre, double, J4, J1> {
  explicit LuGreFriction(const LuGre<double>::Params& p) : ScaledFriction(p) {}

  /// Friction-aware scheme: new state s1 = LuGre::step(z0, v, h) / z_b for v held over h, and
  /// the mean friction force sigma0 <z> + sigma1(v) (z1 - z0) / h + sigma2 v, <z> exact.
  template <class T>
  T mean_step(double s0, const T& v, double h, T& s1) const {
    const auto& p = params<T>();
    const T z0(s0 * zb);
    const T z1 = LuGre<T>::step(p, typename LuGre<T>::State{z0}, v, T(h)).z;
    s1 = z1 / zb;
    const T a = LuGre<T>::rate(p, v);
    const T zm = z0 + h * (v - a * z0) * phi2_neg(a * h);
    return p.sigma0 * zm + LuGre<T>::damping(p, v) * (z1 - z0) / h + p.sigma2 * v;
  }

  /// Variation bound of the non-monotone part (friction_midpoint.hpp): <z>, z1 in [-zb', zb'].
  double spread(double s0, double h) const {
    const double zbp = zb * std::max(1.0, std::abs(s0));
    const auto& pd = params<double>();
    return 2.0 * zbp * (h * pd.sigma0 + pd.sigma1);
  }
};

/// The stick-slip benchmark (spring end pulled at v_drive): the library's StickSlipRhs.
struct StickSlipCopy : sim::StickSlipRhs<LuGreFriction> {
  StickSlipCopy() : StickSlipRhs{LuGreFriction(classic()), 1.0, 2.0, 0.1, false} {}
  double inertia() const { return m; }
  template <class T>
  T applied(double t, const T& x) const {
    return T(k * (v_drive * t - x));
  }
  template <class T>
  T friction(double s0, const T& v, double h, T& s1) const {
    return fr.mean_step(s0, v, h, s1);
  }
  double spread(double s0, double h) const { return fr.spread(s0, h); }
};

sim::TorqueInput sine_torque(const sim::JointSpec& js) {
  sim::TorqueInput tau;
  tau.offset = js.tau_offset;
  tau.amp = js.tau_amp;
  tau.freq = js.tau_freq;
  return tau;
}

/// The pendulum joint: the library's JointRhs with the sine torque.
struct JointCopy : sim::JointRhs<LuGreFriction> {
  JointCopy() : JointCopy(pendulum_spec()) {}
  explicit JointCopy(const sim::JointSpec& js)
      : JointRhs{LuGreFriction(joint_lugre()), js.I, js.mgCx, js.mgCy, sine_torque(js)} {}
  double inertia() const { return I; }
  template <class T>
  T applied(double t, const T& q) const {
    using std::cos;
    using std::sin;
    return tau(T(t)) - mgCx * cos(q) + mgCy * sin(q);
  }
  template <class T>
  T friction(double s0, const T& v, double h, T& s1) const {
    return fr.mean_step(s0, v, h, s1);
  }
  double spread(double s0, double h) const {
    return fr.spread(s0, h) + 2.0 * h * std::hypot(mgCx, mgCy);
  }
};

// ---- the schemes -------------------------------------------------------------------------------

enum class Kind {
  api,
  trbdf2_1it,
  trbdf2_stage,
  trbdf2_step,
  radau,
  radau_simpl,
  midpoint,
  trbdf2_copy
};

struct Scheme {
  const char* name;
  Kind kind;
  SystemIntegrator integrator;  // kind == api
};

const std::vector<Scheme>& schemes() {
  static const std::vector<Scheme> s = {
      {"ros2", Kind::api, SystemIntegrator::rosenbrock},
      {"trbdf2", Kind::api, SystemIntegrator::trbdf2},
      {"trbdf2-1it", Kind::trbdf2_1it, SystemIntegrator::trbdf2},
      {"trbdf2-stage", Kind::trbdf2_stage, SystemIntegrator::trbdf2},
      {"trbdf2-step", Kind::trbdf2_step, SystemIntegrator::trbdf2},
      {"radau", Kind::radau, SystemIntegrator::trbdf2},
      {"radau-simpl", Kind::radau_simpl, SystemIntegrator::trbdf2},
      {"midpoint", Kind::midpoint, SystemIntegrator::trbdf2},
  };
  return s;
}

NewtonSettings newton(NewtonSettings::Jacobian j) {
  NewtonSettings s;  // 8 corrections, 1e-10: the settings of SystemIntegrator::trbdf2
  s.jacobian = j;
  return s;
}

/// Run a candidate on `sys` (y0 = 0) with n steps of h; x every `every` steps (and at 0).
/// Throws std::runtime_error on a non-finite state (as the public API does).
template <class Sys>
std::vector<double> run_copy(Kind kind, const Sys& sys, double h, long n, long every,
                             long* steps = nullptr) {
  Eigen::Vector3d y(0.0, 0.0, 0.0);
  std::vector<double> x{0.0};
  x.reserve(static_cast<std::size_t>(n / every + 1));
  auto loop = [&](auto& st) {
    for (long i = 1; i <= n; ++i) {
      const double t0 = static_cast<double>(i - 1) * h;
      st.step(t0, y, h);
      if (!y.allFinite()) throw std::runtime_error("state not finite");
      if (i % every == 0) x.push_back(y[0]);
    }
    if (steps != nullptr) *steps = st.steps();
  };
  using NJ = NewtonSettings::Jacobian;
  switch (kind) {
    case Kind::trbdf2_copy: {
      TrBdf2<3, const Sys&> st(sys, newton(NJ::each_iteration));
      loop(st);
      break;
    }
    case Kind::trbdf2_1it: {
      NewtonSettings ns = newton(NJ::each_iteration);
      ns.max_iterations = 1;
      TrBdf2<3, const Sys&> st(sys, ns);
      loop(st);
      break;
    }
    case Kind::trbdf2_stage: {
      TrBdf2<3, const Sys&> st(sys, newton(NJ::each_stage));
      loop(st);
      break;
    }
    case Kind::trbdf2_step: {
      TrBdf2<3, const Sys&> st(sys, newton(NJ::each_step));
      loop(st);
      break;
    }
    case Kind::radau: {
      Radau2<3, const Sys&> st(sys, newton(NJ::each_iteration));
      loop(st);
      break;
    }
    case Kind::radau_simpl: {
      Radau2<3, const Sys&> st(sys, newton(NJ::each_step));
      loop(st);
      break;
    }
    case Kind::midpoint: {
      NewtonSettings ns;
      ns.max_iterations = 20;  // scalar safeguarded Newton: bisection needs more room
      FrictionMidpoint<const Sys&> st(sys, ns);
      loop(st);
      break;
    }
    case Kind::api:
      throw std::logic_error("run_copy: api scheme");
  }
  return x;
}

/// Stick-slip positions at every step of h = 0.1 / n over 20 s.
std::vector<double> stick_slip_x(const Scheme& s, int n) {
  const double h = 0.1 / n;
  if (s.kind == Kind::api)
    return sim::simulate_stick_slip(sim::StickSlipSpec{}, classic(),
                                    fixed_opts(s.integrator, h, 0.0))
        .x;
  static const StickSlipCopy sys;
  return run_copy(s.kind, sys, h, 200L * n, 1);
}

/// Joint angles on the 10 ms grid for the step h = 0.01 / 2^k.
std::vector<double> joint_q(const Scheme& s, int k) {
  const double h = 0.01 / std::exp2(k);
  if (s.kind == Kind::api)
    return sim::simulate_joint(pendulum_spec(), joint_lugre(), fixed_opts(s.integrator, h, 0.01)).x;
  static const JointCopy sys;
  return run_copy(s.kind, sys, h, 1000L << k, 1L << k);
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = std::abs(a[i] - b[i]);
    if (!(d <= e)) e = d;  // NaN -> NaN
  }
  return std::isnan(e) ? INFINITY : e;
}

// ---- 1. step-size sweep ------------------------------------------------------------------------

struct Reference {
  std::vector<double> x;
  double peak = 0;
};

const Reference& reference(int n) {
  static std::map<int, Reference> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  const sim::StickSlipSpec spec;
  const auto r = sim::simulate_stick_slip(spec, classic(), cvode_opts(1e-10, 0.1 / n));
  Reference ref;
  ref.x = r.x;
  for (std::size_t k = 0; k < r.t.size(); ++k)
    ref.peak = std::max(ref.peak, std::abs(spec.v_drive * r.t[k] - r.x[k]));
  return cache.emplace(n, std::move(ref)).first->second;
}

double sweep_error(const Scheme& s, int n) {
  try {
    return max_abs_diff(stick_slip_x(s, n), reference(n).x);
  } catch (const std::runtime_error&) {
    return INFINITY;  // blew up (non-finite state)
  }
}

void sweep() {
  const auto& sc = schemes();
  const std::size_t ns = sc.size();
  std::map<int, std::vector<double>> err;  // n -> e(h) per scheme
  auto add = [&](int n) {
    if (err.count(n)) return;
    std::vector<double> e(ns);
    for (std::size_t i = 0; i < ns; ++i) e[i] = sweep_error(sc[i], n);
    err[n] = e;
  };
  for (int j = 0; j <= 80; ++j) add(static_cast<int>(std::lround(std::exp2(j / 8.0))));
  auto pass = [&](int n, std::size_t i) { return err[n][i] <= 0.01 * reference(n).peak; };
  // Per scheme: smallest n (largest h) from which every larger n passes; refine between it and
  // the failing n just below it.
  auto threshold = [&](std::size_t i) {
    int n_ok = err.rbegin()->first;
    for (auto it = err.rbegin(); it != err.rend() && pass(it->first, i); ++it) n_ok = it->first;
    return n_ok;
  };
  for (std::size_t i = 0; i < ns; ++i) {
    const int n_ok = threshold(i);
    auto at = err.find(n_ok);
    if (at == err.begin()) continue;
    const int n_fail = std::prev(at)->first;
    for (int n = n_fail + 1; n < n_ok; ++n) add(n);
  }
  std::printf(
      "Step-size sweep, stick-slip benchmark (20 s), reference CVODE rtol 1e-10: e(h) / P "
      "(* = fails 1%%)\n%10s %5s",
      "h [ms]", "n");
  for (const auto& s : sc) std::printf(" %12s", s.name);
  std::printf("\n");
  for (const auto& [n, e] : err) {
    std::printf("%10.5g %5d", 100.0 / n, n);
    for (std::size_t i = 0; i < ns; ++i)
      std::printf(" %11.3e%s", e[i] / reference(n).peak, pass(n, i) ? " " : "*");
    std::printf("\n");
  }
  std::printf("peak spring elongation P = %.6f m (h = 1 ms)\n", reference(100).peak);
  std::printf("%-13s %12s %11s %10s %22s %8s\n", "scheme", "h_max [ms]", "n", "e/P",
              "worst e/P above h_max", "fails");
  for (std::size_t i = 0; i < ns; ++i) {
    const int n_ok = threshold(i);
    double worst = 0;
    int fails = 0;
    for (const auto& [n, e] : err) {
      if (n >= n_ok) break;
      worst = std::max(worst, e[i] / reference(n).peak);
      if (!pass(n, i)) ++fails;
    }
    const bool any = pass(n_ok, i);
    std::printf("%-13s %12.5g %11s %10.3e %22.3e %4d/%-3d\n", sc[i].name, any ? 100.0 / n_ok : 0.0,
                any ? ("0.1/" + std::to_string(n_ok)).c_str() : "-",
                err[n_ok][i] / reference(n_ok).peak, worst, fails,
                static_cast<int>(std::distance(err.begin(), err.find(n_ok))));
  }
  // The candidates run on a copy of the systems; it must reproduce the library's trbdf2.
  const double copy = max_abs_diff(run_copy(Kind::trbdf2_copy, StickSlipCopy{}, 1e-3, 20000, 1),
                                   stick_slip_x(schemes()[1], 100));
  std::printf("copy check: max |x(trbdf2, copy) - x(trbdf2, API)| at h = 1 ms = %.3e m\n\n", copy);
}

// ---- 2. order on the joint ---------------------------------------------------------------------

void joint_orders() {
  const auto ref = sim::simulate_joint(pendulum_spec(), joint_lugre(), cvode_opts(1e-12, 0.01)).x;
  std::printf("Joint (pendulum, LuGre, 10 s): max |q - q_ref| [rad] / observed order\n%10s",
              "h [ms]");
  for (const auto& s : schemes()) std::printf(" %18s", s.name);
  std::printf("\n");
  std::vector<double> prev(schemes().size(), 0.0);
  for (int k = 0; k <= 7; ++k) {
    std::printf("%10.5g", 10.0 / std::exp2(k));
    for (std::size_t i = 0; i < schemes().size(); ++i) {
      double e = INFINITY;
      try {
        e = max_abs_diff(joint_q(schemes()[i], k), ref);
      } catch (const std::runtime_error&) {
      }
      if (k == 0)
        std::printf(" %10.3e %7s", e, "");
      else
        std::printf(" %10.3e %7.2f", e, std::log2(prev[i] / e));
      prev[i] = e;
    }
    std::printf("\n");
  }
  std::printf("\n");
}

// ---- timings -----------------------------------------------------------------------------------

/// One 20 s run of scheme range(0) at h = range(1) us, output at 0 and t_end only.
void BM_FixedStepStickSlip(benchmark::State& st) {
  const Scheme& s = schemes().at(static_cast<std::size_t>(st.range(0)));
  const double h = 1e-6 * static_cast<double>(st.range(1));
  const sim::StickSlipSpec spec;
  const auto p = classic();
  const StickSlipCopy sys;
  const long n = std::lround(spec.t_end / h);
  long steps = 0;
  for (auto _ : st) {
    if (s.kind == Kind::api) {
      const auto r = sim::simulate_stick_slip(spec, p, fixed_opts(s.integrator, h, spec.t_end));
      benchmark::DoNotOptimize(r.x.back());
      steps += r.steps;
    } else {
      long k = 0;
      const auto x = run_copy(s.kind, sys, h, n, n, &k);
      benchmark::DoNotOptimize(x.back());
      steps += k;
    }
  }
  st.SetLabel(s.name);
  st.SetItemsProcessed(steps);
  // Seconds per step (printed with an SI prefix: "287n" = 287 ns).
  st.counters["time_per_step"] = benchmark::Counter(
      static_cast<double>(steps), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FixedStepStickSlip)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7}, {1000}})
    ->Args({0, 100})
    ->Args({1, 100})
    ->Args({1, 10000})
    ->Args({2, 10000})
    ->Args({7, 10000})
    ->Unit(benchmark::kMillisecond);

/// One 20 s CVODE run (output every 10 ms), rtol = 10^-range.
void BM_CvodeStickSlip(benchmark::State& st) {
  const double rtol = std::pow(10.0, -static_cast<double>(st.range(0)));
  const sim::StickSlipSpec spec;
  const auto p = classic();
  long steps = 0, rhs = 0;
  for (auto _ : st) {
    const auto r = sim::simulate_stick_slip(spec, p, cvode_opts(rtol, 0.01));
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
  if (do_sweep) {
    sweep();
    joint_orders();
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
