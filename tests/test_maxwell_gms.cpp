// Focused tests of the Maxwell-slip, modified-Stribeck and GMS models.
//
// Oracles: the closed-form virgin curve and Masing's rule of parallel elasto-slide elements,
// exact rate independence (identical position increments at different speeds), non-local memory
// (an inner loop closes at the reversal point it started from and is then forgotten), the static
// Stribeck curve, per-element invariant bounds, and for GMS a fine-step hybrid reference (RK4 on
// the slip law, 1 us steps) as well as the published slip law, which is shown to diverge.
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
#include "frictionlab/models/gms.hpp"
#include "frictionlab/models/maxwell_slip.hpp"

namespace frictionlab {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3e", x);
  return b;
}

// ------------------------------------------------------------------------------------------
// Maxwell slip
// ------------------------------------------------------------------------------------------
using MS = MaxwellSlip<double, 16>;

MS::Params ms_params() {
  MS::Params p;
  p.n = 10;
  for (int i = 0; i < p.n; ++i) {
    p.k[i] = 1e4 * (1 + 0.3 * i);
    p.Delta[i] = 1e-6 * (i + 1);
  }
  p.sigma2 = 0;
  return p;
}

double ms_virgin(const MS::Params& p, double x) {
  double f = 0;
  for (int i = 0; i < p.n; ++i) f += p.k[i] * std::min(x, p.Delta[i]);
  return f;
}

// Position path through the given turning points with increments of `dx`; returns the force at
// every point (v = +-speed, h = dx / speed).
template <class M>
std::vector<double> drive_path(const typename M::Params& p, typename M::State& x,
                               const std::vector<double>& turns, double dx, double speed,
                               std::vector<double>* pos = nullptr) {
  std::vector<double> F;
  double xp = 0;
  for (double target : turns) {
    const double s = target > xp ? 1.0 : -1.0;
    const long n = std::lround(std::abs(target - xp) / dx);
    for (long k = 0; k < n; ++k) {
      x = M::step(p, x, s * speed, dx / speed);
      xp += s * dx;
      F.push_back(M::force(p, x, 0.0));
      if (pos) pos->push_back(xp);
    }
    xp = target;
  }
  return F;
}

TEST(MaxwellSlip, VirginCurveAndMasingBranchMatchClosedForms) {
  const auto p = ms_params();
  MS::State x{};
  const double dx = 1e-7;
  double xp = 0;
  for (int k = 0; k < 80; ++k) {  // up to 8e-6: elements 1..8 slip, 9 and 10 do not
    x = MS::step(p, x, 1e-3, dx / 1e-3);
    xp += dx;
    ASSERT_NEAR(MS::force(p, x, 0), ms_virgin(p, xp), 1e-12) << k;
  }
  // Masing: after the reversal at xA, F = F_A - 2 F_virgin((xA - x)/2) down to x = -xA... valid
  // while every element is either slipped at xA or not yet reached: check up to d = 2 xA.
  const double FA = MS::force(p, x, 0), xA = xp;
  double d = 0;
  for (int k = 0; k < 160; ++k) {
    x = MS::step(p, x, -1e-3, dx / 1e-3);
    d += dx;
    ASSERT_NEAR(MS::force(p, x, 0), FA - 2 * ms_virgin(p, d / 2), 1e-12) << k;
  }
  EXPECT_NEAR(MS::force(p, x, 0), -FA, 1e-12);  // symmetric: F(-xA) = -F(xA)
  (void)xA;
}

TEST(MaxwellSlip, RateIndependentToRounding) {
  const auto p = ms_params();
  const std::vector<double> turns{8e-6, -3e-6, 5e-6, 1e-6, 1.2e-5};
  MS::State a{}, b{};
  const double dx = std::ldexp(1.0, -25);                                 // ~3e-8 m
  const auto Fa = drive_path<MS>(p, a, turns, dx, std::ldexp(1.0, -20));  // ~1e-6 m/s
  const auto Fb = drive_path<MS>(p, b, turns, dx, std::ldexp(1.0, 6));    // 64 m/s
  ASSERT_EQ(Fa.size(), Fb.size());
  double e = 0;
  for (std::size_t k = 0; k < Fa.size(); ++k) e = std::max(e, std::abs(Fa[k] - Fb[k]));
  EXPECT_EQ(e, 0.0);
  // A step over several increments equals the increments taken one by one (monotone motion).
  MS::State c{}, d{};
  c = MS::step(p, c, 0.01, 1e-3);  // dx = 1e-5
  for (int k = 0; k < 10; ++k) d = MS::step(p, d, 0.01, 1e-4);
  EXPECT_NEAR(MS::force(p, c, 0), MS::force(p, d, 0), 1e-12);
}

