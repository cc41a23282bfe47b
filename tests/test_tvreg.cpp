// TV-regularised differentiation (signal/tvreg.hpp), its use in differentiate(), re-integration
// (signal/reintegrate.hpp), decimation (signal/decimate.hpp) and the inverse-model setting of the
// record pipeline (data/preprocess.hpp).
// Oracles: minimisers of the same discrete functional found by scipy.optimize, and of
// Chartrand's two discretisations (tests/tvreg_reference.py -> tests/tvreg_reference.inc);
// closed forms (polynomials reproduced, exact derivatives of the synthetic signals, Butterworth
// |H|^2); the optimality condition of the functional; invariance under the sample rate. Measured
// numbers are printed as "[ measured ]" lines (docs/preprocessing.md quotes them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/data/preprocess.hpp"
#include "frictionlab/io/csv.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/decimate.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/reintegrate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/savgol.hpp"
#include "frictionlab/signal/tvreg.hpp"
#include "max_abs.hpp"
#include "tvreg_reference.inc"

namespace frictionlab::signal {
namespace {

constexpr double kPi = std::numbers::pi;

template <std::size_t N>
std::vector<double> vec(const double (&a)[N]) {
  return std::vector<double>(a, a + N);
}

std::vector<double> grid(std::size_t n, double h) {
  std::vector<double> t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = static_cast<double>(i) * h;
  return t;
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b,
                    std::size_t skip = 0) {
  double m = 0;
  for (std::size_t k = skip; k + skip < std::min(a.size(), b.size()); ++k)
    m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

double rms_diff(const std::vector<double>& a, const std::vector<double>& b, std::size_t skip = 0) {
  double s = 0;
  std::size_t c = 0;
  for (std::size_t k = skip; k + skip < std::min(a.size(), b.size()); ++k, ++c)
    s += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(s / static_cast<double>(c));
}

using testing::max_abs;

/// The message of what f throws (a test failure when it throws nothing).
std::string thrown_message(const std::function<void()>& f) {
  return testing::message_of<std::exception>(f);
}

/// Midpoint derivatives (y_{k+1} - y_k) / h, at t_k + h/2.
std::vector<double> midpoint_derivative(const std::vector<double>& y, double h) {
  std::vector<double> u(y.size() - 1);
  for (std::size_t k = 0; k + 1 < y.size(); ++k) u[k] = (y[k + 1] - y[k]) / h;
  return u;
}

/// Gradient of J / h (tvreg.hpp) at y: y - f + alpha / h^p D^T (s / sqrt(s^2 + eps^2)),
/// written directly from the definition of J.
std::vector<double> gradient(const std::vector<double>& y, const std::vector<double>& f, double h,
                             double alpha, double eps, int order) {
  std::vector<double> d = y;
  for (int j = 0; j <= order; ++j) {
    for (std::size_t k = 0; k + 1 < d.size(); ++k) d[k] = d[k + 1] - d[k];
    d.pop_back();
  }
  const double hp = std::pow(h, order + 1);
  for (double& v : d) {
    const double s = v / hp;
    v = s / std::sqrt(s * s + eps * eps);
  }
  // D^T: adjoint of the forward difference applied order+1 times: (Delta^T g)_i = g_{i-1} - g_i.
  for (int j = 0; j <= order; ++j) {
    std::vector<double> e(d.size() + 1, 0.0);
    for (std::size_t k = 0; k < d.size(); ++k) {
      e[k] -= d[k];
      e[k + 1] += d[k];
    }
    d = e;
  }
  std::vector<double> g(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) g[i] = y[i] - f[i] + alpha / hp * d[i];
  return g;
}

// ---------------------------------------------------------------------------------------------
// The minimiser of the discrete functional, against scipy.optimize on the same functional.

void check_against_scipy(int order, double alpha, double eps, const std::vector<double>& f,
                         const std::vector<double>& ref, double objective, double tol) {
  const auto t = grid(f.size(), tvreg_reference::kStep);
  TVRegOptions o;
  o.order = order;
  o.alpha = alpha;
  o.epsilon = eps;
  o.tolerance = 1e-12;
  const TVRegResult r = tvreg(t, f, o);
  EXPECT_TRUE(r.converged);
  const double dy = max_abs_diff(r.smoothed, ref);
  const double h = tvreg_reference::kStep;
  // the m-th derivative (the regularised one), relative to its size
  std::vector<double> u = r.smoothed, uref = ref;
  for (int j = 0; j < order; ++j) {
    u = midpoint_derivative(u, h);
    uref = midpoint_derivative(uref, h);
  }
  const double du = max_abs_diff(u, uref) / max_abs(uref);
  std::printf(
      "[ measured ] order %d vs scipy: max |y - y_ref| = %.2e, max |u - u_ref| / max |u_ref| "
      "= %.2e, objective %.15g vs %.15g, %d iterations\n",
      order, dy, du, r.objective, objective, r.iterations);
  EXPECT_LT(dy, tol);
  EXPECT_NEAR(r.objective, objective, 1e-10 * std::abs(objective));
}

TEST(TVReg, Order1MatchesIndependentMinimiser) {
  check_against_scipy(1, tvreg_reference::kAlphaOrder1, tvreg_reference::kEpsilonOrder1,
                      vec(tvreg_reference::kDataOrder1), vec(tvreg_reference::kMinimiserOrder1),
                      tvreg_reference::kObjectiveOrder1, 1e-10);
}

TEST(TVReg, Order2MatchesIndependentMinimiser) {
  check_against_scipy(2, tvreg_reference::kAlphaOrder2, tvreg_reference::kEpsilonOrder2,
                      vec(tvreg_reference::kDataOrder2), vec(tvreg_reference::kMinimiserOrder2),
                      tvreg_reference::kObjectiveOrder2, 1e-10);
}

// ---------------------------------------------------------------------------------------------
// Scaling of alpha. Chartrand's code (dx = h) minimises the same continuous functional with
// alpha_time = alpha_code * h; with the offset fixed at the first sample (as his code does) the
// height of the box in the derivative, which TV regularisation lowers by an amount that depends on
// alpha, must agree with his 'large' and 'small' discretisations.

double box_height(const std::vector<double>& u, double h) {
  // mean over t in (0.35, 0.55) minus mean over t in (0.10, 0.25); u_k at the midpoint
  // t_k + h/2 (k = 0..n-2)
  double a = 0, b = 0;
  int na = 0, nb = 0;
  for (std::size_t k = 0; k < u.size(); ++k) {
    const double tk = (static_cast<double>(k) + 0.5) * h;
    if (tk > 0.35 && tk < 0.55) a += u[k], ++na;
    if (tk > 0.10 && tk < 0.25) b += u[k], ++nb;
  }
  return a / na - b / nb;
}

TEST(TVReg, ChartrandScaling) {
  const double h = tvreg_reference::kChartrandStep;
  const auto f = vec(tvreg_reference::kChartrandData);
  const auto t = grid(f.size(), h);
  const auto large = vec(tvreg_reference::kChartrandLarge);  // u_k at t_k - h/2
  const auto small = vec(tvreg_reference::kChartrandSmall);  // u_j at t_(j-1)
  // both at the midpoints t_k + h/2, k = 0..n-2
  const std::vector<double> large_mid(large.begin() + 1, large.end());
  std::vector<double> small_mid(f.size() - 1);
  for (std::size_t k = 0; k + 1 < f.size(); ++k) small_mid[k] = (small[k + 1] + small[k + 2]) / 2;
  const double box_large = box_height(large_mid, h);
  const double box_small = box_height(small_mid, h);
  auto box_for = [&](double alpha_factor, TVOffset offset) {
    TVRegOptions o;
    o.order = 1;
    o.scaling = TVScaling::per_sample;
    o.alpha = tvreg_reference::kChartrandAlpha * alpha_factor;
    o.epsilon = tvreg_reference::kChartrandEpsilon;
    o.offset = offset;
    o.tolerance = 1e-12;
    const TVRegResult r = tvreg(t, f, o);
    EXPECT_TRUE(r.converged);
    EXPECT_DOUBLE_EQ(r.alpha, o.alpha * h);
    return box_height(midpoint_derivative(r.smoothed, h), h);
  };
  const double box = box_for(1.0, TVOffset::first_sample);
  const double box_lo = box_for(0.9, TVOffset::first_sample);
  const double box_hi = box_for(1.1, TVOffset::first_sample);
  const double box_free = box_for(1.0, TVOffset::least_squares);
  std::printf(
      "[ measured ] box height: Chartrand large %.6f, small %.6f; frictionlab per-sample "
      "alpha %.6f (x0.9: %.6f, x1.1: %.6f); with the least-squares offset %.6f\n",
      box_large, box_small, box, box_lo, box_hi, box_free);
  EXPECT_NEAR(box, box_large, 2e-4);
  EXPECT_NEAR(box, box_small, 2e-4);
  // a 10 % error in the scaling would be seen 20 times over
  EXPECT_GT(std::abs(box_lo - box_large), 4e-3);
  EXPECT_GT(std::abs(box_hi - box_large), 4e-3);
  // interior agreement with the 'large' solution (same midpoints)
  TVRegOptions o;
  o.order = 1;
  o.scaling = TVScaling::per_sample;
  o.alpha = tvreg_reference::kChartrandAlpha;
  o.epsilon = tvreg_reference::kChartrandEpsilon;
  o.offset = TVOffset::first_sample;
  o.tolerance = 1e-12;
  const auto u = midpoint_derivative(tvreg(t, f, o).smoothed, h);
  const double rms = rms_diff(u, large_mid, 10);
  std::printf(
      "[ measured ] interior RMS difference to Chartrand 'large' = %.2e (derivative RMS ~0.6)\n",
      rms);
  EXPECT_LT(rms, 1e-2);
}

// ---------------------------------------------------------------------------------------------
// The time convention: the same alpha gives the same derivative of the same signal at any rate.

// f(t) = 0.25 t^2 + (min(max(t, 0.3), 0.6) - 0.3): derivative 0.5 t plus a box on (0.3, 0.6).
double box_signal(double t) { return 0.25 * t * t + (std::clamp(t, 0.3, 0.6) - 0.3); }

// f(t) with acceleration +4 on [0.2, 0.4), -4 on [0.6, 0.8), 0 elsewhere (position from rest).
double ptp_signal(double t) {
  auto ramp2 = [](double x) { return x > 0 ? 0.5 * x * x : 0.0; };  // integral of integral of H(x)
  return 4 * (ramp2(t - 0.2) - ramp2(t - 0.4) - ramp2(t - 0.6) + ramp2(t - 0.8));
}

TEST(TVReg, SameAlphaSameDerivativeAtAnyRate) {
  for (int order = 1; order <= 2; ++order) {
    const double h1 = 0.004, h2 = 0.001;  // 251 and 1001 samples over 1 s
    const auto t1 = grid(251, h1), t2 = grid(1001, h2);
    std::vector<double> f1(t1.size()), f2(t2.size());
    auto sig = order == 1 ? box_signal : ptp_signal;
    for (std::size_t i = 0; i < t1.size(); ++i) f1[i] = sig(t1[i]);
    for (std::size_t i = 0; i < t2.size(); ++i) f2[i] = sig(t2[i]);
    TVRegOptions o;
    o.order = order;
    o.alpha = order == 1 ? 2e-5 : 2e-7;
    o.epsilon = order == 1 ? 1.0 : 10.0;
    o.tolerance = 1e-9;
    const TVRegResult r1 = tvreg(t1, f1, o);
    const TVRegResult r2 = tvreg(t2, f2, o);
    // the same alpha number in the per-sample convention means 4x less regularisation at h2
    TVRegOptions ops = o;
    ops.scaling = TVScaling::per_sample;
    ops.alpha = o.alpha / h1;
    const TVRegResult r2ps = tvreg(t2, f2, ops);
    ASSERT_TRUE(r1.converged && r2.converged && r2ps.converged);
    // compare the regularised derivative at the coarse sample times (every 4th fine sample)
    const auto& d1 = order == 1 ? r1.first : r1.second;
    const auto& d2 = order == 1 ? r2.first : r2.second;
    const auto& d2ps = order == 1 ? r2ps.first : r2ps.second;
    double e = 0, eps_ = 0, scale = 0;
    std::size_t count = 0;
    for (std::size_t i = 2; i + 2 < t1.size(); ++i, ++count) {
      e += (d1[i] - d2[4 * i]) * (d1[i] - d2[4 * i]);
      eps_ += (d1[i] - d2ps[4 * i]) * (d1[i] - d2ps[4 * i]);
      scale = std::max(scale, std::abs(d2[4 * i]));
    }
    e = std::sqrt(e / static_cast<double>(count));
    eps_ = std::sqrt(eps_ / static_cast<double>(count));
    // and the regularisation effect itself (distance from the exact derivative) at h2
    double effect = 0;
    for (std::size_t i = 8; i + 8 < t2.size(); ++i) {
      const double tt = t2[i];
      const double exact =
          order == 1 ? 0.5 * tt + (tt > 0.3 && tt < 0.6 ? 1.0 : 0.0)
                     : (tt >= 0.2 && tt < 0.4 ? 4.0 : (tt >= 0.6 && tt < 0.8 ? -4.0 : 0.0));
      effect = std::max(effect, std::abs(d2[i] - exact));
    }
    std::printf(
        "[ measured ] order %d, h = 4 ms vs 1 ms: RMS difference of the derivative %.3g (time "
        "alpha) vs %.3g (per-sample alpha); max regularisation effect %.3g; scale %.3g; "
        "%d, %d, %d iterations\n",
        order, e, eps_, effect, scale, r1.iterations, r2.iterations, r2ps.iterations);
    EXPECT_LT(e, 0.25 * eps_);
  }
}

// ---------------------------------------------------------------------------------------------
// Showcases: Chartrand's |x| example and robot-like point-to-point motion, against central
// differences and the best Savitzky-Golay window.

TEST(TVReg, AbsoluteValueShowcase) {
  // f = |t - 0.5| + noise (sigma 0.05) on 101 points of [0, 1] (Chartrand 2011, sec. 4.1 uses
  // the same kind of data); exact derivative -1 / +1.
  const std::size_t n = 101;
  const double h = 0.01;
  const auto t = grid(n, h);
  std::mt19937 gen(5);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<double> f(n), exact(n);
  for (std::size_t i = 0; i < n; ++i) {
    f[i] = std::abs(t[i] - 0.5) + noise(gen);
    exact[i] = t[i] < 0.5 ? -1.0 : (t[i] > 0.5 ? 1.0 : 0.0);
  }
  TVRegOptions o;
  o.order = 1;
  o.scaling = TVScaling::per_sample;
  o.alpha = 0.2;  // Chartrand's value for this example
  const TVRegResult r = tvreg(t, f, o);
  ASSERT_TRUE(r.converged);
  DiffOptions c;
  c.method = DiffMethod::central;
  const auto central = differentiate(t, f, c).first;
  double best_sg = 1e9;
  int best_w = 0;
  for (int w = 5; w <= 41; w += 2) {
    const double e = rms_diff(savgol_filter(f, w, 2, 1, h), exact);
    if (e < best_sg) best_sg = e, best_w = w;
  }
  const double e_tv = rms_diff(r.first, exact), e_c = rms_diff(central, exact);
  std::printf(
      "[ measured ] |x| showcase: RMS derivative error TVRegDiff %.3f (%d iterations), "
      "central differences %.3f, best Savitzky-Golay (p = 2, w = %d) %.3f\n",
      e_tv, r.iterations, e_c, best_w, best_sg);
  EXPECT_LT(e_tv, 0.1 * e_c);
  EXPECT_LT(e_tv, best_sg);
}

/// Point-to-point moves with trapezoidal velocity profiles (acceleration +-amax, cruise, dwell),
/// sampled exactly: position, velocity, acceleration.
struct Motion {
  std::vector<double> t, q, v, a;
};

Motion point_to_point(double fs, double duration, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  struct Seg {
    double d, a;
  };
  std::vector<Seg> segs;
  const double amax = 4;
  double total = 0, x = 0;
  while (total < duration + 1) {
    const double target = -1.2 + 2.4 * U(g), d = target - x, vmax = 0.3 + 1.7 * U(g);
    const double s = d > 0 ? 1 : -1, dist = std::abs(d);
    double ta = vmax / amax, tc = 0;
    if (vmax * ta > dist)
      ta = std::sqrt(dist / amax);
    else
      tc = (dist - vmax * ta) / vmax;
    const double dwell = 0.1 + 0.7 * U(g);
    segs.push_back({ta, s * amax});
    segs.push_back({tc, 0});
    segs.push_back({ta, -s * amax});
    segs.push_back({dwell, 0});
    total += 2 * ta + tc + dwell;
    x = target;
  }
  const auto n = static_cast<std::size_t>(std::lround(duration * fs)) + 1;
  Motion m;
  m.t = grid(n, 1.0 / fs);
  m.q.resize(n), m.v.resize(n), m.a.resize(n);
  double tb = 0, v0 = 0, p0 = 0;
  std::size_t si = 0;
  for (std::size_t i = 0; i < n; ++i) {
    while (m.t[i] >= tb + segs[si].d) {
      const double d = segs[si].d, a = segs[si].a;
      p0 += v0 * d + 0.5 * a * d * d;
      v0 += a * d;
      tb += d;
      ++si;
    }
    const double tau = m.t[i] - tb, a = segs[si].a;
    m.a[i] = a;
    m.v[i] = v0 + a * tau;
    m.q[i] = p0 + v0 * tau + 0.5 * a * tau * tau;
  }
  return m;
}

/// x plus white Gaussian noise of standard deviation sigma (std::mt19937 seeded with seed).
std::vector<double> with_noise(std::vector<double> x, unsigned seed, double sigma) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> noise(0.0, sigma);
  for (double& v : x) v += noise(gen);
  return x;
}

TEST(TVReg, PointToPointMotionAgainstSavitzkyGolay) {
  // 10 s at 1 kHz, position noise 1e-4 rad; order 2 (piecewise-constant acceleration).
  Motion m = point_to_point(1000, 10, 7);
  std::vector<double> q = with_noise(m.q, 11, 1e-4);
  const double h = 1e-3;
  TVRegOptions o;
  o.order = 2;
  o.alpha = 3e-10;
  const TVRegResult r = tvreg(m.t, q, o);
  ASSERT_TRUE(r.converged);
  const std::size_t skip = 50;  // compare away from the ends (both methods)
  const double ev = rms_diff(r.first, m.v, skip), ea = rms_diff(r.second, m.a, skip);
  double best_v = 1e9, best_a = 1e9;
  int wv = 0, wa = 0;
  for (int w = 11; w <= 201; w += 10) {
    const double e1 = rms_diff(savgol_filter(q, w, 3, 1, h), m.v, skip);
    const double e2 = rms_diff(savgol_filter(q, w, 3, 2, h), m.a, skip);
    if (e1 < best_v) best_v = e1, wv = w;
    if (e2 < best_a) best_a = e2, wa = w;
  }
  std::printf(
      "[ measured ] point-to-point, 10 s at 1 kHz, noise 1e-4 rad: TV order 2 (alpha 3e-10, "
      "%d iterations) velocity RMS error %.2e rad/s, acceleration %.3f rad/s^2; best "
      "Savitzky-Golay (p = 3) velocity %.2e (w = %d), acceleration %.3f (w = %d); residual "
      "RMS %.3g rad\n",
      r.iterations, ev, ea, best_v, wv, best_a, wa, r.residual_rms);
  EXPECT_LT(ev, 0.5 * best_v);
  EXPECT_LT(ea, 0.6 * best_a);
}

// ---------------------------------------------------------------------------------------------
// Exactness and the optimality condition.

TEST(TVReg, PolynomialsInTheKernelAreReproduced) {
  // order 2: a quadratic has no third difference, so y = f, velocity and acceleration exact;
  // order 1: a straight line. 25 001 samples at 1 kHz, strong regularisation.
  const auto t = grid(25001, 1e-3);
  std::vector<double> quad(t.size()), line(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    quad[i] = 0.3 - 0.2 * t[i] + 0.05 * t[i] * t[i];
    line[i] = 0.3 - 0.2 * t[i];
  }
  TVRegOptions o;
  o.alpha = 1e-8;
  o.epsilon = 10;  // kappa = 4^3 alpha / (h^6 epsilon) = 6.4e10
  o.order = 2;
  const TVRegResult r2 = tvreg(t, quad, o);
  o.epsilon = 1;  // kappa = 1.6e5
  o.order = 1;
  const TVRegResult r1 = tvreg(t, line, o);
  double ey = 0, ev = 0, ea = 0, ev1 = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    ey = std::max(ey, std::abs(r2.smoothed[i] - quad[i]));
    ev = std::max(ev, std::abs(r2.first[i] - (-0.2 + 0.1 * t[i])));
    ea = std::max(ea, std::abs(r2.second[i] - 0.1));
    ev1 = std::max(ev1, std::abs(r1.first[i] + 0.2));
  }
  std::printf(
      "[ measured ] quadratic, order 2: max error y %.1e, velocity %.1e, acceleration %.1e; "
      "line, order 1: velocity %.1e\n",
      ey, ev, ea, ev1);
  EXPECT_TRUE(r2.converged && r1.converged);
  // Not to the last bit: the data's own rounding (3e-15 at |f| = 26) has third differences of
  // 2.4e-5 rad/s^3 that the solver smooths, and the solves at kappa = 6.4e10 carry ~1e-7 relative
  // error into the acceleration (docs/preprocessing.md, "Precision").
  EXPECT_LT(ey, 1e-10);
  EXPECT_LT(ev, 1e-8);
  EXPECT_LT(ea, 2e-7);
  EXPECT_LT(ev1, 1e-10);
}

TEST(TVReg, OptimalityConditionOnALongRecord) {
  // J / h is 1-strongly convex in y, so |y - y*|_2 <= |grad(J / h)(y)|_2: the gradient, written
  // from the definition of J, bounds the distance to the true minimiser. 25 s at 1 kHz.
  Motion m = point_to_point(1000, 25, 3);
  std::vector<double> q = with_noise(m.q, 2, 1e-4);
  for (int order = 1; order <= 2; ++order) {
    TVRegOptions o;
    o.order = order;
    o.alpha = order == 1 ? 3e-9 : 3e-10;
    o.epsilon = order == 1 ? 1.0 : 10.0;  // resolves the gradient's own rounding (see below)
    const TVRegResult r = tvreg(m.t, q, o);
    ASSERT_TRUE(r.converged);
    const auto g = gradient(r.smoothed, q, r.step, r.alpha, r.epsilon, order);
    double gn = 0;
    for (double v : g) gn += v * v;
    gn = std::sqrt(gn);
    std::printf(
        "[ measured ] order %d, 25 001 samples: %d iterations, |grad| = %.2e rad (bound on "
        "|y - y*|_2), residual RMS %.3g rad\n",
        order, r.iterations, gn, r.residual_rms);
    // The gradient itself carries rounding: s = Delta^p y / h^p has an error ~2^p 1e-16 |y| / h^p,
    // so alpha / h^p D^T (s / phi) one of ~4^p alpha 1e-16 |y| / (h^(2p) eps) per sample: 1e-11
    // (order 1) and 2e-7 (order 2) here, times sqrt(n) = 158. Below that the bound says nothing.
    const double floor = std::pow(4.0, order + 1) * r.alpha * 1.2e-16 /
                         (std::pow(r.step, 2 * order + 2) * r.epsilon) *
                         std::sqrt(static_cast<double>(q.size()));
    EXPECT_LT(gn, 3 * floor + 1e-12);
  }
}

TEST(TVReg, WarmStartReachesTheSameMinimiser) {
  // The minimiser is unique, so a start from the solution for a nearby alpha ends at the same
  // result, in fewer iterations.
  Motion m = point_to_point(1000, 6, 5);
  std::vector<double> q = with_noise(m.q, 6, 1e-4);
  TVRegOptions o;
  o.alpha = 3e-10;
  o.epsilon = 0.1;
  const TVRegResult near = tvreg(m.t, q, o);
  o.alpha = 4e-10;
  const TVRegResult cold = tvreg(m.t, q, o);
  o.initial = near.smoothed;
  const TVRegResult warm = tvreg(m.t, q, o);
  ASSERT_TRUE(cold.converged && warm.converged);
  const double d = max_abs_diff(cold.second, warm.second) / max_abs(cold.second);
  std::printf(
      "[ measured ] warm start: %d iterations (cold %d), acceleration difference %.1e relative\n",
      warm.iterations, cold.iterations, d);
  EXPECT_LT(d, 1e-5);  // both stopped at a relative change below 1e-6
  EXPECT_LT(warm.iterations, cold.iterations);
}

// ---------------------------------------------------------------------------------------------
// Bad input: every message names the parameter.

TEST(TVReg, BadInputNamesTheParameter) {
  const auto t = grid(100, 1e-3);
  std::vector<double> x(100, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<double>(i) * 0.1);
  auto msg = [&](auto mutate) {
    TVRegOptions o;
    o.alpha = 1e-8;
    mutate(o);
    return thrown_message([&] { (void)tvreg(t, x, o); });
  };
  EXPECT_NE(msg([](TVRegOptions& o) { o.alpha = 0; }).find("alpha must be finite and > 0"),
            std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) { o.alpha = NAN; }).find("alpha"), std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) { o.order = 3; }).find("order must be 1 or 2"),
            std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) { o.epsilon = -1; }).find("epsilon must be finite and >= 0"),
            std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) { o.max_iterations = 0; }).find("max_iterations"),
            std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) { o.tolerance = 0; }).find("tolerance"), std::string::npos);
  EXPECT_NE(msg([](TVRegOptions& o) {
              o.initial = {1, 2};
            }).find("initial has 2 values"),
            std::string::npos);
  const std::string tiny = msg([](TVRegOptions& o) {
    o.alpha = 1.0;
    o.epsilon = 1e-6;
  });
  EXPECT_NE(tiny.find("epsilon = 1e-06 is too small for alpha = 1"), std::string::npos) << tiny;
  EXPECT_NE(tiny.find("decimate"), std::string::npos);
  // sizes, values, sampling
  TVRegOptions o;
  o.alpha = 1e-8;
  EXPECT_NE(thrown_message([&] {
              (void)tvreg(t, std::vector<double>(99, 0.0), o);
            }).find("100 times but 99 values"),
            std::string::npos);
  std::vector<double> bad = x;
  bad[7] = NAN;
  EXPECT_NE(thrown_message([&] { (void)tvreg(t, bad, o); }).find("not finite at sample 7"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] {
              (void)tvreg(grid(4, 1e-3), std::vector<double>(4, 1.0), o);
            }).find("needs at least 5 samples"),
            std::string::npos);
  std::vector<double> jitter = t;
  jitter[50] += 0.5e-3;
  EXPECT_NE(thrown_message([&] {
              (void)tvreg(jitter, x, o);
            }).find("TV-regularised differentiation needs uniform sampling"),
            std::string::npos);
  // a constant signal is its own smoothing (the automatic epsilon stays positive)
  const TVRegResult c = tvreg(t, std::vector<double>(100, 2.0), o);
  EXPECT_EQ(max_abs_diff(c.smoothed, std::vector<double>(100, 2.0)), 0.0);
}

