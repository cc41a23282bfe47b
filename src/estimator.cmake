# The torque estimator's C API (estimator/torque_estimator.h), compiled into the library for host
# use and tests; the C++ estimator is header-only (estimator/torque_estimator.hpp). The Cortex-M4F
# compile test builds the same sources with arm-none-eabi-gcc (tests/estimator.cmake).
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/estimator/fl_estimator_f32.c
  ${CMAKE_CURRENT_LIST_DIR}/estimator/fl_estimator_f64.c)
