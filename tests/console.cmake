# What the CLI prints besides its results (apps/frictionlab/console.hpp): --quiet, --verbose,
# each warning once; and the documented commands' warning rule (tests/cli/run_doc_examples.py).
if(TARGET frictionlab_cli)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_test(NAME cli_verbosity
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_cli_verbosity.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_verbosity)
  add_test(NAME cli_doc_markers
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_doc_markers.py
                   --binary $<TARGET_FILE:frictionlab_cli> --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cli_doc_markers)
  if(NOT FRICTIONLAB_PYTHON)
    set_tests_properties(cli_verbosity PROPERTIES ENVIRONMENT "FRICTIONLAB_NO_PYTHON_PACKAGE=1")
  endif()
endif()
