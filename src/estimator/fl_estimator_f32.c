/* frictionlab: the torque estimator's C API in float
 * (include/frictionlab/estimator/torque_estimator.h). The computation is fl_estimator_impl.h,
 * shared with `frictionlab export c`; the API functions are fl_estimator_api.h, shared with the
 * other precision; the adaptive estimator's (adaptive_estimator.h) is fl_adaptive_impl.h. */
#include "frictionlab/estimator/adaptive_estimator.h"
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
#define FL_SUFFIX f32
#include "fl_adaptive_impl.h"
#include "fl_estimator_api.h"
