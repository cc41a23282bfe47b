/* Linked only by the Cortex-M4F test: a minimal program that calls the float estimator (C API
 * with -DUSE_C_API, the exported code with -DUSE_EXPORT, the adaptive estimator with
 * -DUSE_ADAPTIVE, nothing otherwise), so that the size difference is the flash the estimator
 * costs with newlib-nano's libm. */
#if defined(USE_C_API) || defined(USE_ADAPTIVE)
#include "frictionlab/estimator/adaptive_estimator.h"
#endif
#ifdef USE_EXPORT
#include "joint_f32.h"
#endif

volatile float fl_in[4];
volatile float fl_out;

int main(void) {
#if defined(USE_C_API) || defined(USE_ADAPTIVE)
  fl_estimator_params_f32 p;
  p.Km = fl_in[0];
  p.sigma0 = fl_in[1];
  p.sigma1 = fl_in[2];
  p.sigma2 = fl_in[3];
  p.Fc_pos = p.Fc_neg = fl_in[0];
  p.Fs_pos = p.Fs_neg = fl_in[1];
  p.vs = fl_in[2];
  p.alpha = fl_in[3];
  p.vd = fl_in[0];
  p.shape = FL_STRIBECK_EXPONENTIAL;
  p.hold = FL_HOLD_LINEAR;
#endif
#ifdef USE_ADAPTIVE
  static fl_adaptive_f32 a;
  fl_adaptive_options_f32 o;
  fl_adaptive_f32_default_options(&o);
  if (fl_adaptive_f32_init(&a, &p, &o) != FL_ESTIMATOR_OK) return 1;
  for (;;) {
    fl_out = fl_adaptive_f32_step(&a, fl_in[0], fl_in[1], fl_in[2], fl_in[3], fl_in[0], 1).torque;
    fl_adaptive_f32_enable(&a, fl_out > 0.0f);
    if (fl_adaptive_f32_freeze(&a, (unsigned)fl_in[2]) != FL_ESTIMATOR_OK) break;
  }
#endif
#ifdef USE_C_API
  static fl_estimator_f32 e;
  if (fl_estimator_f32_init(&e, &p) != FL_ESTIMATOR_OK) return 1;
  fl_estimator_f32_reset(&e, 0.0f, fl_in[1]);
  for (;;) {
    fl_out = fl_estimator_f32_step(&e, fl_in[0], fl_in[1], fl_in[2], fl_in[3]).torque;
    fl_out = fl_estimator_f32_step_displacement(&e, fl_in[0], fl_in[1], fl_in[2], fl_in[3]).torque;
    if (fl_estimator_f32_set_params(&e, &p) != FL_ESTIMATOR_OK) break;
  }
#endif
#ifdef USE_EXPORT
  static joint_f32_state s;
  if (joint_f32_check() != 0) return 1;
  joint_f32_reset(&s, 0.0f, fl_in[1]);
  for (;;) {
    fl_out = joint_f32_step(&s, fl_in[0], fl_in[1], fl_in[2], fl_in[3]).torque;
    fl_out = joint_f32_step_displacement(&s, fl_in[0], fl_in[1], fl_in[2], fl_in[3]).torque;
  }
#endif
  return 0;
}
