// frictionlab signal: total-variation regularised differentiation (Chartrand's TVRegDiff and its
// second-order form) of a uniformly sampled signal (docs/preprocessing.md, "TV-regularised
// differentiation").
//
// Source: R. Chartrand, "Numerical differentiation of noisy, nonsmooth data", ISRN Applied
// Mathematics 2011, Article ID 164564: the derivative u of noisy data f on [0, T] is
//   u = argmin_u  alpha * TV(u) + 1/2 * integral_0^T (c + (A u)(t) - f(t))^2 dt,
//   (A u)(t) = integral_0^t u,   TV(u) = integral_0^T |u'(t)| dt.
// Chartrand fixes c = f(0) (offset = first_sample reproduces that); by default c is a free
// unknown (least squares), so that the noise of the first sample does not bend the start.
// order m = 1 is TVRegDiff; order m = 2 regularises the second derivative instead (u = y'', A =
// double integration with two free constants: piecewise-constant acceleration, the trapezoidal
// velocity profiles of robot moves) and gives position, velocity and acceleration from one solve,
// consistent by construction.
//
// Discretisation (step h, samples f_i, i = 0..n-1). Unknown: the de-noised signal y_i; the m-th
// derivative u = Delta^m y / h^m lives between samples (midpoints for m = 1, samples 1..n-2 for
// m = 2), so y = c + (m-fold midpoint-rule antiderivative of u), a bijection between y and
// (constants, u). With s_k = (Delta^(m+1) y)_k / h^(m+1) (k = 0..n-m-2), the discrete functional is
//   J(y) = alpha * sum_k h * (sqrt(s_k^2 + epsilon^2) - epsilon) + h/2 * sum_i (y_i - f_i)^2,
// the Riemann sums of alpha integral (sqrt(u'^2 + epsilon^2) - epsilon) dt + 1/2 integral (y - f)^2
// dt: the same alpha gives the same result for the same signal sampled at any rate (the "time"
// scaling, default). epsilon smooths |.| (Chartrand's "ep"): |u'| << epsilon is penalised
// quadratically (alpha/(2 epsilon) integral u'^2), |u'| >> epsilon like TV.
// Units: x [X], t [s]:  alpha [X s^(m+1)] (m = 1: X s^2; m = 2: X s^3),  epsilon [X / s^(m+1)].
//
// Scaling conventions for alpha (docs/preprocessing.md has the derivation and the measured check):
//   time        alpha as above (independent of h).
//   per_sample  alpha_ps weighs sum_k |Delta u_k| against 1/2 sum_i r_i^2, i.e. J / h =
//               alpha_ps * sum_k (sqrt(Delta u_k^2 + (epsilon h)^2) - epsilon h) + 1/2 sum r_i^2,
//               alpha = alpha_ps * h. This is the alpha of Chartrand's TVRegDiff code (both its
//               'small' and 'large' variants) called with dx = h; called with its default
//               dx = 1/n it corresponds to alpha = alpha_code * n * h^2 (any dx: alpha_code
//               h^2/dx). The two variants differ in the smoothing: 'small' ep = epsilon^2, 'large'
//               ep = (epsilon h)^2.
//
// Solver: the functional is smooth and strictly convex (1-strongly convex in y / h); it is
// minimised by the primal-dual Newton method of Chan, Golub & Mulet (SIAM J. Sci. Comput. 20(6),
// 1999) with the dual variable z = s / sqrt(s^2 + epsilon^2), kept in |z| < 1 by limiting its
// step to 0.9 of the distance to the boundary. Every Newton system
//   (I + D^T K D) dy = -grad,  D = Delta^(m+1),  K = diag(alpha E / h^(2m+2)),
// is solved through the Woodbury identity as the banded system (K^-1 + D D^T) w = D grad,
// dy = -grad + D^T w (bandwidth m + 1; O(n) per iteration by banded Cholesky), which keeps the
// data term's identity exact however large alpha / h^(2m+2) is. This replaces the conjugate
// gradients on the u-form of Chartrand's 'large' code: same functional, same minimiser, exact
// linear solves, typically 10 to 90 iterations. The iteration starts from y = f (or `initial`),
// z = 0, and stops when the largest change of the m-th derivative is below tolerance * its
// largest value.
//
// Outputs at the sample times: smoothed = y; first = dy/dt (central differences of y, one-sided
// second-order at the ends); second (order 2 only) = d^2y/dt^2 (central second differences,
// linear extrapolation at the ends). For order 2, y, first and second are exact for a quadratic
// signal; for order 1, first is exact for a linear one.
//
// Sampling: the grid must be uniform within uniform_tolerance (sampling.hpp, require_uniform);
// h = mean step. Resample non-uniform records first (resample.hpp).
//
// Precision: the Newton systems contain diag(mu) + D D^T with mu >= h^(2m+2) epsilon / alpha and
// |D D^T| <= 4^(m+1); with kappa = 4^(m+1) alpha / (h^(2m+2) epsilon) <= 1e16 the result agreed
// with an 80-bit long-double run of the same iteration to 5e-7 relative (acceleration) or better
// (development measurement); beyond ~3e16 the iteration stalls, and on real data it slows down
// above ~1e13. A given epsilon must keep kappa <= 1e15; the automatic one keeps kappa <= 1e13.
//
// Host side: allocates; throws std::invalid_argument naming the parameter for bad input
// (including an epsilon below that limit), and std::runtime_error if a linear system is
// numerically singular anyway (the message says what to change).
#pragma once

