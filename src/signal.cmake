target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/signal/sampling.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/signal/resample.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/signal/butterworth.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/signal/savgol.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/signal/differentiate.cpp
)
