// Signal processing (include/frictionlab/signal/): sampling statistics, linear resampling,
// Butterworth design and zero-phase filtering, Savitzky-Golay kernels and filter, differentiators.
// Oracles: closed forms (Butterworth |H|^2, polynomials reproduced exactly, linear signals
// interpolated exactly, derivatives of polynomials) and scipy 1.10.1 reference values pasted in
// tests/signal_reference.inc by tests/signal_reference.py (command in that file). The measured
// differences are printed as "[ measured ]" lines (docs/preprocessing.md quotes them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "expect_message.hpp"
#include "frictionlab/signal/butterworth.hpp"
#include "frictionlab/signal/differentiate.hpp"
#include "frictionlab/signal/resample.hpp"
#include "frictionlab/signal/sampling.hpp"
#include "frictionlab/signal/savgol.hpp"
#include "max_abs.hpp"
#include "signal_reference.inc"

namespace frictionlab::signal {
namespace {

constexpr double kPi = std::numbers::pi;

// The fixed input of tests/signal_reference.py (test_input), evaluated identically.
std::vector<double> reference_input() {
  std::vector<double> x(signal_reference::kSamples);
  for (int k = 0; k < signal_reference::kSamples; ++k) {
    const double t = k / signal_reference::kFs;
    x[static_cast<std::size_t>(k)] =
        std::sin(2 * kPi * 3 * t) + 0.5 * std::sin(2 * kPi * 45 * t + 0.3) +
        0.2 * std::cos(2 * kPi * 170 * t) + 0.3 * std::sin(2 * kPi * (5 * t + 200 * t * t)) +
        0.8 * t * t - 0.3;
  }
  return x;
}

template <std::size_t N>
std::vector<double> vec(const double (&a)[N]) {
  return std::vector<double>(a, a + N);
}

using testing::max_abs;
using testing::max_abs_diff;

/// The message of the std::invalid_argument f throws (a test failure when there is none).
std::string error_of(const std::function<void()>& f) {
  return testing::message_of<std::invalid_argument>(f);
}

// ---- sampling --------------------------------------------------------------------------------

TEST(TwoPoint, SecantDerivativeAndTrapezoidIntegral) {
  // Non-uniform grid; v = t^2: the secant slopes and trapezoid areas in closed form.
  const std::vector<double> t{0.0, 0.5, 1.5, 2.0}, v{0.0, 0.25, 2.25, 4.0};
  EXPECT_EQ(derivative(t, v), (std::vector<double>{0.5, 1.5, 2.5, 3.5}));
  EXPECT_EQ(derivative_at(t, v, 2), 2.5);  // (4 - 0.25) / (2 - 0.5)
  EXPECT_EQ(trapezoid_step(t, v, 2), 1.25);
  EXPECT_EQ(cumulative_trapezoid(t, v), (std::vector<double>{0.0, 0.0625, 1.3125, 2.875}));
  EXPECT_EQ(derivative(std::vector<double>{1.0}, std::vector<double>{3.0}),
            std::vector<double>{0.0});
  EXPECT_TRUE(cumulative_trapezoid(std::vector<double>{}, std::vector<double>{}).empty());
}

TEST(Sampling, StatsOfAKnownGrid) {
  // steps 1, 1, 1, 2, 1 ms: median 1 ms, one step 100 % off.
  const std::vector<double> t = {0, 1e-3, 2e-3, 3e-3, 5e-3, 6e-3};
  const SamplingStats s = sampling_stats(t);
  EXPECT_EQ(s.samples, 6u);
  EXPECT_DOUBLE_EQ(s.duration, 6e-3);
  EXPECT_NEAR(s.dt_median, 1e-3, 1e-15);
  EXPECT_NEAR(s.sample_rate, 1000, 1e-9);
  EXPECT_NEAR(s.dt_mean, 1.2e-3, 1e-15);
  EXPECT_NEAR(s.dt_max, 2e-3, 1e-15);
  EXPECT_NEAR(s.jitter_max, 1.0, 1e-12);
  EXPECT_EQ(s.worst_step, 4u);
  // std of {1,1,1,2,1} ms = 0.4 ms -> 0.4 of the median
  EXPECT_NEAR(s.jitter_std, 0.4, 1e-12);
  // even number of steps: median = mean of the middle two
  EXPECT_NEAR(sampling_stats(std::vector<double>{0, 1, 3, 6, 10}).dt_median, 2.5, 1e-15);
}

TEST(Sampling, RequireUniformNamesTheJitter) {
  const std::vector<double> t = {0, 1e-3, 2e-3, 3e-3, 5e-3, 6e-3};
  const std::string msg = error_of([&] { require_uniform(t, 0.01, "filtering"); });
  EXPECT_NE(msg.find("filtering needs uniform sampling: the sample step varies by up to 100% of "
                     "its median 0.001 s"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("before sample 4 (0-based), t = 0.005 s; tolerance 1%"), std::string::npos)
      << msg;
  EXPECT_NO_THROW(require_uniform(std::vector<double>{0, 1, 2, 3}, 0.0, "x"));
  EXPECT_NE(error_of([] {
              sampling_stats(std::vector<double>{0, 1, 1});
            }).find("not strictly increasing at sample 2"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              sampling_stats(std::vector<double>{0, NAN});
            }).find("not finite"),
            std::string::npos);
}

// ---- resampling ------------------------------------------------------------------------------

TEST(Resample, GridEndpointRule) {
  // integer number of steps: the last sample is kept, exactly
  std::vector<double> g = uniform_grid(0.0, 1.0, 10.0);
  ASSERT_EQ(g.size(), 11u);
  EXPECT_EQ(g.front(), 0.0);
  EXPECT_NEAR(g.back(), 1.0, 1e-15);
  // span not a multiple of the step: stop at the last grid point <= t_end
  g = uniform_grid(0.5, 1.55, 10.0);
  ASSERT_EQ(g.size(), 11u);
  EXPECT_NEAR(g.back(), 1.5, 1e-15);
  // t_k = t0 + k h, not accumulated
  g = uniform_grid(0.0, 1000.0, 1000.0);
  ASSERT_EQ(g.size(), 1'000'001u);
  EXPECT_EQ(g[777'777], 777'777 * (1.0 / 1000.0));
  // spans that are whole numbers of output steps only up to rounding: the last grid point may
  // land an ulp beyond t_end and takes the last value; never an error, never extrapolation
  for (double t0 : {0.0, 0.1, 3.3, 1234.5678}) {
    for (double span : {0.7, 1.0, 2.9, 10.0}) {
      for (double steps : {1.0, 3.0, 7.0, 1000.0}) {
        const std::vector<double> t = {t0, t0 + span / 3, t0 + span};
        const std::vector<double> y = {1.0, 2.0, 4.0};
        const double rate = steps / span;
        std::vector<double> r;
        ASSERT_NO_THROW(r = resample_linear(t, y, rate)) << t0 << " " << span << " " << steps;
        EXPECT_EQ(r.size(), static_cast<std::size_t>(steps) + 1);
        EXPECT_NEAR(r.back(), 4.0, 1e-6);
      }
    }
  }
}

TEST(Resample, ExactForLinearSignals) {
  // irregular grid (steps 1..5.5 ms like the pendulum record), y = 3 t - 2
  std::vector<double> t{0.0}, y;
  for (int k = 1; k < 400; ++k) t.push_back(t.back() + 1e-3 * (1.0 + 4.5 * ((k * 37) % 11) / 10.0));
  for (double tk : t) y.push_back(3.0 * tk - 2.0);
  const double rate = 777.0;
  const std::vector<double> g = uniform_grid(t.front(), t.back(), rate);
  const std::vector<double> r = resample_linear(t, y, rate);
  ASSERT_EQ(r.size(), g.size());
  double err = 0;
  for (std::size_t k = 0; k < g.size(); ++k)
    err = std::max(err, std::abs(r[k] - (3.0 * g[k] - 2.0)));
  EXPECT_LT(err, 4e-15);
  EXPECT_EQ(r.front(), y.front());
  EXPECT_LE(g.back(), t.back());
  EXPECT_GT(g.back() + 1.0 / rate, t.back());
  std::printf("[ measured ] resample_linear on a linear signal: max error %.3g\n", err);
  // samples on the grid are returned unchanged
  const std::vector<double> tu = {0, 0.5, 1.0, 1.5, 2.0}, yu = {1, 7, -2, 4, 0};
  EXPECT_EQ(resample_linear(tu, yu, 2.0), yu);
  EXPECT_EQ(resample_linear(tu, yu, 4.0), (std::vector<double>{1, 4, 7, 2.5, -2, 1, 4, 2, 0}));
}

TEST(Resample, Errors) {
  const std::vector<double> t = {0, 1, 2}, y = {0, 1, 2};
  EXPECT_NE(error_of([&] { resample_linear(t, y, 0.0); }).find("rate must be finite and > 0"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              resample_linear(std::vector<double>{0, 2, 1}, y, 1.0);
            }).find("not strictly increasing at sample 2"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              resample_linear(t, std::vector<double>{0, 1}, 1.0);
            }).find("3 times but 2 values"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              resample_linear(std::vector<double>{0}, std::vector<double>{1}, 1.0);
            }).find("at least 2 samples"),
            std::string::npos);
}

