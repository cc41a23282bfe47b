// Focused tests of the Dahl and the elasto-plastic (Dupont et al. 2002) models.
//
// Oracles: closed-form solutions of the Dahl ODE in displacement, fine-step RK4 of the state
// ODE (a different scheme), invariants (state bounds, exact reversibility of the elastic
// region), the static Stribeck curve, central finite differences for autodiff and for the fit's
// forward sensitivities (and the Jets for those).
#include <ceres/jet.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "central_difference.hpp"
#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/dahl.hpp"
#include "frictionlab/models/dahl/sensitivity.hpp"
#include "frictionlab/models/elastoplastic.hpp"
#include "frictionlab/models/lugre.hpp"

namespace frictionlab {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Drive model M with a sampled input (ZOH or linear hold) and return F at the samples.
template <class M>
std::vector<double> run(const typename M::Params& p, double (*vel)(double), double h, double T,
                        Method m, Hold hold, double max_substep = 0) {
  const long n = std::lround(T / h) + 1;
  std::vector<double> t(n), v(n), F(n);
  for (long k = 0; k < n; ++k) {
    t[k] = double(k) * h;
    v[k] = vel(t[k]);
  }
  drive<M>(p, typename M::State{}, t.data(), v.data(), n, m, hold, max_substep,
           [&](long k, double f, const typename M::State&) { F[k] = f; });
  return F;
}

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3e", x);
  return b;
}

double max_diff(const std::vector<double>& coarse, const std::vector<double>& fine, long ratio) {
  double e = 0;
  for (std::size_t k = 0; k < coarse.size(); ++k)
    e = std::max(e, std::abs(coarse[k] - fine[k * ratio]));
  return e;
}

// ------------------------------------------------------------------------------------------
// Dahl
// ------------------------------------------------------------------------------------------
using D = Dahl<double>;

D::Params dahl(double n) {
  D::Params p;
  p.sigma0 = 2e4;
  p.Fc = 1.5;
  p.n = n;
  return p;
}

// Closed forms of the virgin curve F(x), x >= 0 from F = 0 (u0 = 1, c = sigma0/Fc):
//   n = 1: F = Fc (1 - exp(-c x)); n = 2: F = Fc (1 - 1/(1 + c x));
//   n = 1/2: F = Fc (1 - max(0, 1 - c x / 2)^2).
double dahl_virgin(const D::Params& p, double x) {
  const double c = p.sigma0 / p.Fc;
  if (p.n == 1) return p.Fc * (1 - std::exp(-c * x));
  if (p.n == 2) return p.Fc * (1 - 1 / (1 + c * x));
  const double w = std::max(0.0, 1 - c * x / 2);
  return p.Fc * (1 - w * w);
}

TEST(Dahl, ExactStepMatchesClosedFormVirginCurve) {
  for (double n : {1.0, 2.0, 0.5}) {
    const auto p = dahl(n);
    const double v = 0.01;
    for (double h : {1e-4, 1e-3, 1e-2}) {
      D::State x{};
      for (int k = 1; k <= 200; ++k) {
        x = D::step(p, x, v, h);
        const double xk = v * h * k;
        EXPECT_NEAR(D::force(p, x, v), dahl_virgin(p, xk), 1e-12 * p.Fc)
            << "n=" << n << " h=" << h << " k=" << k;
      }
    }
    // One single step over the whole displacement.
    const auto x1 = D::step(p, D::State{}, v, 0.5);
    EXPECT_NEAR(D::force(p, x1, v), dahl_virgin(p, 0.005), 1e-12 * p.Fc) << "n=" << n;
  }
}

TEST(Dahl, ReversalBranchMatchesClosedForm) {
  // n = 1 after a reversal at F_A: u = 1 + F/Fc relaxes from u_A = 1 + F_A/Fc:
  // F(x) = -Fc + (Fc + F_A) exp(-c (x_A - x)).
  const auto p = dahl(1.0);
  const double c = p.sigma0 / p.Fc;
  D::State x{};
  x = D::step(p, x, 0.02, 0.01);  // x_A = 2e-4
  const double FA = D::force(p, x, 0.0);
  for (int k = 1; k <= 50; ++k) {
    x = D::step(p, x, -0.02, 0.0005);
    const double back = 0.02 * 0.0005 * k;
    EXPECT_NEAR(D::force(p, x, -0.02), -p.Fc + (p.Fc + FA) * std::exp(-c * back), 1e-12);
  }
}

