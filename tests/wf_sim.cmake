# Workflow layer, simulation part: simulate, export, demo (include/frictionlab/workflows/).
frictionlab_test(test_workflow_simulate test_workflow_simulate.cpp)
frictionlab_test(test_workflow_export test_workflow_export.cpp)
frictionlab_test(test_workflow_demo test_workflow_demo.cpp)
