// frictionlab signal: power bandwidth of a uniformly sampled signal
// (include/frictionlab/signal/spectrum.hpp).
#include "frictionlab/signal/spectrum.hpp"

#include <cmath>
#include <complex>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <unsupported/Eigen/FFT>

namespace frictionlab::signal {
namespace {

/// x minus its least-squares line over the sample index, times a Hann window.
std::vector<double> detrended_windowed(std::span<const double> x) {
  const std::size_t n = x.size();
  const double nd = static_cast<double>(n);
  const double k_mean = (nd - 1) / 2;
  double x_mean = 0;
  for (double v : x) x_mean += v;
  x_mean /= nd;
  double sxy = 0, sxx = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double dk = static_cast<double>(k) - k_mean;
    sxy += dk * (x[k] - x_mean);
    sxx += dk * dk;
  }
  const double slope = sxy / sxx;
  std::vector<double> y(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double dk = static_cast<double>(k) - k_mean;
    const double hann =
        0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(k) / (nd - 1));
    y[k] = hann * (x[k] - x_mean - slope * dk);
  }
  return y;
}

/// The largest n' <= n whose prime factors are 2, 3 and 5: kissfft's butterflies for a large
/// prime factor p cost O(n p), so a prime-length record would take O(n^2).
std::size_t smooth_length(std::size_t n) {
  for (std::size_t m = n; m > 1; --m) {
    std::size_t r = m;
    for (std::size_t p : {2u, 3u, 5u})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
  return n;
}

/// The periodogram P_k, k = 0 .. N/2, of the header (bins fs / N apart).
std::vector<double> periodogram(std::span<const double> x, double fs) {
  if (x.size() < 8) throw std::invalid_argument("power spectrum: needs at least 8 samples");
  if (!(fs > 0) || !std::isfinite(fs))
    throw std::invalid_argument("power spectrum: the sample rate must be positive and finite");
  for (double v : x)
    if (!std::isfinite(v)) throw std::invalid_argument("power spectrum: a value is not finite");
  const std::vector<double> y = detrended_windowed(x.first(smooth_length(x.size())));
  std::vector<std::complex<double>> spectrum;
  Eigen::FFT<double> fft;
  fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
  fft.fwd(spectrum, y);
  std::vector<double> p(spectrum.size());
  for (std::size_t k = 0; k < p.size(); ++k) p[k] = std::norm(spectrum[k]);
  return p;
}

/// The bin spacing of periodogram(x, fs) [Hz].
double bin_width(std::size_t n, double fs) { return fs / static_cast<double>(smooth_length(n)); }

}  // namespace

double power_bandwidth(std::span<const double> x, double fs, double fraction) {
  if (!(fraction > 0 && fraction < 1))
    throw std::invalid_argument("power bandwidth: the fraction must lie in (0, 1)");
  const std::vector<double> p = periodogram(x, fs);
  double total = 0;
  for (double v : p) total += v;
  if (!(total > 0)) return 0;
  const double df = bin_width(x.size(), fs);
  double cumulative = 0;
  for (std::size_t k = 0; k < p.size(); ++k) {
    cumulative += p[k];
    if (cumulative >= fraction * total) return static_cast<double>(k) * df;
  }
  return static_cast<double>(p.size() - 1) * df;
}

double power_fraction_above(std::span<const double> x, double fs, double f) {
  const std::vector<double> p = periodogram(x, fs);
  const double df = bin_width(x.size(), fs);
  double total = 0, above = 0;
  for (std::size_t k = 0; k < p.size(); ++k) {
    total += p[k];
    if (static_cast<double>(k) * df > f) above += p[k];
  }
  return total > 0 ? above / total : 0.0;
}

}  // namespace frictionlab::signal