// ---------------------------------------------------------------------------------------------
// differentiate() with DiffMethod::tvreg.

TEST(TVReg, DifferentiateUsesOneOrderTwoSolveOrTwoOrderOneSolves) {
  Motion m = point_to_point(1000, 4, 9);
  std::vector<double> q = with_noise(m.q, 4, 1e-4);
  DiffOptions d;
  d.method = DiffMethod::tvreg;
  d.tv.alpha = 3e-10;
  const Derivatives two = differentiate(m.t, q, d);
  const TVRegResult direct = tvreg(m.t, q, d.tv);
  EXPECT_EQ(two.first, direct.first);
  EXPECT_EQ(two.second, direct.second);
  // order 1 twice: TVRegDiff of the position, then of the velocity
  d.tv.order = 1;
  d.tv.alpha = 3e-9;
  EXPECT_NE(thrown_message([&] { (void)differentiate(m.t, q, d); }).find("tv_second_alpha > 0"),
            std::string::npos);
  d.tv_second_alpha = 1e-6;
  const Derivatives one = differentiate(m.t, q, d);
  TVRegOptions o1 = d.tv;
  const TVRegResult v = tvreg(m.t, q, o1);
  o1.alpha = 1e-6;
  const TVRegResult a = tvreg(m.t, v.first, o1);
  EXPECT_EQ(one.first, v.first);
  EXPECT_EQ(one.second, a.first);
  const std::size_t skip = 50;
  std::printf(
      "[ measured ] 4 s point-to-point, noise 1e-4: order 2 velocity %.2e, acceleration %.3f; "
      "order 1 twice velocity %.2e, acceleration %.3f (RMS errors)\n",
      rms_diff(two.first, m.v, skip), rms_diff(two.second, m.a, skip),
      rms_diff(one.first, m.v, skip), rms_diff(one.second, m.a, skip));
  // the uniform-sampling tolerance of DiffOptions applies
  std::vector<double> jitter = m.t;
  jitter[10] += 0.2e-3;
  d.uniform_tolerance = 0.5;
  EXPECT_NO_THROW((void)differentiate(jitter, q, d));
  d.uniform_tolerance = 0.01;
  EXPECT_NE(
      thrown_message([&] { (void)differentiate(jitter, q, d); }).find("needs uniform sampling"),
      std::string::npos);
  // a run that cannot converge in the allowed iterations is an error, not a silent result
  d.tv.order = 2;
  d.tv.alpha = 3e-10;
  d.tv.max_iterations = 2;
  const std::string msg = thrown_message([&] { (void)differentiate(m.t, q, d); });
  EXPECT_NE(msg.find("did not converge in 2 iterations"), std::string::npos) << msg;
}

