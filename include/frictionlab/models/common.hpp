// frictionlab: scalar helpers shared by every model.
//
// Every model header is templated on a Scalar type S that can be `float`, `double` or a Ceres
// `ceres::Jet<double, N>` (forward-mode autodiff). The helpers below therefore call math functions
// unqualified after `using std::...`, so that argument-dependent lookup finds the Jet overloads.
// Nothing here allocates, throws or performs I/O.
#pragma once

#include <cmath>

namespace frictionlab {

/// Sign function with sgn(0) = 0 (returns +1, -1 or 0 in the scalar type).
template <class S>
constexpr S sgn(const S& x) noexcept {
  if (x > S(0)) return S(1);
  if (x < S(0)) return S(-1);
  return S(0);
}

/// How a smoothed sign rounds off: tanh(x/scale), or (2/pi) atan(x/scale) (the form of
/// Fc*atan(k*qd) friction terms in robot identification, e.g. the DFKI pendulum's published
/// model; both tend to sgn(x) and have slope 1/scale at 0, atan approaches +-1 more slowly).
enum class SignSmoothing { tanh, atan };

/// Sign, optionally smoothed: tanh(x / scale) or (2/pi) atan(x / scale) if `scale > 0`, else the
/// exact sgn(x). `scale` is a velocity [m/s or rad/s] below which the sign is rounded off; it is
/// documented as `v_smooth` wherever a model exposes it.
template <class S>
S smooth_sgn(const S& x, const S& scale,
             SignSmoothing shape = SignSmoothing::tanh) noexcept {
  using std::atan;
  using std::tanh;
  if (scale > S(0)) {
    if (shape == SignSmoothing::atan) return S(0.63661977236758134308) * atan(x / scale);
    return tanh(x / scale);
  }
  return sgn(x);
}

/// The value part of a scalar as double: itself for float/double, `.a` for a ceres::Jet. Used only
/// for discrete decisions (substep counts), never in a differentiated expression.
template <class S>
double double_value(const S& x) noexcept {
  if constexpr (requires { x.a; }) {
    return static_cast<double>(x.a);
  } else {
    return static_cast<double>(x);
  }
}

/// ceil(x) as an int for a finite x of moderate size (a substep count): float stays in single
/// precision (ceilf, no double conversion on an FPU without double support); a Jet uses its value.
template <class S>
int ceil_to_int(const S& x) noexcept {
  if constexpr (requires { x.a; }) {
    return static_cast<int>(std::ceil(x.a));
  } else {
    using std::ceil;
    return static_cast<int>(ceil(x));
  }
}

/// |x|, Jet-friendly.
template <class S>
S absval(const S& x) noexcept {
  using std::abs;
  return abs(x);
}

/// (1 - exp(-x)) / x for x >= 0, computed without cancellation; equals 1 at x = 0.
/// This is the "phi1" function of exponential integrators: the exact solution of
/// dz/dt = v - a*z over a step h, with constant v and a >= 0, is
///   z(h) = z + h * phi1(a*h) * (v - a*z).
template <class S>
S phi1_neg(const S& x) noexcept {
  using std::expm1;
  using std::abs;
  // For tiny x, -expm1(-x)/x = 1 - x/2 + x^2/6 - ...; the series avoids 0/0 at x == 0.
  if (abs(x) < S(1e-4)) return S(1) - x / S(2) + x * x / S(6);
  return -expm1(-x) / x;
}

/// Position increments of a velocity that is linear from v0 to v1 over a step h [s], split at
/// its zero crossing: returns false (and dx1 = (v0+v1)/2 h, dx2 = 0) when v does not change sign
/// inside the step; otherwise true with dx1 [m] travelled before the reversal at
/// tc = h v0/(v0 - v1) and dx2 [m] after it (opposite signs). Rate-independent models (Dahl,
/// Maxwell slip) applied to dx1 then dx2 are exact for a piecewise-linear velocity.
template <class S>
bool split_at_reversal(const S& v0, const S& v1, const S& h, S& dx1, S& dx2) noexcept {
  if ((v0 > S(0) && v1 < S(0)) || (v0 < S(0) && v1 > S(0))) {
    const S tc = h * v0 / (v0 - v1);
    dx1 = v0 * tc / S(2);
    dx2 = v1 * (h - tc) / S(2);
    return true;
  }
  dx1 = (v0 + v1) / S(2) * h;
  dx2 = S(0);
  return false;
}

/// The model type of a parameter struct (every model's Params names its model).
template <class P>
using model_of_t = typename P::Model;

/// Which discretisation advances a dynamic model over one sample step.
/// `exact` is the default everywhere: the closed-form (or unconditionally stable implicit)
/// update of the model for a velocity held constant over the step. `forward_euler` and `rk4`
/// exist only so that users can reproduce and compare with codes that use them.
enum class Method { exact, implicit_euler, forward_euler, rk4 };

/// How the input velocity is taken over a step [t_k, t_k + h].
/// `zoh`: held at v_k (exact for piecewise-constant inputs, first order for smooth ones).
/// `linear`: linearly interpolated between v_k and v_{k+1}; the exact schemes then use the
/// mid-step velocity (exponential midpoint rule, second order for smooth inputs, still bounded).
enum class Hold { zoh, linear };

}  // namespace frictionlab
