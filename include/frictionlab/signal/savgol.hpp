// frictionlab signal: Savitzky-Golay smoothing and differentiation (docs/preprocessing.md,
// "Savitzky-Golay").
//
// Savitzky & Golay 1964 (Anal. Chem. 36(8)); Schafer 2011 ("What is a Savitzky-Golay filter?",
// IEEE Signal Processing Magazine 28(4)). Same numbers as scipy.signal.savgol_coeffs /
// savgol_filter(..., mode='interp').
//
// A polynomial of degree p is fitted by least squares to the w samples of a window (w odd,
// p < w); its d-th derivative at the window position `pos` (0..w-1; default the centre
// m = (w-1)/2) is a linear combination of the window's samples:
//   y^(d)(pos) = sum_{j=0}^{w-1} h_j y_j,
//   h = d! / delta^d * (row d of pinv(V)),   V_{j,i} = (j - pos)^i,  i = 0..p,
// delta the sample step [s] (the result has the units of y / s^d). pinv(V) = (V^T V)^{-1} V^T is
// computed with a Householder QR of V (Eigen) on the abscissa scaled to [-1, 1] for
// conditioning. The fit reproduces every polynomial of degree <= p exactly (to rounding).
//
// savgol_filter: interior samples k = m..n-1-m use the centred kernel on y_{k-m..k+m}; the first
// and last m samples use the polynomial fitted to the first/last window evaluated at their own
// position (scipy's mode='interp'): no padding, no invented data, exact for polynomials of
// degree <= p everywhere. Requires n >= w. The kernels are defined per sample: y must be
// uniformly sampled with step delta (see sampling.hpp, require_uniform).
//
// Host side: allocates, throws std::invalid_argument.
#pragma once

#include <span>
#include <vector>

namespace frictionlab::signal {

/// Kernel h (dot-product order: h_j multiplies the j-th sample of the window, j = 0..w-1) of the
/// d-th derivative at window position pos (pos < 0: the centre). Requires w odd >= 1,
/// 0 <= p < w, 0 <= d <= p, delta finite > 0, pos < w.
/// (scipy.signal.savgol_coeffs(w, p, deriv=d, delta=delta, pos=pos, use='dot').)
std::vector<double> savgol_coeffs(int window, int polyorder, int deriv = 0, double delta = 1.0,
                                  int pos = -1);

/// Smoothed signal (d = 0) or its d-th derivative, edges by the fitted end polynomials
/// (scipy.signal.savgol_filter(y, w, p, deriv=d, delta=delta, mode='interp')).
std::vector<double> savgol_filter(std::span<const double> y, int window, int polyorder,
                                  int deriv = 0, double delta = 1.0);

}  // namespace frictionlab::signal
