/* Run only by the Cortex-M4F test under qemu-arm's user mode: STEPS cycles of the float estimator
 * (-DFIXED), of the adaptive estimator with a reference torque every cycle (-DADAPTIVE), or of the
 * input alone (neither), on a triangle-wave velocity with reversals. The test counts the executed
 * instructions of two lengths and of the input alone: their differences per cycle are the
 * instructions one step executes. _start stands in for the C runtime (qemu loads the segments,
 * zeroes .bss and sets the stack) and leaves through Linux's exit system call. */
#include "frictionlab/estimator/adaptive_estimator.h"

#ifndef STEPS
#define STEPS 1000
#endif

volatile float fl_sink;

int main(void);
int main(void) {
  const fl_estimator_params_f32 p = {0.5f,          1e4f,  0.05f, 0.05f,
                                     0.18f,         0.15f, 0.25f, 0.21f,
                                     0.05f,         1.0f,  0.0f,  FL_STRIBECK_EXPONENTIAL,
                                     FL_HOLD_LINEAR};
  float v = 0.0f, dv = 0.002f;
  int k;
#ifdef FIXED
  static fl_estimator_f32 e;
  if (fl_estimator_f32_init(&e, &p) != FL_ESTIMATOR_OK) return 1;
#endif
#ifdef ADAPTIVE
  static fl_adaptive_f32 a;
  fl_adaptive_options_f32 o;
  fl_adaptive_f32_default_options(&o);
  if (fl_adaptive_f32_init(&a, &p, &o) != FL_ESTIMATOR_OK) return 1;
#endif
  (void)p;
  for (k = 0; k < STEPS; ++k) {
    v += dv;
    if (v > 0.5f || v < -0.5f) dv = -dv;
#if defined(FIXED)
    fl_sink = fl_estimator_f32_step(&e, 0.3f * v, v, 1e-3f, 0.0f).torque;
#elif defined(ADAPTIVE)
    fl_sink = fl_adaptive_f32_step(&a, 0.3f * v, v, 1e-3f, 25.0f, 0.1f * v, 1).torque;
#else
    fl_sink = v;
#endif
  }
  return 0;
}

void _start(void) __attribute__((naked, noreturn));
/* exit with main's return value: Linux's exit system call (r7 = 1) */
void _start(void) { __asm__ volatile("bl main\n movs r7, 1\n svc 0\n"); }
