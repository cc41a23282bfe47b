# The one record preprocessing pipeline (data/preprocess.hpp) against the signal
# primitives composed by hand, and the joint path (identify::joint_data) through it.
frictionlab_test(test_preprocess_pipeline test_preprocess_pipeline.cpp)
