# Servo actuator models M1..M6 (issue #6): logs (data/), BAM JSON files (io/), CMA-ES and
# fitting/selection (identify/). The simulator itself is header-only (sim/servo.hpp).
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/data/servo_log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/servo_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/cmaes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/servo_fit.cpp
)
