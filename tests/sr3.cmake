# SINDy-SR3 core and the joint identification algorithm of reference 004 (method sr3).
frictionlab_test(test_sr3 test_sr3.cpp)
frictionlab_test(test_joint_sr3 test_joint_sr3.cpp)
