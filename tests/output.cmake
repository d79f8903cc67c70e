# tests/output.cmake - output that says what it measured (issue 12). include()d
# at the end of tests/lessons.cmake, so lesson_smoke() and the lesson tests
# defined there are known here.
#   ctest_skips_reported  without a GPU, ctest reports the GPU tests "Skipped", with the reason

# ---- GPU tests skip, not pass, without a GPU ---------------------------------------------
# lesson_cuda_mode.cmake prints "SKIP (not run): ..." when --mode cuda is refused
# (no GPU, no CUDA backend); that is a skip, not a pass
set_tests_properties(lesson_2_mode_cuda PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): ")
add_test(NAME ctest_skips_reported
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DTESTDIR=${CMAKE_CURRENT_BINARY_DIR}
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/ctest_skips -DTESTS=parity,lesson_2_mode_cuda
                 -P ${SIMTLAB_LESSON_SCRIPTS}/ctest_skips.cmake)
set_tests_properties(ctest_skips_reported PROPERTIES TIMEOUT 120 LABELS lesson
                     SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): a GPU is present")
