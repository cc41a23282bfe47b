/* frictionlab: the torque estimator with online adaptation (C99; docs/estimator.md, "Online
 * adaptation").
 *
 * The estimator of torque_estimator.h (its nominal LuGre parameters and its exact bristle update)
 * with the terms that enter the torque linearly adapted by recursive least squares with
 * exponential forgetting, in float (_f32) and double (_f64):
 *
 *   tau = Km*i - F,   F = (kappa_s + kT*(T - T_ref))*B + sigma2*v + offset,
 *   B = sigma0*z + sigma1(v)*dz/dt                (the nominal model's bristle force [Nm]),
 *   kappa_s = kappa_pos where B >= 0, kappa_neg where B < 0.
 *
 * theta = (Km, kappa_pos, kappa_neg, sigma2, offset, kT) in that order (FL_ADAPT_*): Km [Nm/A];
 * kappa_pos, kappa_neg [-] scale the nominal Coulomb and Stribeck levels of each side (in steady
 * sliding B = g(v) sgn(v), so the levels become kappa*Fc, kappa*Fs: the adaptive LuGre
 * compensation of C. Canudas de Wit and P. Lischinsky, "Adaptive friction compensation with
 * partially known dynamic friction model", Int. J. Adaptive Control and Signal Processing 11,
 * 1997); sigma2 [Nm s/rad]; offset [Nm]; kT [1/K] the slope of the levels' scale with the
 * temperature T [degC] (pass T = T_ref without a temperature sensor). Start: theta = (Km, 1, 1,
 * sigma2, 0, 0) of the nominal parameters.
 *
 * A cycle that knows the torque the joint carries (tau_ref: a joint torque sensor, or the
 * rigid-body model's torque while nothing touches the joint; has_ref = 1) updates theta from the
 * prediction error e = tau_ref - tau (tau of the theta before the update):
 *
 *   phi = dtau/dtheta = (i, -B [B >= 0], -B [B < 0], -v, -1, -(T - T_ref) B)
 *   lambda = exp(-dt / memory_s)
 *   k = P phi / (lambda + phi' P phi),   theta += k e,   P = (P - k phi' P) / lambda,
 *
 * then trace(P) is scaled down to trace_max if above it (bounded covariance), and kappa_pos,
 * kappa_neg, sigma2 are projected onto >= 0 and Km onto >= Km/10 of the nominal (parameter
 * projection). Against windup nothing is updated (P neither) while |v| < v_min: at a standstill
 * B is presliding and nothing excites the levels, and forgetting alone would grow P. A frozen
 * parameter (not in the `adapt` mask) keeps its value; its covariance row and column are zero.
 * Without a reference (contact, a tool) the cycle estimates with the current theta and learns
 * nothing. Every function is allocation-free; the struct is owned by the caller; one instance per
 * joint; not thread-safe.
 *
 *   fl_adaptive_f32 a;
 *   fl_adaptive_options_f32 o;
 *   fl_adaptive_f32_default_options(&o);             // memory 60 s, v_min 0.01 rad/s, ...
 *   if (fl_adaptive_f32_init(&a, &nominal, &o) != FL_ESTIMATOR_OK) { ...bad parameter... }
 *   every cycle:
 *     fl_adaptive_output_f32 r = fl_adaptive_f32_step(&a, i, v, dt, temperature, tau_ref, known);
 *     if (r.ok) use(r.torque);
 */
#ifndef FRICTIONLAB_ESTIMATOR_ADAPTIVE_ESTIMATOR_H
#define FRICTIONLAB_ESTIMATOR_ADAPTIVE_ESTIMATOR_H

#include "frictionlab/estimator/torque_estimator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The adapted parameters' indices into theta and the `adapt` mask's bits (1u << index). */
enum {
  FL_ADAPT_KM = 0,
  FL_ADAPT_KAPPA_POS = 1,
  FL_ADAPT_KAPPA_NEG = 2,
  FL_ADAPT_SIGMA2 = 3,
  FL_ADAPT_OFFSET = 4,
  FL_ADAPT_KT = 5,
  FL_ADAPT_COUNT = 6
};

/* Result codes of init for the options (after the FL_ESTIMATOR_BAD_* of the nominal set). */
enum {
  FL_ADAPTIVE_BAD_MEMORY = 20, /* memory_s > 0 and finite */
  FL_ADAPTIVE_BAD_V_MIN = 21,  /* v_min >= 0 and finite */
  FL_ADAPTIVE_BAD_TRACE = 22,  /* trace_max > 0 and finite */
  FL_ADAPTIVE_BAD_P0 = 23,     /* every P0[j] >= 0 and finite */
  FL_ADAPTIVE_BAD_T_REF = 24,  /* T_ref finite */
  FL_ADAPTIVE_BAD_MASK = 25    /* adapt has no bit above FL_ADAPT_COUNT */
};

