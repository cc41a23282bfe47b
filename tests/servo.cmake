# Servo actuator models M1..M6: simulator invariants, BAM files, CMA-ES, fitting, the
# reproduction of the reference package's per-log MAE on the shared XL330 logs, and the
# temperature-dependent friction (synthetic recovery, flags, the XL330 logs' temperatures).
frictionlab_test(test_servo_sim test_servo_sim.cpp)
frictionlab_test(test_servo_io test_servo_io.cpp)
frictionlab_test(test_cmaes test_cmaes.cpp)
frictionlab_test(test_servo_fit test_servo_fit.cpp)
frictionlab_test(test_servo_reference test_servo_reference.cpp)
frictionlab_test(test_servo_temperature test_servo_temperature.cpp)
if(TARGET frictionlab_cli)
  frictionlab_cli_test(cli_actuator test_cli_actuator.py)
  frictionlab_cli_test(cli_actuator_temperature test_cli_actuator_temperature.py)
endif()
frictionlab_test(test_actuator_file test_actuator_file.cpp)