double dahl_input(double t) {
  return 0.003 * std::sin(2 * kPi * t) + 0.001 * std::sin(2 * kPi * 3.3 * t);
}

TEST(Dahl, ExactStepMatchesFineRk4ForPiecewiseConstantInput) {
  // ZOH input sampled at 10 ms: the exact step takes each sample in one step; RK4 integrates the
  // same piecewise-constant input with 1000 substeps per sample.
  for (double n : {1.0, 2.0, 1.5}) {
    const auto p = dahl(n);
    const auto exact = run<D>(p, dahl_input, 0.01, 2.0, Method::exact, Hold::zoh);
    const auto rk4 = run<D>(p, dahl_input, 0.01, 2.0, Method::rk4, Hold::zoh, 1e-5);
    const double e = max_diff(exact, rk4, 1);
    RecordProperty("max_err_n" + std::to_string(int(n * 10)), sci(e));
    EXPECT_LT(e, 1e-12 * p.Fc) << "n = " << n;
  }
}

TEST(Dahl, RateIndependentAndNearUnitExponentContinuous) {
  const auto p = dahl(1.0);
  // The same displacement increments at speeds 1e-6 and 1e2 m/s (exact powers of two: dx equal).
  D::State a{}, b{};
  const double dx = std::ldexp(1.0, -16);
  for (int k = 0; k < 400; ++k) {
    const double s = (k / 100) % 2 == 0 ? 1.0 : -1.0;
    const double va = s * std::ldexp(1.0, -20), vb = s * std::ldexp(1.0, 6);
    a = D::step(p, a, va, dx / std::abs(va));
    b = D::step(p, b, vb, dx / std::abs(vb));
    ASSERT_EQ(a.z, b.z) << k;
  }
  // n -> 1: the log1p form is continuous (no cancellation) at n = 1 +- 1e-9.
  for (double dn : {1e-9, -1e-9}) {
    auto q = p;
    q.n = 1 + dn;
    const auto x1 = D::step(p, D::State{}, 0.01, 0.005);
    const auto xq = D::step(q, D::State{}, 0.01, 0.005);
    EXPECT_NEAR(xq.z, x1.z, 1e-8 * D::state_bound(p));
  }
}

/// The state invariant |z| <= M::state_bound(p) (to the rounding of S) along 5000 steps of a
/// random velocity in [-v_max, v_max] with random step sizes 1e-6..0.1 s (generator seeded).
template <template <class> class Model, class S>
void expect_state_bound_under_random_steps(const typename Model<S>::Params& p, unsigned seed,
                                           double v_max) {
  using M = Model<S>;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uv(-v_max, v_max), uh(-6, -1);
  typename M::State x{};
  const double tol = std::is_same_v<S, float> ? 1e-6 : 1e-14;
  for (int k = 0; k < 5000; ++k) {
    x = M::step(p, x, S(uv(rng)), S(std::pow(10.0, uh(rng))));
    ASSERT_LE(std::abs(double(x.z)), double(M::state_bound(p)) * (1 + tol)) << k;
  }
}

template <class S>
void dahl_bound_check(double n) {
  typename Dahl<S>::Params p;
  p.sigma0 = S(2e4);
  p.Fc = S(1.5);
  p.n = S(n);
  expect_state_bound_under_random_steps<Dahl, S>(p, 3, 0.05);
}

TEST(Dahl, StateBoundIsInvariantForAnyStep) {
  for (double n : {0.5, 1.0, 2.0}) {
    dahl_bound_check<double>(n);
    dahl_bound_check<float>(n);
  }
}

// ------------------------------------------------------------------------------------------
// Elasto-plastic
// ------------------------------------------------------------------------------------------
using E = ElastoPlastic<double>;

E::Params ep() {
  E::Params p{.sigma0 = 1e5,
              .sigma1 = std::sqrt(1e5),
              .sigma2 = 0.4,
              .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0)};
  p.z_ba = 5e-6;  // half of min g / sigma0 = 1e-5
  return p;
}

