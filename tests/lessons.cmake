# tests/lessons.cmake - the lessons as CTest smoke tests (no Criterion): each
# runs the `lesson` program and checks its exit code and output through a
# small cmake -P script in tests/scripts/. include()d by tests/CMakeLists.txt.
#   lesson_<n>_<what>     one `lesson` command (scripts/run_lesson.cmake)
#   lesson_2_mode_cuda    --mode cuda runs on a GPU or says why not
#   lesson_readme_table   README.md's lesson table = `lesson list --markdown`
#   lesson_4_omp_counters counters identical with 1 and 2 OpenMP workers
#   dram_parity_h200      the L2 model's DRAM bytes against the H200's committed ones
set(SIMTLAB_LESSON_SCRIPTS ${CMAKE_CURRENT_SOURCE_DIR}/scripts)

# lesson_smoke(<name> RC <code> ARGS <lesson arguments> [ORDERED] [MATCH <regex>...] [NOMATCH <regex>...])
function(lesson_smoke name)
  cmake_parse_arguments(S "ORDERED" "RC;ARGS" "MATCH;NOMATCH" ${ARGN})
  set(defs)
  set(i 0)
  foreach(m ${S_MATCH})
    math(EXPR i "${i} + 1")
    list(APPEND defs "-DMATCH_${i}=${m}")
  endforeach()
  set(i 0)
  foreach(m ${S_NOMATCH})
    math(EXPR i "${i} + 1")
    list(APPEND defs "-DNOMATCH_${i}=${m}")
  endforeach()
  if(S_ORDERED)
    list(APPEND defs -DORDERED=ON)
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> "-DARGS=${S_ARGS}" -DRC=${S_RC} ${defs}
                   -P ${SIMTLAB_LESSON_SCRIPTS}/run_lesson.cmake)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "OMP_WAIT_POLICY=passive" LABELS lesson)
endfunction()

# each lesson runs to its verdict
lesson_smoke(lesson_2_sim RC 0 ARGS "2 --mode sim" MATCH "\nPASS\n$")
lesson_smoke(lesson_3_sim RC 0 ARGS "3 --mode sim" ORDERED
             MATCH "softmax_naive" "-> 3\\.00 accesses per element" "softmax_safe" "-> 4\\.00 accesses per element"
                   "softmax_online" "-> 3\\.00 accesses per element" "\nPASS\n$")
lesson_smoke(lesson_4_sim RC 0 ARGS "4 --mode sim" MATCH "\nPASS\n$" NOMATCH "DIFFERS")
# y = 2x moves 4 bytes in and 4 out per element
lesson_smoke(lesson_2_json RC 0 ARGS "2 --n 1000000 --json" ORDERED
             MATCH "\"read_bytes\": 4000000" "\"write_bytes\": 4000000" "\"pass\": true")
# without the bounds guard, the threads past n are reported: 1000 = 3 * 256 + 232
lesson_smoke(lesson_2_no_guard RC 1 ARGS "2 --no-guard --n 1000 --block 256"
             MATCH "past the end of allocation '[xy]'" "block \\(3,0,0\\)" "thread \\(2(3[2-9]|[45][0-9]),0,0\\)"
                   "scale_unguarded" "\nFAIL\n$")
# parameter errors are usage errors (exit 2) that say what was wrong
lesson_smoke(lesson_2_bad_flag RC 2 ARGS "2 --bogus" MATCH "--bogus")
lesson_smoke(lesson_4_bad_n RC 2 ARGS "4 --n 0" MATCH "--n 0")
lesson_smoke(lesson_4_bad_d RC 2 ARGS "4 --d abc" MATCH "abc")
# an SRAM too small for flash v2's tiles: the message says it is v2's limit, and the other two run with it
lesson_smoke(lesson_4_sram_v2 RC 2 ARGS "4 --n 64 --sram 1k" MATCH "flash v2's K_j and V_j tiles" "--version standard,v1 to leave v2 out")
lesson_smoke(lesson_4_sram_v1 RC 0 ARGS "4 --n 64 --sram 1k --version standard,v1" MATCH "\nPASS\n$")
lesson_smoke(lesson_4_d48_v2 RC 2 ARGS "4 --d 48 --version v2" MATCH "16, 32, 64 and 128" "48")
# --version takes a comma list, as lesson 7's (the two versions run, v1 does not)
lesson_smoke(lesson_4_two_versions RC 0 ARGS "4 --n 64 --heads 1 --d 16 --version standard,v2" ORDERED
             MATCH "standard " "v2 " "\nPASS\n$" NOMATCH "attn_flash_v1")
lesson_smoke(lesson_4_bad_version RC 2 ARGS "4 --version standard,v3" MATCH "--version 'standard,v3': expected standard, v1, v2, a comma list")
lesson_smoke(lesson_9_missing RC 2 ARGS "9" MATCH "no lesson 9")
# lesson 7: every version exact against its closed form, the gradients passing, the
# memory the forward saved; bad input refused with the limit and the fix
lesson_smoke(lesson_7_sim RC 0 ARGS "7 --mode sim" ORDERED
             MATCH "standard P = 2.10 MB" "l, m = 8.19 KB" "standard  dQ " "v1        dQ "
                   "v2        dQ " "standard +30.15 MB +30.15 MB +exact" "v1 +15.82 MB +15.82 MB +exact"
                   "v2 +10.04 MB +10.04 MB +exact" "\nPASS\n$" NOMATCH "DIFFERS" "-> FAIL")