TEST(TVReg, RecordPreprocessingUsesIt) {
  // data::preprocess passes DiffOptions through: derivatives from position with method tvreg are
  // the first derivative of tvreg; a bad alpha is reported with the record's source and the stage.
  Motion m = point_to_point(1000, 3, 2);
  data::Record rec;
  rec.source = "moves.csv";
  rec.t = m.t;
  rec.position = m.q;
  data::PreprocessOptions pp;
  pp.derivatives = data::DerivativesFrom::position;
  pp.diff.method = DiffMethod::tvreg;
  pp.diff.tv.alpha = 3e-10;
  const data::Record out = data::preprocess(rec, pp);
  const TVRegResult direct = tvreg(m.t, m.q, pp.diff.tv);
  EXPECT_EQ(out.velocity, direct.first);
  EXPECT_EQ(out.acceleration, direct.second);
  pp.diff.tv.alpha = -1;
  const std::string msg = thrown_message([&] { (void)data::preprocess(rec, pp); });
  EXPECT_NE(msg.find("moves.csv"), std::string::npos) << msg;
  EXPECT_NE(msg.find("derivatives from position: TV-regularised differentiation: alpha must be"),
            std::string::npos)
      << msg;
}

// ---------------------------------------------------------------------------------------------
// Re-integration.