TEST(ElastoPlastic, AdhesionMapIsTheSineBlendAndContinuous) {
  const auto p = ep();
  const double v = 0.002;
  const double zm = E::g(p, v) / p.sigma0;
  EXPECT_EQ(E::alpha(p, p.z_ba, v), 0.0);
  EXPECT_EQ(E::alpha(p, -2 * p.z_ba, v), 0.0);  // sgn(z) != sgn(v)
  EXPECT_EQ(E::alpha(p, 2 * zm, v), 1.0);
  EXPECT_EQ(E::alpha(p, -2 * zm, v), 0.0);
  EXPECT_EQ(E::alpha(p, -2 * zm, -v), 1.0);
  EXPECT_NEAR(E::alpha(p, 0.5 * (zm + p.z_ba), v), 0.5, 1e-15);
  // C1 at both ends: the one-sided difference quotients vanish.
  const double d = 1e-4 * (zm - p.z_ba);
  EXPECT_LT(E::alpha(p, p.z_ba + d, v) / d, 1e-2 / (zm - p.z_ba));
  EXPECT_LT((1 - E::alpha(p, zm - d, v)) / d, 1e-2 / (zm - p.z_ba));
  EXPECT_TRUE(E::z_ba_valid(p));
  auto q = p;
  q.z_ba = 1.1e-5;
  EXPECT_FALSE(E::z_ba_valid(q));
}

double small_osc(double t) { return 2e-5 * 2 * kPi * std::cos(2 * kPi * t); }  // x = 2e-5 sin

TEST(ElastoPlastic, NoDriftUnderSmallOscillationInTheElasticRegion) {
  // Displacement amplitude 2e-6 m < z_ba = 5e-6 m: dz/dt = v exactly, so z(t) = x(t) - x(0)
  // and every period returns to z = 0 (to rounding), whatever the number of cycles. LuGre with
  // the same stiffness drifts (its z relaxes towards sgn(v) g/sigma0 at every motion).
  const auto p = ep();
  const double h = 1e-3;
  const int per = 1000;  // samples per period
  E::State x{};
  LuGre<double>::Params pl;
  pl.sigma0 = p.sigma0;
  pl.sigma1 = p.sigma1;
  pl.sigma2 = p.sigma2;
  pl.curve = p.curve;
  LuGre<double>::State xl{};
  auto v_of = [](double t) {
    return 0.1 * small_osc(t) + 1e-6 * 2 * kPi * 2 * std::cos(2 * kPi * 2 * t + 0.5);
  };
  double xpos = 0, max_dev = 0, max_dev_lugre = 0, F0 = E::force(p, x, v_of(0));
  for (int c = 0; c < 50; ++c) {
    for (int k = 0; k < per; ++k) {
      const double t = (c * per + k) * h;
      // Exact displacement over the step for the ZOH input: v(t_k) h.
      const double vk = v_of(t);
      x = E::step(p, x, vk, h);
      xl = LuGre<double>::step(pl, xl, vk, h);
      xpos += vk * h;
      max_dev = std::max(max_dev, std::abs(x.z - xpos));
      max_dev_lugre = std::max(max_dev_lugre, std::abs(xl.z - xpos));
      ASSERT_LT(std::abs(x.z), p.z_ba);
    }
  }
  EXPECT_LT(max_dev, 1e-18);  // z equals the displacement to rounding
  EXPECT_LT(std::abs(x.z - xpos), 1e-18);
  EXPECT_NEAR(E::force(p, x, v_of(0)), F0 + p.sigma0 * xpos, 1e-12);
  RecordProperty("lugre_drift", sci(std::abs(xl.z - xpos)));
  RecordProperty("lugre_max_dev", sci(max_dev_lugre));
  EXPECT_GT(max_dev_lugre, 1e-2 * p.z_ba);  // the contrast: LuGre is not purely elastic
}

