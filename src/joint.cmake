# Joint identification (issue #4): the identified joint's equation of motion (sim/), the
# inverse-dynamic and output-error methods and the validation (identify/), joint.json (io/).
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/sim/joint_model.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_controller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_data.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_idim.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_oe.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_validate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/joint_json.cpp
)
