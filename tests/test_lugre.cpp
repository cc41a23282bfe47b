// Focused LuGre tests: step-size robustness (the case of reference 003), forward Euler's
// instability, parameter-form converters, passivity, closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "frictionlab/integrate/stepper.hpp"
#include "frictionlab/models/lugre.hpp"

namespace frictionlab {
namespace {

using M = LuGre<double>;
constexpr double kPi = 3.14159265358979323846;

// Parameters of reference 003 / Canudas de Wit et al. 1995: sigma0 = 1e5.
M::Params ref003() {
  M::Params p{.sigma0 = 1e5,
              .sigma1 = std::sqrt(1e5),
              .sigma2 = 0.4,
              .curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0)};
  return p;
}

// Smooth test velocity with reversals, amplitude 10 mm/s (10 vs), period 1 s.
double vel(double t) { return 0.01 * std::sin(2 * kPi * t) + 0.004 * std::sin(2 * kPi * 2.7 * t); }

struct Trace {
  std::vector<double> F, z;
};

// Simulate over [0, T] with input samples every `h_in`, integrating with substeps of at most
// `h_int` (0: one step per sample).
Trace simulate(const M::Params& p, double h_in, double h_int, Method m, Hold hold, double T = 2.0,
               double (*input)(double) = vel) {
  const long n = std::lround(T / h_in) + 1;
  std::vector<double> t(n), v(n);
  for (long k = 0; k < n; ++k) {
    t[k] = double(k) * h_in;
    v[k] = input(t[k]);
  }
  Trace r;
  r.F.resize(n);
  r.z.resize(n);
  drive<M>(p, M::State{}, t.data(), v.data(), n, m, hold, h_int, [&](long k, double f, M::State x) {
    r.F[k] = f;
    r.z[k] = x.z;
  });
  return r;
}

double max_abs_diff_coarse(const std::vector<double>& coarse, const std::vector<double>& fine,
                           long ratio) {
  double e = 0;
  for (std::size_t k = 0; k < coarse.size(); ++k)
    e = std::max(e, std::abs(coarse[k] - fine[k * ratio]));
  return e;
}

// The documented requirement: the default gives the same answer at a 10 ms step as at a 0.1 ms step
// (to the accuracy of the input's own sampling) for LuGre with sigma0 = 1e5, where forward Euler
// at 10 ms oscillates or diverges.
TEST(LuGreStepSize, TenMillisecondStepMatchesTenthMillisecondToInputSamplingAccuracy) {
  const auto p = ref003();
  // Reference: input sampled every 0.1 ms, integrated exactly.
  const Trace fine = simulate(p, 1e-4, 0, Method::exact, Hold::linear);
  // The 10 ms run sees only the 10 ms samples of the input.
  const Trace coarse = simulate(p, 1e-2, 0, Method::exact, Hold::linear);
  // What sampling the input at 10 ms costs by itself: the same 10 ms samples, linearly
  // interpolated, integrated with 0.1 ms substeps.
  const Trace sampled_input = simulate(p, 1e-2, 1e-4, Method::exact, Hold::linear);
  const double err_coarse = max_abs_diff_coarse(coarse.F, fine.F, 100);
  const double err_sampling = max_abs_diff_coarse(sampled_input.F, fine.F, 100);
  RecordProperty("err_exact_10ms", std::to_string(err_coarse));
  RecordProperty("err_input_sampling_10ms", std::to_string(err_sampling));
  // Measured: err_exact_10ms = 0.0118 N, err_input_sampling_10ms = 0.0123 N (Fs = 1.5 N).
  EXPECT_LE(err_coarse, 1.25 * err_sampling);
  EXPECT_LE(err_coarse, 0.05 * 1.5);
  // The bristle state stays in its bound.
  for (double z : coarse.z) EXPECT_LE(std::abs(z), M::state_bound(p) * (1 + 1e-12));

  // Forward Euler at 10 ms (reference 003's scheme): far outside the bound / not finite.
  const Trace euler = simulate(p, 1e-2, 0, Method::forward_euler, Hold::zoh);
  double worst = 0;
  bool finite = true;
  for (double z : euler.z) {
    finite = finite && std::isfinite(z);
    if (std::isfinite(z)) worst = std::max(worst, std::abs(z));
  }
  EXPECT_TRUE(!finite || worst > 10 * M::state_bound(p))
      << "forward Euler unexpectedly stable: max |z| = " << worst;
}

TEST(LuGreStepSize, ForwardEulerOscillatesAtConstantVelocityBeyondItsStabilityLimit) {
  // At v = 2 mm/s (ref 003's transient), g = 1 + 0.5 exp(-4) = 1.00916 N and
  // a = sigma0 |v| / g(v) = 198.2 1/s, so forward Euler is stable only for h < 2/a = 10.09 ms and
  // oscillates (1 - a h < 0) from h > 5.05 ms. The exact step is monotone for every h.
  const auto p = ref003();
  const double v = 0.002;
  const double a = M::rate(p, v);
  EXPECT_NEAR(2 / a, 2 * (1 + 0.5 * std::exp(-4.0)) / (1e5 * v), 1e-15);
  EXPECT_NEAR(2 / a, 0.010092, 1e-6);
  M::State xe{}, xx{};
  const double h = 0.015;  // beyond the stability limit
  double prev_dev = std::abs(M::state_bound(p));
  const double zss = v / a;
  for (int k = 0; k < 30; ++k) {
    xe = M::State{xe.z + h * M::derivative(p, xe, v).z};
    xx = M::step(p, xx, v, h);
    EXPECT_LE(std::abs(xx.z - zss), prev_dev + 1e-18);  // exact: monotone approach
    prev_dev = std::abs(xx.z - zss);
  }
  EXPECT_GT(std::abs(xe.z - zss), 100 * zss);  // |1 - a h| = 1.92 per step: diverged
  EXPECT_NEAR(xx.z, zss, 1e-15);
}

TEST(LuGre, ExactStepEqualsClosedFormTransient) {
  // Constant v from z = 0: z(t) = zss (1 - exp(-a t)).
  const auto p = ref003();
  const double v = -0.0007;
  const double a = M::rate(p, v), zss = v / a;
  for (double t : {1e-6, 1e-4, 3e-3, 0.1, 10.0}) {
    const double expect = zss * (1 - std::exp(-a * t));
    EXPECT_NEAR(M::step(p, M::State{}, v, t).z, expect, 1e-14 * std::abs(zss)) << t;
  }
  EXPECT_NEAR(zss, -M::g(p, v) / p.sigma0, 1e-18);
}

TEST(LuGre, ImplicitEulerIsFirstOrderAndBounded) {
  // For input samples held over each step, the exact ZOH step is the exact solution of the
  // sampled problem; implicit Euler must converge to it at first order and stay bounded.
  const auto p = ref003();
  double prev = 0;
  for (double h : {1e-3, 5e-4, 2.5e-4}) {
    const Trace ie = simulate(p, h, 0, Method::implicit_euler, Hold::zoh, 0.5);
    const Trace ex = simulate(p, h, 0, Method::exact, Hold::zoh, 0.5);
    double e = 0;
    for (std::size_t k = 0; k < ie.z.size(); ++k) {
      e = std::max(e, std::abs(ie.z[k] - ex.z[k]));
      ASSERT_LE(std::abs(ie.z[k]), M::state_bound(p));
    }
    if (prev > 0) {
      EXPECT_NEAR(std::log2(prev / e), 1.0, 0.25) << "h = " << h;
    }
    prev = e;
  }
}

TEST(LuGre, DisplacementFormRoundTripsAndMatchesTheFortranEquations) {
  LuGreDisplacementForm<double> d{2e4, 100.0, 0.3, 5e-5, 2.5e-5, 0.01, 1.7};
  const auto p = lugre_from_displacement_form(d);
  EXPECT_DOUBLE_EQ(p.curve.Fc_pos, 1.0);
  EXPECT_DOUBLE_EQ(p.curve.Fs_pos, 1.5);
  EXPECT_EQ(p.curve.shape, StribeckShape::rational);
  const auto back = lugre_to_displacement_form<double>(p);
  EXPECT_NEAR(back.a1, d.a1, 1e-12 * d.a1);
  EXPECT_NEAR(back.a2, d.a2, 1e-12 * d.a2);
  // Reference 001: dz/dt = v - |v| z / gd(v), gd = a1 + a2/(1 + (|v|/vs)^alpha).
  for (double v : {-0.03, -0.002, 0.0005, 0.01, 0.2}) {
    const double z = 1.3e-5;
    const double gd = d.a1 + d.a2 / (1 + std::pow(std::abs(v) / d.vs, d.alpha));
    EXPECT_NEAR(M::derivative(p, M::State{z}, v).z, v - std::abs(v) * z / gd, 1e-15);
  }
  const auto c = stribeck_from_mu(0.2, 0.3, 5.0, 0.01, 2.0, StribeckShape::exponential);
  EXPECT_DOUBLE_EQ(c.Fc_pos, 1.0);
  EXPECT_DOUBLE_EQ(c.Fs_neg, 1.5);
}

TEST(LuGre, PassivityConditionOfAstromCanudasDeWit2008) {
  auto p = ref003();  // sigma1 (Fs-Fc)/Fc = 316.2 * 0.5 = 158 > sigma2 = 0.4: not passive
  EXPECT_FALSE(M::is_passive(p));
  p.sigma2 = 160;
  EXPECT_TRUE(M::is_passive(p));
  p.curve.Fs_neg = 4.0;  // negative side: 316.2 * 3 = 949 > 160
  EXPECT_FALSE(M::is_passive(p));
}

TEST(LuGre, AsymmetricCurveAndVelocityDependentDamping) {
  M::Params p = ref003();
  p.curve = StribeckCurve<double>{1.0, 0.6, 1.5, 0.9, 0.001, 2.0, StribeckShape::exponential};
  p.vd = 0.002;
  EXPECT_DOUBLE_EQ(M::steady_force(p, 1.0), 1.0 + 0.4);
  EXPECT_DOUBLE_EQ(M::steady_force(p, -1.0), -0.6 - 0.4);
  EXPECT_DOUBLE_EQ(M::damping(p, 0.002), p.sigma1 * std::exp(-1.0));
  EXPECT_DOUBLE_EQ(M::damping(p, 0.0), p.sigma1);
  // Force = sigma0 z + sigma1(v) zdot + sigma2 v, by hand.
  const double z = 3e-6, v = 0.001;
  const double g = 1.0 + 0.5 * std::exp(-1.0);
  const double zdot = v - p.sigma0 * v / g * z;
  EXPECT_NEAR(M::force(p, M::State{z}, v),
              p.sigma0 * z + p.sigma1 * std::exp(-0.25) * zdot + p.sigma2 * v, 1e-12);
}

TEST(LuGre, VelocityTermsOfOtherForceOnlyParametersEqualTheirOwn) {
  // at_force_only(p2, at(p, v)): the velocity terms of p2, which differs from p in sigma1 and
  // sigma2 only, from p's; the same numbers as at(p2, v), with and without velocity-dependent
  // damping, on both sides and at rest.
  for (const double vd : {0.0, 0.002}) {
    M::Params p = ref003();
    p.curve = StribeckCurve<double>{1.0, 0.6, 1.5, 0.9, 0.001, 2.0, StribeckShape::exponential};
    p.vd = vd;
    M::Params p2 = p;
    p2.sigma1 = 3 * p.sigma1 + 0.1;
    p2.sigma2 = 0.5 * p.sigma2;
    for (const double v : {-0.01, -0.001, 0.0, 0.0004, 0.003, 1.0}) {
      const M::AtVelocity own = M::at(p2, v), from = M::at_force_only(p2, M::at(p, v));
      EXPECT_EQ(from.v, own.v);
      EXPECT_EQ(from.a, own.a);
      EXPECT_EQ(from.z_ss, own.z_ss);
      EXPECT_EQ(from.sigma1, own.sigma1);
      EXPECT_EQ(from.g, own.g);
      EXPECT_EQ(M::force(p2, M::State{2e-6}, from), M::force(p2, M::State{2e-6}, own));
    }
  }
}

TEST(LuGre, FloatTracksDoubleOverALongRun) {
  using Mf = LuGre<float>;
  const auto pd = ref003();
  Mf::Params pf;
  pf.sigma0 = float(pd.sigma0);
  pf.sigma1 = float(pd.sigma1);
  pf.sigma2 = float(pd.sigma2);
  pf.curve = StribeckCurve<float>::symmetric(1.0f, 1.5f, 0.001f, 2.0f);
  M::State xd{};
  Mf::State xf{};
  double worst = 0;
  const double h = 1e-3;
  for (int k = 0; k < 60000; ++k) {  // 60 s at 1 kHz
    const double v = vel(k * h);
    xd = M::step(pd, xd, v, h);
    xf = Mf::step(pf, xf, float(v), float(h));
    worst = std::max(worst, std::abs(M::force(pd, xd, v) - double(Mf::force(pf, xf, float(v)))));
    ASSERT_LE(std::abs(xf.z), Mf::state_bound(pf) * (1 + 1e-6f));
  }
  RecordProperty("float_vs_double_max_force_error", ::testing::PrintToString(worst));
  EXPECT_LE(worst, 1e-3 * 1.5);
}

}  // namespace
}  // namespace frictionlab