TEST(ElastoPlastic, SteadyStateIsTheStribeckCurve) {
  const auto p = ep();
  for (double v : {-0.03, -0.003, -0.001, -1e-4, 1e-4, 0.001, 0.003, 0.03}) {
    E::State x{};
    for (int k = 0; k < 400; ++k) x = E::step(p, x, v, 0.05);
    const double Fss = E::steady_force(p, v);
    EXPECT_NEAR(E::force(p, x, v), Fss, 1e-9 * std::abs(Fss)) << "v=" << v;
    EXPECT_NEAR(Fss, (v > 0 ? 1 : -1) * stribeck_g(p.curve, v) + p.sigma2 * v, 1e-15);
  }
}

TEST(ElastoPlastic, OneHugeStepNeverOvershootsAndStateStaysBounded) {
  const auto p = ep();
  const double zm = E::g(p, 0.01) / p.sigma0;
  for (double h : {1e-6, 1e-4, 1e-2, 1.0, 1e3}) {
    for (double z0 : {-zm, 0.0, p.z_ba, 0.5 * (zm + p.z_ba), zm, 1.4e-5}) {
      const auto x = E::step(p, E::State{z0}, 0.01, h);
      EXPECT_LE(x.z, std::max(zm, z0) * (1 + 1e-15));
      if (z0 <= zm) {
        EXPECT_GE(x.z, z0);  // f >= 0 below zm
      } else {
        EXPECT_GE(x.z, zm);  // decays to zm from above
      }
    }
  }
  auto check = [](auto tag) {
    using S = decltype(tag);
    typename ElastoPlastic<S>::Params q;
    q.curve = StribeckCurve<S>::symmetric(S(1), S(1.5), S(0.001), S(2));
    expect_state_bound_under_random_steps<ElastoPlastic, S>(q, 11, 0.03);
  };
  check(double{});
  check(float{});
}

double ep_input(double t) {
  return 0.004 * std::sin(2 * kPi * t) + 0.002 * std::sin(2 * kPi * 3.1 * t + 0.3);
}

TEST(ElastoPlastic, ConvergesToFineRk4AsTheStepShrinks) {
  // Reference: RK4 with h = 1e-6 on the linearly interpolated input (self-consistency vs
  // h = 2.5e-7: 2e-10 N). The default step with the mid-step velocity: exact in the elastic and
  // alpha = 1 regions, second order on the blend (exponential Euler substeps) and at the steps
  // that contain a reversal or a regime change, whose phase inside the step makes the error
  // constant vary from one h to the next: the order is taken over the whole range.
  const auto p = ep();
  const double T = 1.0, hf = 1e-6;
  const auto ref = run<E>(p, ep_input, hf, T, Method::rk4, Hold::linear);
  std::vector<double> errs;
  const std::vector<double> hs{8e-4, 4e-4, 2e-4, 1e-4, 5e-5, 2.5e-5};
  for (double h : hs) {
    const auto sol = run<E>(p, ep_input, h, T, Method::exact, Hold::linear);
    errs.push_back(max_diff(sol, ref, std::lround(h / hf)));
  }
  for (std::size_t i = 0; i + 1 < errs.size(); ++i) {
    const double order = std::log2(errs[i] / errs[i + 1]);
    RecordProperty("err_" + std::to_string(i), sci(errs[i]));
    RecordProperty("order_" + std::to_string(i), sci(order));
  }
  const double order = std::log2(errs.front() / errs.back()) / double(errs.size() - 1);
  RecordProperty("order_overall", sci(order));
  EXPECT_GE(order, 1.5) << "err " << errs.front() << " at h=" << hs.front() << ", " << errs.back()
                        << " at h=" << hs.back();
  EXPECT_LT(errs.back(), 1e-6);  // [N], force scale 1.5 N (measured 2.9e-7)
}

TEST(ElastoPlastic, PiecewiseConstantInputConvergesToRk4WithBlendSubstepping) {
  // With a ZOH input the only error of the default step is the blend's exponential Euler
  // substeps (second order in the substep length).
  const auto p = ep();
  const auto ref = run<E>(p, ep_input, 0.01, 1.0, Method::rk4, Hold::zoh, 1e-6);
  double prev = 0;
  for (double hs : {1e-3, 2.5e-4, 6.25e-5}) {
    const auto sol = run<E>(p, ep_input, 0.01, 1.0, Method::exact, Hold::zoh, hs);
    const double e = max_diff(sol, ref, 1);
    RecordProperty("zoh_err_" + std::to_string(hs), sci(e));
    if (prev > 0) {
      EXPECT_LT(e, prev / 3);  // first order: ratio ~4
    }
    prev = e;
  }
  EXPECT_LT(prev, 1e-3);
}