#include <span>
#include <vector>

namespace frictionlab::signal {

/// The integration constant c of the data term.
enum class TVOffset {
  least_squares,  ///< c free (fitted with u; default)
  first_sample,   ///< y_0 = f_0 (Chartrand's TVRegDiff: data - data[0])
};

/// How alpha is scaled with the sample step h (see the header comment).
enum class TVScaling {
  time,        ///< alpha of the continuous functional: the same for any sample rate (default)
  per_sample,  ///< alpha of Chartrand's TVRegDiff code with dx = h: alpha_time = alpha * h
};

struct TVRegOptions {
  double alpha = 0;  ///< regularisation weight (> 0, required); units [X s^(order+1)] (time)
  int order = 2;     ///< 1: TV of the first derivative (TVRegDiff); 2: TV of the second derivative
  TVScaling scaling = TVScaling::time;
  TVOffset offset = TVOffset::least_squares;
  /// TV smoothing [X / s^(order+1)]; 0: automatic, R / T^(order+1) with R = max f - min f and
  /// T = duration (the (order+1)-th derivative of a motion crossing its range once in the
  /// record: real motions' derivatives are far larger, so the default is in the TV regime),
  /// raised to 100 epsilon_min if smaller. epsilon_min = 4^(order+1) alpha / (1e15 h^(2 order + 2))
  /// is the smallest epsilon that double precision resolves (a given epsilon below it is an
  /// error); only there does h enter the result (set epsilon for rate-independent results).
  double epsilon = 0;
  int max_iterations = 300;         ///< Newton iterations (>= 1)
  double tolerance = 1e-6;          ///< stop: max |change of u| <= tolerance * max |u| (> 0)
  double uniform_tolerance = 0.01;  ///< largest accepted jitter_max of the time grid [-]
  /// Optional starting point for y (n values, e.g. the result for a nearby alpha); empty: the data.
  std::vector<double> initial;
};

struct TVRegResult {
  std::vector<double> smoothed;  ///< y: the de-noised signal [X]
  std::vector<double> first;     ///< dy/dt [X/s]
  std::vector<double> second;    ///< d^2y/dt^2 [X/s^2]; order 2 only (empty for order 1)
  int iterations = 0;            ///< Newton iterations done
  bool converged = false;        ///< change <= tolerance within max_iterations
  double change = 0;             ///< last relative change of the regularised derivative
  double alpha = 0;              ///< alpha used, time convention [X s^(order+1)]
  double epsilon = 0;            ///< epsilon used [X / s^(order+1)]
  double step = 0;               ///< sample step h used (mean step) [s]
  double objective = 0;          ///< J(y) (see the header comment) [X^2 s]
  double residual_rms = 0;       ///< sqrt(mean (y - f)^2) [X]
};

/// TV-regularised smoothing and differentiation of x(t). Requires t finite, strictly increasing
/// and uniform within options.uniform_tolerance, x finite and of the same size, n >= order + 3,
/// alpha > 0 finite, order 1 or 2, epsilon >= 0 finite, max_iterations >= 1, tolerance > 0,
/// initial empty or of size n. Does not throw when the iteration limit is reached: check
/// `converged` (differentiate() does).
TVRegResult tvreg(std::span<const double> t, std::span<const double> x,
                  const TVRegOptions& options);

}  // namespace frictionlab::signal
