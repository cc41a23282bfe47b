/* frictionlab: the torque estimator's C API in double (include/frictionlab/estimator/torque_estimator.h).
 * The computation is fl_estimator_impl.h, shared with `frictionlab export c`. */
#include "frictionlab/estimator/torque_estimator.h"

#define FL_REAL double
#define FL_LIT(x) x
#define FL_EXP exp
#define FL_EXPM1 expm1
#define FL_POW pow
#define FL_FABS fabs
#define FL_CEIL ceil
#define FL_PARAMS fl_estimator_params_f64
#include "fl_estimator_impl.h"

int fl_estimator_f64_init(fl_estimator_f64* e, const fl_estimator_params_f64* p) {
  const int err = fl_check(p);
  if (err != FL_ESTIMATOR_OK) return err;
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = FL_LIT(0.0);
  e->v_prev = FL_LIT(0.0);
  return FL_ESTIMATOR_OK;
}

int fl_estimator_f64_set_params(fl_estimator_f64* e, const fl_estimator_params_f64* p) {
  const int err = fl_check(p);
  FL_REAL z;
  if (err != FL_ESTIMATOR_OK) return err;
  z = e->z * (e->params.sigma0 / p->sigma0);
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  return FL_ESTIMATOR_OK;
}

void fl_estimator_f64_reset(fl_estimator_f64* e, double z, double v_prev) {
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  e->v_prev = v_prev;
}

fl_estimator_output_f64 fl_estimator_f64_step(fl_estimator_f64* e, double current, double velocity,
                                              double dt, double correction) {
  fl_estimator_output_f64 o;
  o.ok = fl_cycle_velocity(&e->params, e->z_max, &e->z, &e->v_prev, current, velocity, dt,
                           correction, &o.friction, &o.torque);
  o.z = e->z;
  return o;
}

fl_estimator_output_f64 fl_estimator_f64_step_displacement(fl_estimator_f64* e, double current,
                                                           double dx, double dt, double correction) {
  fl_estimator_output_f64 o;
  o.ok = fl_cycle_displacement(&e->params, e->z_max, &e->z, &e->v_prev, current, dx, dt,
                               correction, &o.friction, &o.torque);
  o.z = e->z;
  return o;
}
