# Workflow layer, fit and compare (issue 12): the workflows on in-memory records, and the
# command line on .mat records in reference 000's layout.
frictionlab_test(test_workflow_fit test_workflow_fit.cpp)
frictionlab_test(test_workflow_compare test_workflow_compare.cpp)
if(TARGET frictionlab_cli)
  add_test(NAME cli_fit_mat
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_fit_mat.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_fit_mat)
endif()
