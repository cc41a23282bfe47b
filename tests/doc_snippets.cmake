# The C and C++ snippets of README.md and docs/*.md, built and run as a user pastes them
# (tests/doc_snippets/extract_snippets.py: a fragment is the body of main, its #include lines
# before it; an excerpt of a repository file must match that file). Extracted when CMake
# configures, again whenever a document changes; each runs in the source directory, where the
# documented commands run too (examples/data, ../shared/data).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(frictionlab_snippet_dir ${CMAKE_CURRENT_BINARY_DIR}/doc_snippets)
set(frictionlab_snippet_script ${CMAKE_CURRENT_SOURCE_DIR}/doc_snippets/extract_snippets.py)
file(GLOB frictionlab_snippet_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/README.md ${frictionlab_snippet_docs} ${frictionlab_snippet_script})
# (an excerpt that does not match is the test doc_snippet_excerpts' failure, not a configure error)
execute_process(COMMAND ${Python3_EXECUTABLE} ${frictionlab_snippet_script} --source ${PROJECT_SOURCE_DIR}
                        --out ${frictionlab_snippet_dir}
                OUTPUT_QUIET ERROR_QUIET)

function(frictionlab_doc_snippet name file)
  add_executable(${name} ${file})
  target_link_libraries(${name} PRIVATE frictionlab::frictionlab)
  add_test(NAME ${name} COMMAND ${name} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS doc_snippets)
endfunction()
if(EXISTS ${frictionlab_snippet_dir}/snippets.cmake)
  include(${frictionlab_snippet_dir}/snippets.cmake)
endif()
add_test(NAME doc_snippet_excerpts
         COMMAND ${Python3_EXECUTABLE} ${frictionlab_snippet_script} --source ${PROJECT_SOURCE_DIR}
                 --out ${CMAKE_CURRENT_BINARY_DIR}/doc_snippets_check)
