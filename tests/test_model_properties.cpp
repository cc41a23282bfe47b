// The typed property suite: every invariant is written once and run over every model family
// of tests/model_traits.hpp (the Sophus `LieGroupTests<G>` pattern, see STYLE.md).
//
// Oracles (independent of the code under test):
//  - the invariant state bound (|z| <= max g / sigma0 for LuGre; per-element bounds otherwise);
//  - the steady state at constant velocity equals the static curve steady_force(v);
//  - for an input that really is piecewise constant, the exact step gives the same answer
//    whatever the step size (to rounding);
//  - convergence order of the default scheme against a different high-accuracy scheme
//    (RK4 with a tiny step) as h shrinks;
//  - forward-mode autodiff (ceres::Jet) through the exact step equals central finite differences;
//  - a model whose Fit declares forward sensitivities (Fit::Sensitivity, models/fit_form.hpp: the
//    fit's fast path) gives the derivatives of the Jets through its linear-input step (advance
//    with Hold::linear, as a fit simulates) and of central finite differences.
#include <ceres/jet.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

#include "frictionlab/models/gms/sensitivity.hpp"
#include "frictionlab/models/maxwell_slip/sensitivity.hpp"
#include "frictionlab/models/registry.hpp"
#include "frictionlab/models/sensitivity_states.hpp"
#include "model_traits.hpp"