lesson_smoke(lesson_7_causal_pass RC 0 ARGS "7 --causal --n 333 --d 32 --dq pass --json" ORDERED
             MATCH "\"dq\": \"pass\"" "attn_bwd_v2_dq_d32" "\"pass\": true")
lesson_smoke(lesson_7_d48_v2 RC 2 ARGS "7 --d 48 --version v2" MATCH "16, 32, 64 and 128" "--d 48")
lesson_smoke(lesson_7_v1_tile_too_big RC 2 ARGS "7 --version v1 --br 200 --bc 200" MATCH "Br = 200" "allows" "--br [0-9]+ --bc [0-9]+")
lesson_smoke(lesson_7_bad_dq RC 2 ARGS "7 --dq sometimes" MATCH "sometimes" "atomic")
# bug: lesson 4 puts B*H on grid z (standard) and grid y (flash v2), which CUDA
# limits to 65535; more heads fail at the first launch (exit 1,
# cudaErrorInvalidConfiguration) instead of being refused up front with the limit
lesson_smoke(lesson_4_bug_heads_over_grid_limit RC 2 ARGS "4 --batch 4096 --heads 32 --n 1 --d 16" MATCH "65535")

add_test(NAME lesson_2_mode_cuda
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DHAVE_CUDA=${SIMTLAB_HAVE_CUDA} -DARGS=2
                 -P ${SIMTLAB_LESSON_SCRIPTS}/lesson_cuda_mode.cmake)
add_test(NAME lesson_readme_table
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DREADME=${PROJECT_SOURCE_DIR}/README.md
                 -P ${SIMTLAB_LESSON_SCRIPTS}/readme_lessons.cmake)
add_test(NAME lesson_4_omp_counters
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> "-DARGS=4 --json --n 130 --d 32 --causal"
                 -DTHREADS=1,2 -P ${SIMTLAB_LESSON_SCRIPTS}/omp_counters.cmake)
# lesson 7's kernels through the CUDA backend: on a GPU the gradients pass; without one, the reason
add_test(NAME lesson_7_mode_cuda
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DHAVE_CUDA=${SIMTLAB_HAVE_CUDA} "-DARGS=7 --n 130 --causal"
                 -P ${SIMTLAB_LESSON_SCRIPTS}/lesson_cuda_mode.cmake)
set_tests_properties(lesson_7_mode_cuda PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): ")
set_tests_properties(lesson_2_mode_cuda lesson_7_mode_cuda lesson_readme_table lesson_4_omp_counters
                     PROPERTIES TIMEOUT 120 LABELS lesson)
# lesson 1 needs only nvcc: where CMake found one, it must compile every product and pass
if(CMAKE_CUDA_COMPILER OR EXISTS /usr/local/cuda/bin/nvcc)
  lesson_smoke(lesson_1_sim RC 0 ARGS "1 --mode sim" ORDERED
               MATCH "ld\\.global\\.f32" "st\\.global\\.f32" "sm_80: [0-9]+ bytes" "sm_90: [0-9]+ bytes"
                     "SASS  sm_89" "PTX   compute_90" "\nPASS\n$")
  lesson_smoke(lesson_1_json RC 0 ARGS "1 --json" MATCH "\"ld_global\": true" "\"pass\": true")
endif()
lesson_smoke(lesson_1_bad_mode RC 2 ARGS "1 --mode compare" MATCH "no simulator side")
lesson_smoke(lesson_1_detail RC 2 ARGS "1 --detail" MATCH "--detail: lesson 1 compiles and runs no kernel")
# lesson 6: the add and fused softmax block programs, exact bytes (add 8n + 4n; softmax 4RC each way)
lesson_smoke(lesson_6_sim RC 0 ARGS "6 --mode sim" MATCH "787456" "5695052" "\nPASS\n$")
# lesson 5: the stream model and the caching allocator replay to their verdict
lesson_smoke(lesson_5_sim RC 0 ARGS "5 --mode sim" MATCH "\nPASS\n$")
# hardening (issue 12): bad input of every lesson and tool, each a test (tests/hardening_cli.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/hardening_cli.cmake OPTIONAL)
# output that says what it measured (issue 12): tests/output.cmake
include(${CMAKE_CURRENT_LIST_DIR}/output.cmake OPTIONAL)

# the L2 model against the H200's DRAM bytes (docs/gpu/l2-parity-all.csv; scripts/dram_parity.cmake)
add_test(NAME dram_parity_h200
         COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -P ${SIMTLAB_LESSON_SCRIPTS}/dram_parity.cmake)
set_tests_properties(dram_parity_h200 PROPERTIES TIMEOUT 300 ENVIRONMENT "OMP_WAIT_POLICY=passive" LABELS lesson)
