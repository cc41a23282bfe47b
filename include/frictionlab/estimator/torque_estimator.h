/* frictionlab: the torque estimator's C API (C99; docs/estimator.md, "C API").
 *
 * The same estimator as estimator/torque_estimator.hpp for C firmware, in float (_f32: an FPU
 * with single precision only, e.g. Cortex-M4F) and double (_f64):
 *
 *   tau = Km*i - F,   F = sigma0*z + sigma1(v)*dz/dt + sigma2*v,   dz/dt = v - sigma0*|v|/g(v)*z
 *
 * z is advanced exactly over the actual elapsed time dt (never forward Euler), so any sigma0 is
 * stable at any control rate. Sources: src/estimator/fl_estimator_f32.c, fl_estimator_f64.c and
 * the shared fl_estimator_impl.h (copy the three files and this header into a firmware project;
 * link libm). Every function is allocation-free; the estimator is a plain struct owned by the
 * caller (64 bytes in float, of which the state is 8). One instance per joint; not thread-safe.
 *
 *   fl_estimator_f32 est;
 *   fl_estimator_params_f32 p = {...};
 *   if (fl_estimator_f32_init(&est, &p) != FL_ESTIMATOR_OK) { ...bad parameter... }
 *   fl_estimator_f32_reset(&est, 0.0f, v0);           // start from the current velocity
 *   every cycle:
 *     fl_estimator_output_f32 o = fl_estimator_f32_step(&est, i, v, dt, 0.0f);
 *     if (o.ok) use(o.torque);
 */
#ifndef FRICTIONLAB_ESTIMATOR_TORQUE_ESTIMATOR_H
#define FRICTIONLAB_ESTIMATOR_TORQUE_ESTIMATOR_H

