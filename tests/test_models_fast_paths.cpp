// The cheaper formulas of the model hot paths (docs/benchmarks.md) against the ones
// they replace: r*r and r for pow(r, alpha) at alpha = 2 and 1 (values and Jet derivatives; an
// exponent being estimated keeps pow), 1 - exp(-x) without expm1, the LuGre ZOH step against a
// long-double closed form, the exp underflow cut-off of the Stribeck shape, and the number of
// g evaluations of the linear-input bristle step (consecutive parts share their ends; a step
// with g flat at both ends of a monotone side is not split, and gives the split step's state to
// rounding; g at both ends given by LuGre::at gives the step that evaluates them itself).
#include <gtest/gtest.h>

#include <ceres/jet.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "frictionlab/models/bristle.hpp"
#include "frictionlab/models/common.hpp"
#include "frictionlab/models/lugre.hpp"
#include "frictionlab/models/stribeck_curve.hpp"

namespace frictionlab {
namespace {

using J = ceres::Jet<double, 2>;

/// r from 1e-6 to 1e3, log-spaced, n points.
template <class S>
std::vector<S> ratios(int n = 2001) {
  std::vector<S> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(S(std::pow(10.0, -6.0 + 9.0 * i / (n - 1))));
  return out;
}

/// Distance in units of the last place of b (b != 0).
template <class S>
double ulps(S a, S b) {
  const S u = std::nextafter(std::abs(b), std::numeric_limits<S>::infinity()) - std::abs(b);
  return double(std::abs(a - b) / u);
}

TEST(IsExactly, ValuesAndJetDerivativeParts) {
  EXPECT_TRUE(is_exactly(2.0, 2.0));
  EXPECT_FALSE(is_exactly(std::nextafter(2.0, 3.0), 2.0));
  EXPECT_TRUE(is_exactly(1.0f, 1.0));
  EXPECT_FALSE(is_exactly(1.5f, 1.0));
  EXPECT_TRUE(is_exactly(J(2.0), 2.0));      // a constant Jet
  EXPECT_FALSE(is_exactly(J(2.0, 1), 2.0));  // an estimated exponent
  J tiny(2.0);
  tiny.v[0] = 1e-300;  // Eigen's isZero() would call this zero; is_exactly must not
  EXPECT_FALSE(is_exactly(tiny, 2.0));
}

TEST(PowExponent, EqualsPowForAlphaOneAndTwoInDoubleAndFloat) {
  double worst = 0, worst_f = 0;
  for (double r : ratios<double>()) {
    EXPECT_EQ(pow_exponent(r, 1.0), std::pow(r, 1.0));
    worst = std::max(worst, ulps(pow_exponent(r, 2.0), std::pow(r, 2.0)));
  }
  for (float r : ratios<float>()) {
    EXPECT_EQ(pow_exponent(r, 1.0f), std::pow(r, 1.0f));
    worst_f = std::max(worst_f, ulps(pow_exponent(r, 2.0f), std::pow(r, 2.0f)));
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_LE(worst_f, 1.0);
  // Any other exponent is pow itself.
  EXPECT_EQ(pow_exponent(0.3, 1.5), std::pow(0.3, 1.5));
}

TEST(PowExponent, JetDerivativesEqualThoseOfPow) {
  using std::pow;
  for (double rv : ratios<double>(301)) {
    for (double alpha : {1.0, 2.0}) {
      // d/dr with a constant exponent: the fast path, compared with ceres' pow(Jet, Jet).
      const J r(rv, 0);
      const J a(alpha);
      const J fast = pow_exponent(r, a), ref = pow(r, a);
      EXPECT_LE(ulps(fast.a, ref.a), 1.0) << rv;
      EXPECT_LE(ulps(fast.v[0], ref.v[0]), 1.0) << rv;
      // An exponent with a derivative part (being estimated) goes through pow: d/dalpha
      // r^alpha = r^alpha ln r (closed form), which r*r would lose.
      const J ae(alpha, 1);
      const J est = pow_exponent(r, ae);
      EXPECT_EQ(est.v[1], pow(r, ae).v[1]);
      EXPECT_NEAR(est.v[1], std::pow(rv, alpha) * std::log(rv),
                  1e-14 * std::abs(std::pow(rv, alpha) * std::log(rv)) + 1e-300);
    }
  }
}

TEST(StribeckShape, JetDerivativeWrtAlphaIsTheClosedForm) {
  // s = exp(-r^alpha): ds/dalpha = -s r^alpha ln r, at the common exponent alpha = 2.
  StribeckCurve<J> c = cast_curve<J>(StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0));
  c.alpha = J(2.0, 0);
  for (double v : {2e-4, 1e-3, 3e-3}) {
    const double r = v / 0.001, ra = r * r;
    const J s = stribeck_shape(c, J(v));
    EXPECT_NEAR(s.v[0], -std::exp(-ra) * ra * std::log(r), 1e-15) << v;
  }
  // Rational shape: s = 1/(1 + r^alpha), ds/dalpha = -s^2 r^alpha ln r.
  c.shape = StribeckShape::rational;
  for (double v : {2e-4, 3e-3}) {
    const double r = v / 0.001, ra = r * r, s0 = 1 / (1 + ra);
    EXPECT_NEAR(stribeck_shape(c, J(v)).v[0], -s0 * s0 * ra * std::log(r), 1e-15) << v;
  }
}

TEST(StribeckShape, UnderflowCutOffEqualsExp) {
  // Just below, at and beyond the cut-off the shape is what exp returns (0 beyond it).
  const auto check = [](auto vs_ratio_sq) {
    using S = decltype(vs_ratio_sq);
    const StribeckCurve<S> c = StribeckCurve<S>::symmetric(S(1), S(1.5), S(1), S(2));
    for (S ra : {S(80), S(100), S(103.9), S(104), S(104.5), S(200), S(700), S(745), S(746), S(747),
                 S(1e4)}) {
      const S v = std::sqrt(ra);
      const S r = v / c.vs;
      EXPECT_EQ(stribeck_shape(c, v), std::exp(-(r * r))) << double(ra);
    }
  };
  check(1.0);
  check(1.0f);
}

TEST(OneMinusExpNeg, WithinAFewUlpOfExpm1) {
  std::vector<double> xs;
  for (int i = 0; i <= 4000; ++i) xs.push_back(std::pow(10.0, -12.0 + 14.0 * i / 4000));
  for (double x : {0.2499999, 0.25, 0.2500001, 1e-300, 5e-324}) xs.push_back(x);
  double worst = 0, worst_neg = 0, worst_f = 0;
  for (double x : xs) {
    worst = std::max(worst, ulps(one_minus_exp_neg(x), -std::expm1(-x)));
    if (x < 0.7) worst_neg = std::max(worst_neg, ulps(one_minus_exp_neg(-x), -std::expm1(x)));
    const float xf = float(x);
    if (xf > 0) worst_f = std::max(worst_f, ulps(one_minus_exp_neg(xf), -std::expm1(-xf)));
  }
  EXPECT_EQ(one_minus_exp_neg(0.0), 0.0);
  EXPECT_EQ(one_minus_exp_neg(0.0f), 0.0f);
  EXPECT_EQ(one_minus_exp_neg(1e3), 1.0);
  // Measured 2026-11-25 (glibc 2.36, 4e5 points): 2 ulp in double (3 for x < 0), 2 in float;
  // the bound leaves room for another libm's exp.
  EXPECT_LE(worst, 4.0);
  EXPECT_LE(worst_neg, 4.0);
  EXPECT_LE(worst_f, 4.0);
  // A Jet: -expm1(-x) with its derivative exp(-x).
  const J j = one_minus_exp_neg(J(0.1, 0));
  EXPECT_EQ(j.a, -std::expm1(-0.1));
  EXPECT_EQ(j.v[0], std::exp(-0.1));
}

TEST(LuGreStep, MatchesTheLongDoubleClosedForm) {
  // z(h) = z_ss + (z - z_ss) exp(-a h) in long double; the double step within a few ulp of
  // the state scale max(|z|, |z_ss|), for decays a h from 1e-9 to 1e3 and z on both sides.
  using M = LuGre<double>;
  const M::Params p{};
  double worst = 0;
  for (double v : {-2e-2, -1e-3, -1e-9, 1e-12, 1e-7, 1e-5, 3e-4, 1e-3, 5e-3, 1e-1}) {
    for (double h : {1e-6, 1e-3, 1e-1}) {
      for (double z0 : {0.0, -1.2e-5, 4e-6, 1.4e-5}) {
        const long double g = M::g(p, v);
        const long double a = (long double)p.sigma0 * std::abs(v) / g;
        const long double zss = (v > 0 ? 1 : -1) * g / p.sigma0;
        const long double ref = zss + (z0 - zss) * std::exp(-a * (long double)h);
        const double z1 = M::step(p, M::State{z0}, v, h).z;
        const double scale = std::max(std::abs(z0), double(std::abs(zss)));
        worst = std::max(worst, double(std::abs(z1 - ref)) / (scale * 2.220446049250313e-16));
      }
    }
  }
  EXPECT_LE(worst, 4.0);
  // At rest nothing moves; the shared form equals the separate calls.
  EXPECT_EQ(M::step(p, M::State{3e-6}, 0.0, 1e-3).z, 3e-6);
  const auto w = M::at(p, 2e-3);
  EXPECT_EQ(M::step(p, M::State{1e-6}, w, 1e-3).z, M::step(p, M::State{1e-6}, 2e-3, 1e-3).z);
  EXPECT_EQ(M::force(p, M::State{1e-6}, w), M::force(p, M::State{1e-6}, 2e-3));
}

TEST(LuGreStep, JetDerivativeWrtVelocityAtRest) {
  // At v = 0 (a sample at rest in a fit) z+ = z + h phi1(a h) (v - a z) has the right-sided
  // derivative d z+/dv = h (1 - sigma0 z / g(0)) (ceres' abs takes the + side at 0); the
  // (z_ss - z) form of the double step would give -h sigma0 z / g(0).
  using MJ = LuGre<J>;
  const auto p = cast_params<J>(LuGre<double>::Params{});
  const double h = 1e-3, z0 = 4e-6, g0 = 1.5;
  const J z1 = MJ::step(p, MJ::State{J(z0)}, J(0.0, 0), J(h)).z;
  EXPECT_EQ(z1.a, z0);
  EXPECT_NEAR(z1.v[0], h * (1 - 1e5 * z0 / g0), 1e-15);
  // Away from rest the Jet value equals the double step to rounding.
  for (double v : {-3e-3, 1e-6, 2e-3}) {
    const J zj = MJ::step(p, MJ::State{J(z0)}, J(v, 0), J(h)).z;
    const double zd = LuGre<double>::step(LuGre<double>::Params{}, {z0}, v, h).z;
    EXPECT_NEAR(zj.a, zd, 1e-20) << v;
  }
}

TEST(BristleStepLinear, EvaluatesGOnceAtEachSharedEnd) {
  // m parts without reversal: g at m + 1 ends and m midpoints (was 3 m).
  int calls = 0;
  const auto g_side = [&calls](const double& v, bool) {
    ++calls;
    return 1.0 + 0.5 * std::exp(-(v / 1e-3) * (v / 1e-3));
  };
  const double vs8 = 1e-3 / 8, v0 = 1e-3, v1 = 1e-3 + 5.5 * vs8;
  const double z = bristle_step_linear(0.0, v0, v1, 1e-3, 1e5, vs8, g_side);
  EXPECT_EQ(calls, 2 * 6 + 1);  // ceil(5.5) = 6 parts
  // The same step through one part at a time (no sharing) gives the same state bitwise.
  double y = 0.0;
  const double inv_s0 = 1.0 / 1e5;
  int calls_parts = 0;
  const auto g_count = [&calls_parts, &g_side](const double& v, bool pos) {
    ++calls_parts;
    return g_side(v, pos);
  };
  for (int j = 0; j < 6; ++j) {
    BristleEnd<double> fresh;  // nothing known: g evaluated at both ends
    // (the last part ends at v1 itself)
    const double wa = v0 + (v1 - v0) * j / 6, wb = j == 5 ? v1 : v0 + (v1 - v0) * (j + 1) / 6;
    y = bristle_linear_part(y, wa, wb, 1e-3 / 6, 1e5, inv_s0, g_count, fresh);
  }
  EXPECT_EQ(calls_parts, 3 * 6);
  EXPECT_EQ(y, z);
}

TEST(BristleStepLinear, FlatEndsOfAMonotoneCurveAreNotSplit) {
  // Exponential Stribeck shape, vs = 1 mm/s: at 40-60 vs exp(-r^2) is below the rounding of Fc,
  // g is the same number at both ends and in between. The sweep of 20 vs would take 16 parts.
  int calls = 0;
  const auto g_side = [&calls](const double& v, bool) {
    ++calls;
    return 1.0 + 0.5 * std::exp(-(v / 1e-3) * (v / 1e-3));
  };
  const double vs8 = 1e-3 / 8;
  for (const double sgn : {1.0, -1.0}) {
    const double v0 = sgn * 40e-3, v1 = sgn * 60e-3, z0 = sgn * 3e-6;
    calls = 0;
    const double one = bristle_step_linear(z0, v0, v1, 1e-3, 1e5, vs8, g_side, true);
    EXPECT_EQ(calls, 3);  // both ends and the midpoint
    calls = 0;
    const double split = bristle_step_linear(z0, v0, v1, 1e-3, 1e5, vs8, g_side, false);
    EXPECT_EQ(calls, 2 * 16 + 1);
    EXPECT_NEAR(one, split, 4 * std::numeric_limits<double>::epsilon() * std::abs(split));
    EXPECT_NE(one, 0.0);
  }
  // In the Stribeck region (g differs at the ends) a monotone curve is split as before, bit for
  // bit the same state.
  calls = 0;
  const double in_region = bristle_step_linear(0.0, 0.2e-3, 2.2e-3, 1e-3, 1e5, vs8, g_side, true);
  EXPECT_EQ(calls, 2 * 16 + 1);
  EXPECT_EQ(in_region, bristle_step_linear(0.0, 0.2e-3, 2.2e-3, 1e-3, 1e5, vs8, g_side, false));
  // A curve that is not monotone may take the same value at both ends and another in between
  // (a bump centred between them: g(1 mm/s) == g(9 mm/s) bitwise): without the monotone promise
  // the step is split, g evaluated at every part.
  int bump_calls = 0;
  const auto bump = [&bump_calls](const double& v, bool) {
    ++bump_calls;
    const double u = (v - 5e-3) / 1e-3;
    return 1.0 + 0.5 * std::exp(-u * u);
  };
  ASSERT_EQ(bump(1e-3, true), bump(9e-3, true));
  bump_calls = 0;
  (void)bristle_step_linear(0.0, 1e-3, 9e-3, 1e-3, 1e5, vs8, bump, false);
  EXPECT_EQ(bump_calls, 2 * 16 + 1);
}

TEST(LuGreStepLinear, VelocityTermsGivenEqualTheOnesEvaluated) {
  // step_linear(p, x, at(v0), at(v1), h) against step_linear(p, x, v0, v1, h) (which evaluates
  // g at the ends itself; tested against high-accuracy solutions in test_model_properties):
  // the same update but for the rounding of g, both sides of an asymmetric curve, reversals,
  // rest, and steps split in the Stribeck region.
  LuGre<double>::Params p;
  p.curve = StribeckCurve<double>{0.8, 1.1, 1.4, 1.7, 2e-3, 2.0, StribeckShape::exponential};
  p.sigma0 = 1e5;
  p.sigma1 = 300;
  const std::vector<double> v{0.0,  1e-4,   -3e-3, 5e-3, 5e-3, 0.0, -2e-2,
                              3e-2, 3.1e-2, -1e-3, 2e-4, 0.0,  0.0, 8e-3};
  double worst = 0;
  for (const double h : {1e-4, 1e-3, 1e-2}) {
    LuGre<double>::State x1{}, x2{};
    for (std::size_t k = 0; k + 1 < v.size(); ++k) {
      x1 = LuGre<double>::step_linear(p, x1, v[k], v[k + 1], h);
      x2 = LuGre<double>::step_linear(p, x2, LuGre<double>::at(p, v[k]),
                                      LuGre<double>::at(p, v[k + 1]), h);
      worst = std::max(worst, std::abs(x1.z - x2.z) / (1.7 / p.sigma0));
    }
  }
  std::printf(
      "[measured] LuGre linear step with given velocity terms: largest |dz| / z_max = %.2e\n",
      worst);
  EXPECT_LT(worst, 1e-14);
}

}  // namespace
}  // namespace frictionlab