TEST(Reintegrate, ExactForCubicPositionOnAnyGridAndConstantsRecovered) {
  // q = 0.4 - 0.7 t + 1.5 t^2 - 0.8 t^3 on a non-uniform grid; a = 3 - 4.8 t is linear, so its
  // piecewise-linear interpolant is exact and so are both integrals.
  std::vector<double> t;
  for (double x = 0; x <= 2.0; x += 0.01 + 0.004 * std::sin(40 * x)) t.push_back(x);
  const std::size_t n = t.size();
  std::vector<double> q(n), v(n), a(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = t[i];
    q[i] = 0.4 - 0.7 * x + 1.5 * x * x - 0.8 * x * x * x;
    v[i] = -0.7 + 3.0 * x - 2.4 * x * x;
    a[i] = 3.0 - 4.8 * x;
  }
  const Reintegrated r = reintegrate(t, a, q);
  const Reintegrated rv = reintegrate(t, a, q, v);
  double eq = 0, ev = 0;
  for (std::size_t i = 0; i < n; ++i) {
    eq = std::max({eq, std::abs(r.position[i] - q[i]), std::abs(rv.position[i] - q[i])});
    ev = std::max({ev, std::abs(r.velocity[i] - v[i]), std::abs(rv.velocity[i] - v[i])});
  }
  std::printf(
      "[ measured ] cubic position, %zu non-uniform samples: max error position %.1e, "
      "velocity %.1e; q0 = %.17g, v0 = %.17g\n",
      n, eq, ev, r.q0, r.v0);
  EXPECT_LT(eq, 1e-13);
  EXPECT_LT(ev, 1e-13);
  EXPECT_NEAR(r.q0, 0.4, 1e-14);
  EXPECT_NEAR(r.v0, -0.7, 1e-13);
  EXPECT_NEAR(rv.q0, 0.4, 1e-14);
  EXPECT_NEAR(rv.v0, -0.7, 1e-13);
  EXPECT_LT(r.position_rms, 1e-13);
  EXPECT_EQ(r.velocity_rms, 0.0);
  EXPECT_EQ(r.acceleration, a);
}

