# Simulation workflow part (workflows/simulate, export, demo): the model registry of
# simulate --model (sim/model_run) and the io of the simulate and demo workflows.
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim/model_run.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/simulate_io.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/demo_files.cpp)
