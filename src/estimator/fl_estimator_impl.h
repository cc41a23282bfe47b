/* frictionlab: the C implementation of the torque estimator, shared by the C API
 * (fl_estimator_f32.c, fl_estimator_f64.c) and embedded verbatim in the code that
 * `frictionlab export c` writes. Not a public header: include it from one .c file after defining
 *
 *   FL_REAL      float or double
 *   FL_LIT(x)    a literal of that type (x##f for float)
 *   FL_EXP, FL_EXPM1, FL_POW, FL_FABS, FL_CEIL   the libm functions of that type (expf, ...)
 *   FL_PARAMS    a struct type with the FL_REAL fields Km, sigma0, sigma1, sigma2, Fc_pos, Fc_neg,
 *                Fs_pos, Fs_neg, vs, alpha, vd and the int fields shape, hold
 *
 * It is the C form of models/stribeck.hpp, models/lugre.hpp (g, damping, rate, force, step,
 * step_linear, step_displacement) and estimator/torque_estimator.hpp, operation for operation;
 * tests/test_estimator_c.cpp checks that both give the same numbers to rounding. Equations,
 * units and sources are in those headers and docs/estimator.md. Every function is static,
 * allocation-free and free of double-precision operations when FL_REAL is float.
 */
#include <math.h>

/* 1 - exp(-x) without cancellation: Taylor series (Estrin) for |x| < 1/4, 1 - exp(-x) above
 * (common.hpp one_minus_exp_neg; expm1 costs 3-4 exp). */
static FL_REAL fl_one_minus_exp_neg(FL_REAL x) {
  if (FL_FABS(x) < FL_LIT(0.25)) {
    const FL_REAL x2 = x * x, x4 = x2 * x2;
    const FL_REAL b0 = (FL_LIT(1.0) + FL_LIT(-0.5) * x) +
                       (FL_LIT(0.16666666666666666) + FL_LIT(-0.041666666666666664) * x) * x2;
    const FL_REAL b1 = (FL_LIT(0.008333333333333333) + FL_LIT(-0.001388888888888889) * x) +
                       (FL_LIT(0.0001984126984126984) + FL_LIT(-2.48015873015873e-05) * x) * x2;
    if (sizeof(FL_REAL) < 8) return x * (b0 + b1 * x4);
    {
      const FL_REAL b2 = (FL_LIT(2.7557319223985893e-06) + FL_LIT(-2.755731922398589e-07) * x) +
                         (FL_LIT(2.505210838544172e-08) + FL_LIT(-2.08767569878681e-09) * x) * x2;
      return x * ((b0 + b1 * x4) + (b2 + FL_LIT(1.6059043836821613e-10) * x4) * (x4 * x4));
    }
  }
  return FL_LIT(1.0) - FL_EXP(-x);
}

/* (1 - exp(-x))/x, x >= 0, without cancellation (common.hpp phi1_neg). */
static FL_REAL fl_phi1(FL_REAL x) {
  if (FL_FABS(x) < FL_LIT(1e-4)) return FL_LIT(1.0) - x / FL_LIT(2.0) + x * x / FL_LIT(6.0);
  return fl_one_minus_exp_neg(x) / x;
}

/* Stribeck shape s(r) in [0, 1] of r = |v|/vs (stribeck_curve.hpp stribeck_shape_of_ratio):
 * r*r and r for alpha = 2 and 1 (common.hpp pow_exponent), exp's exact 0 beyond its underflow
 * bound without calling it (exp_neg_zero_beyond). */
static FL_REAL fl_shape_ratio(const FL_PARAMS* p, FL_REAL r) {
  FL_REAL ra;
  if (!(r > FL_LIT(0.0))) return FL_LIT(1.0);
  ra = p->alpha == FL_LIT(2.0) ? r * r : (p->alpha == FL_LIT(1.0) ? r : FL_POW(r, p->alpha));
  if (p->shape == 0) {
    if (ra > (sizeof(FL_REAL) < 8 ? FL_LIT(104.0) : FL_LIT(746.0))) return FL_LIT(0.0);
    return FL_EXP(-ra);
  }
  return FL_LIT(1.0) / (FL_LIT(1.0) + ra);
}

