/* frictionlab: the adaptive estimator's functions of one precision
 * (include/frictionlab/estimator/adaptive_estimator.h; equations and rules there), shared by the C
 * API (fl_estimator_f32.c, fl_estimator_f64.c) and embedded verbatim in the code that
 * `frictionlab export c --adaptive` writes. Not a public header: include it after
 * fl_estimator_impl.h (FL_REAL, FL_LIT, FL_PARAMS and the math macros defined) with either
 *
 *   FL_SUFFIX     f32 or f64: the C API's names fl_adaptive_<FL_SUFFIX>_init, ... and types
 *                 fl_adaptive_<FL_SUFFIX>, fl_adaptive_options_<FL_SUFFIX>,
 *                 fl_adaptive_output_<FL_SUFFIX>;
 *
 * or FL_A_FN(name), FL_A_INIT, FL_A_STATE, FL_A_OPTIONS, FL_A_OUTPUT defined by the includer
 * (the exported code's names; FL_A_INIT names init, which takes the nominal set;
 * FL_A_NO_DEFAULTS: the includer writes its own _default_options). Allocation-free; no double
 * operation when FL_REAL is float. */
#ifndef FL_A_FN
#define FL_A_CAT3_(a, b, c) a##b##c
#define FL_A_CAT3(a, b, c) FL_A_CAT3_(a, b, c)
#define FL_A_FN(name) FL_A_CAT3(fl_adaptive_, FL_SUFFIX, name)
#define FL_A_STATE FL_A_CAT3(fl_adaptive_, FL_SUFFIX, )
#define FL_A_OPTIONS FL_A_CAT3(fl_adaptive_options_, FL_SUFFIX, )
#define FL_A_OUTPUT FL_A_CAT3(fl_adaptive_output_, FL_SUFFIX, )
#define FL_A_INIT FL_A_FN(_init)
#endif
/* theta's indices and the options' result codes (adaptive_estimator.h's FL_ADAPT_* and
 * FL_A_BAD_*, which the C API checks against these) */
#define FL_N 6
#define FL_A_KM 0
#define FL_A_KAPPA_POS 1
#define FL_A_KAPPA_NEG 2
#define FL_A_SIGMA2 3
#define FL_A_OFFSET 4
#define FL_A_KT 5
#define FL_A_BAD_MEMORY 20
#define FL_A_BAD_V_MIN 21
#define FL_A_BAD_TRACE 22
#define FL_A_BAD_P0 23
#define FL_A_BAD_T_REF 24
#define FL_A_BAD_MASK 25
#ifdef FL_SUFFIX
/* The C API: its enums are these numbers (a compile error otherwise). */
typedef char fl_a_constants_agree
    [(FL_ADAPT_COUNT == FL_N && FL_ADAPT_KM == FL_A_KM && FL_ADAPT_KAPPA_POS == FL_A_KAPPA_POS &&
      FL_ADAPT_KAPPA_NEG == FL_A_KAPPA_NEG && FL_ADAPT_SIGMA2 == FL_A_SIGMA2 &&
      FL_ADAPT_OFFSET == FL_A_OFFSET && FL_ADAPT_KT == FL_A_KT &&
      FL_ADAPTIVE_BAD_MEMORY == FL_A_BAD_MEMORY && FL_ADAPTIVE_BAD_V_MIN == FL_A_BAD_V_MIN &&
      FL_ADAPTIVE_BAD_TRACE == FL_A_BAD_TRACE && FL_ADAPTIVE_BAD_P0 == FL_A_BAD_P0 &&
      FL_ADAPTIVE_BAD_T_REF == FL_A_BAD_T_REF && FL_ADAPTIVE_BAD_MASK == FL_A_BAD_MASK)
         ? 1
         : -1];
#endif

/* The first invalid option, 0 if none. */
static int fl_a_check_options(const FL_A_OPTIONS* o) {
  int j;
  if (!fl_positive(o->memory_s)) return FL_A_BAD_MEMORY;
  if (!fl_nonnegative(o->v_min)) return FL_A_BAD_V_MIN;
  if (!fl_positive(o->trace_max)) return FL_A_BAD_TRACE;
  for (j = 0; j < FL_N; ++j)
    if (!fl_nonnegative(o->P0[j])) return FL_A_BAD_P0;
  if (!fl_finite(o->T_ref)) return FL_A_BAD_T_REF;
  if ((o->adapt >> FL_N) != 0u) return FL_A_BAD_MASK;
  return 0;
}

