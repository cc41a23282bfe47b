// frictionlab: the second-order update of a LuGre-type bristle state for a linearly
// interpolated input, shared by every model whose state obeys
//
//   dz/dt = v - sigma0 * |v| / g(v) * z                                       [m/s | rad/s]
//
// (LuGre, lugre.hpp; the joint LuGre model of reference 004 with the exact sign,
// joint_lugre.hpp). g(v) > 0 may differ for v > 0 and v < 0 (`g_side(v, pos)`).
//
// Written in arc length s = integral |v| dt, the ODE is dz/ds = sgma - z / gh(s) with
// sgma = sgn(v) and gh = g(v)/sigma0. With w = z - sgma*gh (the deviation from the quasi-steady
// deflection), dw/ds = -w/gh - sgma*dgh/ds. Freezing 1/gh at the mid-step velocity and dgh/ds at
// its secant value over the step gives the exact solution
//   z+ = sgma*gh1 + E*(z - sgma*gh0) - sgma*(gh1 - gh0)*phi1(c*ds),  E = exp(-c*ds),
// c = sigma0/g(v_mid), ds = h(|v0|+|v1|)/2 (exact for a linear v without reversal). The step is
// split at a reversal (v0*v1 < 0) so that sgma is constant on each part. Properties: exact for
// constant v; second order for smooth inputs in both the non-stiff and the stiff regime (it
// tracks the quasi-steady deflection at the end of the step with the right lag, where the
// exponential midpoint rule degrades to first order); z+ = E*z + (1-E)*sgma*(convex combination
// of gh0, gh1), hence |z| <= max g/sigma0 is kept for any h.
//
// g(v) is the only quantity frozen within a part; where the velocity sweeps through the Stribeck
// region fast, the step is split so that each part changes v by at most v_split (at most
// kMaxBristleParts parts; a constant-velocity step is never split). Callers pass vs/8.
#pragma once

#include "frictionlab/models/common.hpp"

namespace frictionlab {

inline constexpr int kMaxBristleParts = 16;

/// One part: v linear from va to vb over hh, sgn(v) = (pos ? +1 : -1) inside.
template <class S, class GSide>
S bristle_arc_step(const S& z, const S& va, const S& vb, const S& hh, bool pos, const S& sigma0,
                   const GSide& g_side) noexcept {
  const S sg = pos ? S(1) : S(-1);
  const S ds = hh * (absval(va) + absval(vb)) / S(2);
  const S gh0 = g_side(va, pos) / sigma0;
  const S gh1 = g_side(vb, pos) / sigma0;
  const S c = sigma0 / g_side((va + vb) / S(2), pos);
  const S xs = c * ds;
  const S ph = phi1_neg(xs);
  const S E = S(1) - xs * ph;  // exp(-xs), consistent with phi1
  return sg * gh1 + E * (z - sg * gh0) - sg * (gh1 - gh0) * ph;
}

/// One part without sub-splitting: split at a reversal, then bristle_arc_step.
template <class S, class GSide>
S bristle_linear_part(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const GSide& g_side) noexcept {
  if ((v0 > S(0) && v1 < S(0)) || (v0 < S(0) && v1 > S(0))) {
    const S hc = h * v0 / (v0 - v1);  // time of the reversal within the step
    const S mid = bristle_arc_step(z, v0, S(0), hc, v0 > S(0), sigma0, g_side);
    return bristle_arc_step(mid, S(0), v1, h - hc, v1 > S(0), sigma0, g_side);
  }
  if (v0 == S(0) && v1 == S(0)) return z;
  return bristle_arc_step(z, v0, v1, h, (v0 + v1) > S(0), sigma0, g_side);
}

/// z after a step h with v linear from v0 to v1 (see the header).
template <class S, class GSide>
S bristle_step_linear(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const S& v_split, const GSide& g_side) noexcept {
  const S dv = absval(v1 - v0) / v_split;
  if (dv > S(1)) {
    // ceil_to_int keeps a float build in single precision (no double conversion).
    const int m = dv > S(kMaxBristleParts) ? kMaxBristleParts : ceil_to_int(dv);
    S y = z;
    for (int j = 0; j < m; ++j) {
      const S wa = v0 + (v1 - v0) * S(j) / S(m), wb = v0 + (v1 - v0) * S(j + 1) / S(m);
      y = bristle_linear_part(y, wa, wb, h / S(m), sigma0, g_side);
    }
    return y;
  }
  return bristle_linear_part(z, v0, v1, h, sigma0, g_side);
}

}  // namespace frictionlab