TEST(Reintegrate, ConstantsAreTheLeastSquaresFitUnderNoise) {
  // Noise on q and v: the constants are the least-squares values, i.e. the residuals have zero
  // mean (and, for the position-only fit, are orthogonal to time).
  const auto t = grid(2001, 1e-3);
  std::mt19937 gen(8);
  std::normal_distribution<double> noise(0.0, 1e-3);
  std::vector<double> q(t.size()), v(t.size()), a(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    a[i] = std::sin(3 * t[i]);
    v[i] = 0.2 + (1 - std::cos(3 * t[i])) / 3 + noise(gen);
    q[i] = -0.1 + 0.2 * t[i] + t[i] / 3 - std::sin(3 * t[i]) / 9 + noise(gen);
  }
  const Reintegrated r = reintegrate(t, a, q);
  const Reintegrated rv = reintegrate(t, a, q, v);
  double s0 = 0, s1 = 0, sv = 0, sq = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    s0 += r.position[i] - q[i];
    s1 += (r.position[i] - q[i]) * t[i];
    sv += rv.velocity[i] - v[i];
    sq += rv.position[i] - q[i];
  }
  EXPECT_NEAR(s0, 0, 1e-10);
  EXPECT_NEAR(s1, 0, 1e-10);
  EXPECT_NEAR(sv, 0, 1e-10);
  EXPECT_NEAR(sq, 0, 1e-10);
  EXPECT_NEAR(r.q0, -0.1, 1e-4);
  EXPECT_NEAR(r.v0, 0.2, 5e-4);
  EXPECT_NEAR(rv.v0, 0.2, 1e-4);
  EXPECT_NEAR(r.position_rms, 1e-3, 1e-4);
  EXPECT_NEAR(rv.velocity_rms, 1e-3, 1e-4);
}