/* Row and column j of P zeroed; its diagonal P0[j] if j adapts. */
static void fl_a_reset_covariance(FL_A_STATE* a, int j) {
  int m;
  for (m = 0; m < FL_N; ++m) {
    a->P[j * FL_N + m] = FL_LIT(0.0);
    a->P[m * FL_N + j] = FL_LIT(0.0);
  }
  if ((a->opt.adapt >> j) & 1u) a->P[j * FL_N + j] = a->opt.P0[j];
}

#ifndef FL_A_NO_DEFAULTS
void FL_A_FN(_default_options)(FL_A_OPTIONS* o) {
  int j;
  o->memory_s = FL_LIT(60.0);
  o->v_min = FL_LIT(0.01);
  o->trace_max = FL_LIT(100.0);
  o->T_ref = FL_LIT(25.0);
  for (j = 0; j < FL_N; ++j) o->P0[j] = FL_LIT(0.0);
  o->P0[FL_A_KAPPA_POS] = FL_LIT(0.1);
  o->P0[FL_A_KAPPA_NEG] = FL_LIT(0.1);
  o->P0[FL_A_SIGMA2] = FL_LIT(1e-3);
  o->P0[FL_A_OFFSET] = FL_LIT(1e-2);
  o->adapt =
      (1u << FL_A_KAPPA_POS) | (1u << FL_A_KAPPA_NEG) | (1u << FL_A_SIGMA2) | (1u << FL_A_OFFSET);
}
#endif

int FL_A_INIT(FL_A_STATE* a, const FL_PARAMS* nominal, const FL_A_OPTIONS* o) {
  int j, err = fl_check(nominal);
  if (err != 0) return err;
  err = fl_a_check_options(o);
  if (err != 0) return err;
  a->est.params = *nominal;
  a->est.z_max = fl_bound(nominal);
  a->est.z = FL_LIT(0.0);
  a->est.v_prev = FL_LIT(0.0);
  a->opt = *o;
  a->theta[FL_A_KM] = nominal->Km;
  a->theta[FL_A_KAPPA_POS] = FL_LIT(1.0);
  a->theta[FL_A_KAPPA_NEG] = FL_LIT(1.0);
  a->theta[FL_A_SIGMA2] = nominal->sigma2;
  a->theta[FL_A_OFFSET] = FL_LIT(0.0);
  a->theta[FL_A_KT] = FL_LIT(0.0);
  for (j = 0; j < FL_N; ++j) fl_a_reset_covariance(a, j);
  a->enabled = 1;
  a->lambda_dt = FL_LIT(-1.0);
  a->lambda = FL_LIT(1.0);
  return 0;
}

void FL_A_FN(_enable)(FL_A_STATE* a, int enabled) { a->enabled = enabled != 0; }

int FL_A_FN(_freeze)(FL_A_STATE* a, unsigned adapt) {
  const unsigned before = a->opt.adapt;
  int j;
  if ((adapt >> FL_N) != 0u) return FL_A_BAD_MASK;
  a->opt.adapt = adapt;
  for (j = 0; j < FL_N; ++j)
    if (((before ^ adapt) >> j) & 1u) fl_a_reset_covariance(a, j);
  return 0;
}

/* The RLS step on the adapted entries (a frozen one has a zero covariance row and column, so it
 * adds nothing to any sum: skipped, its phi never read), the covariance bound and the projection
 * (adaptive_estimator.h). lambda is computed again only when dt changes. */