namespace frictionlab::testing {
namespace {

template <class F>
struct ModelProperties : ::testing::Test {};

using Families =
    ::testing::Types<StribeckExpFamily, StribeckRationalSmoothFamily, LuGreFamily, LuGreAsymFamily,
                     DahlFamily, ElastoPlasticFamily, MaxwellSlipFamily, ModifiedStribeckFamily,
                     GMSFamily, JointLuGreFamily, JointLuGreTanhFamily>;

class FamilyNames {
 public:
  template <class T>
  static std::string GetName(int /*i*/) {
    return T::name;
  }
};
TYPED_TEST_SUITE(ModelProperties, Families, FamilyNames);

template <class F>
constexpr double h_steady() {
  if constexpr (requires { F::h_steady; })
    return F::h_steady;
  else
    return 0.05;
}

template <class F, class S>
typename F::template M<S>::Params nominal() {
  std::array<S, F::kTheta> th{};
  for (int i = 0; i < F::kTheta; ++i) th[i] = S(F::theta0[i]);
  return F::template params<S>(th.data());
}

/// A smooth test input with several reversals: v(t) = V (sin(2 pi t) + 0.5 sin(2 pi 3.1 t + 0.3)).
inline double smooth_velocity(double t, double V) {
  const double pi = 3.14159265358979323846;
  return V * (std::sin(2 * pi * t) + 0.5 * std::sin(2 * pi * 3.1 * t + 0.3));
}

/// Drive the model with smooth_velocity sampled at step h over [0, T]; return F at the samples.
template <class F, class S = double>
std::vector<double> run_smooth(double h, double T, Method method, Hold hold,
                               const typename F::template M<S>::Params& p) {
  using Mod = typename F::template M<S>;
  const long n = std::lround(T / h) + 1;
  std::vector<S> t(n), v(n);
  for (long k = 0; k < n; ++k) {
    t[k] = S(double(k) * h);
    v[k] = S(smooth_velocity(double(k) * h, F::v_scale));
  }
  std::vector<double> out(n);
  drive<Mod>(p, typename Mod::State{}, t.data(), v.data(), n, method, hold, S(0),
             [&](long k, const S& f, const typename Mod::State&) { out[k] = double(f); });
  return out;
}

/// Max |a - b| over the coarse samples; b is sampled `ratio` times finer.
inline double max_diff_on_coarse(const std::vector<double>& a, const std::vector<double>& b,
                                 long ratio) {
  double e = 0;
  for (std::size_t k = 0; k < a.size(); ++k) e = std::max(e, std::abs(a[k] - b[k * ratio]));
  return e;
}

TYPED_TEST(ModelProperties, StateStaysInsideItsInvariantBoundForAnyStep) {
  using F = TypeParam;
  auto check = [](auto tag) {
    using S = decltype(tag);
    using Mod = typename F::template M<S>;
    const auto p = nominal<F, S>();
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> uv(-3.0, 3.0), uh(-6.0, -1.0);
    typename Mod::State x{};
    for (int k = 0; k < 4000; ++k) {
      const S v = S(F::v_scale * uv(rng));
      const S h = S(std::pow(10.0, uh(rng)));  // 1 us .. 100 ms
      x = Mod::step(p, x, v, h);
      ASSERT_TRUE((F::template within_bound<S>(p, x, std::is_same_v<S, float> ? 1e-5 : 1e-12)))
          << "step " << k << " |state| = " << F::template state_max<S>(x);
    }
  };
  check(double{});
  check(float{});
}

TYPED_TEST(ModelProperties, SteadyStateAtConstantVelocityIsTheStaticCurve) {
  using F = TypeParam;
  using Mod = typename F::template M<double>;
  const auto p = nominal<F, double>();
  for (double r : {-30.0, -3.0, -1.0, -0.1, 0.1, 1.0, 3.0, 30.0}) {
    const double v = r * F::v_scale;
    typename Mod::State x{};
    for (int k = 0; k < 400; ++k) x = Mod::step(p, x, v, h_steady<F>());
    const double Fss = Mod::steady_force(p, v);
    EXPECT_NEAR(Mod::force(p, x, v), Fss, 1e-9 * std::max(1.0, std::abs(Fss))) << "v = " << v;
  }
}

TYPED_TEST(ModelProperties, PiecewiseConstantInputGivesTheSameAnswerAtAnyStep) {
  using F = TypeParam;
  using Mod = typename F::template M<double>;
  const auto p = nominal<F, double>();
  // A staircase input held over 10 ms intervals: the exact ZOH step must not care whether an
  // interval is taken in 1 step or in 100 substeps.
  const double H = 0.01;
  const int n = 300;
  std::vector<double> t(n), v(n);
  for (int k = 0; k < n; ++k) {
    t[k] = k * H;
    v[k] = smooth_velocity(k * H, F::v_scale);
  }
  std::vector<double> coarse(n), fine(n);
  drive<Mod>(p, {}, t.data(), v.data(), n, Method::exact, Hold::zoh, 0.0,
             [&](long k, double f, const typename Mod::State&) { coarse[k] = f; });
  drive<Mod>(p, {}, t.data(), v.data(), n, Method::exact, Hold::zoh, H / 100,
             [&](long k, double f, const typename Mod::State&) { fine[k] = f; });
  double scale = 0;
  for (double f : fine) scale = std::max(scale, std::abs(f));
  const double diff = max_diff_on_coarse(coarse, fine, 1);
  ::testing::Test::RecordProperty("relative_difference", std::to_string(diff / scale));
  EXPECT_LE(diff, F::zoh_rel_tol * scale);
}

TYPED_TEST(ModelProperties, ExactStepConvergesToHighAccuracySolution) {
  using F = TypeParam;
  if constexpr (F::expected_order > 0) {
    const auto p = nominal<F, double>();
    const double T = 1.0;
    const auto ref = run_smooth<F>(F::h_fine, T, F::reference, Hold::linear, p);
    std::vector<double> errs;
    std::vector<double> hs;
    for (double h = F::h_order_max; hs.size() < 4; h /= 2) hs.push_back(h);
    for (double h : hs) {
      const auto sol = run_smooth<F>(h, T, Method::exact, Hold::linear, p);
      errs.push_back(max_diff_on_coarse(sol, ref, std::lround(h / F::h_fine)));
    }
    for (std::size_t i = 0; i + 1 < errs.size(); ++i) {
      const double order = std::log2(errs[i] / errs[i + 1]);
      ::testing::Test::RecordProperty("order_" + std::to_string(i), std::to_string(order));
      std::printf("%s: h=%.3g err=%.3g order=%.3f\n", F::name, hs[i + 1], errs[i + 1], order);
    }
    // Observed order over the whole range (h_order_max .. h_order_max/8): robust to the
    // phase of reversals and regime switches inside a step.
    const double order = std::log2(errs.front() / errs.back()) / double(errs.size() - 1);
    ::testing::Test::RecordProperty("order_overall", std::to_string(order));
    EXPECT_GE(order, F::expected_order - 0.2) << "h=" << hs.front() << " err=" << errs.front()
                                              << " -> h=" << hs.back() << " err=" << errs.back();
  }
}

TYPED_TEST(ModelProperties, AutodiffThroughTheExactStepMatchesFiniteDifferences) {
  using F = TypeParam;
  constexpr int K = F::kTheta;
  using J = ceres::Jet<double, K>;
  using MJ = typename F::template M<J>;
  using MD = typename F::template M<double>;
  const double h = 2e-3;
  const int n = 400;
  // Objective: sum of the force over a trajectory (touches every step and the state history).
  auto objective_double = [&](const std::array<double, K>& th) {
    const auto p = F::template params<double>(th.data());
    typename MD::State x{};
    double acc = 0;
    for (int k = 0; k < n; ++k) {
      const double v = smooth_velocity(k * h, F::v_scale);
      acc += MD::force(p, x, v);
      x = MD::step(p, x, v, h);
    }
    return acc;
  };
  std::array<J, K> thj{};
  for (int i = 0; i < K; ++i) thj[i] = J(F::theta0[i], i);
  const auto pj = F::template params<J>(thj.data());
  typename MJ::State xj{};
  J accj(0.0);
  for (int k = 0; k < n; ++k) {
    const J v(smooth_velocity(k * h, F::v_scale));
    accj += MJ::force(pj, xj, v);
    xj = MJ::step(pj, xj, v, J(h));
  }
  std::array<double, K> th = F::theta0;
  EXPECT_NEAR(accj.a, objective_double(th), 1e-9 * std::abs(accj.a) + 1e-12);
  for (int i = 0; i < K; ++i) {
    const double d = 1e-6 * std::abs(F::theta0[i]);
    auto tp = th, tm = th;
    tp[i] += d;
    tm[i] -= d;
    const double fd = (objective_double(tp) - objective_double(tm)) / (2 * d);
    EXPECT_NEAR(accj.v[i], fd,
                1e-5 * std::max(std::abs(fd), 1e-3 * std::abs(accj.a) / F::theta0[i]))
        << "parameter " << i;
  }
}

/// The Fit::Sensitivity of the registered model whose Params are P (models/fit_form.hpp), or void.
template <class P, class List = Models>
struct SensitivityOf;
template <class P>
struct SensitivityOf<P, ModelList<>> {
  using type = void;
};

template <class P, class I, class... Is>
struct SensitivityOf<P, ModelList<I, Is...>> {
  static constexpr auto pick() {
    if constexpr (I::fit.fit) {
      if constexpr (requires { typename I::Fit::Sensitivity; }) {
        if constexpr (std::is_same_v<typename I::Fit::Sensitivity::Params, P>)
          return std::type_identity<typename I::Fit::Sensitivity>{};
        else
          return std::type_identity<typename SensitivityOf<P, ModelList<Is...>>::type>{};
      } else {
        return std::type_identity<typename SensitivityOf<P, ModelList<Is...>>::type>{};
      }
    } else {
      return std::type_identity<typename SensitivityOf<P, ModelList<Is...>>::type>{};
    }
  }
  using type = typename decltype(pick())::type;
};

/// The sensitivities the suite checks for the Params P: the registered model's, and those of
/// Maxwell slip and GMS (templates of the element count: the fit's 12 elements, the suite's 8).
template <class P>
struct SensitivityFor {
  using type = typename SensitivityOf<P>::type;
};
template <>
struct SensitivityFor<MaxwellSlip<double, 8>::Params> {
  using type = MaxwellSlipSensitivity<8>;
};
template <>
struct SensitivityFor<GMS<double, 8>::Params> {
  using type = GmsSensitivity<8>;
};

/// The start state of the sensitivity check, each state at `frac` of its bound, as the array the
/// sensitivities step (SensitivityStates): one state (z), or one per element (Maxwell slip: z_i
/// at frac Delta_i, inside its own bound; GMS: F_i at frac of its bound, every element sticking).
template <class M, class Sens>
typename SensitivityStates<Sens>::State start_states(const typename M::Params& p, double frac) {
  typename SensitivityStates<Sens>::State z{};
  if constexpr (requires { p.Delta; }) {
    for (int i = 0; i < p.n; ++i)
      z[static_cast<std::size_t>(i)] = frac * p.Delta[static_cast<std::size_t>(i)];
  } else if constexpr (requires { p.nu; }) {
    for (int i = 0; i < p.n; ++i)
      z[static_cast<std::size_t>(i)] =
          frac * M::element_force_bound(p, i) / p.k[static_cast<std::size_t>(i)];
  } else {
    z[0] = frac * M::state_bound(p);
  }
  return z;
}

/// The model's State (scalar S) from the array z of St (SensitivityStates), each of its
/// differentiable states seeded along direction `lane` (GMS: the regime flags after them).
template <class M, class S, class St>
typename M::State jet_state(const typename St::State& z, int lane) {
  typename M::State x{};
  if constexpr (St::kStates == 1) {
    x.z = S(z[0], lane);
  } else {
    for (std::size_t i = 0; i < static_cast<std::size_t>(St::kStates); ++i) x.z[i] = S(z[i], lane);
  }
  if constexpr (requires { x.slipping; }) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(St::kStates); ++i)
      x.slipping[i] = z[static_cast<std::size_t>(St::kStates) + i] != 0.0;
  }
  return x;
}