TEST(Reintegrate, TorqueDenoisingByIntegratingTheTVDerivative) {
  // The paper's torque de-noising: x = c + integral of TVRegDiff(x), c by least squares. With
  // tvreg, smoothed is that construction with c fitted jointly; integrate_fit of its (sample-time)
  // derivative reproduces it up to the averaging of midpoint derivatives onto the samples.
  const auto t = grid(3001, 1e-3);
  std::mt19937 gen(12);
  std::normal_distribution<double> noise(0.0, 0.05);
  std::vector<double> tau(t.size()), clean(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) {
    clean[i] = 0.8 * std::sin(2 * kPi * 0.5 * t[i]) + (t[i] > 1.5 ? 0.3 : 0.0);
    tau[i] = clean[i] + noise(gen);
  }
  TVRegOptions o;
  o.order = 1;
  o.alpha = 2e-5;
  const TVRegResult r = tvreg(t, tau, o);
  const std::vector<double> re = integrate_fit(t, r.first, tau);
  const double e_raw = rms_diff(tau, clean), e_tv = rms_diff(r.smoothed, clean),
               e_re = rms_diff(re, clean);
  std::printf(
      "[ measured ] torque de-noising (noise 0.05 N m, a 0.3 N m step): RMS error raw %.4f, "
      "tvreg smoothed %.4f, re-integrated derivative %.4f; max difference of the two %.1e\n",
      e_raw, e_tv, e_re, max_abs_diff(re, r.smoothed));
  EXPECT_LT(e_tv, 0.4 * e_raw);
  EXPECT_LT(max_abs_diff(re, r.smoothed), 0.1 * e_tv);
  double mean_diff = 0;
  for (std::size_t i = 0; i < t.size(); ++i) mean_diff += re[i] - tau[i];
  EXPECT_NEAR(mean_diff, 0.0, 1e-9);
}

