// frictionlab signal: Savitzky-Golay kernels and filter (include/frictionlab/signal/savgol.hpp).
#include "frictionlab/signal/savgol.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "frictionlab/format.hpp"
#include "frictionlab/signal/sampling.hpp"

namespace frictionlab::signal {
namespace {

void validate(int window, int polyorder, int deriv, double delta) {
  if (window < 1 || window % 2 == 0)
    throw std::invalid_argument("Savitzky-Golay window length must be odd and >= 1, got " +
                                std::to_string(window));
  if (polyorder < 0 || polyorder >= window)
    throw std::invalid_argument(
        "Savitzky-Golay polynomial order must satisfy 0 <= order < window "
        "length = " +
        std::to_string(window) + ", got " + std::to_string(polyorder));
  if (deriv < 0 || deriv > polyorder)
    throw std::invalid_argument(
        "Savitzky-Golay derivative order must satisfy 0 <= deriv <= "
        "polynomial order = " +
        std::to_string(polyorder) + ", got " + std::to_string(deriv));
  if (!std::isfinite(delta) || !(delta > 0))
    throw std::invalid_argument("Savitzky-Golay sample step must be finite and > 0 s, got " +
                                format_number(delta));
}

}  // namespace

std::vector<double> savgol_coeffs(int window, int polyorder, int deriv, double delta, int pos) {
  validate(window, polyorder, deriv, delta);
  if (pos < 0) pos = window / 2;
  if (pos >= window)
    throw std::invalid_argument("Savitzky-Golay evaluation position must be < window length = " +
                                std::to_string(window) + ", got " + std::to_string(pos));
  const Eigen::Index w = window;
  const Eigen::Index p1 = polyorder + 1;
  // Abscissa u_j = (j - pos)/s in [-1, 1]; the fitted polynomial in u has d-th derivative
  // d! c_d, and d/dt = (1/(s delta)) d/du.
  const double s = std::max(1.0, static_cast<double>(std::max(pos, window - 1 - pos)));
  Eigen::MatrixXd V(w, p1);
  for (Eigen::Index j = 0; j < w; ++j) {
    const double u = static_cast<double>(j - pos) / s;
    double pw = 1.0;
    for (Eigen::Index i = 0; i < p1; ++i) {
      V(j, i) = pw;
      pw *= u;
    }
  }
  // V = Q1 R  =>  pinv(V) = R^{-1} Q1^T, and row d of it is (Q1 R^{-T} e_d)^T.
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(V);
  const Eigen::MatrixXd R = qr.matrixQR().topLeftCorner(p1, p1).triangularView<Eigen::Upper>();
  Eigen::VectorXd e = Eigen::VectorXd::Zero(p1);
  e(deriv) = 1.0;
  const Eigen::VectorXd g = R.transpose().triangularView<Eigen::Lower>().solve(e);
  Eigen::VectorXd gp = Eigen::VectorXd::Zero(w);
  gp.head(p1) = g;
  const Eigen::VectorXd h = qr.householderQ() * gp;
  double scale = 1.0;
  for (int k = 2; k <= deriv; ++k) scale *= k;
  scale /= std::pow(s * delta, deriv);
  std::vector<double> out(static_cast<std::size_t>(w));
  for (Eigen::Index j = 0; j < w; ++j) out[static_cast<std::size_t>(j)] = h(j) * scale;
  return out;
}

std::vector<double> savgol_filter(std::span<const double> y, int window, int polyorder, int deriv,
                                  double delta) {
  validate(window, polyorder, deriv, delta);
  const std::size_t n = y.size();
  const auto w = static_cast<std::size_t>(window);
  if (n < w)
    throw std::invalid_argument("Savitzky-Golay filtering needs at least the window length (" +
                                std::to_string(w) + ") samples, got " + std::to_string(n));
  const std::size_t m = w / 2;
  std::vector<double> out(n);
  auto apply = [&](const std::vector<double>& h, std::size_t first) {
    double acc = 0;
    for (std::size_t j = 0; j < w; ++j) acc += h[j] * y[first + j];
    return acc;
  };
  const std::vector<double> centre = savgol_coeffs(window, polyorder, deriv, delta);
  for (std::size_t k = m; k + m < n; ++k) out[k] = apply(centre, k - m);
  for (std::size_t k = 0; k < m; ++k) {
    const std::vector<double> h =
        savgol_coeffs(window, polyorder, deriv, delta, static_cast<int>(k));
    out[k] = apply(h, 0);
    // last window: position w-1-k within [n-w, n-1] is sample n-1-k
    const std::vector<double> hr =
        savgol_coeffs(window, polyorder, deriv, delta, static_cast<int>(w - 1 - k));
    out[n - 1 - k] = apply(hr, n - w);
  }
  return out;
}

}  // namespace frictionlab::signal
