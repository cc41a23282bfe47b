/* frictionlab: the torque estimator's C API in float (include/frictionlab/estimator/torque_estimator.h).
 * The computation is fl_estimator_impl.h, shared with `frictionlab export c`. */
#include "frictionlab/estimator/torque_estimator.h"

#define FL_REAL float
#define FL_LIT(x) x##f
#define FL_EXP expf
#define FL_EXPM1 expm1f
#define FL_POW powf
#define FL_FABS fabsf
#define FL_CEIL ceilf
#define FL_PARAMS fl_estimator_params_f32
#include "fl_estimator_impl.h"

int fl_estimator_f32_init(fl_estimator_f32* e, const fl_estimator_params_f32* p) {
  const int err = fl_check(p);
  if (err != FL_ESTIMATOR_OK) return err;
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = FL_LIT(0.0);
  e->v_prev = FL_LIT(0.0);
  return FL_ESTIMATOR_OK;
}

int fl_estimator_f32_set_params(fl_estimator_f32* e, const fl_estimator_params_f32* p) {
  const int err = fl_check(p);
  FL_REAL z;
  if (err != FL_ESTIMATOR_OK) return err;
  z = e->z * (e->params.sigma0 / p->sigma0);
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  return FL_ESTIMATOR_OK;
}

void fl_estimator_f32_reset(fl_estimator_f32* e, float z, float v_prev) {
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  e->v_prev = v_prev;
}

fl_estimator_output_f32 fl_estimator_f32_step(fl_estimator_f32* e, float current, float velocity,
                                              float dt, float correction) {
  fl_estimator_output_f32 o;
  o.ok = fl_cycle_velocity(&e->params, e->z_max, &e->z, &e->v_prev, current, velocity, dt,
                           correction, &o.friction, &o.torque);
  o.z = e->z;
  return o;
}

fl_estimator_output_f32 fl_estimator_f32_step_displacement(fl_estimator_f32* e, float current,
                                                           float dx, float dt, float correction) {
  fl_estimator_output_f32 o;
  o.ok = fl_cycle_displacement(&e->params, e->z_max, &e->z, &e->v_prev, current, dx, dt,
                               correction, &o.friction, &o.torque);
  o.z = e->z;
  return o;
}
