target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/actuator_json.cpp)
