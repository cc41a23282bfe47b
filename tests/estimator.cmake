# ---- torque estimator (estimator/, docs/estimator.md) ----
frictionlab_test(test_estimator test_estimator.cpp)
