# The wide SIMD objects of the batch simulation define nothing a portable object may define
# (the reason: include/frictionlab/models/lugre/batch_kernel.hpp, top). A translation unit
# compiled with -mavx2 that emits an out-of-line copy of an inline function or template
# (a weak or COMDAT symbol: nm types W, w, V, v, u) shared with portable code lets the linker
# pick the AVX2 copy for everybody: a crash on a CPU without AVX2. This script lists the
# object's defined global symbols with `nm -C` and fails if any lies outside the object's own
# namespace MARKER (e.g. ::simd_avx2::). Allowed besides: what holds no code, hence nothing
# compiled for the wide ISA: the sanitizers' bookkeeping (__asan*, __odr_asan*, ...) and
# run-time type information (`typeinfo for` / `typeinfo name for`: a type's name and a pointer
# to the library's type_info vtable; clang's -fsanitize=function, in the fuzz build, emits it
# for the function types called through pointers).
#
#   cmake -DNM=<nm> -DOBJECTS=<objects> -DMARKER=::simd_avx2:: [-DEXPECT=<text>] -P check_symbols.cmake
#
# With EXPECT the check must fail, on a symbol containing <text> (proves that the check catches
# a bad object: tests/simd/bad_object.cpp).
foreach(v NM OBJECTS MARKER)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "check_symbols.cmake: ${v} not given")
  endif()
endforeach()

set(bad "")
set(count 0)
foreach(obj IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} -C --defined-only ${obj} OUTPUT_VARIABLE out
                  ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} ${obj} failed (${rc}): ${err}")
  endif()
  string(REPLACE ";" "\\;" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) (.*)$")
      continue()
    endif()
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    # Lower-case types are local, except w/v (weak) and u (unique global).
    if(type MATCHES "^[a-tx-z]$" AND NOT type STREQUAL "u")
      continue()
    endif()
    string(FIND "${name}" "${MARKER}" at)
    if(at GREATER -1)
      math(EXPR count "${count} + 1")
      continue()
    endif()
    if(name MATCHES "^_*(asan|odr_asan|ubsan|sanitizer|sancov|tsan|msan)" OR
       name MATCHES "^typeinfo (name )?for ")
      continue()
    endif()
    string(APPEND bad "  ${type} ${name}\n")
  endforeach()
endforeach()

if(DEFINED EXPECT)
  string(FIND "${bad}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the check let a bad object pass: no symbol outside ${MARKER} containing "
                        "'${EXPECT}' found in ${OBJECTS}; found:\n${bad}")
  endif()
  message(STATUS "caught, as it should:\n${bad}")
  return()
endif()
if(NOT bad STREQUAL "")
  message(FATAL_ERROR "${OBJECTS} defines global symbols outside ${MARKER} (weak copies of "
                      "inline functions or templates compiled with the wide ISA, which the "
                      "linker may hand to portable code):\n${bad}")
endif()
if(count EQUAL 0)
  message(FATAL_ERROR "${OBJECTS}: no global symbol in ${MARKER} (expected the path's "
                      "kernels_double and kernels_float): not the wide object?")
endif()
message(STATUS "${OBJECTS}: ${count} global symbols in ${MARKER}, none elsewhere but code-free "
               "data")