// ---- Butterworth -----------------------------------------------------------------------------

TEST(Butterworth, MagnitudeClosedForm) {
  // |H|^2 = 1 / (1 + (tan(pi f/fs) / tan(pi fc/fs))^(2N)); at fc exactly 1/2. Tolerance: the
  // coefficients are rounded to double, and 1 + a1 + a2 ~ 4 K^2 (K = tan(pi fc/fs)) loses
  // about eps / K^2 of relative precision at low fc/fs (measured 1e-11 at fc/fs = 5e-4).
  for (int order = 1; order <= 12; ++order) {
    for (double fc : {0.5, 10.0, 50.0, 200.0, 450.0}) {
      const double fs = 1000;
      const double K = std::tan(kPi * fc / fs);
      const double tol = 1e-13 + 1e-15 / (K * K);
      const Sos sos = butter_lowpass(order, fc, fs);
      EXPECT_EQ(sos.size(), static_cast<std::size_t>((order + 1) / 2));
      EXPECT_NEAR(std::abs(frequency_response(sos, fc, fs)), 1.0 / std::sqrt(2.0), tol)
          << "N=" << order << " fc=" << fc;
      EXPECT_NEAR(std::abs(frequency_response(sos, 0.0, fs)), 1.0, tol);
      EXPECT_NEAR(std::abs(frequency_response(sos, fs / 2, fs)), 0.0, 1e-12);
      for (double f : {0.1 * fc, 0.7 * fc, 1.3 * fc, 0.5 * (fc + fs / 2)}) {
        const double r = std::tan(kPi * f / fs) / std::tan(kPi * fc / fs);
        const double h2 = 1.0 / (1.0 + std::pow(r, 2.0 * order));
        EXPECT_NEAR(std::norm(frequency_response(sos, f, fs)), h2, tol)
            << "N=" << order << " fc=" << fc << " f=" << f;
      }
    }
  }
}