#ifdef __cplusplus
extern "C" {
#endif

/* Result codes of init/set_params: the first invalid parameter (same order and values as the C++
 * frictionlab::estimator::ParamError). */
enum {
  FL_ESTIMATOR_OK = 0,
  FL_ESTIMATOR_BAD_KM = 1,     /* Km > 0 and finite */
  FL_ESTIMATOR_BAD_SIGMA0 = 2, /* sigma0 > 0 (and max(Fc, Fs)/sigma0 representable) */
  FL_ESTIMATOR_BAD_SIGMA1 = 3, /* sigma1 >= 0 */
  FL_ESTIMATOR_BAD_SIGMA2 = 4, /* sigma2 >= 0 */
  FL_ESTIMATOR_BAD_FC_POS = 5, /* Fc_pos > 0 */
  FL_ESTIMATOR_BAD_FC_NEG = 6, /* Fc_neg > 0 */
  FL_ESTIMATOR_BAD_FS_POS = 7, /* Fs_pos > 0 */
  FL_ESTIMATOR_BAD_FS_NEG = 8, /* Fs_neg > 0 */
  FL_ESTIMATOR_BAD_VS = 9,     /* vs > 0 */
  FL_ESTIMATOR_BAD_ALPHA = 10, /* alpha > 0 */
  FL_ESTIMATOR_BAD_SHAPE = 11, /* FL_STRIBECK_EXPONENTIAL or FL_STRIBECK_RATIONAL */
  FL_ESTIMATOR_BAD_VD = 12,    /* vd >= 0 */
  FL_ESTIMATOR_BAD_HOLD = 13   /* FL_HOLD_ZOH or FL_HOLD_LINEAR */
};

/* Stribeck shape s(r), r = |v|/vs: exp(-r^alpha) or 1/(1 + r^alpha). */
enum { FL_STRIBECK_EXPONENTIAL = 0, FL_STRIBECK_RATIONAL = 1 };

/* Velocity input between two cycles: held at the previous cycle's value, or linear between the
 * previous and the current value (default; the input model of `frictionlab fit`). */
enum { FL_HOLD_ZOH = 0, FL_HOLD_LINEAR = 1 };

/* Parameters (reference 000's names in brackets). Units: Nm, rad, s, A (any consistent set). */
typedef struct fl_estimator_params_f32 {
  float Km;     /* torque constant [Nm/A] (Km) */
  float sigma0; /* bristle stiffness [Nm/rad] (S0) */
  float sigma1; /* bristle damping [Nm s/rad] (S1) */
  float sigma2; /* viscous coefficient [Nm s/rad] (Kw) */
  float Fc_pos; /* Coulomb level, v > 0 [Nm] */
  float Fc_neg; /* Coulomb level, v < 0 [Nm] (magnitude) */
  float Fs_pos; /* static level, v > 0 [Nm] */
  float Fs_neg; /* static level, v < 0 [Nm] (magnitude) */
  float vs;     /* Stribeck velocity [rad/s] (Vth) */
  float alpha;  /* Stribeck exponent [-] (1 in reference 000) */
  float vd;     /* damping decay velocity [rad/s]: sigma1*exp(-(v/vd)^2); 0 = constant sigma1 */
  int shape;    /* FL_STRIBECK_* */
  int hold;     /* FL_HOLD_* */
} fl_estimator_params_f32;

/* The estimator: parameters, cached bound and state. Treat as read-only; change it only through
 * the functions below. */
typedef struct fl_estimator_f32 {
  fl_estimator_params_f32 params;
  float z_max;  /* invariant bound on |z|: max(Fc, Fs) / sigma0 [rad] */
  float z;      /* bristle deflection [rad] */
  float v_prev; /* velocity of the previous cycle [rad/s] */
} fl_estimator_f32;

typedef struct fl_estimator_output_f32 {
  float friction; /* F [Nm] */
  float torque;   /* Km*i - F [Nm] */
  float z;        /* bristle deflection after the step [rad] */
  int ok;         /* 0: an input was not finite or dt < 0; state unchanged, outputs 0 */
} fl_estimator_output_f32;

/* Check and set the parameters, state zero. On error (FL_ESTIMATOR_BAD_*) *e is unchanged. */
int fl_estimator_f32_init(fl_estimator_f32* e, const fl_estimator_params_f32* p);
/* Replace the parameters between cycles: sigma0*z is kept continuous, then z is projected onto
 * the new bound. An invalid set is refused (the old one stays). */
int fl_estimator_f32_set_params(fl_estimator_f32* e, const fl_estimator_params_f32* p);
/* Set z (projected onto the bound) and the velocity the next step starts from. */
void fl_estimator_f32_reset(fl_estimator_f32* e, float z, float v_prev);
/* One cycle: current [A], velocity [rad/s] measured now, dt [s] elapsed since the previous cycle
 * (>= 0), correction [rad/s] added to dz/dt (0: none). */
fl_estimator_output_f32 fl_estimator_f32_step(fl_estimator_f32* e, float current, float velocity,
                                              float dt, float correction);
/* One cycle with the position increment dx [rad] over dt [s]: z advances over |dx|. */
fl_estimator_output_f32 fl_estimator_f32_step_displacement(fl_estimator_f32* e, float current,
                                                           float dx, float dt, float correction);

/* The same in double precision. */
typedef struct fl_estimator_params_f64 {
  double Km, sigma0, sigma1, sigma2, Fc_pos, Fc_neg, Fs_pos, Fs_neg, vs, alpha, vd;
  int shape;
  int hold;
} fl_estimator_params_f64;

typedef struct fl_estimator_f64 {
  fl_estimator_params_f64 params;
  double z_max;
  double z;
  double v_prev;
} fl_estimator_f64;

typedef struct fl_estimator_output_f64 {
  double friction;
  double torque;
  double z;
  int ok;
} fl_estimator_output_f64;

int fl_estimator_f64_init(fl_estimator_f64* e, const fl_estimator_params_f64* p);
int fl_estimator_f64_set_params(fl_estimator_f64* e, const fl_estimator_params_f64* p);
void fl_estimator_f64_reset(fl_estimator_f64* e, double z, double v_prev);
fl_estimator_output_f64 fl_estimator_f64_step(fl_estimator_f64* e, double current, double velocity,
                                              double dt, double correction);
fl_estimator_output_f64 fl_estimator_f64_step_displacement(fl_estimator_f64* e, double current,
                                                           double dx, double dt, double correction);

/* The name of a parameter from its FL_ESTIMATOR_BAD_* code ("ok" for FL_ESTIMATOR_OK). */
static inline const char* fl_estimator_param_name(int code) {
  static const char* const names[] = {"ok",     "Km",     "sigma0", "sigma1", "sigma2",
                                      "Fc_pos", "Fc_neg", "Fs_pos", "Fs_neg", "vs",
                                      "alpha",  "shape",  "vd",     "hold"};
  return code >= 0 && code <= FL_ESTIMATOR_BAD_HOLD ? names[code] : "unknown";
}

#ifdef __cplusplus
}
#endif

#endif /* FRICTIONLAB_ESTIMATOR_TORQUE_ESTIMATOR_H */