// Non-local memory, for any rate-independent hysteretic model M: path 0 -> A -> B -> C -> B -> A
// -> D versus 0 -> A -> B -> A -> D (B < C < A < D). The inner loop B -> C -> B closes at B, and
// once the motion passes A again the loop is wiped out: both paths give the same F on A -> D.
template <class M>
void check_nonlocal_memory(const typename M::Params& p, double speed, double tol) {
  const double A = 8e-6, B = -2e-6, C = 4e-6, D = 1.4e-5, dx = 1e-7;
  typename M::State x1{}, x2{};
  const auto F1 = drive_path<M>(p, x1, {A, B, C, B, A, D}, dx, speed);
  const auto F2 = drive_path<M>(p, x2, {A, B, A, D}, dx, speed);
  const long nA = std::lround(A / dx), nAB = std::lround((A - B) / dx),
             nBC = std::lround((C - B) / dx);
  const double FB1 = F1[nA + nAB - 1];
  const double FB2 = F1[nA + nAB + 2 * nBC - 1];  // back at B after the inner loop
  EXPECT_NEAR(FB2, FB1, tol) << "inner loop does not close at B";
  // From B upwards: F1 after the inner loop equals F2 after its single reversal at B.
  const std::size_t off1 = nA + nAB + 2 * nBC, off2 = nA + nAB;
  ASSERT_EQ(F1.size() - off1, F2.size() - off2);
  double e = 0;
  for (std::size_t k = 0; k < F2.size() - off2; ++k)
    e = std::max(e, std::abs(F1[off1 + k] - F2[off2 + k]));
  EXPECT_LT(e, tol) << "the outer branch is not resumed";
  // The inner loop really was a loop (not a single-valued curve): the branch B -> C differs from
  // C -> B at the midpoint.
  const double up = F1[nA + nAB + nBC / 2 - 1], down = F1[nA + nAB + nBC + nBC / 2 - 1];
  EXPECT_GT(std::abs(up - down), 100 * tol);
}

TEST(MaxwellSlip, NonLocalMemory) { check_nonlocal_memory<MS>(ms_params(), 1e-3, 1e-12); }

TEST(MaxwellSlip, SteadyStateAndBounds) {
  auto p = ms_params();
  p.sigma2 = 0.4;
  for (double v : {-0.1, -1e-4, 1e-4, 0.1}) {
    MS::State x{};
    for (int k = 0; k < 10; ++k) x = MS::step(p, x, v, 0.01);
    EXPECT_NEAR(MS::force(p, x, v), MS::steady_force(p, v), 1e-12);
  }
  auto check = [](auto tag) {
    using S = decltype(tag);
    using M = MaxwellSlip<S, 8>;
    typename M::Params q;
    q.n = 8;
    for (int i = 0; i < q.n; ++i) {
      q.k[i] = S(1e4);
      q.Delta[i] = S(1e-6 * (i + 1));
    }
    std::mt19937 rng(2);
    std::uniform_real_distribution<double> uv(-0.01, 0.01), uh(-6, -2);
    typename M::State x{};
    for (int k = 0; k < 5000; ++k) {
      x = M::step(q, x, S(uv(rng)), S(std::pow(10.0, uh(rng))));
      for (int i = 0; i < q.n; ++i) ASSERT_LE(std::abs(double(x.z[i])), double(q.Delta[i]));
    }
  };
  check(double{});
  check(float{});
}

// ------------------------------------------------------------------------------------------
// Modified Stribeck
// ------------------------------------------------------------------------------------------
using MSt = ModifiedStribeck<double>;

