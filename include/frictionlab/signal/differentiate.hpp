// frictionlab signal: velocity and acceleration from a sampled position (docs/preprocessing.md,
// "Differentiation").
//
// Methods:
//   savgol   Savitzky-Golay (savgol.hpp): first and second derivative of the least-squares
//            polynomial of degree p over a window of w samples, edges from the end windows.
//            Needs uniform sampling: the grid must satisfy jitter_max <= uniform_tolerance
//            (sampling.hpp), else std::invalid_argument naming the jitter; the step used is the
//            mean step delta = (t_{n-1} - t_0) / (n - 1). Resample first (resample.hpp) if the
//            record is not uniform: the caller decides.
//   central  Three-point finite differences on the actual (possibly non-uniform) grid, exact for
//            quadratics (Fornberg 1988, Math. Comp. 51(184); the interior first derivative is
//            numpy.gradient's formula). With h- = t_k - t_{k-1}, h+ = t_{k+1} - t_k:
//              x'_k  = (h-^2 x_{k+1} + (h+^2 - h-^2) x_k - h+^2 x_{k-1}) / (h- h+ (h- + h+))
//              x''_k = 2 (h- x_{k+1} - (h- + h+) x_k + h+ x_{k-1}) / (h- h+ (h- + h+))
//            End points: the derivatives of the quadratic through the first / last three samples
//            (second order for x', first order for x''). No smoothing: noise in x is amplified
//            by about 1/h in x' and 4/h^2 in x'' (low-pass first).
//   tvreg    Total-variation regularised differentiation (tvreg.hpp; Chartrand 2011), options
//            in options.tv (alpha required). order 2 (default): one solve regularising the
//            second derivative; first and second are derivatives of the same de-noised signal
//            (consistent). order 1: first by TVRegDiff of x, second by TVRegDiff (order 1,
//            alpha = tv_second_alpha, automatic epsilon) of first. Needs uniform sampling within
//            uniform_tolerance (which replaces tv.uniform_tolerance). Throws std::runtime_error
//            if an iteration does not converge within tv.max_iterations.
// Units: x [m | rad], t [s] -> first [m/s | rad/s], second [m/s^2 | rad/s^2].
//
// Host side: allocates, throws std::invalid_argument.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "frictionlab/signal/tvreg.hpp"

namespace frictionlab::signal {

enum class DiffMethod { savgol, central, tvreg };

struct DiffOptions {
  DiffMethod method = DiffMethod::savgol;
  int window = 21;                  ///< savgol: window length (odd samples)
  int polyorder = 3;                ///< savgol: polynomial degree (>= 2 for the acceleration)
  double uniform_tolerance = 0.01;  ///< savgol, tvreg: largest allowed jitter_max [-] (1 %)
  TVRegOptions tv{};                ///< tvreg: alpha (required), order, epsilon, ...
  double tv_second_alpha = 0;       ///< tvreg with tv.order = 1: alpha of the second pass (> 0)
};

struct Derivatives {
  std::vector<double> first;   ///< dx/dt
  std::vector<double> second;  ///< d^2x/dt^2
};

/// First and second time derivative of x(t). Requires t finite and strictly increasing, the
/// sizes equal, n >= 3 (central) or n >= window (savgol), polyorder >= 2 (savgol), the
/// requirements of tvreg() (tvreg).
Derivatives differentiate(std::span<const double> t, std::span<const double> x,
                          const DiffOptions& options = {});

/// Two-point derivative of v(t) at sample k on the actual grid: the secant through the
/// neighbours, (v_{k+1} - v_{k-1}) / (t_{k+1} - t_{k-1}), one-sided at the ends; 0 for fewer
/// than 2 samples. Cheap and unsmoothed: what the identification's data summaries use (an
/// acceleration from a velocity) where differentiate()'s quadratic is not needed.
double derivative_at(std::span<const double> t, std::span<const double> v, std::size_t k);
/// derivative_at(t, v, k) for every k (the size of t).
std::vector<double> derivative(std::span<const double> t, std::span<const double> v);
/// The trapezoid over [t_{k-1}, t_k], k >= 1: 0.5 (v_k + v_{k-1}) (t_k - t_{k-1}).
double trapezoid_step(std::span<const double> t, std::span<const double> v, std::size_t k);
/// The running integral of v(t) by the trapezoid rule, 0 at t_0 (scipy's cumulative_trapezoid
/// with initial=0): x_k = x_{k-1} + trapezoid_step(t, v, k). Units: v [m/s] -> x [m].
std::vector<double> cumulative_trapezoid(std::span<const double> t, std::span<const double> v);

}  // namespace frictionlab::signal