// Product of the sections as polynomials in z^-1.
void expand(const Sos& sos, std::vector<double>& b, std::vector<double>& a) {
  b = {1.0};
  a = {1.0};
  for (const Biquad& s : sos) {
    const std::vector<double> sb = {s.b0, s.b1, s.b2}, sa = {1.0, s.a1, s.a2};
    std::vector<double> nb(b.size() + 2, 0.0), na(a.size() + 2, 0.0);
    for (std::size_t i = 0; i < b.size(); ++i)
      for (std::size_t j = 0; j < 3; ++j) {
        nb[i + j] += b[i] * sb[j];
        na[i + j] += a[i] * sa[j];
      }
    b = nb;
    a = na;
  }
  // a first-order section contributes trailing zeros
  while (b.size() > 1 && b.back() == 0.0 && a.back() == 0.0) {
    b.pop_back();
    a.pop_back();
  }
}

TEST(Butterworth, PolynomialsMatchScipyButter) {
  namespace R = signal_reference;
  struct Case {
    int order;
    double fc;
    std::vector<double> b, a;
  };
  const Case cases[] = {{1, 50, vec(R::kButterB_N1_fc50), vec(R::kButterA_N1_fc50)},
                        {2, 10, vec(R::kButterB_N2_fc10), vec(R::kButterA_N2_fc10)},
                        {3, 50, vec(R::kButterB_N3_fc50), vec(R::kButterA_N3_fc50)},
                        {4, 50, vec(R::kButterB_N4_fc50), vec(R::kButterA_N4_fc50)},
                        {5, 120, vec(R::kButterB_N5_fc120), vec(R::kButterA_N5_fc120)},
                        {8, 200, vec(R::kButterB_N8_fc200), vec(R::kButterA_N8_fc200)}};
  double worst = 0;
  for (const Case& c : cases) {
    std::vector<double> b, a;
    expand(butter_lowpass(c.order, c.fc, R::kFs), b, a);
    ASSERT_EQ(b.size(), c.b.size()) << "N=" << c.order;
    ASSERT_EQ(a.size(), c.a.size()) << "N=" << c.order;
    for (std::size_t i = 0; i < b.size(); ++i) {
      const double eb = std::abs(b[i] - c.b[i]) / max_abs(c.b);
      const double ea = std::abs(a[i] - c.a[i]) / max_abs(c.a);
      EXPECT_LT(eb, 1e-12) << "N=" << c.order << " b[" << i << "]";
      EXPECT_LT(ea, 1e-12) << "N=" << c.order << " a[" << i << "]";
      worst = std::max({worst, eb, ea});
    }
  }
  std::printf("[ measured ] butter vs scipy.signal.butter (b, a): max relative difference %.3g\n",
              worst);
}

