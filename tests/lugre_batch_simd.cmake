# The wide SIMD objects of the batch simulation (src/workflows/simd/, one per path of
# workflows/batch_simd.hpp) define no symbol a portable object may define (the one definition
# rule: include/frictionlab/models/lugre/batch_kernel.hpp, top; the check: simd/check_symbols.cmake).
# lugre_batch_simd_symbols_catches proves that the check rejects a bad wide object
# (simd/bad_object.cpp, compiled with -mavx2 -mfma: a weak AVX2 copy of frictionlab::sgn<double>).
get_property(frictionlab_simd_paths GLOBAL PROPERTY FRICTIONLAB_SIMD_PATHS)
foreach(path IN LISTS frictionlab_simd_paths)
  add_test(NAME lugre_batch_simd_symbols_${path}
           COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM}
                   "-DOBJECTS=$<TARGET_OBJECTS:frictionlab_workflows_${path}>"
                   -DMARKER=::simd_${path}:: -P ${CMAKE_CURRENT_SOURCE_DIR}/simd/check_symbols.cmake)
endforeach()
if(frictionlab_simd_paths)
  add_library(simd_bad_object OBJECT simd/bad_object.cpp)
  target_compile_options(simd_bad_object PRIVATE -mavx2 -mfma)
  target_link_libraries(simd_bad_object PRIVATE frictionlab::models)
  add_test(NAME lugre_batch_simd_symbols_catches
           COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} "-DOBJECTS=$<TARGET_OBJECTS:simd_bad_object>"
                   -DMARKER=::simd_avx2:: "-DEXPECT=frictionlab::sgn<double>"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/simd/check_symbols.cmake)
endif()