/// The model's State (double) from the array z of St.
template <class M, class St>
typename M::State double_state(const typename St::State& z) {
  typename M::State x{};
  if constexpr (St::kStates == 1) {
    x.z = z[0];
  } else {
    for (std::size_t i = 0; i < static_cast<std::size_t>(St::kStates); ++i) x.z[i] = z[i];
  }
  if constexpr (requires { x.slipping; }) {
    for (std::size_t i = 0; i < static_cast<std::size_t>(St::kStates); ++i)
      x.slipping[i] = z[static_cast<std::size_t>(St::kStates) + i] != 0.0;
  }
  return x;
}

TYPED_TEST(ModelProperties, FitSensitivitiesMatchJetsAndFiniteDifferences) {
  using F = TypeParam;
  using MD = typename F::template M<double>;
  using Sens = typename SensitivityFor<typename MD::Params>::type;
  if constexpr (std::is_void_v<Sens>) {
    GTEST_SKIP() << "no Fit::Sensitivity: the fit differentiates this model with Jets";
  } else {
    using St = SensitivityStates<Sens>;
    constexpr int K = F::kTheta;
    constexpr int NL = K + 1;  // the parameters, then the start states moved together
    using J = ceres::Jet<double, NL>;
    using MJ = typename F::template M<J>;
    const double h = 2e-3;
    const int n = 400;
    const auto v_at = [&](int k) { return smooth_velocity(k * h, F::v_scale); };
    std::array<J, K> thj{};
    for (int i = 0; i < K; ++i) thj[i] = J(F::theta0[i], i);
    const auto pj = F::template params<J>(thj.data());
    if (!Sens::template covers<J>(pj)) GTEST_SKIP() << "parameters the sensitivities do not cover";
    const auto p = F::template params<double>(F::theta0.data());
    const int ns = St::states(p);
    const typename St::State z0 = start_states<MD, Sens>(p, 0.3);
    // Objective: sum of the force over a linear-input trajectory from z0 (every step and the
    // state history), by Jets (theta, z0) ...
    auto xj = jet_state<MJ, J, St>(z0, K);
    J accj(0.0);
    for (int k = 0; k < n; ++k) {
      accj += MJ::force(pj, xj, J(v_at(k)));
      xj = advance<MJ>(pj, xj, J(v_at(k)), J(v_at(k + 1)), J(h), Method::exact, Hold::linear);
    }
    // ... by the model's sensitivities along theta (seeds dq/dtheta) and z0 ...
    typename Sens::template Seeds<NL> seeds;
    const auto fields = Sens::template fields<J>(pj);
    for (int q = 0; q < Sens::kFields; ++q)
      for (int i = 0; i < K; ++i) seeds.set(q, i, fields[static_cast<std::size_t>(q)].v[i]);
    auto z = z0;
    double acc = 0;
    typename St::template DState<NL> dz{};
    std::array<double, NL> dF{}, dacc{};
    for (int i = 0; i < ns; ++i) dz[static_cast<std::size_t>(i)][K] = 1.0;
    auto w = Sens::template at<NL>(p, v_at(0), seeds);
    for (int k = 0; k < n; ++k) {
      typename Sens::ForceParts parts;
      acc += St::template force<NL>(p, seeds, z, dz, w, dF, parts);
      for (int i = 0; i < NL; ++i) dacc[i] += dF[i];
      const auto w1 = Sens::template at<NL>(p, v_at(k + 1), seeds);
      St::template step<NL>(p, seeds, z, dz, w, w1, h, nullptr);
      w = w1;
    }
    // ... and by central differences.
    const auto objective = [&](const std::array<double, K>& th, double shift) {
      const auto pd = F::template params<double>(th.data());
      auto zs = z0;
      for (int i = 0; i < ns; ++i) zs[static_cast<std::size_t>(i)] += shift;
      auto x = double_state<MD, St>(zs);
      double sum = 0;
      for (int k = 0; k < n; ++k) {
        sum += MD::force(pd, x, v_at(k));
        x = advance<MD>(pd, x, v_at(k), v_at(k + 1), h, Method::exact, Hold::linear);
      }
      return sum;
    };
    EXPECT_NEAR(acc, accj.a, 1e-10 * std::abs(accj.a));
    const double zscale = std::abs(*std::max_element(
        z0.begin(), z0.begin() + ns, [](double a, double b) { return std::abs(a) < std::abs(b); }));
    for (int i = 0; i < NL; ++i) {
      auto tp = F::theta0, tm = F::theta0;
      double shift = 0, d = 0;
      if (i < K) {
        d = 1e-6 * std::abs(F::theta0[i]);
        tp[i] += d;
        tm[i] -= d;
      } else {
        d = 1e-6 * zscale;
        shift = d;
      }
      const double fd = (objective(tp, shift) - objective(tm, -shift)) / (2 * d);
      const double scale = i < K ? std::abs(accj.a) / F::theta0[i] : std::abs(accj.a) / zscale;
      EXPECT_NEAR(dacc[i], accj.v[i], 1e-9 * std::max(std::abs(accj.v[i]), scale))
          << "direction " << i << " against the Jets";
      EXPECT_NEAR(dacc[i], fd, 1e-5 * std::max(std::abs(fd), 1e-3 * scale))
          << "direction " << i << " against finite differences";
    }
  }
}

}  // namespace
}  // namespace frictionlab::testing