TEST(Butterworth, DefaultPadlenLikeScipy) {
  // 3 (2 S + 1 - min(#b2==0, #a2==0)) = 3 (N + 1) for odd and even N.
  for (int order = 1; order <= 9; ++order)
    EXPECT_EQ(default_padlen(butter_lowpass(order, 50, 1000)),
              static_cast<std::size_t>(3 * (order + 1)));
}

TEST(Butterworth, FiltfiltMatchesScipySosfiltfilt) {
  namespace R = signal_reference;
  const std::vector<double> x = reference_input();
  struct Case {
    int order;
    double fc;
    long padlen;
    std::vector<double> y;
  };
  const Case cases[] = {
      {1, 50, -1, vec(R::kFiltfilt_N1_fc50)},   {2, 10, -1, vec(R::kFiltfilt_N2_fc10)},
      {3, 50, -1, vec(R::kFiltfilt_N3_fc50)},   {4, 50, -1, vec(R::kFiltfilt_N4_fc50)},
      {5, 120, -1, vec(R::kFiltfilt_N5_fc120)}, {4, 50, 0, vec(R::kFiltfilt_N4_fc50_padlen0)}};
  for (const Case& c : cases) {
    const std::vector<double> y = sosfiltfilt(butter_lowpass(c.order, c.fc, R::kFs), x, c.padlen);
    const double err = max_abs_diff(y, c.y);
    EXPECT_LT(err, 1e-12 * max_abs(c.y)) << "N=" << c.order << " fc=" << c.fc;
    std::printf(
        "[ measured ] sosfiltfilt N=%d fc=%g Hz padlen=%ld vs scipy: max |diff| %.3g "
        "(max |y| %.3g)\n",
        c.order, c.fc, c.padlen < 0 ? static_cast<long>(3 * (c.order + 1)) : c.padlen, err,
        max_abs(c.y));
  }
}

TEST(Butterworth, FiltfiltZeroPhaseGainHSquared) {
  // A sine in the passband (and one in the transition band) comes out in phase with gain
  // |H(f)|^2, away from the ends (the transient of the poles, time constant ~ 1/(2 pi fc
  // sin(pi/(2N))) ~ 8 ms here, has decayed by e^-60 after 0.5 s).
  const double fs = 1000, fc = 50;
  for (int order : {2, 3, 4, 5}) {
    const Sos sos = butter_lowpass(order, fc, fs);
    for (double f : {7.0, 20.0, 50.0, 80.0}) {
      std::vector<double> x(3000);
      for (std::size_t k = 0; k < x.size(); ++k)
        x[k] = std::sin(2 * kPi * f * static_cast<double>(k) / fs + 0.4);
      const std::vector<double> y = sosfiltfilt(sos, x);
      const double g = std::norm(frequency_response(sos, f, fs));
      double err = 0;
      for (std::size_t k = 500; k < 2500; ++k) err = std::max(err, std::abs(y[k] - g * x[k]));
      EXPECT_LT(err, 1e-11) << "N=" << order << " f=" << f;
    }
    // at the cutoff: gain exactly 1/2
    EXPECT_NEAR(std::norm(frequency_response(sos, fc, fs)), 0.5, 1e-13);
  }
}