TEST(ModifiedStribeck, VirginCurveSteadyStateAndBound) {
  MSt::Params p;
  p.k = 1e5;
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0);
  for (double v : {-0.01, -0.001, -1e-4, 1e-4, 0.001, 0.01}) {
    MSt::State x{};
    const double cap = stribeck_g(p.curve, v) / p.k;
    double xp = 0;
    for (int k = 0; k < 100; ++k) {
      x = MSt::step(p, x, v, 1e-6 / std::abs(v));  // |dx| = 1e-6... cap is 1e-5..1.5e-5
      xp += v * 1e-6 / std::abs(v);
      const double expect = std::abs(xp) < cap ? p.k * xp : (v > 0 ? 1 : -1) * cap * p.k;
      ASSERT_NEAR(MSt::force(p, x, v) - p.sigma2 * v, expect, 1e-10) << v << " " << k;
    }
    EXPECT_NEAR(MSt::force(p, x, v), MSt::steady_force(p, v), 1e-12);
    EXPECT_LE(std::abs(x.z), MSt::state_bound(p));
  }
}

// ------------------------------------------------------------------------------------------
// GMS
// ------------------------------------------------------------------------------------------
constexpr int kN = 8;
using G = GMS<double, kN>;

G::Params gms_params() {
  G::Params p;
  p.n = 5;
  const double nu[5] = {0.1, 0.15, 0.2, 0.25, 0.3};
  for (int i = 0; i < p.n; ++i) {  // slip deflections nu_i Fs / k_i = 1, 2.5, 4, 5.5, 7 um
    p.nu[i] = nu[i];
    p.k[i] = nu[i] * 1.5 / (1e-6 * (1 + 1.5 * i));
  }
  p.C = 20;
  p.sigma2 = 0.4;
  p.curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0);
  return p;
}

TEST(GMS, SteadyStateIsTheStribeckCurve) {
  const auto p = gms_params();
  for (double v : {-0.03, -0.003, -0.001, -3e-4, 3e-4, 0.001, 0.003, 0.03}) {
    G::State x{};
    for (int k = 0; k < 400; ++k) x = G::step(p, x, v, 0.05);
    const double Fss = (v > 0 ? 1 : -1) * stribeck_g(p.curve, v) + p.sigma2 * v;
    EXPECT_NEAR(G::steady_force(p, v), Fss, 1e-15);
    EXPECT_NEAR(G::force(p, x, v), Fss, 1e-9 * std::abs(Fss)) << "v=" << v;
    for (int i = 0; i < p.n; ++i) EXPECT_TRUE(x.slipping[i]);
  }
}

TEST(GMS, NonLocalMemoryAtLowSpeed) {
  // |v| = vs/100: g = Fs (1 - 1e-4 relative); inner loops close at their reversal points.
  check_nonlocal_memory<G>(gms_params(), 1e-5, 1e-9);
}

TEST(GMS, RateIndependentWellBelowTheStribeckVelocityAndEqualToMaxwellSlip) {
  // At |v| << vs the GMS is the Maxwell-slip model with Delta_i = nu_i g(v) / k_i. Two speeds
  // (vs/1000 and vs/100) give the same F(x) to the relative change of g: (v/vs)^2 = 1e-4.
  auto p = gms_params();
  p.sigma2 = 0;
  const std::vector<double> turns{8e-6, -3e-6, 5e-6, 1e-6, 1.2e-5};
  G::State a{}, b{};
  const auto Fa = drive_path<G>(p, a, turns, 1e-7, 1e-6);
  const auto Fb = drive_path<G>(p, b, turns, 1e-7, 1e-5);
  ASSERT_EQ(Fa.size(), Fb.size());
  double e = 0;
  for (std::size_t k = 0; k < Fa.size(); ++k) e = std::max(e, std::abs(Fa[k] - Fb[k]));
  RecordProperty("rate_dependence", sci(e));
  EXPECT_LT(e, 1.5 * 1e-4 * 1.01);  // Fs (v/vs)^2 at the faster speed
  // Equivalent Maxwell-slip model at the slower speed (g = Fs exp(-1e-6)).
  MaxwellSlip<double, kN>::Params q;
  q.n = p.n;
  const double g = stribeck_g(p.curve, 1e-6);
  for (int i = 0; i < p.n; ++i) {
    q.k[i] = p.k[i];
    q.Delta[i] = p.nu[i] * g / p.k[i];
  }
  MaxwellSlip<double, kN>::State m{};
  const auto Fm = drive_path<MaxwellSlip<double, kN>>(q, m, turns, 1e-7, 1e-6);
  double em = 0;
  for (std::size_t k = 0; k < Fa.size(); ++k) em = std::max(em, std::abs(Fa[k] - Fm[k]));
  RecordProperty("vs_maxwell_slip", sci(em));
  EXPECT_LT(em, 1e-12);
}

