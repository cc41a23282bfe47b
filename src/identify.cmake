# Identification layer (issue #3): fitting methods on top of models/, integrate/ and data/.
# Ceres Solver (Debian libceres-dev, exported target Ceres::ceres) is a private dependency: the
# public headers in include/frictionlab/identify/ do not include it.
find_package(Ceres REQUIRED)
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/identify/data.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/families.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/fit.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/grid.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/init.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/lsq.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/segments.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/synthetic.cpp
)
target_link_libraries(frictionlab PRIVATE Ceres::ceres)
