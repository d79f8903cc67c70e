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

# ---- README figures = what the program prints ------------------------------------------
# readme_figure(<name> README <file> ARGS <lesson args> [RC <code>] [TEXT <phrase>...]
#               [MATCH <regex>...] [CMP "<regex>@EQUAL|LESS@<regex>"...] [TABLE_AFTER <line>]): the README says each TEXT, and
# `lesson ARGS` prints each MATCH (scripts/readme_figure.cmake). A figure a README quotes
# is checked here, or it goes.
function(readme_figure name)
  cmake_parse_arguments(F "" "README;ARGS;RC;TABLE_AFTER" "TEXT;MATCH;CMP" ${ARGN})
  set(defs)
  set(i 0)
  foreach(t ${F_TEXT})
    math(EXPR i "${i} + 1")
    list(APPEND defs "-DTEXT_${i}=${t}")
  endforeach()
  set(i 0)
  foreach(m ${F_MATCH})
    math(EXPR i "${i} + 1")
    list(APPEND defs "-DMATCH_${i}=${m}")
  endforeach()
  set(i 0)
  foreach(c ${F_CMP})
    math(EXPR i "${i} + 1")
    list(APPEND defs "-DCMP_${i}=${c}")
  endforeach()
  if(DEFINED F_RC)
    list(APPEND defs -DRC=${F_RC})
  endif()
  if(DEFINED F_TABLE_AFTER)
    list(APPEND defs "-DTABLE_AFTER=${F_TABLE_AFTER}")
  endif()
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DREADME=${PROJECT_SOURCE_DIR}/${F_README}
                   "-DARGS=${F_ARGS}" ${defs} -P ${SIMTLAB_LESSON_SCRIPTS}/readme_figure.cmake)
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "OMP_WAIT_POLICY=passive" LABELS lesson)
endfunction()

# README.md: lesson 4's default summary, row for row (no timing in the README)
readme_figure(readme_lesson4_table README README.md ARGS "4 --mode sim"
              TEXT "What lesson 4 prints by default (N = 1024, d = 64, 2 heads, M = 48 KB;"
              MATCH "B = 1, H = 2, N = 1024, d = 64" "SRAM M = 49152 bytes"
              TABLE_AFTER "a test checks these rows against the program):")
# lessons/04: the tiles at M = 48 KB, d = 64, and the --n 2048 ratio
readme_figure(readme_lesson4_tiles README lessons/04_attention/README.md ARGS "4 --version all"
              TEXT "at M = 48 KB, d = 64: Br = Bc = 48; its tiles with S_ij need 57.8 KB of shared memory"
                   "Bc = the keys whose K and V tiles fit M (96 at 48 KB, d = 64)" "(192 rows at d = 64;"
              MATCH "Bc = ceil\\(M/4d\\) = 48, Br = min\\(ceil\\(M/4d\\), d\\) = 48; 57\\.8 KB of shared memory"
                    "flash v2 tiles: Br = 192 query rows per block [^\n]*Bc = 96 keys")
readme_figure(readme_lesson4_n2048 README lessons/04_attention/README.md ARGS "4 --n 2048 --heads 1 --version all"
              TEXT "build/lesson 4 --n 2048 --heads 1                 # v2 moves 12x fewer bytes than standard"
              MATCH "\n    v2 [^\n]* 12\\.0x fewer\n")
# docs/plots/README.md: v2's Br
readme_figure(readme_plots_br README docs/plots/README.md ARGS "4 --version v2"
              TEXT "Br = 192 at d = 64, M = 48 KB" MATCH "flash v2 tiles: Br = 192 query rows")
# lessons/06: the tutorial's add (n = 98432) and softmax (1823 x 781), and --n 1024 / 1025
readme_figure(readme_lesson6_tutorial README lessons/06_block_programs/README.md ARGS "6 --mode sim"
              TEXT "n = 98432 and BLOCK_SIZE = 1024 that is 97 programs; the last (pid 96) covers offsets 98304..99327, and `mask = offsets < n` keeps 128 lanes on and turns 896 off"
                   "(787456 and 393728)" "(1024 for the tutorial's 1823 x 781)" "to the 243 lanes past the row's end"
              MATCH "n = 98432 elements, BLOCK_SIZE = 1024" "= 97 programs" "pid 96, covers offsets 98304\\.\\.99327"
                    "128 lanes on, 896 off" "HBM read  787456 B" "HBM write 393728 B" "1823 rows x 781 columns, BLOCK_SIZE = [^\n]* = 1024"
                    "781 lanes on, 243 off")
readme_figure(readme_lesson6_n1024 README lessons/06_block_programs/README.md ARGS "6 --n 1024"
              TEXT "`--n 1024` (1 program, no lanes off)" MATCH "= 1 program " "1024 lanes on, 0 off")
readme_figure(readme_lesson6_n1025 README lessons/06_block_programs/README.md ARGS "6 --n 1025"
              TEXT "`--n 1025` (2 programs, the second with 1 lane on and 1023 off)"
              MATCH "= 2 programs " "the last, pid 1, [^\n]*\n *1 lane on, 1023 off")