// Fine-step hybrid reference for one element force F = k z: stick F += k v dt, clamped at the
// threshold (where the slip law has its equilibrium for constant v, so the clamp is exact), slip
// integrated with classical RK4 on dF/dt = law(F). `published` selects the slip law of the 2005
// paper, dF/dt = sgn(v) C (nu - F/g), instead of dF/dt = C (sgn(v) nu - F/g).
struct RefElement {
  double F = 0;
  bool slip = false;
};

void ref_step(RefElement& e, double k, double nu, double C, double g, double v, double dt,
              bool published) {
  if (v == 0) return;
  const double s = v > 0 ? 1 : -1;
  if (e.slip && e.F * s < 0) e.slip = false;  // reversal
  if (!e.slip) {
    const double Fn = e.F + k * v * dt;
    if (s * Fn < nu * g) {
      e.F = Fn;
      return;
    }
    if (s * e.F < nu * g) {
      e.F = s * nu * g;
      e.slip = true;
      return;
    }
    e.slip = true;
  }
  auto law = [&](double F) { return published ? s * C * (nu - F / g) : C * (s * nu - F / g); };
  const double k1 = law(e.F), k2 = law(e.F + dt / 2 * k1), k3 = law(e.F + dt / 2 * k2),
               k4 = law(e.F + dt * k3);
  e.F += dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
}

double gms_input(double t) {
  return 0.003 * std::sin(2 * kPi * t) + 0.0015 * std::sin(2 * kPi * 2.3 * t + 0.4);
}

TEST(GMS, ExactStepMatchesFineHybridReference) {
  // ZOH input changing every 1 ms through the Stribeck region (|v| up to 4.5 vs), so slipping
  // elements follow g(v) with the exponential slip law. Exact step: one step per sample.
  // Reference: 1000 RK4/stick substeps per sample.
  const auto p = gms_params();
  G::State x{};
  std::vector<RefElement> ref(p.n);
  double e = 0;
  const double H = 1e-3;
  for (int k = 0; k < 2000; ++k) {
    const double v = gms_input(k * H);
    x = G::step(p, x, v, H);
    const double g = stribeck_g(p.curve, v);
    for (int i = 0; i < p.n; ++i)
      for (int j = 0; j < 1000; ++j) ref_step(ref[i], p.k[i], p.nu[i], p.C, g, v, H / 1000, false);
    double Fr = 0;
    for (int i = 0; i < p.n; ++i) Fr += ref[i].F;
    e = std::max(e, std::abs(G::force(p, x, 0.0) - Fr));
  }
  RecordProperty("max_err", sci(e));
  EXPECT_LT(e, 1e-10);
  // The same input taken with 100 substeps per sample: identical (exact ZOH update).
  G::State y{};
  double ez = 0;
  x = G::State{};
  for (int k = 0; k < 2000; ++k) {
    const double v = gms_input(k * H);
    x = G::step(p, x, v, H);
    for (int j = 0; j < 100; ++j) y = G::step(p, y, v, H / 100);
    ez = std::max(ez, std::abs(G::force(p, x, v) - G::force(p, y, v)));
  }
  EXPECT_LT(ez, 1e-12);
}

