/* frictionlab (private to src/estimator): the public C API functions of one precision, written
 * once for fl_estimator_f32.c and fl_estimator_f64.c. The including file defines FL_REAL,
 * FL_PARAMS and the math macros of fl_estimator_impl.h, includes that header, defines FL_SUFFIX
 * (f32 or f64), then includes this file, which defines fl_estimator_<FL_SUFFIX>_init, _set_params,
 * _reset, _step and _step_displacement (include/frictionlab/estimator/torque_estimator.h). */
#define FL_CAT3_(a, b, c) a##b##c
#define FL_CAT3(a, b, c) FL_CAT3_(a, b, c)
#define FL_FN(name) FL_CAT3(fl_estimator_, FL_SUFFIX, name)
#define FL_STATE FL_CAT3(fl_estimator_, FL_SUFFIX, )
#define FL_OUTPUT FL_CAT3(fl_estimator_output_, FL_SUFFIX, )

int FL_FN(_init)(FL_STATE* e, const FL_PARAMS* p) {
  const int err = fl_check(p);
  if (err != FL_ESTIMATOR_OK) return err;
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = FL_LIT(0.0);
  e->v_prev = FL_LIT(0.0);
  return FL_ESTIMATOR_OK;
}

int FL_FN(_set_params)(FL_STATE* e, const FL_PARAMS* p) {
  const int err = fl_check(p);
  FL_REAL z;
  if (err != FL_ESTIMATOR_OK) return err;
  z = e->z * (e->params.sigma0 / p->sigma0);
  e->params = *p;
  e->z_max = fl_bound(p);
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  return FL_ESTIMATOR_OK;
}

void FL_FN(_reset)(FL_STATE* e, FL_REAL z, FL_REAL v_prev) {
  e->z = fl_clamp(z, -e->z_max, e->z_max);
  e->v_prev = v_prev;
}

FL_OUTPUT FL_FN(_step)(FL_STATE* e, FL_REAL current, FL_REAL velocity, FL_REAL dt,
                       FL_REAL correction) {
  FL_OUTPUT o;
  o.ok = fl_cycle_velocity(&e->params, e->z_max, &e->z, &e->v_prev, current, velocity, dt,
                           correction, &o.friction, &o.torque);
  o.z = e->z;
  return o;
}

FL_OUTPUT FL_FN(_step_displacement)(FL_STATE* e, FL_REAL current, FL_REAL dx, FL_REAL dt,
                                    FL_REAL correction) {
  FL_OUTPUT o;
  o.ok = fl_cycle_displacement(&e->params, e->z_max, &e->z, &e->v_prev, current, dx, dt, correction,
                               &o.friction, &o.torque);
  o.z = e->z;
  return o;
}
