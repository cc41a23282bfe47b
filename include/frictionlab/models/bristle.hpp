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
// kMaxBristleParts parts; a constant-velocity step is never split). Callers pass vs/8. A step
// whose g is the same number at both ends, with g monotone in |v| on that side (the Stribeck
// curves: Fc + (Fs - Fc) s(|v|/vs), s decreasing), has g constant in between: beyond the
// Stribeck region the split would change nothing but the rounding, and it is not made.
//
// A caller that steps along a record knows g at each sample already (the force there needs it:
// LuGre::at): it passes g/sigma0 at v0 and v1 (`BristleEnd`), and the step evaluates g only at
// the part midpoints (and at inner part ends).
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
/// inv_sigma0 = 1/sigma0 [m/N] taken once per step: a multiplication instead of a division), or
/// takes it from gh1_known when that is given.
template <class S, class GSide>
S bristle_arc_step(const S& z, const S& va, const S& vb, const S& hh, bool pos, const S& sigma0,
                   const S& inv_sigma0, const S& gh0, S& gh1, const GSide& g_side,
                   const S* gh1_known = nullptr) noexcept {
  const S sg = pos ? S(1) : S(-1);
  const S ds = hh * (absval(va) + absval(vb)) / S(2);
  gh1 = gh1_known != nullptr ? *gh1_known : g_side(vb, pos) * inv_sigma0;
  const S c = sigma0 / g_side((va + vb) / S(2), pos);
  const S xs = c * ds;
  const S ph = phi1_neg(xs);
  const S E = S(1) - xs * ph;  // exp(-xs), consistent with phi1
  return sg * gh1 + E * (z - sg * gh0) - sg * (gh1 - gh0) * ph;
}

/// The arcs of the step for the state value alone (bristle_arc_step). An `Ops` of the splitting
/// below provides `Gh` (what is known of g/sigma0 at a velocity), `gh(v, pos)`, `value(gh)` (the
/// number g/sigma0), `monotone` (g monotone in |v| on each side: the flat test below applies)
/// and `arc(z, va, vb, hh, pos, gh0, gh1, gh1_known)`; another one carries derivatives along
/// (lugre/sensitivity.hpp).
template <class S, class GSide>
struct BristleValueOps {
  using Gh = S;
  S sigma0;
  S inv_sigma0;
  const GSide& g_side;
  bool monotone = false;
  S gh(const S& v, bool pos) const noexcept { return g_side(v, pos) * inv_sigma0; }
  static const S& value(const S& gh) noexcept { return gh; }
  S arc(const S& z, const S& va, const S& vb, const S& hh, bool pos, const S& gh0, S& gh1,
        const S* gh1_known) const noexcept {
    return bristle_arc_step(z, va, vb, hh, pos, sigma0, inv_sigma0, gh0, gh1, g_side, gh1_known);
  }
};

/// One part without sub-splitting: split at a reversal, then one arc of constant sign each.
/// `end` holds g(v0)/sigma0 if known (from the previous part) and receives g(v1)/sigma0;
/// `known1`, if given, is g(v1)/sigma0 on its side (taken instead of evaluating g there).
template <class S, class Ops>
S bristle_part(const S& z, const S& v0, const S& v1, const S& h, const Ops& ops,
               BristleEnd<typename Ops::Gh>& end,
               const BristleEnd<typename Ops::Gh>* known1 = nullptr) noexcept {
  using Gh = typename Ops::Gh;
  const auto gh_start = [&](bool pos) -> Gh {
    if (end.known && end.pos == pos) return end.gh;
    return ops.gh(v0, pos);
  };
  const auto given_end = [&](bool pos) -> const Gh* {
    return known1 != nullptr && known1->known && known1->pos == pos ? &known1->gh : nullptr;
  };
  if ((v0 > S(0) && v1 < S(0)) || (v0 < S(0) && v1 > S(0))) {
    const S hc = h * v0 / (v0 - v1);  // time of the reversal within the step
    const bool p0 = v0 > S(0), p1 = v1 > S(0);
    Gh gh_rest;  // g(0)/sigma0 on the side of v0
    const S mid = ops.arc(z, v0, S(0), hc, p0, gh_start(p0), gh_rest, nullptr);
    const Gh gh_rest1 = ops.gh(S(0), p1);
    end.pos = p1;
    end.known = true;
    return ops.arc(mid, S(0), v1, h - hc, p1, gh_rest1, end.gh, given_end(p1));
  }
  if (v0 == S(0) && v1 == S(0)) {
    end.known = false;
    return z;
  }
  const bool pos = (v0 + v1) > S(0);
  const Gh gh0 = gh_start(pos);
  end.pos = pos;
  end.known = true;
  return ops.arc(z, v0, v1, h, pos, gh0, end.gh, given_end(pos));
}

