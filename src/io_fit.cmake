# fit.json writer (io layer over identify/).
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/fit_json.cpp)
# The robot configuration's LUGRE group (XML) from a fit.json.
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/lugre_xml.cpp)
