# fit.json writer (io layer over identify/).
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/fit_json.cpp)
