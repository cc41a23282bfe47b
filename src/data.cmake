target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/data/checks.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/data/preprocess.cpp
)
