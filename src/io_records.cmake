# Records from CSV and MATLAB .mat files (libmatio, Debian package libmatio-dev).
find_package(PkgConfig REQUIRED)
pkg_check_modules(MATIO REQUIRED IMPORTED_TARGET matio)
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/io/record_io.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/io/mat_io.cpp
)
target_link_libraries(frictionlab PRIVATE PkgConfig::MATIO)