TEST(Butterworth, SteadyStateInitialConditions) {
  // A constant input passes unchanged: sosfilt_zi is the steady state, forward and backward.
  const Sos sos = butter_lowpass(5, 30, 1000);
  SosState z = sosfilt_zi(sos);
  for (auto& s : z) {
    s[0] *= 2.5;
    s[1] *= 2.5;
  }
  const std::vector<double> c(100, 2.5);
  const std::vector<double> y = sosfilt(sos, c, &z);
  EXPECT_LT(max_abs_diff(y, c), 1e-13);
  EXPECT_LT(max_abs_diff(sosfiltfilt(sos, c), c), 1e-13);
}

TEST(Butterworth, Errors) {
  EXPECT_NE(error_of([] { butter_lowpass(0, 10, 100); }).find("order must be 1..20, got 0"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              butter_lowpass(2, 50, 100);
            }).find("cutoff must satisfy 0 < fc < fs/2 = 50 Hz, got 50 Hz"),
            std::string::npos);
  EXPECT_NE(error_of([] { butter_lowpass(2, 10, -1); }).find("sample rate"), std::string::npos);
  const std::vector<double> x(15, 1.0);  // padlen of order 4 is 15: needs > 15 samples
  EXPECT_NE(error_of([&] {
              sosfiltfilt(butter_lowpass(4, 10, 100), x);
            }).find("more samples than the padding (15 samples at each end"),
            std::string::npos);
  EXPECT_NO_THROW(sosfiltfilt(butter_lowpass(4, 10, 100), std::vector<double>(16, 1.0)));
}

// ---- Savitzky-Golay --------------------------------------------------------------------------

TEST(SavitzkyGolay, CoefficientsMatchExactAndScipy) {
  // Against the exact rational kernel (rounded once) and against scipy's floating-point
  // least squares (unscaled Vandermonde: its own error reaches ~1e-12 for w = 31, p = 5).
  double worst_exact = 0, worst_scipy = 0, scipy_vs_exact = 0;
  for (const auto& c : signal_reference::kSgCases) {
    const std::vector<double> h = savgol_coeffs(c.window, c.polyorder, c.deriv, c.delta, c.pos);
    ASSERT_EQ(h.size(), static_cast<std::size_t>(c.window));
    const std::vector<double> sc(c.scipy, c.scipy + c.window), ex(c.exact, c.exact + c.window);
    const double e_exact = max_abs_diff(h, ex) / max_abs(ex);
    const double e_scipy = max_abs_diff(h, sc) / max_abs(sc);
    EXPECT_LT(e_exact, 1e-13) << "w=" << c.window << " p=" << c.polyorder << " d=" << c.deriv
                              << " pos=" << c.pos;
    EXPECT_LT(e_scipy, 1e-11) << "w=" << c.window << " p=" << c.polyorder << " d=" << c.deriv
                              << " pos=" << c.pos;
    worst_exact = std::max(worst_exact, e_exact);
    worst_scipy = std::max(worst_scipy, e_scipy);
    scipy_vs_exact = std::max(scipy_vs_exact, max_abs_diff(sc, ex) / max_abs(ex));
  }
  std::printf(
      "[ measured ] savgol_coeffs: max relative difference %.3g to the exact kernels, "
      "%.3g to scipy.signal.savgol_coeffs (scipy to exact: %.3g)\n",
      worst_exact, worst_scipy, scipy_vs_exact);
}