TEST(GMS, PublishedSlipLawDivergesAfterAReversalAndOursDoesNot) {
  // One element (nu = 1, k = 1e5 N/m, C = 20 N/s), v = +1 mm/s for 0.5 s, then -1 mm/s for 2 s.
  // After the reversal the element sticks, reaches -nu g, slips: the published law has its
  // equilibrium at +nu g (repelling for v < 0), so F runs away like exp(C t / g); ours stays at
  // -nu g.
  const double k = 1e5, nu = 1, C = 20, V = 1e-3, dt = 1e-4;
  const StribeckCurve<double> curve = StribeckCurve<double>::symmetric(1.0, 1.5, 0.001, 2.0);
  RefElement pub, ours;
  double max_pub = 0, max_ours = 0;
  for (int j = 0; j < 25000; ++j) {
    const double v = j < 5000 ? V : -V;
    const double g = stribeck_g(curve, v);
    ref_step(pub, k, nu, C, g, v, dt, true);
    ref_step(ours, k, nu, C, g, v, dt, false);
    max_pub = std::max(max_pub, std::abs(pub.F));
    max_ours = std::max(max_ours, std::abs(ours.F));
  }
  const double bound = nu * stribeck_gmax(curve);
  RecordProperty("published_max_F", sci(max_pub));
  EXPECT_GT(max_pub, 100 * bound);  // diverged
  EXPECT_LE(max_ours, bound * (1 + 1e-12));
  EXPECT_NEAR(ours.F, -nu * stribeck_g(curve, -V), 1e-12);
  // The library model gives the same as the reference with our law.
  using G1 = GMS<double, 1>;
  G1::Params p;
  p.n = 1;
  p.k[0] = k;
  p.nu[0] = nu;
  p.C = C;
  p.curve = curve;
  p.sigma2 = 0;
  G1::State x{};
  x = G1::step(p, x, V, 0.5);
  x = G1::step(p, x, -V, 2.0);
  EXPECT_NEAR(G1::force(p, x, 0.0), ours.F, 1e-12);
}

TEST(GMS, ElementForcesStayWithinNuTimesMaxG) {
  auto check = [](auto tag) {
    using S = decltype(tag);
    using M = GMS<S, kN>;
    const auto pd = gms_params();
    typename M::Params p;
    p.n = pd.n;
    for (int i = 0; i < p.n; ++i) {
      p.k[i] = S(pd.k[i]);
      p.nu[i] = S(pd.nu[i]);
    }
    p.C = S(pd.C);
    p.sigma2 = S(pd.sigma2);
    p.curve = StribeckCurve<S>::symmetric(S(1), S(1.5), S(0.001), S(2));
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> uv(-0.01, 0.01), uh(-6, 0);
    typename M::State x{};
    const double tol = std::is_same_v<S, float> ? 1e-6 : 1e-13;
    for (int k = 0; k < 5000; ++k) {
      x = M::step(p, x, S(uv(rng)), S(std::pow(10.0, uh(rng))));
      for (int i = 0; i < p.n; ++i) {
        ASSERT_LE(std::abs(double(p.k[i] * x.z[i])),
                  double(M::element_force_bound(p, i)) * (1 + tol))
            << k << " " << i;
      }
      ASSERT_LE(std::abs(double(M::force(p, x, S(0)))), 1.5 * (1 + tol));
    }
  };
  check(double{});
  check(float{});
}

TEST(GMS, AutodiffThroughTheStepMatchesFiniteDifferences) {
  using J = ceres::Jet<double, 3>;  // C, Fs, vs
  const double th[3] = {20.0, 1.5, 0.001};
  auto make = [](auto C, auto Fs, auto vs) {
    using S = decltype(C);
    typename GMS<S, kN>::Params p;
    const auto pd = gms_params();
    p.n = pd.n;
    for (int i = 0; i < p.n; ++i) {
      p.k[i] = S(pd.k[i]);
      p.nu[i] = S(pd.nu[i]);
    }
    p.C = C;
    p.sigma2 = S(0.4);
    p.curve = StribeckCurve<S>::symmetric(S(1), Fs, vs, S(2));
    return p;
  };
  auto objective = [&](const double* t) {
    const auto p = make(t[0], t[1], t[2]);
    G::State x{};
    double acc = 0;
    for (int k = 0; k < 1000; ++k) {
      const double v = gms_input(k * 1e-3);
      x = G::step(p, x, v, 1e-3);
      acc += G::force(p, x, v);
    }
    return acc;
  };
  const auto pj = make(J(th[0], 0), J(th[1], 1), J(th[2], 2));
  GMS<J, kN>::State xj{};
  J acc(0.0);
  for (int k = 0; k < 1000; ++k) {
    const J v(gms_input(k * 1e-3));
    xj = GMS<J, kN>::step(pj, xj, v, J(1e-3));
    acc += GMS<J, kN>::force(pj, xj, v);
  }
  EXPECT_NEAR(acc.a, objective(th), 1e-10 * std::abs(acc.a));
  for (int i = 0; i < 3; ++i) {
    const double fd = testing::central_difference(objective, th, i);
    EXPECT_NEAR(acc.v[i], fd, 1e-5 * std::abs(fd) + 1e-6 * std::abs(acc.a) / th[i]) << i;
  }
}

}  // namespace
}  // namespace frictionlab