/* g on one side of the curve, r = |v| * inv_vs given (stribeck_curve.hpp
 * stribeck_g_side_inv_vs); Fs = Fc skips the shape. */
static FL_REAL fl_g_side_ratio(const FL_PARAMS* p, FL_REAL r, int pos) {
  const FL_REAL Fc = pos ? p->Fc_pos : p->Fc_neg;
  const FL_REAL Fs = pos ? p->Fs_pos : p->Fs_neg;
  const FL_REAL dF = Fs - Fc;
  if (dF == FL_LIT(0.0)) return Fc;
  return Fc + dF * fl_shape_ratio(p, r);
}

/* g on one side of the curve (stribeck_curve.hpp stribeck_g_side). */
static FL_REAL fl_g_side(const FL_PARAMS* p, FL_REAL v, int pos) {
  return fl_g_side_ratio(p, FL_FABS(v) / p->vs, pos);
}

static FL_REAL fl_g(const FL_PARAMS* p, FL_REAL v) { return fl_g_side(p, v, !(v < FL_LIT(0.0))); }

/* max g / sigma0: the invariant bound on |z| (lugre.hpp state_bound). */
static FL_REAL fl_bound(const FL_PARAMS* p) {
  const FL_REAL a = p->Fc_pos > p->Fs_pos ? p->Fc_pos : p->Fs_pos;
  const FL_REAL b = p->Fc_neg > p->Fs_neg ? p->Fc_neg : p->Fs_neg;
  return (a > b ? a : b) / p->sigma0;
}

/* sigma1(v) (lugre.hpp damping). */
static FL_REAL fl_damping(const FL_PARAMS* p, FL_REAL v) {
  if (p->vd > FL_LIT(0.0)) {
    const FL_REAL r = v / p->vd;
    return p->sigma1 * FL_EXP(-r * r);
  }
  return p->sigma1;
}

/* sigma0 |v| / g(v) (lugre.hpp rate). */
static FL_REAL fl_rate(const FL_PARAMS* p, FL_REAL v) {
  return p->sigma0 * FL_FABS(v) / fl_g(p, v);
}

/* The bristle force sigma0 z + sigma1(v) dz/dt, dz/dt at (z, v). */
static FL_REAL fl_bristle_force(const FL_PARAMS* p, FL_REAL z, FL_REAL v) {
  const FL_REAL zdot = v - fl_rate(p, v) * z;
  return p->sigma0 * z + fl_damping(p, v) * zdot;
}

/* F = sigma0 z + sigma1(v) dz/dt + sigma2 v (lugre.hpp force). */
static FL_REAL fl_force(const FL_PARAMS* p, FL_REAL z, FL_REAL v) {
  return fl_bristle_force(p, z, v) + p->sigma2 * v;
}

/* Exact step, v held over h: z + (1 - exp(-a h)) (z_ss - z) (lugre.hpp at, step). */
static FL_REAL fl_step_zoh(const FL_PARAMS* p, FL_REAL z, FL_REAL v, FL_REAL h) {
  const FL_REAL g = fl_g(p, v);
  const FL_REAL a = p->sigma0 * FL_FABS(v) / g;
  const FL_REAL sg = v > FL_LIT(0.0) ? FL_LIT(1.0) : (v < FL_LIT(0.0) ? FL_LIT(-1.0) : FL_LIT(0.0));
  const FL_REAL z_ss = sg * g / p->sigma0;
  return z + fl_one_minus_exp_neg(a * h) * (z_ss - z);
}

/* One part of the linear-input step without reversal (models/bristle.hpp bristle_arc_step, with
 * lugre.hpp step_linear's g: r = |v| * (1/vs), g/sigma0 = g * (1/sigma0)). */