TEST(SavitzkyGolay, KernelMoments) {
  // Closed form: the kernel of derivative d reproduces the monomials (j - pos)^i, i <= p:
  // sum_j h_j (j - pos)^i delta^i = d! [i == d].
  for (int w : {5, 11, 31}) {
    for (int p = 0; p < std::min(w, 6); ++p) {
      for (int d = 0; d <= std::min(p, 2); ++d) {
        for (int pos : {-1, 0, w - 1, w / 3}) {
          const double delta = 0.01;
          const std::vector<double> h = savgol_coeffs(w, p, d, delta, pos);
          const int ps = pos < 0 ? w / 2 : pos;
          for (int i = 0; i <= p; ++i) {
            double m = 0;
            for (int j = 0; j < w; ++j)
              m += h[static_cast<std::size_t>(j)] * std::pow((j - ps) * delta, i);
            const double expect = i == d ? std::tgamma(d + 1.0) : 0.0;
            EXPECT_NEAR(m, expect, 1e-10)
                << "w=" << w << " p=" << p << " d=" << d << " pos=" << pos << " i=" << i;
          }
        }
      }
    }
  }
}

TEST(SavitzkyGolay, ExactOnPolynomialsIncludingEdges) {
  // y = c0 + c1 t + ... + cp t^p on a uniform grid: smoothing returns y, derivatives return y'
  // and y'' (closed form), at every sample including the fitted ends.
  const double delta = 0.002;
  const std::vector<double> c = {0.3, -1.2, 4.0, -2.5, 1.5};
  for (int p : {2, 3, 4}) {
    for (int w : {5, 11, 21}) {
      if (p >= w) continue;
      const std::size_t n = 80;
      std::vector<double> y(n), d1(n), d2(n);
      for (std::size_t k = 0; k < n; ++k) {
        const double t = 0.1 + static_cast<double>(k) * delta;
        for (int i = 0; i <= p; ++i) {
          y[k] += c[static_cast<std::size_t>(i)] * std::pow(t, i);
          if (i >= 1) d1[k] += i * c[static_cast<std::size_t>(i)] * std::pow(t, i - 1);
          if (i >= 2) d2[k] += i * (i - 1) * c[static_cast<std::size_t>(i)] * std::pow(t, i - 2);
        }
      }
      EXPECT_LT(max_abs_diff(savgol_filter(y, w, p, 0, delta), y), 1e-12 * max_abs(y))
          << "p=" << p << " w=" << w;
      EXPECT_LT(max_abs_diff(savgol_filter(y, w, p, 1, delta), d1), 1e-9 * max_abs(d1))
          << "p=" << p << " w=" << w;
      EXPECT_LT(max_abs_diff(savgol_filter(y, w, p, 2, delta), d2), 1e-7 * max_abs(d2))
          << "p=" << p << " w=" << w;
    }
  }
}

TEST(SavitzkyGolay, FilterMatchesScipyInterp) {
  namespace R = signal_reference;
  const std::vector<double> x = reference_input();
  struct Case {
    int w, p, d;
    double delta;
    std::vector<double> y;
  };
  const Case cases[] = {{11, 3, 0, 1.0, vec(R::kSavgol_w11_p3_d0)},
                        {21, 3, 1, 1e-3, vec(R::kSavgol_w21_p3_d1)},
                        {15, 4, 2, 1e-3, vec(R::kSavgol_w15_p4_d2)}};
  for (const Case& c : cases) {
    const std::vector<double> y = savgol_filter(x, c.w, c.p, c.d, c.delta);
    const double err = max_abs_diff(y, c.y);
    EXPECT_LT(err, 1e-11 * max_abs(c.y)) << "w=" << c.w << " p=" << c.p << " d=" << c.d;
    std::printf(
        "[ measured ] savgol_filter w=%d p=%d deriv=%d vs scipy (mode='interp'): max "
        "|diff| %.3g (max |y| %.3g, relative %.3g)\n",
        c.w, c.p, c.d, err, max_abs(c.y), err / max_abs(c.y));
  }
}

