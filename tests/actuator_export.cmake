# Export of a fitted servo actuator: the MJCF fragment's numbers and notes, the MuJoCo
# torque laws against the servo simulator, BAM's parameter file; the CLI end to end on a
# fit-actuator output directory.
frictionlab_test(test_actuator_export test_actuator_export.cpp)
if(TARGET frictionlab_cli)
  frictionlab_cli_test(cli_actuator_export test_cli_actuator_export.py)
endif()
