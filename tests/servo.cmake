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
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_test(NAME cli_actuator
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_actuator.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_actuator)
  add_test(NAME cli_actuator_temperature
           COMMAND ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_actuator_temperature.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_actuator_temperature)
endif()
frictionlab_test(test_actuator_file test_actuator_file.cpp)
