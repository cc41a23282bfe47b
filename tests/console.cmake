# What the CLI prints besides its results (apps/frictionlab/console.hpp): --quiet, --verbose,
# each warning once; and the documented commands' warning rule (tests/cli/run_doc_examples.py).
if(TARGET frictionlab_cli)
  frictionlab_cli_test(cli_verbosity test_cli_verbosity.py)
  frictionlab_cli_test(cli_doc_markers test_doc_markers.py)
  if(NOT FRICTIONLAB_PYTHON)
    set_tests_properties(cli_verbosity PROPERTIES ENVIRONMENT "FRICTIONLAB_NO_PYTHON_PACKAGE=1")
  endif()
endif()
