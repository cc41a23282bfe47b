# Workflow layer, fit and compare: their output directories (fit.json, plots; compare.json).
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/fit_plots.cpp)
target_sources(frictionlab PRIVATE ${CMAKE_CURRENT_LIST_DIR}/io/compare_json.cpp)
