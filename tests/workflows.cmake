# Workflow layer (include/frictionlab/workflows/): every workflow on in-memory inputs against the
# library calls it chains and known truths, plus progress reports and cancellation.
frictionlab_test(test_workflow_simulate test_workflow_simulate.cpp)

frictionlab_test(test_workflow_demo test_workflow_demo.cpp)
frictionlab_test(test_workflow_fit test_workflow_fit.cpp)
frictionlab_test(test_workflow_compare test_workflow_compare.cpp)
frictionlab_test(test_workflow_joint test_workflow_joint.cpp)
frictionlab_test(test_verdict test_verdict.cpp)
frictionlab_test(test_verdict_fit test_verdict_fit.cpp)
frictionlab_test(test_workflow_actuator test_workflow_actuator.cpp)
frictionlab_test(test_verdict_actuator test_verdict_actuator.cpp)
# workflows/validate.hpp: the option ranges every workflow, the CLI and the Python keywords share.
frictionlab_test(test_workflow_validate test_workflow_validate.cpp)

# fit and compare on .mat records in reference 000's layout (4xN, Nx4; --matrix and the
# one-variable fallback) against the same commands on the CSV of the same data.
if(TARGET frictionlab_cli)
  frictionlab_cli_test(cli_fit_mat test_cli_fit_mat.py)
endif()