typedef struct fl_adaptive_options_f32 {
  float memory_s;           /* forgetting time constant [s]: lambda = exp(-dt/memory_s) */
  float v_min;              /* no update while |v| < v_min [rad/s] */
  float trace_max;          /* bound on trace(P) */
  float T_ref;              /* reference temperature of kT [degC] */
  float P0[FL_ADAPT_COUNT]; /* initial variances of theta (units of theta squared) */
  unsigned adapt;           /* bit j set: theta[j] adapts */
} fl_adaptive_options_f32;

typedef struct fl_adaptive_f32 {
  fl_estimator_f32 est;                     /* nominal parameters, bound, z, previous velocity */
  fl_adaptive_options_f32 opt;              /* as given to init (adapt: as set by freeze) */
  float theta[FL_ADAPT_COUNT];              /* the adapted parameters */
  float P[FL_ADAPT_COUNT * FL_ADAPT_COUNT]; /* their covariance, row-major */
  int enabled;                              /* 0: no update (fixed theta) */
  float lambda_dt, lambda;                  /* the forgetting factor of the last update's dt */
} fl_adaptive_f32;

typedef struct fl_adaptive_output_f32 {
  float friction; /* F [Nm] */
  float torque;   /* Km*i - F [Nm] */
  float z;        /* bristle deflection after the step [rad] */
  float error;    /* tau_ref - torque [Nm] (0 without a reference) */
  int updated;    /* 1: theta and P were updated this cycle */
  int ok;         /* 0: an input was not finite or dt < 0; nothing changed, outputs 0 */
} fl_adaptive_output_f32;

/* Defaults: memory_s 60, v_min 0.01, trace_max 100, T_ref 25, P0 = (0, 0.1, 0.1, 1e-3, 1e-2,
 * 0), adapt = kappa_pos, kappa_neg, sigma2 and offset (Km and kT frozen). */
void fl_adaptive_f32_default_options(fl_adaptive_options_f32* o);
/* Check the nominal set (FL_ESTIMATOR_BAD_*) and the options (FL_ADAPTIVE_BAD_*); theta from the
 * nominal set, P = diag(P0) on the adapted entries, z = 0, adaptation enabled. On error *a is
 * unchanged. */
int fl_adaptive_f32_init(fl_adaptive_f32* a, const fl_estimator_params_f32* nominal,
                         const fl_adaptive_options_f32* o);
/* Enable (1) or disable (0) the updates; theta and P are kept. */
void fl_adaptive_f32_enable(fl_adaptive_f32* a, int enabled);
/* The parameters that adapt from now on: a newly frozen one keeps its value and loses its
 * covariance row and column; a newly freed one restarts from variance P0[j]. FL_ADAPTIVE_BAD_MASK
 * for a bit above FL_ADAPT_COUNT (nothing changed). */
int fl_adaptive_f32_freeze(fl_adaptive_f32* a, unsigned adapt);
/* One cycle: current [A], velocity [rad/s] measured now, dt [s] since the previous cycle (>= 0),
 * temperature [degC], and the torque the joint carries [Nm] if has_ref. */
fl_adaptive_output_f32 fl_adaptive_f32_step(fl_adaptive_f32* a, float current, float velocity,
                                            float dt, float temperature, float tau_ref,
                                            int has_ref);

/* The same in double precision. */
typedef struct fl_adaptive_options_f64 {
  double memory_s, v_min, trace_max, T_ref;
  double P0[FL_ADAPT_COUNT];
  unsigned adapt;
} fl_adaptive_options_f64;

typedef struct fl_adaptive_f64 {
  fl_estimator_f64 est;
  fl_adaptive_options_f64 opt;
  double theta[FL_ADAPT_COUNT];
  double P[FL_ADAPT_COUNT * FL_ADAPT_COUNT];
  int enabled;
  double lambda_dt, lambda;
} fl_adaptive_f64;

typedef struct fl_adaptive_output_f64 {
  double friction, torque, z, error;
  int updated;
  int ok;
} fl_adaptive_output_f64;

void fl_adaptive_f64_default_options(fl_adaptive_options_f64* o);
int fl_adaptive_f64_init(fl_adaptive_f64* a, const fl_estimator_params_f64* nominal,
                         const fl_adaptive_options_f64* o);
void fl_adaptive_f64_enable(fl_adaptive_f64* a, int enabled);
int fl_adaptive_f64_freeze(fl_adaptive_f64* a, unsigned adapt);
fl_adaptive_output_f64 fl_adaptive_f64_step(fl_adaptive_f64* a, double current, double velocity,
                                            double dt, double temperature, double tau_ref,
                                            int has_ref);

#ifdef __cplusplus
}
#endif

#endif /* FRICTIONLAB_ESTIMATOR_ADAPTIVE_ESTIMATOR_H */