TEST(Reintegrate, BadInputNamesTheArgument) {
  const auto t = grid(10, 0.1);
  const std::vector<double> x(10, 1.0), short_(9, 1.0);
  EXPECT_NE(
      thrown_message([&] { (void)reintegrate(t, short_, x); }).find("acceleration has 9 samples"),
      std::string::npos);
  EXPECT_NE(thrown_message([&] { (void)reintegrate(t, x, short_); }).find("position has 9 samples"),
            std::string::npos);
  EXPECT_NE(
      thrown_message([&] { (void)reintegrate(t, x, x, short_); }).find("velocity has 9 samples"),
      std::string::npos);
  std::vector<double> bad = x;
  bad[3] = INFINITY;
  EXPECT_NE(thrown_message([&] {
              (void)reintegrate(t, bad, x);
            }).find("acceleration is not finite at sample 3"),
            std::string::npos);
  std::vector<double> tb = t;
  tb[5] = tb[4];
  EXPECT_NE(thrown_message([&] { (void)reintegrate(tb, x, x); }).find("not strictly increasing"),
            std::string::npos);
  EXPECT_NE(
      thrown_message([&] { (void)integrate_fit(t, x, short_); }).find("reference has 9 samples"),
      std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Decimation and the inverse-model pipeline.

TEST(Decimate, GainIsTheButterworthSquareAndEveryKthSampleIsKept) {
  const double fs = 1000;
  const int k = 10, order = 8;
  const double fc = 0.8 * fs / (2.0 * k);  // 40 Hz
  const auto t = grid(20001, 1 / fs);
  for (double f : {5.0, 30.0, 40.0, 50.0, 60.0}) {
    std::vector<double> x(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) x[i] = std::sin(2 * kPi * f * t[i]);
    const std::vector<double> y = decimate(x, k, fs, order);
    ASSERT_EQ(y.size(), 2001u);
    // amplitude away from the ends against |H(f)|^2 of the design
    const double g = std::norm(frequency_response(butter_lowpass(order, fc, fs), f, fs));
    double err = 0;
    for (std::size_t j = 200; j + 200 < y.size(); ++j)
      err = std::max(err, std::abs(y[j] - g * x[j * static_cast<std::size_t>(k)]));
    std::printf(
        "[ measured ] decimate by 10 (fc 40 Hz, order 8): %g Hz amplitude gain %.4g (%.1f dB), max "
        "deviation from gain x input %.1e\n",
        f, g, 20 * std::log10(g), err);
    EXPECT_LT(err, 1e-6);
  }
  std::vector<double> x(100);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  EXPECT_EQ(decimate(x, 1, fs), x);
  EXPECT_NE(
      thrown_message([&] { (void)decimate(x, 0, fs); }).find("decimation factor must be >= 1"),
      std::string::npos);
  EXPECT_NE(thrown_message([&] { (void)decimate(x, 2, fs, 8, 1.0); }).find("cutoff ratio"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] { (void)decimate(x, 2, -1.0); }).find("sample rate"),
            std::string::npos);
}

TEST(Decimate, InverseModelSignalsOfASmoothMotion) {
  // q = sin(2 pi 0.5 t) + 0.2 sin(2 pi 1.3 t) + noise, 20 s at 1 kHz; tau = 2 qdd (a linear
  // "inverse model"). Through the record pipeline's inverse-model setting (data::preprocess: a
  // 20 Hz Butterworth, central differences, decimation by 10 with the anti-alias filter on every
  // channel) the derivatives match the exact ones and tau matches 2 qdd of the exact motion: the
  // parallel filter keeps the linear relation.
  const double fs = 1000;
  const auto t = grid(20001, 1 / fs);
  std::mt19937 gen(3);
  std::normal_distribution<double> noise(0.0, 1e-4);
  const double w1 = 2 * kPi * 0.5, w2 = 2 * kPi * 1.3;
  data::Record rec;
  rec.source = "motion";
  rec.t = t;
  for (std::size_t i = 0; i < t.size(); ++i) {
    rec.position.push_back(std::sin(w1 * t[i]) + 0.2 * std::sin(w2 * t[i]) + noise(gen));
    rec.force.push_back(2 * (-w1 * w1 * std::sin(w1 * t[i]) - 0.2 * w2 * w2 * std::sin(w2 * t[i])));
  }
  data::PreprocessOptions o;
  o.lowpass_cutoff = 20;
  o.derivatives = data::DerivativesFrom::position;
  o.diff.method = DiffMethod::central;
  o.decimate = 10;
  o.decimate_filter = data::DecimateFilter::antialias;
  const data::Record s = data::preprocess(rec, o);
  ASSERT_EQ(s.t.size(), 2001u);
  ASSERT_EQ(s.acceleration.size(), 2001u);
  ASSERT_EQ(s.force.size(), 2001u);
  double ev = 0, ea = 0, et = 0;
  for (std::size_t j = 100; j + 100 < s.t.size(); ++j) {
    const double x = s.t[j];
    ev = std::max(ev,
                  std::abs(s.velocity[j] - (w1 * std::cos(w1 * x) + 0.2 * w2 * std::cos(w2 * x))));
    ea = std::max(ea, std::abs(s.acceleration[j] -
                               (-w1 * w1 * std::sin(w1 * x) - 0.2 * w2 * w2 * std::sin(w2 * x))));
    et = std::max(et, std::abs(s.force[j] - 2 * s.acceleration[j]));
  }
  std::printf(
      "[ measured ] inverse-model signals (20 Hz, decimation 10): max error velocity %.2e "
      "rad/s, acceleration %.3f rad/s^2 (amplitude ~23); max |tau - 2 qdd| %.3f\n",
      ev, ea, et);
  EXPECT_LT(ev, 5e-3);
  EXPECT_LT(ea, 0.5);
  EXPECT_LT(et, 1.0);
  EXPECT_NE(thrown_message([&] {
              data::PreprocessOptions b = o;
              b.decimate_cutoff_ratio = 1;
              (void)data::preprocess(rec, b);
            }).find("motion: decimation: decimation cutoff ratio must satisfy 0 < ratio < 1"),
            std::string::npos);
  EXPECT_NE(thrown_message([&] {
              data::Record short_tau = rec;
              short_tau.force.resize(5);
              (void)data::preprocess(short_tau, o);
            }).find("channel 'force' has 5 samples, 'time' has 20001"),
            std::string::npos);
  data::Record no_tau = rec;
  no_tau.force.clear();
  const data::Record nt = data::preprocess(no_tau, o);
  EXPECT_TRUE(nt.force.empty());
  EXPECT_EQ(nt.velocity, s.velocity);
}

// ---------------------------------------------------------------------------------------------
// Real data: the DFKI pendulum's gravity-compensation record (30 s, ~1 kHz, encoder position
// quantised to 2.9e-3 rad, driver velocity). Velocity by TV order 2 and by Savitzky-Golay,
// compared with the driver's velocity (raw and through a 10 Hz zero-phase low-pass, which removes
// its own quantisation noise).

const std::string kPendulum = std::string(FRICTIONLAB_SOURCE_DIR) +
                              "/../shared/data/pendulum_dfki/gravcomp_data_measured.csv";

TEST(TVRegRealData, PendulumVelocityAgainstDriverAndSavitzkyGolay) {
  if (!std::filesystem::exists(kPendulum)) GTEST_SKIP() << "no shared data at " << kPendulum;
  const auto table = io::read_csv(kPendulum);
  const auto& t0 = table.column("time");
  const double fs = 1000;
  const auto t = uniform_grid(t0.front(), t0.back(), fs);
  const auto q = interp_linear(t0, table.column("position"), t);
  const auto v = interp_linear(t0, table.column("velocity"), t);
  const auto v_lp = lowpass_filtfilt(v, fs, 10, 4);
  TVRegOptions o;
  o.order = 2;
  o.alpha = 1e-9;
  const TVRegResult r = tvreg(t, q, o);
  ASSERT_TRUE(r.converged);
  const std::vector<double> sg = savgol_filter(q, 51, 3, 1, 1 / fs);
  const std::size_t skip = 100;
  const double tv_raw = rms_diff(r.first, v, skip), tv_lp = rms_diff(r.first, v_lp, skip);
  const double sg_raw = rms_diff(sg, v, skip), sg_lp = rms_diff(sg, v_lp, skip);
  const auto sg2 = savgol_filter(q, 51, 3, 2, 1 / fs);
  std::printf(
      "[ measured ] DFKI gravcomp, %zu samples: TV order 2 (alpha %g, %d iterations, residual "
      "RMS %.2e rad) velocity vs driver RMS %.4f rad/s (vs driver low-passed at 10 Hz %.4f); "
      "Savitzky-Golay w = 51 p = 3: %.4f (%.4f); acceleration RMS TV %.3f, Savitzky-Golay %.3f "
      "rad/s^2\n",
      t.size(), o.alpha, r.iterations, r.residual_rms, tv_raw, tv_lp, sg_raw, sg_lp,
      rms_diff(r.second, std::vector<double>(t.size(), 0.0), skip),
      rms_diff(sg2, std::vector<double>(t.size(), 0.0), skip));
  EXPECT_LT(tv_lp, 0.05);
  EXPECT_LT(tv_raw, sg_raw);
}

}  // namespace
}  // namespace frictionlab::signal
