// Compiled only by the Cortex-M4F test (check_cortex_m4f.py) with arm-none-eabi-g++
// -fno-exceptions -fno-rtti: the header-only C++ estimator in FRICTIONLAB_SCALAR (float or
// double), every entry point of the firmware side instantiated; the globals are size probes.
#include "frictionlab/estimator/torque_estimator.hpp"

using Scalar = FRICTIONLAB_SCALAR;
using Estimator = frictionlab::estimator::TorqueEstimator<Scalar>;

Estimator fl_probe_cpp_estimator;
Estimator::State fl_probe_cpp_state;

extern "C" int m4f_cpp_init(const frictionlab::estimator::EstimatorParams<Scalar>* p) {
  return static_cast<int>(fl_probe_cpp_estimator.init(*p));
}
extern "C" int m4f_cpp_set_params(const frictionlab::estimator::EstimatorParams<Scalar>* p) {
  return static_cast<int>(fl_probe_cpp_estimator.set_params(*p));
}
extern "C" void m4f_cpp_reset(Scalar z, Scalar v) { fl_probe_cpp_estimator.reset(z, v); }
extern "C" Scalar m4f_cpp_step(Scalar i, Scalar v, Scalar dt, Scalar u) {
  return fl_probe_cpp_estimator.step(i, v, dt, u).torque;
}
extern "C" Scalar m4f_cpp_step_displacement(Scalar i, Scalar dx, Scalar dt, Scalar u) {
  return fl_probe_cpp_estimator.step_displacement(i, dx, dt, u).torque;
}