static void fl_a_update(FL_A_STATE* a, const FL_REAL* phi, FL_REAL e, FL_REAL dt) {
  FL_REAL Pphi[FL_N], denom, inv_denom, inv_lambda, trace = FL_LIT(0.0), km_min;
  int idx[FL_N], n = 0, r, c, j;
  for (j = 0; j < FL_N; ++j)
    if ((a->opt.adapt >> j) & 1u) idx[n++] = j;
  if (dt != a->lambda_dt) {
    a->lambda = FL_EXP(-dt / a->opt.memory_s);
    a->lambda_dt = dt;
  }
  denom = a->lambda;
  for (r = 0; r < n; ++r) {
    Pphi[idx[r]] = FL_LIT(0.0);
    for (c = 0; c < n; ++c) Pphi[idx[r]] += a->P[idx[r] * FL_N + idx[c]] * phi[idx[c]];
    denom += phi[idx[r]] * Pphi[idx[r]];
  }
  inv_denom = FL_LIT(1.0) / denom;
  inv_lambda = FL_LIT(1.0) / a->lambda;
  for (r = 0; r < n; ++r) {
    const FL_REAL kr = Pphi[idx[r]] * inv_denom;
    a->theta[idx[r]] += kr * e;
    for (c = 0; c < n; ++c) {
      FL_REAL* P = &a->P[idx[r] * FL_N + idx[c]];
      *P = (*P - kr * Pphi[idx[c]]) * inv_lambda;
    }
    trace += a->P[idx[r] * FL_N + idx[r]];
  }
  if (trace > a->opt.trace_max)
    for (r = 0; r < n; ++r)
      for (c = 0; c < n; ++c) a->P[idx[r] * FL_N + idx[c]] *= a->opt.trace_max / trace;
  km_min = a->est.params.Km / FL_LIT(10.0);
  if (a->theta[FL_A_KM] < km_min) a->theta[FL_A_KM] = km_min;
  for (r = FL_A_KAPPA_POS; r <= FL_A_SIGMA2; ++r)
    if (a->theta[r] < FL_LIT(0.0)) a->theta[r] = FL_LIT(0.0);
}

FL_A_OUTPUT FL_A_FN(_step)(FL_A_STATE* a, FL_REAL current, FL_REAL velocity, FL_REAL dt,
                           FL_REAL temperature, FL_REAL tau_ref, int has_ref) {
  const FL_PARAMS* p = &a->est.params;
  const FL_REAL* th = a->theta;
  FL_A_OUTPUT o = {FL_LIT(0.0), FL_LIT(0.0), FL_LIT(0.0), FL_LIT(0.0), 0, 0};
  FL_REAL zn, B, dT, kappa, phi[FL_N];
  if (!(fl_finite(current) && fl_finite(velocity) && fl_finite(dt) && dt >= FL_LIT(0.0) &&
        fl_finite(temperature) && (!has_ref || fl_finite(tau_ref))))
    return o;
  /* 1. the exact bristle update and the nominal bristle force B */
  zn = p->hold == 1 ? fl_step_linear(p, a->est.z, a->est.v_prev, velocity, dt)
                    : fl_step_zoh(p, a->est.z, a->est.v_prev, dt);
  B = fl_bristle_force(p, zn, velocity);
  if (!fl_finite(zn) || !fl_finite(B)) return o;
  /* 2. the torque with the current theta, and its gradient phi */
  dT = temperature - a->opt.T_ref;
  kappa = B >= FL_LIT(0.0) ? th[FL_A_KAPPA_POS] : th[FL_A_KAPPA_NEG];
  o.friction = (kappa + th[FL_A_KT] * dT) * B + th[FL_A_SIGMA2] * velocity + th[FL_A_OFFSET];
  o.torque = th[FL_A_KM] * current - o.friction;
  o.z = zn;
  o.ok = 1;
  a->est.z = zn;
  a->est.v_prev = velocity;
  if (!has_ref) return o;
  o.error = tau_ref - o.torque;
  /* 3. the update, outside the dead zone */
  if (!a->enabled || FL_FABS(velocity) < a->opt.v_min || !(dt > FL_LIT(0.0))) return o;
  phi[FL_A_KM] = current;
  phi[FL_A_KAPPA_POS] = B >= FL_LIT(0.0) ? -B : FL_LIT(0.0);
  phi[FL_A_KAPPA_NEG] = B < FL_LIT(0.0) ? -B : FL_LIT(0.0);
  phi[FL_A_SIGMA2] = -velocity;
  phi[FL_A_OFFSET] = FL_LIT(-1.0);
  phi[FL_A_KT] = -dT * B;
  fl_a_update(a, phi, o.error, dt);
  o.updated = 1;
  return o;
}

#undef FL_N
#undef FL_A_KM
#undef FL_A_KAPPA_POS
#undef FL_A_KAPPA_NEG
#undef FL_A_SIGMA2
#undef FL_A_OFFSET
#undef FL_A_KT
#undef FL_A_BAD_MEMORY
#undef FL_A_BAD_V_MIN
#undef FL_A_BAD_TRACE
#undef FL_A_BAD_P0
#undef FL_A_BAD_T_REF
#undef FL_A_BAD_MASK
