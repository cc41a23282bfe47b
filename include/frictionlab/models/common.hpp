// frictionlab: scalar helpers shared by every model.
//
// Every model header is templated on a Scalar type S that can be `float`, `double` or a Ceres
// `ceres::Jet<double, N>` (forward-mode autodiff). The helpers below therefore call math functions
// unqualified after `using std::...`, so that argument-dependent lookup finds the Jet overloads.
// Nothing here allocates, throws or performs I/O.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

#include "frictionlab/names.hpp"

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
S smooth_sgn(const S& x, const S& scale, SignSmoothing shape = SignSmoothing::tanh) noexcept {
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

/// Whether the scalar `a` is exactly the number `v`: float/double compare the value; a ceres::Jet
/// also needs an all-zero derivative part (compared exactly, not with Eigen's fuzzy isZero), so a
/// Jet that is being differentiated with respect to (an estimated exponent, say) is never "exactly
/// 2". Used only to choose a cheaper formula with the same value and derivatives, never to change
/// a result.
template <class S>
bool is_exactly(const S& a, double v) noexcept {
  if constexpr (requires {
                  a.a;
                  a.v;
                }) {
    return static_cast<double>(a.a) == v && (a.v.array() == 0).all();
  } else {
    return a == static_cast<S>(v);  // v exact in S (0, 1, 2): no float -> double conversion
  }
}

/// A bound beyond which exp(-x) rounds to exactly 0 in S [-]: 104 for float (e^-104 < 2^-150,
/// half the smallest subnormal), 746 for double and a Jet of doubles (e^-746 < 2^-1075); +inf
/// (never) for any other type.
template <class S>
constexpr double exp_neg_zero_beyond() noexcept {
  if constexpr (std::is_same_v<S, float>) {
    return 104.0;
  } else if constexpr (std::is_same_v<S, double>) {
    return 746.0;
  } else if constexpr (requires(S s) { s.a; }) {
    return std::is_same_v<decltype(S{}.a), double> ? 746.0
                                                   : std::numeric_limits<double>::infinity();
  } else {
    return std::numeric_limits<double>::infinity();
  }
}

/// r^alpha for r > 0 (a dimensionless ratio). The usual exponents alpha = 2 and alpha = 1 are
/// computed as r*r and r, which is what pow(r, alpha) returns up to its rounding (glibc's pow is
/// within 1 ulp; r*r is correctly rounded), with the same derivatives d/dr (2 r, 1); any other
/// exponent, and an exponent whose derivative is wanted (d/dalpha r^alpha = r^alpha ln r, a Jet
/// alpha with a nonzero derivative part, is_exactly), goes through pow. pow costs several
/// times exp (docs/benchmarks.md).
template <class S>
S pow_exponent(const S& r, const S& alpha) noexcept {
  using std::pow;
  if (is_exactly(alpha, 2.0)) return r * r;
  if (is_exactly(alpha, 1.0)) return r;
  return pow(r, alpha);
}

/// 1 - exp(-x) = -expm1(-x) [-], without cancellation for small |x|. glibc's (and newlib's)
/// expm1/expm1f cost three to four times exp (docs/benchmarks.md), so float and double use
///   |x| <  tau: the Taylor series x * sum_{k=0..K} (-x)^k / (k+1)!  (Estrin; the first term
///               left out is x^(K+1)/(K+2)!, relative to the sum ~x below tau^K/(K+2)!)
///   |x| >= tau: 1 - exp(-x), whose rounding error is at most ~ulp(1) absolute, i.e. a few ulp
///               relative for 1 - exp(-x) >= 1 - exp(-tau) = 0.22
/// with tau = 1/4 and K = 12 in double (0.25^12/14! = 7e-19 relative), K = 7 in float
/// (0.25^7/9! = 2e-10 relative). The result is within a few ulp of expm1's
/// (tests/test_models_fast_paths.cpp). A ceres::Jet keeps -expm1(-x).
template <class S>
S one_minus_exp_neg(const S& x) noexcept {
  using std::exp;
  using std::expm1;
  if constexpr (requires { x.a; }) {
    return -expm1(-x);
  } else {
    if (absval(x) < S(0.25)) {
      // c_k = (-1)^k / (k+1)!, summed in Estrin's scheme (pairs, then powers x^2, x^4, x^8:
      // a dependency chain of 4 multiply-adds instead of Horner's 12).
      constexpr S c0 = S(1.0), c1 = S(-0.5), c2 = S(0.16666666666666666),
                  c3 = S(-0.041666666666666664), c4 = S(0.008333333333333333),
                  c5 = S(-0.001388888888888889), c6 = S(0.0001984126984126984),
                  c7 = S(-2.48015873015873e-05), c8 = S(2.7557319223985893e-06),
                  c9 = S(-2.755731922398589e-07), c10 = S(2.505210838544172e-08),
                  c11 = S(-2.08767569878681e-09), c12 = S(1.6059043836821613e-10);
      const S x2 = x * x, x4 = x2 * x2;
      const S b0 = (c0 + c1 * x) + (c2 + c3 * x) * x2;
      const S b1 = (c4 + c5 * x) + (c6 + c7 * x) * x2;
      if constexpr (sizeof(S) < 8) {
        return x * (b0 + b1 * x4);  // K = 7
      } else {
        const S b2 = (c8 + c9 * x) + (c10 + c11 * x) * x2;
        return x * ((b0 + b1 * x4) + (b2 + c12 * x4) * (x4 * x4));  // K = 12
      }
    }
    return S(1) - exp(-x);
  }
}

/// (1 - exp(-x)) / x for x >= 0, computed without cancellation; equals 1 at x = 0.
/// This is the "phi1" function of exponential integrators: the exact solution of
/// dz/dt = v - a*z over a step h, with constant v and a >= 0, is
///   z(h) = z + h * phi1(a*h) * (v - a*z).
template <class S>
S phi1_neg(const S& x) noexcept {
  using std::abs;
  // For tiny x, (1 - exp(-x))/x = 1 - x/2 + x^2/6 - ...; the series avoids 0/0 at x == 0.
  if (abs(x) < S(1e-4)) return S(1) - x / S(2) + x * x / S(6);
  return one_minus_exp_neg(x) / x;
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

/// The names of the holds in options, files and messages (in the order messages list them).
inline constexpr std::array<Named<Hold>, 2> kHoldNames{
    {{Hold::linear, "linear"}, {Hold::zoh, "zoh"}}};
static_assert(names_every(kHoldNames, Hold::linear));

/// "zoh" | "linear": the name of a hold in options, files and messages.
constexpr const char* hold_name(Hold h) noexcept { return name_of(kHoldNames, h, "linear").data(); }

}  // namespace frictionlab