TEST(SavitzkyGolay, Errors) {
  const std::vector<double> y(10, 1.0);
  EXPECT_NE(error_of([] { savgol_coeffs(4, 2); }).find("window length must be odd"),
            std::string::npos);
  EXPECT_NE(error_of([] { savgol_coeffs(5, 5); }).find("0 <= order < window length = 5, got 5"),
            std::string::npos);
  EXPECT_NE(error_of([] { savgol_coeffs(5, 2, 3); }).find("0 <= deriv <= polynomial order = 2"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { savgol_coeffs(5, 2, 1, 0.0); }).find("sample step must be finite and > 0"),
      std::string::npos);
  EXPECT_NE(error_of([] { savgol_coeffs(5, 2, 0, 1.0, 5); }).find("position must be < window"),
            std::string::npos);
  EXPECT_NE(error_of([&] { savgol_filter(y, 11, 3); }).find("at least the window length (11)"),
            std::string::npos);
}

// ---- differentiation -------------------------------------------------------------------------

TEST(Differentiate, CentralExactForQuadraticsOnIrregularGrid) {
  std::vector<double> t{0.0}, x, v, a;
  for (int k = 1; k < 200; ++k) t.push_back(t.back() + 1e-3 * (1.0 + 4.5 * ((k * 37) % 11) / 10.0));
  for (double tk : t) {
    x.push_back(0.2 - 1.5 * tk + 3.0 * tk * tk);
    v.push_back(-1.5 + 6.0 * tk);
    a.push_back(6.0);
  }
  const Derivatives d = differentiate(t, x, {.method = DiffMethod::central});
  EXPECT_LT(max_abs_diff(d.first, v), 1e-9);
  EXPECT_LT(max_abs_diff(d.second, a), 1e-5);  // 2nd differences: rounding / h^2
}

TEST(Differentiate, SavgolOnSineAndCubic) {
  const double fs = 1000;
  std::vector<double> t(2000), x(2000), v(2000), a(2000);
  const double w = 2 * kPi * 1.5;
  for (std::size_t k = 0; k < t.size(); ++k) {
    t[k] = static_cast<double>(k) / fs;
    x[k] = std::sin(w * t[k]);
    v[k] = w * std::cos(w * t[k]);
    a[k] = -w * w * std::sin(w * t[k]);
  }
  const Derivatives d = differentiate(t, x);  // savgol, w = 21, p = 3
  // interior bias of a cubic fit over 21 ms at 1.5 Hz: O((w h)^4) relative
  EXPECT_LT(max_abs_diff(d.first, v), 1e-5 * w);
  EXPECT_LT(max_abs_diff(d.second, a), 1e-2 * w * w);
  // a cubic is differentiated exactly
  for (std::size_t k = 0; k < t.size(); ++k) {
    x[k] = 1 + t[k] - 2 * t[k] * t[k] + 0.5 * t[k] * t[k] * t[k];
    v[k] = 1 - 4 * t[k] + 1.5 * t[k] * t[k];
    a[k] = -4 + 3 * t[k];
  }
  const Derivatives dc = differentiate(t, x, {.method = DiffMethod::savgol, .window = 11});
  EXPECT_LT(max_abs_diff(dc.first, v), 1e-9);
  EXPECT_LT(max_abs_diff(dc.second, a), 1e-6);
}

TEST(Differentiate, SavgolRefusesNonUniformSampling) {
  std::vector<double> t{0.0};
  for (int k = 1; k < 100; ++k) t.push_back(t.back() + (k == 50 ? 5.5e-3 : 1e-3));
  const std::vector<double> x(t.size(), 1.0);
  EXPECT_EQ(error_of([&] { differentiate(t, x); }),
            "Savitzky-Golay differentiation needs uniform sampling: the sample step varies by up "
            "to 450% of its median 0.001 s (steps from 0.001 s to 0.0055 s; worst: 0.0055 s "
            "before sample 50 (0-based), t = 0.0545 s; tolerance 1%); resample to a uniform rate "
            "first");
  // central differences accept it
  EXPECT_NO_THROW(differentiate(t, x, {.method = DiffMethod::central}));
  // a tolerance that covers the jitter accepts it too
  EXPECT_NO_THROW(differentiate(t, x, {.uniform_tolerance = 5.0}));
  EXPECT_NE(error_of([&] { differentiate(t, x, {.polyorder = 1}); }).find("order >= 2"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              differentiate(std::vector<double>{0, 1}, std::vector<double>{0, 1},
                            {.method = DiffMethod::central});
            }).find("at least 3 samples"),
            std::string::npos);
}

}  // namespace
}  // namespace frictionlab::signal
