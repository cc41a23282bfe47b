# Joint identification (issue #4): the joint's equation of motion, idim, oe, validation.
frictionlab_test(test_joint_sim test_joint_sim.cpp)
frictionlab_test(test_joint_idim test_joint_idim.cpp)
frictionlab_test(test_joint_oe test_joint_oe.cpp)
