# Signal layer, issue #4 preprocessing: TV-regularised differentiation (Chartrand's TVRegDiff and
# its second-order form), re-integration with least-squares constants, decimation and the
# inverse-model (IDIM) filtering pipeline. Host side, no file I/O (docs/preprocessing.md).
target_sources(frictionlab PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/signal/tvreg.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signal/reintegrate.cpp
  ${CMAKE_CURRENT_LIST_DIR}/signal/decimate.cpp
)
