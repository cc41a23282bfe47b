/* frictionlab: the torque estimator's C API in double
 * (include/frictionlab/estimator/torque_estimator.h). The computation is fl_estimator_impl.h,
 * shared with `frictionlab export c`; the API functions are fl_estimator_api.h, shared with the
 * other precision; the adaptive estimator's (adaptive_estimator.h) is fl_adaptive_impl.h. */
#include "frictionlab/estimator/adaptive_estimator.h"
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
#define FL_SUFFIX f64
#include "fl_adaptive_impl.h"
#include "fl_estimator_api.h"
