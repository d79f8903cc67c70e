# tests/output.cmake - output that says what it measured (issue 12). include()d
# at the end of tests/lessons.cmake, so lesson_smoke() and the lesson tests
# defined there are known here.
#   ctest_skips_reported  without a GPU, ctest reports the GPU tests "Skipped", with the reason
#   lesson_4_detail_text  --detail prints each kernel's sectors, wavefronts, bank conflicts (and cp.async)
#   lesson_4_time_is_cpu  the simulator's time column says it is CPU time, not GPU time
#   lesson_4_flops_label(_causal)  the FLOP line's formula is the one of the count it prints
#   lesson_4_cuda_no_counters  on a GPU without counters, bytes are "-" (not 0 B, FLOP/byte not inf)
#   simtlab_cli_unknown / _quiet  `simtlab foo` says unknown command; `simtlab lesson` quiet when up to date

# ---- GPU tests skip, not pass, without a GPU ---------------------------------------------
# lesson_cuda_mode.cmake prints "SKIP (not run): ..." when --mode cuda is refused
# (no GPU, no CUDA backend); that is a skip, not a pass
set_tests_properties(lesson_2_mode_cuda PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): ")
add_test(NAME ctest_skips_reported
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DTESTDIR=${CMAKE_CURRENT_BINARY_DIR}
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/ctest_skips -DTESTS=parity,lesson_2_mode_cuda,lesson_4_cuda_no_counters
                 -P ${SIMTLAB_LESSON_SCRIPTS}/ctest_skips.cmake)
set_tests_properties(ctest_skips_reported PROPERTIES TIMEOUT 120 LABELS lesson
                     SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): a GPU is present")

# ---- lesson 4's text report -----------------------------------------------------------
# --detail: a sectors line under every kernel (here N = 130, d = 32: six kernels), and
# v2's cp.async copies apart; the figures are the --json ones (lesson_print_detail)
lesson_smoke(lesson_4_detail_text RC 0 ARGS "4 --detail --n 130 --d 32" ORDERED
             MATCH "attn_std_scores[^\n]*\n +32-byte sectors: 6240 loaded, 5980 stored in 1560 \\+ 1170 warp requests[^\n]*shared wavefronts 39168, bank conflicts 0\n"
                   "attn_std_softmax[^\n]*\n +32-byte sectors: [0-9]+ loaded"
                   "attn_std_pv[^\n]*\n +32-byte sectors: [0-9]+ loaded"
                   "attn_flash_v1_init[^\n]*\n +32-byte sectors: 0 loaded"
                   "attn_flash_v1 [^\n]*\n +32-byte sectors: [0-9]+ loaded[^\n]*bank conflicts [1-9][0-9]*\n"
                   "attn_flash_v2_d32[^\n]*\n +32-byte sectors: [0-9]+ loaded[^\n]*\n +of which cp\\.async \\(LDGSTS\\): [1-9][0-9]* requests"
                   "\nPASS\n$")
# the simulator's time is the simulation's wall time on this CPU: the columns say so
lesson_smoke(lesson_4_time_is_cpu RC 0 ARGS "4 --n 64 --d 16" ORDERED
             MATCH "per kernel; CPU ms: the simulator's wall time on this CPU, not a GPU time"
                   "SRAM write +CPU ms\n" "FLOP/byte +CPU ms vs standard\n"
             NOMATCH "time ms")
# FLOPs: 4 N^2 d per head (N = 64, d = 16, 2 heads: 524288); causal 4 d N(N+1)/2 (266240)
lesson_smoke(lesson_4_flops_label RC 0 ARGS "4 --n 64 --d 16"
             MATCH "FLOPs = 4 N\\^2 d per head x 2 heads = 5\\.24e\\+05\n")
lesson_smoke(lesson_4_flops_label_causal RC 0 ARGS "4 --n 64 --d 16 --causal"
             MATCH "FLOPs = 4 d N\\(N\\+1\\)/2 \\(causal: the visible pairs\\) per head x 2 heads = 2\\.66e\\+05\n"
             NOMATCH "4 N\\^2 d")
# on a GPU with --no-counters nothing measures bytes: "-", never "0 B" or a FLOP/byte of inf;
# skipped (with the reason: no CUDA device / backend) where there is no GPU
lesson_smoke(lesson_4_cuda_no_counters RC 0 ARGS "4 --mode cuda --no-counters --n 256 --repeats 1"
             MATCH "- = not measured \\(no hardware counters: --no-counters\\)" "\nPASS\n$"
             NOMATCH " inf" " 0 B ")
set_tests_properties(lesson_4_cuda_no_counters PROPERTIES SKIP_REGULAR_EXPRESSION "no CUDA device|no CUDA backend")

# ---- the simtlab wrapper ----------------------------------------------------------------
# an unknown command says so (exit 2); `simtlab lesson` is quiet when nothing is rebuilt.
# quiet runs the wrapper's configure and build in this build directory: RUN_SERIAL, so
# no other test runs a binary it might relink
foreach(part unknown quiet)
  add_test(NAME simtlab_cli_${part}
           COMMAND ${CMAKE_COMMAND} -DSIMTLAB=${PROJECT_SOURCE_DIR}/simtlab -DBUILD=${PROJECT_BINARY_DIR}
                   -DLESSON=$<TARGET_FILE:lesson> -DPART=${part} -P ${SIMTLAB_LESSON_SCRIPTS}/simtlab_cli.cmake)
  set_tests_properties(simtlab_cli_${part} PROPERTIES TIMEOUT 300 LABELS lesson
                       SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): ")
endforeach()
set_tests_properties(simtlab_cli_quiet PROPERTIES RUN_SERIAL TRUE)
