# Workflow layer (include/frictionlab/workflows/): simulate, fit, compare, fit_joint, eval_joint,
# fit_actuator, eval_actuator, export: typed inputs -> typed results, no printing, no files.
file(GLOB frictionlab_workflow_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/workflows/*.cpp)
if(frictionlab_workflow_sources)
  target_sources(frictionlab PRIVATE ${frictionlab_workflow_sources})
endif()
