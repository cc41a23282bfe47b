# `cmake --install` into a temporary prefix, then two external projects built against it with
# find_package(frictionlab): the whole library, and frictionlab::models alone (tests/package/).
if(TARGET frictionlab_cli)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  set(frictionlab_package_flags "")
  if(FRICTIONLAB_SANITIZE)
    set(frictionlab_package_flags "-fsanitize=address,undefined -fno-omit-frame-pointer")
  endif()
  add_test(NAME package_install
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/package/check_package.py
                   --cmake ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --source ${PROJECT_SOURCE_DIR}
                   --work ${CMAKE_CURRENT_BINARY_DIR}/package --generator ${CMAKE_GENERATOR}
                   --version ${PROJECT_VERSION} --cxx-flags "${frictionlab_package_flags}")
endif()

# Layers depend downward only: no header or source of a layer includes one above it.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME layers_depend_downward
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layers/check_layers.py
                 ${PROJECT_SOURCE_DIR})
