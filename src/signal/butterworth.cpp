// frictionlab signal: Butterworth design and zero-phase filtering
// (include/frictionlab/signal/butterworth.hpp).
#include "frictionlab/signal/butterworth.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {

Sos butter_lowpass(int order, double cutoff_hz, double sample_rate_hz) {
  if (order < 1 || order > 20)
    throw std::invalid_argument("Butterworth order must be 1..20, got " + std::to_string(order));
  if (!std::isfinite(sample_rate_hz) || !(sample_rate_hz > 0))
    throw std::invalid_argument("sample rate must be finite and > 0 Hz, got " +
                                format_number(sample_rate_hz));
  if (!std::isfinite(cutoff_hz) || !(cutoff_hz > 0) || !(cutoff_hz < 0.5 * sample_rate_hz))
    throw std::invalid_argument(
        "low-pass cutoff must satisfy 0 < fc < fs/2 = " + format_number(0.5 * sample_rate_hz) +
        " Hz, got " + format_number(cutoff_hz) + " Hz");
  const double pi = std::numbers::pi;
  const double K = std::tan(pi * cutoff_hz / sample_rate_hz);  // pre-warped W_c / (2 fs)
  const double K2 = K * K;
  Sos sos;
  for (int k = 0; k < order / 2; ++k) {
    const double q = 2.0 * std::sin(pi * (2.0 * k + 1.0) / (2.0 * order));
    const double a0 = 1.0 + q * K + K2;
    Biquad s;
    s.b0 = K2 / a0;
    s.b1 = 2.0 * K2 / a0;
    s.b2 = K2 / a0;
    s.a1 = 2.0 * (K2 - 1.0) / a0;
    s.a2 = (1.0 - q * K + K2) / a0;
    sos.push_back(s);
  }
  if (order % 2 == 1) {
    const double a0 = 1.0 + K;
    Biquad s;
    s.b0 = K / a0;
    s.b1 = K / a0;
    s.b2 = 0;
    s.a1 = (K - 1.0) / a0;
    s.a2 = 0;
    sos.push_back(s);
  }
  return sos;
}

std::complex<double> frequency_response(const Sos& sos, double f_hz, double sample_rate_hz) {
  const double w = 2.0 * std::numbers::pi * f_hz / sample_rate_hz;
  const std::complex<double> z1 = std::polar(1.0, -w);  // z^-1
  const std::complex<double> z2 = z1 * z1;
  std::complex<double> h = 1.0;
  for (const Biquad& s : sos) h *= (s.b0 + s.b1 * z1 + s.b2 * z2) / (1.0 + s.a1 * z1 + s.a2 * z2);
  return h;
}

SosState sosfilt_zi(const Sos& sos) {
  // Section i sees the constant input u_i = prod_{j<i} G_j (G_j: DC gain of section j). In
  // steady state y = G u with G = (b0 + b1 + b2)/(1 + a1 + a2), and the transposed direct form II
  //   y = b0 x + z0,  z0' = b1 x - a1 y + z1,  z1' = b2 x - a2 y
  // has the fixed point z1 = (b2 - a2 G) u, z0 = (b1 - a1 G) u + z1.
  SosState zi(sos.size());
  double u = 1.0;
  for (std::size_t i = 0; i < sos.size(); ++i) {
    const Biquad& s = sos[i];
    const double den = 1.0 + s.a1 + s.a2;
    if (den == 0.0)
      throw std::invalid_argument("sosfilt_zi: section " + std::to_string(i) +
                                  " has a pole at z = 1 (no steady state)");
    const double G = (s.b0 + s.b1 + s.b2) / den;
    zi[i][1] = (s.b2 - s.a2 * G) * u;
    zi[i][0] = (s.b1 - s.a1 * G) * u + zi[i][1];
    u *= G;
  }
  return zi;
}

std::vector<double> sosfilt(const Sos& sos, std::span<const double> x, SosState* state) {
  SosState z = state ? *state : SosState(sos.size(), {0.0, 0.0});
  if (z.size() != sos.size())
    throw std::invalid_argument("sosfilt: state has " + std::to_string(z.size()) +
                                " sections, the filter " + std::to_string(sos.size()));
  std::vector<double> y(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    double v = x[k];
    for (std::size_t i = 0; i < sos.size(); ++i) {
      const Biquad& s = sos[i];
      const double out = s.b0 * v + z[i][0];
      z[i][0] = s.b1 * v - s.a1 * out + z[i][1];
      z[i][1] = s.b2 * v - s.a2 * out;
      v = out;
    }
    y[k] = v;
  }
  if (state) *state = z;
  return y;
}

std::size_t default_padlen(const Sos& sos) {
  std::size_t zb = 0, za = 0;
  for (const Biquad& s : sos) {
    zb += s.b2 == 0.0 ? 1 : 0;
    za += s.a2 == 0.0 ? 1 : 0;
  }
  return 3 * (2 * sos.size() + 1 - std::min(zb, za));
}

std::vector<double> sosfiltfilt(const Sos& sos, std::span<const double> x, long padlen) {
  if (sos.empty()) throw std::invalid_argument("sosfiltfilt: empty filter");
  const std::size_t n = x.size();
  const std::size_t edge = padlen < 0 ? default_padlen(sos) : static_cast<std::size_t>(padlen);
  if (n <= edge)
    throw std::invalid_argument("zero-phase filtering needs more samples than the padding (" +
                                std::to_string(edge) + " samples at each end for " +
                                std::to_string(sos.size()) + " sections), got " +
                                std::to_string(n));
  // Odd extension: ext = [2 x0 - x[edge..1], x, 2 x_{n-1} - x[n-2..n-1-edge]].
  std::vector<double> ext(n + 2 * edge);
  for (std::size_t k = 0; k < edge; ++k) ext[k] = 2.0 * x[0] - x[edge - k];
  for (std::size_t k = 0; k < n; ++k) ext[edge + k] = x[k];
  for (std::size_t k = 0; k < edge; ++k) ext[edge + n + k] = 2.0 * x[n - 1] - x[n - 2 - k];

  const SosState zi = sosfilt_zi(sos);
  auto scaled = [&](double level) {
    SosState z = zi;
    for (auto& s : z) {
      s[0] *= level;
      s[1] *= level;
    }
    return z;
  };
  SosState z = scaled(ext.front());
  std::vector<double> y = sosfilt(sos, ext, &z);
  std::vector<double> rev(y.rbegin(), y.rend());
  z = scaled(rev.front());
  y = sosfilt(sos, rev, &z);
  std::vector<double> out(n);
  // y is the reversed backward pass: out[k] = y[(n + 2 edge - 1) - (edge + k)].
  for (std::size_t k = 0; k < n; ++k) out[k] = y[n + edge - 1 - k];
  return out;
}

std::vector<double> lowpass_filtfilt(std::span<const double> x, double sample_rate_hz,
                                     double cutoff_hz, int order) {
  return sosfiltfilt(butter_lowpass(order, cutoff_hz, sample_rate_hz), x);
}

}  // namespace frictionlab::signal