static FL_REAL fl_arc_step(const FL_PARAMS* p, FL_REAL z, FL_REAL va, FL_REAL vb, FL_REAL hh,
                           int pos) {
  const FL_REAL inv_vs = FL_LIT(1.0) / p->vs, inv_s0 = FL_LIT(1.0) / p->sigma0;
  const FL_REAL sg = pos ? FL_LIT(1.0) : FL_LIT(-1.0);
  const FL_REAL ds = hh * (FL_FABS(va) + FL_FABS(vb)) / FL_LIT(2.0);
  const FL_REAL gh0 = fl_g_side_ratio(p, FL_FABS(va) * inv_vs, pos) * inv_s0;
  const FL_REAL gh1 = fl_g_side_ratio(p, FL_FABS(vb) * inv_vs, pos) * inv_s0;
  const FL_REAL c = p->sigma0 / fl_g_side_ratio(p, FL_FABS((va + vb) / FL_LIT(2.0)) * inv_vs, pos);
  const FL_REAL xs = c * ds;
  const FL_REAL ph = fl_phi1(xs);
  const FL_REAL E = FL_LIT(1.0) - xs * ph;
  return sg * gh1 + E * (z - sg * gh0) - sg * (gh1 - gh0) * ph;
}

/* models/bristle.hpp bristle_linear_part: split at a reversal. */
static FL_REAL fl_step_linear_part(const FL_PARAMS* p, FL_REAL z, FL_REAL v0, FL_REAL v1,
                                   FL_REAL h) {
  if ((v0 > FL_LIT(0.0) && v1 < FL_LIT(0.0)) || (v0 < FL_LIT(0.0) && v1 > FL_LIT(0.0))) {
    const FL_REAL hc = h * v0 / (v0 - v1);
    const FL_REAL mid = fl_arc_step(p, z, v0, FL_LIT(0.0), hc, v0 > FL_LIT(0.0));
    return fl_arc_step(p, mid, FL_LIT(0.0), v1, h - hc, v1 > FL_LIT(0.0));
  }
  if (v0 == FL_LIT(0.0) && v1 == FL_LIT(0.0)) return z;
  return fl_arc_step(p, z, v0, v1, h, (v0 + v1) > FL_LIT(0.0));
}

/* Velocity linear from v0 to v1 over h (lugre.hpp step_linear): at most 16 parts, none where g
 * is the same number at both ends of one side (the Stribeck curve is monotone in |v| on each
 * side, so g is constant in between: models/bristle.hpp bristle_split_step). */
static FL_REAL fl_step_linear(const FL_PARAMS* p, FL_REAL z, FL_REAL v0, FL_REAL v1, FL_REAL h) {
  const FL_REAL dv = FL_FABS(v1 - v0) / (p->vs / FL_LIT(8.0));
  if (dv > FL_LIT(1.0)) {
    if ((v0 > FL_LIT(0.0) && v1 > FL_LIT(0.0)) || (v0 < FL_LIT(0.0) && v1 < FL_LIT(0.0))) {
      const int pos = v0 > FL_LIT(0.0);
      const FL_REAL inv_vs = FL_LIT(1.0) / p->vs, inv_s0 = FL_LIT(1.0) / p->sigma0;
      if (fl_g_side_ratio(p, FL_FABS(v0) * inv_vs, pos) * inv_s0 ==
          fl_g_side_ratio(p, FL_FABS(v1) * inv_vs, pos) * inv_s0)
        return fl_arc_step(p, z, v0, v1, h, pos);
    }
    const int m = dv > FL_LIT(16.0) ? 16 : (int)FL_CEIL(dv);
    FL_REAL y = z;
    int j;
    for (j = 0; j < m; ++j) {
      const FL_REAL wa = v0 + (v1 - v0) * (FL_REAL)j / (FL_REAL)m;
      const FL_REAL wb = v0 + (v1 - v0) * (FL_REAL)(j + 1) / (FL_REAL)m;
      y = fl_step_linear_part(p, y, wa, wb, h / (FL_REAL)m);
    }
    return y;
  }
  return fl_step_linear_part(p, z, v0, v1, h);
}

/* Exact step over a displacement dx at velocity v, extra drive e (lugre.hpp step_displacement). */
static FL_REAL fl_step_disp(const FL_PARAMS* p, FL_REAL z, FL_REAL dx, FL_REAL v, FL_REAL e) {
  const FL_REAL k = p->sigma0 * FL_FABS(dx) / fl_g(p, v);
  return z + fl_phi1(k) * (dx + e - k * z);
}