/// The parts of bristle_split_step (dv = |v1 - v0| / v_split > 1): ceil(dv) of them, at most
/// kMaxBristleParts; `end` is what is known at v0, `known1` at v1.
template <class S, class Ops>
S bristle_split_parts(const S& z, const S& v0, const S& v1, const S& h, const S& dv, const Ops& ops,
                      BristleEnd<typename Ops::Gh>& end,
                      const BristleEnd<typename Ops::Gh>* known1) noexcept {
  // ceil_to_int keeps a float build in single precision (no double conversion).
  const int m = dv > S(kMaxBristleParts) ? kMaxBristleParts : ceil_to_int(dv);
  const S hm = h / S(m);
  S y = z;
  S wa = v0;
  for (int j = 0; j + 1 < m; ++j) {
    const S wb = v0 + (v1 - v0) * S(j + 1) / S(m);
    y = bristle_part(y, wa, wb, hm, ops, end);
    wa = wb;
  }
  return bristle_part(y, wa, v1, hm, ops, end, known1);
}

/// z after a step h with v linear from v0 to v1 (see the header), split into at most
/// kMaxBristleParts equal parts where v changes by more than v_split and g is not the same at
/// both ends (Ops::monotone). Consecutive parts share their end velocity (the same expression,
/// bitwise; the last part ends at v1 itself), so g there is evaluated once. `known0`, `known1`:
/// g/sigma0 at v0 and at v1 where the caller has them (a side that does not match a part's is
/// evaluated).
template <class S, class Ops>
S bristle_split_step(const S& z, const S& v0, const S& v1, const S& h, const S& v_split,
                     const Ops& ops, const BristleEnd<typename Ops::Gh>& known0 = {},
                     const BristleEnd<typename Ops::Gh>& known1 = {}) noexcept {
  const S dv = absval(v1 - v0) / v_split;
  BristleEnd<typename Ops::Gh> end = known0;
  if (dv > S(1)) {
    const bool same_side = (v0 > S(0) && v1 > S(0)) || (v0 < S(0) && v1 < S(0));
    if (ops.monotone && same_side) {
      // g the same number at both ends of a monotone side: constant in between, one arc.
      const bool pos = v0 > S(0);
      if (!(end.known && end.pos == pos)) end = {ops.gh(v0, pos), pos, true};
      BristleEnd<typename Ops::Gh> last = known1;
      if (!(last.known && last.pos == pos)) last = {ops.gh(v1, pos), pos, true};
      if (Ops::value(end.gh) == Ops::value(last.gh))
        return bristle_part(z, v0, v1, h, ops, end, &last);
      // (the ends just evaluated are used by the first and the last part below)
      return bristle_split_parts(z, v0, v1, h, dv, ops, end, &last);
    }
    return bristle_split_parts(z, v0, v1, h, dv, ops, end, &known1);
  }
  return bristle_part(z, v0, v1, h, ops, end, &known1);
}

/// bristle_part for the state value alone.
template <class S, class GSide>
S bristle_linear_part(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const S& inv_sigma0, const GSide& g_side, BristleEnd<S>& end) noexcept {
  return bristle_part(z, v0, v1, h, BristleValueOps<S, GSide>{sigma0, inv_sigma0, g_side}, end);
}

/// bristle_split_step for the state value alone. g_monotone: g is monotone in |v| on each side
/// (the flat-ends test applies); known0, known1: g/sigma0 at v0, v1 where known.
template <class S, class GSide>
S bristle_step_linear(const S& z, const S& v0, const S& v1, const S& h, const S& sigma0,
                      const S& v_split, const GSide& g_side, bool g_monotone = false,
                      const BristleEnd<S>& known0 = {}, const BristleEnd<S>& known1 = {}) noexcept {
  return bristle_split_step(z, v0, v1, h, v_split,
                            BristleValueOps<S, GSide>{sigma0, S(1) / sigma0, g_side, g_monotone},
                            known0, known1);
}

}  // namespace frictionlab
