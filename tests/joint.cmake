# Joint identification: the joint's equation of motion, idim, oe, validation.
frictionlab_test(test_joint_sim test_joint_sim.cpp)
# Forward sensitivities of the joint simulation against central differences.
frictionlab_test(test_joint_sensitivity test_joint_sensitivity.cpp)
frictionlab_test(test_joint_idim test_joint_idim.cpp)
# Load-dependent joint friction: idim, simulation, validation and joint_fit.json.
frictionlab_test(test_joint_load test_joint_load.cpp)
frictionlab_test(test_joint_temperature test_joint_temperature.cpp)
# Temperature-dependent joint LuGre friction: simulation, torque prediction, oe.
frictionlab_test(test_joint_lugre_temperature test_joint_lugre_temperature.cpp)
# Load-dependent joint LuGre friction: simulation, torque prediction, oe.
frictionlab_test(test_joint_lugre_load test_joint_lugre_load.cpp)
frictionlab_test(test_joint_oe test_joint_oe.cpp)
frictionlab_test(test_joint_closed_loop test_joint_closed_loop.cpp)
# The Newey-West covariance from per-sample scores (identify/statistics.hpp) that oe, idim and lsq
# share: against the White sandwich and the Bartlett double sum computed directly.
frictionlab_test(test_hac_scores test_hac_scores.cpp)
target_include_directories(test_hac_scores PRIVATE ${PROJECT_SOURCE_DIR}/src/identify)
if(TARGET frictionlab_cli)
  # fit-joint / eval-joint end to end on a synthetic joint record, and their error paths.
  frictionlab_cli_test(cli_joint test_cli_joint.py NO_SOURCE)
  # fit-joint --load-dependent end to end: recovery, an undetermined record, the refusals.
  frictionlab_cli_test(cli_joint_load test_cli_joint_load.py NO_SOURCE)
  # fit-joint --temperature-law end to end: recovery, a record at one temperature, the refusals.
  frictionlab_cli_test(cli_joint_temperature test_cli_joint_temperature.py NO_SOURCE)
  # A temperature law and a load dependence on joint LuGre friction: oe from a JOINT.json and
  # from sr3, eval-joint, the refusals, the adaptive estimator's seed
  # (examples/data/joint_lugre_warming.csv, joint_lugre_load.csv). Not under the sanitizers:
  # its eight oe fits by central differences take minutes there (40 s in Release), and
  # test_joint_lugre_temperature and test_joint_lugre_load run the same code under them.
  if(NOT FRICTIONLAB_SANITIZE)
    frictionlab_cli_test(cli_joint_lugre_dependences test_cli_joint_lugre_dependences.py)
  endif()
endif()
# lsq's Jacobian by time segments on several threads against the serial one.
frictionlab_test(test_segmented_jacobian test_segmented_jacobian.cpp)
target_include_directories(test_segmented_jacobian PRIVATE ${PROJECT_SOURCE_DIR}/src/identify)
# The threads of identify/parallel.{hpp,cpp}: for_each_index on the process's helper threads
# (every index once, nested passes, exceptions, tasks that wait on earlier ones, a fork()ed
# child), Task values and exceptions, run_on_own_threads stopping its workers.
frictionlab_test(test_helper_pool test_helper_pool.cpp)
target_include_directories(test_helper_pool PRIVATE ${PROJECT_SOURCE_DIR}/src/identify)
