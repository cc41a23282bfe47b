# Export of a fitted servo actuator: the MJCF fragment's numbers and notes, the MuJoCo
# torque laws against the servo simulator, BAM's parameter file; the CLI end to end on a
# fit-actuator output directory.
frictionlab_test(test_actuator_export test_actuator_export.cpp)
if(TARGET frictionlab_cli)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_test(NAME cli_actuator_export
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_actuator_export.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_actuator_export)
endif()
