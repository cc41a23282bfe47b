target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/identify/joint_parameters.cpp)
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/joint_outputs.cpp)