TEST(ElastoPlastic, AutodiffThroughTheStepMatchesFiniteDifferences) {
  using J = ceres::Jet<double, 4>;  // sigma0, sigma1, Fs, z_ba
  auto params = [](auto th0, auto th1, auto th2, auto th3) {
    using S = decltype(th0);
    typename ElastoPlastic<S>::Params p{
        .sigma0 = th0,
        .sigma1 = th1,
        .sigma2 = S(0.4),
        .curve = StribeckCurve<S>::symmetric(S(1), th2, S(0.001), S(2))};
    p.z_ba = th3;
    return p;
  };
  const double th[4] = {1e5, 316.0, 1.5, 5e-6};
  auto objective = [&](const double* t) {
    const auto p = params(t[0], t[1], t[2], t[3]);
    E::State x{};
    double acc = 0;
    for (int k = 0; k < 600; ++k) {
      const double v = ep_input(k * 1e-3);
      acc += E::force(p, x, v);
      x = E::step(p, x, v, 1e-3);
    }
    return acc;
  };
  const auto pj = params(J(th[0], 0), J(th[1], 1), J(th[2], 2), J(th[3], 3));
  ElastoPlastic<J>::State xj{};
  J acc(0.0);
  for (int k = 0; k < 600; ++k) {
    const J v(ep_input(k * 1e-3));
    acc += ElastoPlastic<J>::force(pj, xj, v);
    xj = ElastoPlastic<J>::step(pj, xj, v, J(1e-3));
  }
  EXPECT_NEAR(acc.a, objective(th), 1e-10 * std::abs(acc.a));
  for (int i = 0; i < 4; ++i) {
    const double fd = testing::central_difference(objective, th, i);
    EXPECT_NEAR(acc.v[i], fd, 1e-4 * std::abs(fd) + 1e-6 * std::abs(acc.a) / th[i]) << i;
  }
}

/// The sum of the force over 500 exact steps of dahl_input at 2 ms for parameters th = (sigma0,
/// Fc, n): in double (the finite-difference objective) and with Jets (value and gradient).
double dahl_force_sum(const double* t) {
  D::Params p{t[0], t[1], t[2]};
  D::State x{};
  double acc = 0;
  for (int k = 0; k < 500; ++k) {
    x = D::step(p, x, dahl_input(k * 2e-3), 2e-3);
    acc += D::force(p, x, 0.0);
  }
  return acc;
}

ceres::Jet<double, 3> dahl_force_sum_jet(const double (&th)[3]) {
  using J = ceres::Jet<double, 3>;
  Dahl<J>::Params pj{J(th[0], 0), J(th[1], 1), J(th[2], 2)};
  Dahl<J>::State xj{};
  J acc(0.0);
  for (int k = 0; k < 500; ++k) {
    xj = Dahl<J>::step(pj, xj, J(dahl_input(k * 2e-3)), J(2e-3));
    acc += Dahl<J>::force(pj, xj, J(0.0));
  }
  return acc;
}

TEST(Dahl, AutodiffThroughTheStepMatchesFiniteDifferences) {
  const double th[3] = {2e4, 1.5, 1.7};
  const auto acc = dahl_force_sum_jet(th);
  EXPECT_NEAR(acc.a, dahl_force_sum(th), 1e-12 * std::abs(acc.a));
  for (int i = 0; i < 3; ++i) {
    const double fd = testing::central_difference(dahl_force_sum, th, i);
    EXPECT_NEAR(acc.v[i], fd, 1e-5 * std::abs(fd) + 1e-8) << i;
  }
}

// At n = 1 exactly (the fit's initial guess for n) the step takes its closed form u0 exp(-c xi);
// with n estimated (a Jet with a derivative part) the derivative with respect to n must still be
// there and equal the finite difference of the general formula around n = 1.
TEST(Dahl, DerivativeWithRespectToNAtNEqualOne) {
  const double th[3] = {2e4, 1.5, 1.0};
  const auto acc = dahl_force_sum_jet(th);
  EXPECT_NEAR(acc.a, dahl_force_sum(th), 1e-13 * std::abs(acc.a));  // the closed form's value
  for (int i = 0; i < 3; ++i) {
    const double fd = testing::central_difference(dahl_force_sum, th, i);
    EXPECT_NEAR(acc.v[i], fd, 1e-5 * std::abs(fd) + 1e-8) << i;
  }
  EXPECT_NE(acc.v[2], 0.0);
}

