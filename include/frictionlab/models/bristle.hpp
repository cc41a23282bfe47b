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

/// g(v)/sigma0 [m] at the end of a part (G: a scalar, or a scalar with its derivatives), and
/// the side of the curve it was taken on: the start of the next part (consecutive parts share
/// their ends), so that g is evaluated there once.
template <class G>
struct BristleEnd {
  G gh{};
  bool pos{true};
  bool known{false};
};

/// One part: v linear from va to vb over hh, sgn(v) = (pos ? +1 : -1) inside, gh0 = g(va)/sigma0
/// [m] given; returns z after the part and sets gh1 = g(vb)/sigma0 (as g(vb) * inv_sigma0,
/// inv_sigma0 = 1/sigma0 [m/N] taken once per step: a multiplication instead of a division).
template <class S, class GSide>
S bristle_arc_step(const S& z, const S& va, const S& vb, const S& hh, bool pos, const S& sigma0,
                   const S& inv_sigma0, const S& gh0, S& gh1, const GSide& g_side) noexcept {
  const S sg = pos ? S(1) : S(-1);
  const S ds = hh * (absval(va) + absval(vb)) / S(2);
  gh1 = g_side(vb, pos) * inv_sigma0;
  const S c = sigma0 / g_side((va + vb) / S(2), pos);
  const S xs = c * ds;
  const S ph = phi1_neg(xs);
  const S E = S(1) - xs * ph;  // exp(-xs), consistent with phi1
  return sg * gh1 + E * (z - sg * gh0) - sg * (gh1 - gh0) * ph;
}

/// The arcs of the step for the state value alone (bristle_arc_step). An `Ops` of the splitting
/// below provides `Gh` (what is known of g/sigma0 at a velocity), `gh(v, pos)` and
/// `arc(z, va, vb, hh, pos, gh0, gh1)`; another one carries derivatives along
/// (lugre/sensitivity.hpp).
template <class S, class GSide>
struct BristleValueOps {
  using Gh = S;
  S sigma0;
  S inv_sigma0;
  const GSide& g_side;
  S gh(const S& v, bool pos) const noexcept { return g_side(v, pos) * inv_sigma0; }
  S arc(const S& z, const S& va, const S& vb, const S& hh, bool pos, const S& gh0, S& gh1) const noexcept {
    return bristle_arc_step(z, va, vb, hh, pos, sigma0, inv_sigma0, gh0, gh1, g_side);
  }
};

/// One part without sub-splitting: split at a reversal, then one arc of constant sign each.
/// `end` holds g(v0)/sigma0 if known (from the previous part) and receives g(v1)/sigma0.
template <class S, class Ops>
S bristle_part(const S& z, const S& v0, const S& v1, const S& h, const Ops& ops,
               BristleEnd<typename Ops::Gh>& end) noexcept {
  using Gh = typename Ops::Gh;
  const auto gh_start = [&](bool pos) -> Gh {
    if (end.known && end.pos == pos) return end.gh;
    return ops.gh(v0, pos);
  };
  if ((v0 > S(0) && v1 < S(0)) || (v0 < S(0) && v1 > S(0))) {
    const S hc = h * v0 / (v0 - v1);  // time of the reversal within the step
    const bool p0 = v0 > S(0), p1 = v1 > S(0);
    Gh gh_rest;  // g(0)/sigma0 on the side of v0
    const S mid = ops.arc(z, v0, S(0), hc, p0, gh_start(p0), gh_rest);
    const Gh gh_rest1 = ops.gh(S(0), p1);
    end.pos = p1;
    end.known = true;
    return ops.arc(mid, S(0), v1, h - hc, p1, gh_rest1, end.gh);
  }
  if (v0 == S(0) && v1 == S(0)) {
    end.known = false;
    return z;
  }
  const bool pos = (v0 + v1) > S(0);
  const Gh gh0 = gh_start(pos);
  end.pos = pos;
  end.known = true;
  return ops.arc(z, v0, v1, h, pos, gh0, end.gh);
}

/// z after a step h with v linear from v0 to v1 (see the header), split into at most
/// kMaxBristleParts equal parts where v changes by more than v_split. Consecutive parts share
/// their end velocity (the same expression, bitwise), so g there is evaluated once.
template <class S, class Ops>
S bristle_split_step(const S& z, const S& v0, const S& v1, const S& h, const S& v_split,
                     const Ops& ops) noexcept {
  const S dv = absval(v1 - v0) / v_split;
  BristleEnd<typename Ops::Gh> end;
  if (dv > S(1)) {
    // ceil_to_int keeps a float build in single precision (no double conversion).
    const int m = dv > S(kMaxBristleParts) ? kMaxBristleParts : ceil_to_int(dv);
    const S hm = h / S(m);
    S y = z;
    S wa = v0;
    for (int j = 0; j < m; ++j) {
      const S wb = v0 + (v1 - v0) * S(j + 1) / S(m);
      y = bristle_part(y, wa, wb, hm, ops, end);
      wa = wb;
    }
    return y;
  }
  return bristle_part(z, v0, v1, h, ops, end);
}

/// bristle_part for the state value alone.
template <class S, class GSide>
S bristle_linear_part(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const S& inv_sigma0, const GSide& g_side, BristleEnd<S>& end) noexcept {
  return bristle_part(z, v0, v1, h, BristleValueOps<S, GSide>{sigma0, inv_sigma0, g_side}, end);
}

/// bristle_split_step for the state value alone.
template <class S, class GSide>
S bristle_step_linear(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const S& v_split, const GSide& g_side) noexcept {
  return bristle_split_step(z, v0, v1, h, v_split,
                            BristleValueOps<S, GSide>{sigma0, S(1) / sigma0, g_side});
}

}  // namespace frictionlab
