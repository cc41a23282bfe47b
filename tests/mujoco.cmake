# MuJoCo (Debian's libmujoco-dev 2.2.2, C API; scripts/install-deps.sh installs it): the MJCF that
# `export mujoco` writes, loaded and run by the engine, and frictionlab's friction inside it
# (frictionlab::mujoco, built where src/CMakeLists.txt finds MuJoCo).
if(TARGET frictionlab_mujoco)
  frictionlab_test(test_mujoco_replay test_mujoco_replay.cpp)
  target_link_libraries(test_mujoco_replay PRIVATE frictionlab::mujoco)
  frictionlab_test(test_mujoco_friction test_mujoco_friction.cpp)
  target_link_libraries(test_mujoco_friction PRIVATE frictionlab::mujoco)
  # no allocation inside the friction callback while MuJoCo steps
  frictionlab_test(test_mujoco_alloc test_mujoco_alloc.cpp)
  target_link_libraries(test_mujoco_alloc PRIVATE frictionlab::mujoco)
else()
  message(STATUS "frictionlab: no MuJoCo (libmujoco-dev): the MuJoCo tests are not built")
endif()
