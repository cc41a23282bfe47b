# ---- torque estimator (estimator/, docs/estimator.md) ----
frictionlab_test(test_estimator test_estimator.cpp)
# The C API against the C++ estimator; no allocation in the per-cycle functions.
frictionlab_test(test_estimator_c test_estimator_c.cpp)
frictionlab_test(test_estimator_alloc test_estimator_alloc.cpp)
# The adaptive estimator (RLS with forgetting) on a joint that warms up.
frictionlab_test(test_adaptive_estimator test_adaptive_estimator.cpp)

if(TARGET frictionlab_cli)
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  # `export c` compiled on the host: generated at build time, compared with the C++ estimator
  # (--quiet: the build prints no table; the warnings are in the generated headers).
  set(frictionlab_export_dir ${CMAKE_CURRENT_BINARY_DIR}/estimator_export)
  set(frictionlab_export_params ${PROJECT_SOURCE_DIR}/examples/data/joint_estimator.json)
  add_custom_command(
    OUTPUT ${frictionlab_export_dir}/joint_f32.c ${frictionlab_export_dir}/joint_f32.h
           ${frictionlab_export_dir}/joint_f64.c ${frictionlab_export_dir}/joint_f64.h
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_export_params} --name joint_f32
            --precision float --adaptive --out ${frictionlab_export_dir}
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_export_params} --name joint_f64
            --precision double --adaptive --out ${frictionlab_export_dir}
    DEPENDS frictionlab_cli ${frictionlab_export_params}
    COMMENT "frictionlab export c --adaptive (joint_estimator.json, float and double)"
    VERBATIM)
  # The same for a joint fit (docs/joint-identification.md, "Shipping a joint fit"): fit-joint
  # --method sr3 on a synthetic record with Stribeck friction (one Stribeck term, a linear viscous
  # term: a joint-lugre set with a lugre form), then export c with --km.
  set(frictionlab_joint_export_dir ${CMAKE_CURRENT_BINARY_DIR}/joint_fit_export)
  set(frictionlab_joint_record_script ${CMAKE_CURRENT_SOURCE_DIR}/cli/joint_stribeck_record.py)
  add_custom_command(
    OUTPUT ${frictionlab_joint_export_dir}/joint_fit_f32.c ${frictionlab_joint_export_dir}/joint_fit_f32.h
           ${frictionlab_joint_export_dir}/joint_fit_f64.c ${frictionlab_joint_export_dir}/joint_fit_f64.h
           ${frictionlab_joint_export_dir}/fit/joint_fit.json
    COMMAND ${Python3_EXECUTABLE} ${frictionlab_joint_record_script}
            ${frictionlab_joint_export_dir}/record.csv
    COMMAND frictionlab_cli --quiet fit-joint --method sr3 --input ${frictionlab_joint_export_dir}/record.csv
            --time time --position angle --torque torque --delta 2 --viscous-powers 1 --no-plots
            --out ${frictionlab_joint_export_dir}/fit
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_joint_export_dir}/fit/joint_fit.json
            --km 0.5 --name joint_fit_f32 --precision float --out ${frictionlab_joint_export_dir}
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_joint_export_dir}/fit/joint_fit.json
            --km 0.5 --name joint_fit_f64 --precision double --out ${frictionlab_joint_export_dir}
    DEPENDS frictionlab_cli ${frictionlab_joint_record_script}
    COMMENT "frictionlab fit-joint (synthetic Stribeck joint) and export c of its joint_fit.json"
    VERBATIM)
  frictionlab_test(test_estimator_export test_estimator_export.cpp
                   ${frictionlab_export_dir}/joint_f32.c ${frictionlab_export_dir}/joint_f64.c
                   ${frictionlab_joint_export_dir}/joint_fit_f32.c
                   ${frictionlab_joint_export_dir}/joint_fit_f64.c)
  target_include_directories(test_estimator_export PRIVATE ${frictionlab_export_dir}
                                                           ${frictionlab_joint_export_dir})
  target_compile_definitions(test_estimator_export PRIVATE
      FRICTIONLAB_JOINT_FIT_JSON="${frictionlab_joint_export_dir}/fit/joint_fit.json")

  # export c --adaptive --temperature (docs/estimator.md, "Online adaptation"): the adaptive
  # estimator of sensorless_fit.json with kT seeded from fit-joint's linear temperature law on
  # examples/data/joint_warming.csv, the --params levels taken to hold at 30 degC.
  set(frictionlab_warm_export_dir ${CMAKE_CURRENT_BINARY_DIR}/warm_export)
  set(frictionlab_warm_record ${PROJECT_SOURCE_DIR}/examples/data/joint_warming.csv)
  set(frictionlab_sensorless_fit ${PROJECT_SOURCE_DIR}/examples/data/sensorless_fit.json)
  add_custom_command(
    OUTPUT ${frictionlab_warm_export_dir}/warm_f32.c ${frictionlab_warm_export_dir}/warm_f32.h
           ${frictionlab_warm_export_dir}/warm_f64.c ${frictionlab_warm_export_dir}/warm_f64.h
           ${frictionlab_warm_export_dir}/fit/joint_fit.json
    COMMAND frictionlab_cli --quiet fit-joint --method idim --input ${frictionlab_warm_record}
            --time t --position q --torque tau --temperature temp --temperature-law linear
            --no-plots --out ${frictionlab_warm_export_dir}/fit
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_sensorless_fit} --adaptive
            --temperature ${frictionlab_warm_export_dir}/fit/joint_fit.json --temperature-ref 30
            --name warm_f32 --precision float --out ${frictionlab_warm_export_dir}
    COMMAND frictionlab_cli --quiet export c --params ${frictionlab_sensorless_fit} --adaptive
            --temperature ${frictionlab_warm_export_dir}/fit/joint_fit.json --temperature-ref 30
            --name warm_f64 --precision double --out ${frictionlab_warm_export_dir}
    DEPENDS frictionlab_cli ${frictionlab_warm_record} ${frictionlab_sensorless_fit}
    COMMENT "frictionlab fit-joint --temperature-law linear (joint_warming.csv) and export c "
            "--adaptive --temperature"
    VERBATIM)
  frictionlab_test(test_adaptive_export_temperature test_adaptive_export_temperature.cpp
                   ${frictionlab_warm_export_dir}/warm_f32.c ${frictionlab_warm_export_dir}/warm_f64.c)
  target_include_directories(test_adaptive_export_temperature PRIVATE ${frictionlab_warm_export_dir})
  target_compile_definitions(test_adaptive_export_temperature PRIVATE
      FRICTIONLAB_WARM_JOINT_FIT_JSON="${frictionlab_warm_export_dir}/fit/joint_fit.json")

  # Cortex-M4F compile-only test (gcc-arm-none-eabi; skipped with a message if it is missing).
  add_test(NAME estimator_cortex_m4f
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cortex_m4f/check_cortex_m4f.py
                   --source ${PROJECT_SOURCE_DIR} --cli $<TARGET_FILE:frictionlab_cli>
                   --work ${CMAKE_CURRENT_BINARY_DIR}/cortex_m4f)
  set_tests_properties(estimator_cortex_m4f PROPERTIES SKIP_RETURN_CODE 77)

  # export c|json|mujoco end to end and their error paths.
  frictionlab_cli_test(cli_export_estimator test_cli_export.py WORK cli_export)
  # export c --adaptive --temperature: a joint fit's temperature law seeds kT (fit-joint, then
  # export), the baked start and the errors.
  frictionlab_cli_test(cli_export_temperature test_cli_export_temperature.py)
endif()
