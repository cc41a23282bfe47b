# MuJoCo (Debian's libmujoco-dev 2.2.2, C API; scripts/install-deps.sh installs it): the MJCF that
# `export mujoco` writes, loaded and run by the engine. Found by path: the package's CMake
# configuration names an include directory (libqhull_r) that Debian does not ship.
find_path(FRICTIONLAB_MUJOCO_INCLUDE_DIR mujoco/mujoco.h)
find_library(FRICTIONLAB_MUJOCO_LIBRARY mujoco)
if(FRICTIONLAB_MUJOCO_INCLUDE_DIR AND FRICTIONLAB_MUJOCO_LIBRARY)
  message(STATUS "frictionlab: MuJoCo ${FRICTIONLAB_MUJOCO_LIBRARY}: the MuJoCo replay tests are built")
  frictionlab_test(test_mujoco_replay test_mujoco_replay.cpp)
  target_include_directories(test_mujoco_replay SYSTEM PRIVATE ${FRICTIONLAB_MUJOCO_INCLUDE_DIR})
  target_link_libraries(test_mujoco_replay PRIVATE ${FRICTIONLAB_MUJOCO_LIBRARY})
else()
  message(STATUS "frictionlab: no MuJoCo (libmujoco-dev): the MuJoCo replay tests are not built")
endif()