static int fl_finite(FL_REAL x) { return isfinite(x) ? 1 : 0; }
static int fl_positive(FL_REAL x) { return fl_finite(x) && x > FL_LIT(0.0); }
static int fl_nonnegative(FL_REAL x) { return fl_finite(x) && x >= FL_LIT(0.0); }
static FL_REAL fl_clamp(FL_REAL x, FL_REAL lo, FL_REAL hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

/* The first invalid parameter, 0 if none (torque_estimator.hpp first_invalid). */
static int fl_check(const FL_PARAMS* p) {
  if (!fl_positive(p->Km)) return 1;
  if (!fl_positive(p->sigma0)) return 2;
  if (!fl_nonnegative(p->sigma1)) return 3;
  if (!fl_nonnegative(p->sigma2)) return 4;
  if (!fl_positive(p->Fc_pos)) return 5;
  if (!fl_positive(p->Fc_neg)) return 6;
  if (!fl_positive(p->Fs_pos)) return 7;
  if (!fl_positive(p->Fs_neg)) return 8;
  if (!fl_positive(p->vs)) return 9;
  if (!fl_positive(p->alpha)) return 10;
  if (p->shape != 0 && p->shape != 1) return 11;
  if (!fl_nonnegative(p->vd)) return 12;
  if (p->hold != 0 && p->hold != 1) return 13;
  if (!fl_positive(fl_bound(p))) return 2;
  return 0;
}

/* The end of a cycle (torque_estimator.hpp finish): accept zn if everything is finite. */
static int fl_finish(const FL_PARAMS* p, FL_REAL* z, FL_REAL* v_prev, FL_REAL current, FL_REAL v,
                     FL_REAL dt, int inputs_finite, FL_REAL zn, FL_REAL* friction,
                     FL_REAL* torque) {
  const FL_REAL F = fl_force(p, zn, v);
  const int ok = inputs_finite && dt >= FL_LIT(0.0) && fl_finite(current) && fl_finite(v) &&
                 fl_finite(dt) && fl_finite(zn) && fl_finite(F);
  if (!ok) {
    *friction = FL_LIT(0.0);
    *torque = FL_LIT(0.0);
    return 0;
  }
  *z = zn;
  *v_prev = v;
  *friction = F;
  *torque = p->Km * current - F;
  return 1;
}

/* One velocity cycle (torque_estimator.hpp step). Returns ok. */
static int fl_cycle_velocity(const FL_PARAMS* p, FL_REAL z_max, FL_REAL* z, FL_REAL* v_prev,
                             FL_REAL current, FL_REAL velocity, FL_REAL dt, FL_REAL correction,
                             FL_REAL* friction, FL_REAL* torque) {
  const int linear = p->hold == 1;
  FL_REAL zn =
      linear ? fl_step_linear(p, *z, *v_prev, velocity, dt) : fl_step_zoh(p, *z, *v_prev, dt);
  if (correction != FL_LIT(0.0)) {
    const FL_REAL vm = linear ? (*v_prev + velocity) / FL_LIT(2.0) : *v_prev;
    zn += dt * fl_phi1(fl_rate(p, vm) * dt) * correction;
    zn = fl_clamp(zn, -z_max, z_max);
  }
  return fl_finish(p, z, v_prev, current, velocity, dt,
                   fl_finite(velocity) && fl_finite(correction), zn, friction, torque);
}

/* One position-increment cycle (torque_estimator.hpp step_displacement). Returns ok. */
static int fl_cycle_displacement(const FL_PARAMS* p, FL_REAL z_max, FL_REAL* z, FL_REAL* v_prev,
                                 FL_REAL current, FL_REAL dx, FL_REAL dt, FL_REAL correction,
                                 FL_REAL* friction, FL_REAL* torque) {
  const FL_REAL v = dt > FL_LIT(0.0) ? dx / dt : FL_LIT(0.0);
  FL_REAL zn = fl_step_disp(p, *z, dx, v, correction * dt);
  if (correction != FL_LIT(0.0)) zn = fl_clamp(zn, -z_max, z_max);
  return fl_finish(p, z, v_prev, current, v, dt, fl_finite(dx) && fl_finite(correction), zn,
                   friction, torque);
}
