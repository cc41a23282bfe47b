/* Compiled only by the Cortex-M4F test: size probes of the C API's and the exported code's state
 * (read with arm-none-eabi-nm --print-size). */
#include "frictionlab/estimator/torque_estimator.h"
#include "joint_f32.h"

fl_estimator_f32 fl_probe_c_estimator;
fl_estimator_params_f32 fl_probe_c_params;
joint_f32_state fl_probe_export_state;