readme_figure(readme_lesson6_cols README lessons/06_block_programs/README.md ARGS "6 --cols 1025"
              TEXT "`--cols 1000` against `--cols 1025`: BLOCK_SIZE jumps from 1024 to 2048"
              MATCH "BLOCK_SIZE = the next power of two >= 1025 = 2048")
readme_figure(readme_lesson6_warps README lessons/06_block_programs/README.md ARGS "6 --block 4096 --warps 4" RC 2
              TEXT "`--block 4096 --warps 4`: 32 elements a thread, more than a tile holds (TL_PER_THREAD = 16); the lesson says so and exits 2"
              MATCH "16")
# lessons/01: the cubin sizes question (sm_80 = sm_89 < sm_90), where nvcc is found
if(CMAKE_CUDA_COMPILER OR EXISTS /usr/local/cuda/bin/nvcc)
  readme_figure(readme_lesson1_cubins README lessons/01_compile_chain/README.md ARGS "1"
                TEXT "The sm_80 and sm_89 cubins have the same size; sm_90's is larger."
                CMP "\n +sm_80: ([0-9]+) bytes@EQUAL@\n +sm_89: ([0-9]+) bytes" "\n +sm_89: ([0-9]+) bytes@LESS@\n +sm_90: ([0-9]+) bytes")
endif()
# atomics are their own kind in every lesson's JSON (issue 12): global RED + ATOM sectors, shared atom wavefronts
lesson_smoke(lesson_2_json_atomics RC 0 ARGS "2 --n 1000 --detail --json" ORDERED
             MATCH "\"atom_sectors\": 0" "\"atom_wavefronts\": 0" "\"pass\": true")
# lesson 5's stream model (deterministic): the figures its README quotes
readme_figure(readme_lesson5_streams README lessons/05_torch_stack/README.md ARGS "5 --part streams"
              TEXT "1.342 ms, kernel max(0.040 ms memory, 0.513 ms compute) = 0.513 ms, D2H 1.342 ms; one stream 12.789 ms, two streams 7.737 ms (1.65x), bound 5.369 ms"
              MATCH "H2D 1\\.342 ms \\| kernel max\\([^)]*= 0\\.040 ms, [^)]*= 0\\.513 ms\\) = 0\\.513 ms" "1 stream : 12\\.789 ms"
                    "2 streams: 7\\.737 ms, 1\\.65x faster; no schedule beats 5\\.369 ms")
readme_figure(readme_lesson5_streams3 README lessons/05_torch_stack/README.md ARGS "5 --part streams --streams 3"
              TEXT "--streams 1, 2, 3, 4`: 12.789, 7.737, 7.224, 7.224 ms on sm_90" MATCH "3 streams: 7\\.224 ms")
readme_figure(readme_lesson5_streams4 README lessons/05_torch_stack/README.md ARGS "5 --part streams --streams 4"
              TEXT "--streams 4          # 7.224 ms" MATCH "4 streams: 7\\.224 ms")
# the ceilings lessons 3 and 4 quote in their questions are the presets' (the simulator prints them in lesson 5)
readme_figure(readme_lesson3_ceilings README lessons/03_softmax/README.md ARGS "5 --part streams --arch sm_90"
              TEXT "An H100 moves 3.35 TB/s from HBM and computes 67 TFLOP/s in fp32" MATCH "HBM 3\\.35 TB/s, fp32 67\\.0 TFLOP/s")
readme_figure(readme_lesson4_ceilings README lessons/04_attention/README.md ARGS "5 --part streams --arch h200"
              TEXT "fp32 rate (67 TFLOP/s) and bandwidth (4.8 TB/s)" MATCH "HBM 4\\.80 TB/s, fp32 67\\.0 TFLOP/s")
# lesson 2 and 3 README figures against the program
readme_figure(readme_lesson2_sectors README lessons/02_scale/README.md ARGS "2 --detail --n 1000"
              TEXT "`--detail` prints 3.91 sectors per request at n = 1000" MATCH "125 loaded, 125 stored in 32 \\+ 32 warp requests \\(3\\.91 per request")
readme_figure(readme_lesson3_defaults README lessons/03_softmax/README.md ARGS "3"
              TEXT "The defaults (R = 512, C = 2048) print 8.39 MB / 12.58 MB / 8.39 MB read, 4.19 MB written"
                   "T = 256: 131.07 KB read, 16.38 KB written (naive); 262.14 KB, 32.77 KB (safe, online)"
              MATCH "HBM read 8\\.39 MB[^\n]*write 4\\.19 MB" "SRAM read 131\\.07 KB, write 16\\.38 KB"
                    "HBM read 12\\.58 MB" "SRAM read 262\\.14 KB, write 32\\.77 KB")
lesson_smoke(lesson_4_sweep_time_is_cpu RC 0 ARGS "4 --sweep n=32,64 --d 16" MATCH "time ms\\*: on the sim rows the simulator's CPU time, not a GPU time")
