# Servo actuator models M1..M6 (issue #6): simulator invariants, BAM files, CMA-ES, fitting, and
# the reproduction of the reference package's per-log MAE on the shared XL330 logs.
frictionlab_test(test_servo_sim test_servo_sim.cpp)
frictionlab_test(test_servo_io test_servo_io.cpp)
frictionlab_test(test_cmaes test_cmaes.cpp)
frictionlab_test(test_servo_fit test_servo_fit.cpp)
frictionlab_test(test_servo_reference test_servo_reference.cpp)