/// The fit's forward sensitivities (dahl/sensitivity.hpp) of the force summed over 500 steps of
/// dahl_input at 2 ms, along (sigma0, Fc, n) and the start state z0, against the Jets through the
/// held (zoh) or linear-input step and central differences: each branch of the step.
void expect_dahl_sensitivities(const double (&th)[3], Hold hold) {
  constexpr int NL = 4;
  using J = ceres::Jet<double, NL>;
  const double h = 2e-3, z0 = 0.2 * th[1] / th[0];
  const auto v_at = [](int k) { return dahl_input(k * 2e-3); };
  const auto sum = [&](const double* t, double x0) {
    D::Params p{t[0], t[1], t[2]};
    D::State x{x0};
    double acc = 0;
    for (int k = 0; k < 500; ++k) {
      acc += D::force(p, x, v_at(k));
      x = advance<D>(p, x, v_at(k), v_at(k + 1), h, Method::exact, hold);
    }
    return acc;
  };
  Dahl<J>::Params pj{J(th[0], 0), J(th[1], 1), J(th[2], 2)};
  Dahl<J>::State xj{J(z0, 3)};
  J accj(0.0);
  for (int k = 0; k < 500; ++k) {
    accj += Dahl<J>::force(pj, xj, J(v_at(k)));
    xj = advance<Dahl<J>>(pj, xj, J(v_at(k)), J(v_at(k + 1)), J(h), Method::exact, hold);
  }
  using Sens = DahlSensitivity;
  Sens::Seeds<NL> seeds;
  for (int q = 0; q < 3; ++q) seeds.set(q, q, 1.0);  // direction q: field q
  const D::Params p{th[0], th[1], th[2]};
  double z = z0, acc = 0;
  std::array<double, NL> dz{}, dF{}, dacc{};
  dz[3] = 1.0;
  for (int k = 0; k < 500; ++k) {
    Sens::ForceParts parts;
    const auto w = Sens::at<NL>(p, v_at(k), seeds);
    acc += Sens::force<NL>(p, seeds, z, dz, w, dF, parts);
    for (int i = 0; i < NL; ++i) dacc[i] += dF[i];
    const auto w1 = hold == Hold::zoh ? w : Sens::at<NL>(p, v_at(k + 1), seeds);
    z = Sens::step<NL>(p, seeds, z, dz, w, w1, h, nullptr);
  }
  EXPECT_NEAR(acc, accj.a, 1e-13 * std::abs(accj.a));
  for (int i = 0; i < NL; ++i) {
    double tp[3] = {th[0], th[1], th[2]}, tm[3] = {th[0], th[1], th[2]};
    double zp = z0, zm = z0, d = 0;
    if (i < 3) {
      d = 1e-6 * th[i];
      tp[i] += d;
      tm[i] -= d;
    } else {
      d = 1e-6 * z0;
      zp += d;
      zm -= d;
    }
    const double fd = (sum(tp, zp) - sum(tm, zm)) / (2 * d);
    EXPECT_NEAR(dacc[i], accj.v[i], 1e-11 * std::abs(accj.v[i])) << "direction " << i;
    EXPECT_NEAR(dacc[i], fd, 1e-5 * std::abs(fd)) << "direction " << i;
  }
}

TEST(Dahl, FitSensitivitiesOfEveryBranchMatchJetsAndFiniteDifferences) {
  for (Hold hold : {Hold::linear, Hold::zoh}) {
    expect_dahl_sensitivities({2e4, 1.5, 1.0}, hold);  // n = 1: the closed form and its d/dn
    expect_dahl_sensitivities({2e4, 1.5, 1.7}, hold);
    expect_dahl_sensitivities({2e4, 1.5, 0.6}, hold);
  }
}

}  // namespace
}  // namespace frictionlab
