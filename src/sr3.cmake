# SINDy-SR3 core and the joint identification algorithm of reference 004 (issue #4, method sr3):
# include/frictionlab/identify/sr3.hpp, joint_sr3.hpp; docs/joint-identification.md.
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/identify/sr3.cpp
  ${CMAKE_CURRENT_LIST_DIR}/identify/joint_sr3.cpp
)
