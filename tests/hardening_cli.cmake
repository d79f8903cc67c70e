# tests/hardening_cli.cmake - issue 12, host side: bad input to the `lesson` program is a
# clear error (exit 2 naming the flag), never a crash, a hang, a shell command or a leak.
# include()d from tests/lessons.cmake (lesson_smoke is defined there).
#   lesson_1_source_inject   --source with $(...) in the path runs nothing
#   lesson_1_cuda_no_gpu     --mode cuda without a GPU says so and does not say PASS
#   lesson_1_source_syntax   --source that does not compile: nvcc's errors and exit 2, no later step
set(SIMTLAB_HARDENING_WORK ${CMAKE_CURRENT_BINARY_DIR}/hardening)
if(CMAKE_CUDA_COMPILER OR EXISTS /usr/local/cuda/bin/nvcc)
  add_test(NAME lesson_1_source_inject
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson>
                   -DSRC=${PROJECT_SOURCE_DIR}/lessons/02_scale/scale.cu -DWORK=${SIMTLAB_HARDENING_WORK}/inject
                   -P ${SIMTLAB_LESSON_SCRIPTS}/lesson1_source_inject.cmake)
  add_test(NAME lesson_1_cuda_no_gpu
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -P ${SIMTLAB_LESSON_SCRIPTS}/lesson1_cuda_nogpu.cmake)
  # --source that does not compile: nvcc's errors, then a stop with exit 2 (the later steps printed -1 bytes)
  file(MAKE_DIRECTORY ${SIMTLAB_HARDENING_WORK})
  file(WRITE ${SIMTLAB_HARDENING_WORK}/syntax.cu "__global__ void k(float *x) { x[threadIdx.x] = 1.0f }\n")
  lesson_smoke(lesson_1_source_syntax RC 2 ARGS "1 --source ${SIMTLAB_HARDENING_WORK}/syntax.cu"
               MATCH "error" "syntax.cu does not compile with nvcc \\(its errors above\\)" NOMATCH "-1 bytes" "\nPASS\n|\nFAIL\n")
  set_tests_properties(lesson_1_source_inject lesson_1_cuda_no_gpu lesson_1_source_syntax PROPERTIES TIMEOUT 120 LABELS "lesson;hardening")
endif()
#   lesson_5_trace_*         --trace: /dev/zero and an over-cap file refused at once; 10000 steps fast
foreach(case zero big lines)
  add_test(NAME lesson_5_trace_${case}
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DCASE=${case} -DWORK=${SIMTLAB_HARDENING_WORK}/trace
                   -P ${SIMTLAB_LESSON_SCRIPTS}/lesson5_trace_limits.cmake)
  set_tests_properties(lesson_5_trace_${case} PROPERTIES TIMEOUT 30 LABELS "lesson;hardening")
endforeach()
# a failed host allocation says what and how much (the limit leaves x and ref, not y);
# ulimit -v cannot work beside ASan's shadow memory
if(NOT SIMTLAB_SANITIZE)
  add_test(NAME lesson_2_host_oom
           COMMAND ${CMAKE_COMMAND} -DLESSON=$<TARGET_FILE:lesson> -DLIMIT_KB=3400000 "-DARGS=2 --n 268435456"
                   "-DMATCH=out of host memory: malloc of 1073741824 bytes for the result y"
                   -P ${SIMTLAB_LESSON_SCRIPTS}/lesson_oom.cmake)
  set_tests_properties(lesson_2_host_oom PROPERTIES TIMEOUT 120 LABELS "lesson;hardening")
endif()
# every lesson_smoke below is labelled hardening too (set at the end of this file)
set(SIMTLAB_HARDENING_SMOKE
    lesson_2_usage_no_leak lesson_number_space lesson_number_plus lesson_number_huge lesson_2_n_space lesson_2_n_plus
    lesson_2_n_2pow63 lesson_3_scale_hex lesson_3_scale_zero lesson_4_sram_hex lesson_2_n_twice lesson_4_json_twice
    lesson_5_trace_twice lesson_4_csv_takes_option lesson_4_sweep_factor_near_1 lesson_4_sweep_plus_count
    lesson_4_sweep_step_2pow63 lesson_3_sweep_list_count lesson_3_csv_directory lesson_4_csv_directory
    lesson_5_gantt_directory lesson_5_gantt_no_parent)
# the usage-error path of lesson 2 frees x and ref (LeakSanitizer fails this test in the ASan build)
lesson_smoke(lesson_2_usage_no_leak RC 2 ARGS "2 --n 1000 --block 2000" MATCH "InvalidConfiguration|1024")
# accepted nonsense is refused, naming the value and the accepted form
lesson_smoke(lesson_number_space RC 2 ARGS "\" 4\"" MATCH "' 4'.*1 to 7")
lesson_smoke(lesson_number_plus RC 2 ARGS "+4" MATCH "'\\+4'.*digits only")
lesson_smoke(lesson_number_huge RC 2 ARGS "99999999999999999999" MATCH "no lesson 99999999999999999999; lessons are 1 to 7")
lesson_smoke(lesson_2_n_space RC 2 ARGS "2 --n \" 5\"" MATCH "--n ' 5' is not a whole number")
lesson_smoke(lesson_2_n_plus RC 2 ARGS "2 --n +5" MATCH "--n '\\+5' is not a whole number")
lesson_smoke(lesson_2_n_2pow63 RC 2 ARGS "2 --n 9223372036854775808" MATCH "--n '9223372036854775808' is out of range")
lesson_smoke(lesson_3_scale_hex RC 2 ARGS "3 --rows 2 --cols 64 --scale 0x10" MATCH "--scale '0x10' is not a decimal number")
lesson_smoke(lesson_3_scale_zero RC 2 ARGS "3 --rows 2 --cols 64 --scale 0" MATCH "--scale 0 is out of range: it must be above 0")
lesson_smoke(lesson_4_sram_hex RC 2 ARGS "4 --n 16 --d 16 --sram 0x10000" MATCH "--sram '0x10000' is not a size")
lesson_smoke(lesson_2_n_twice RC 2 ARGS "2 --n 5 --n 6" MATCH "--n given twice")
lesson_smoke(lesson_4_json_twice RC 2 ARGS "4 --n 16 --d 16 --json --json" MATCH "--json given twice")
lesson_smoke(lesson_5_trace_twice RC 2 ARGS "5 --trace a --trace b" MATCH "--trace given twice")
lesson_smoke(lesson_4_csv_takes_option RC 2 ARGS "4 --n 16 --d 16 --csv --json" MATCH "--csv needs a value.*'--json'")
# --sweep: counted before generated; no signed overflow (the ASan build has UBSan)
lesson_smoke(lesson_4_sweep_factor_near_1 RC 2 ARGS "4 --sweep n=64:1024:x1.0000000000000002"
             MATCH "--sweep 'n=64:1024:x1.0000000000000002' has 961 points; at most 256")
lesson_smoke(lesson_4_sweep_plus_count RC 2 ARGS "4 --sweep n=1:1048576:+1" MATCH "has 1048576 points; at most 256")
lesson_smoke(lesson_4_sweep_step_2pow63 RC 0 ARGS "4 --sweep n=64:1024:+9223372036854775807 --d 16 --heads 1 --version v2"
             MATCH "\nPASS\n")
string(REPEAT "32," 256 list_257)
lesson_smoke(lesson_3_sweep_list_count RC 2 ARGS "3 --rows 2 --cols 64 --sweep block=${list_257}32"
             MATCH "has 257 points; at most 256")
# --csv / --gantt destinations are checked before any work: exit 2 naming the flag and path
lesson_smoke(lesson_3_csv_directory RC 2 ARGS "3 --rows 2 --cols 64 --csv ${CMAKE_CURRENT_BINARY_DIR}"
             MATCH "--csv .*: is a directory")
lesson_smoke(lesson_4_csv_directory RC 2 ARGS "4 --n 16 --d 16 --sweep n=16,32 --csv ${CMAKE_CURRENT_BINARY_DIR}/"
             MATCH "--csv .*: is a directory")
lesson_smoke(lesson_5_gantt_directory RC 2 ARGS "5 --part streams --gantt ${CMAKE_CURRENT_BINARY_DIR}"
             MATCH "--gantt .*: is a directory")
lesson_smoke(lesson_5_gantt_no_parent RC 2 ARGS "5 --part streams --gantt /nonexistent-simtlab-dir/g.csv"
             MATCH "--gantt /nonexistent-simtlab-dir/g.csv: cannot write")
set_tests_properties(${SIMTLAB_HARDENING_SMOKE} PROPERTIES LABELS "lesson;hardening")
# (no test writes --csv onto a device file: as root, a build without the check renames
# its .tmp over the device node, e.g. replaces /dev/null with a regular file)
# the CLI fuzz: every flag of every lesson with bad values; exit 0/1/2 only, no run over 60 s,
# every exit 2 naming its flag (the table: build dir's tests/cli-fuzz.md; docs/cli-fuzz.md)
find_program(SIMTLAB_BASH bash)
find_program(SIMTLAB_TIMEOUT timeout)
if(SIMTLAB_BASH AND SIMTLAB_TIMEOUT)
  add_test(NAME lesson_cli_fuzz
           COMMAND ${SIMTLAB_BASH} ${SIMTLAB_LESSON_SCRIPTS}/cli_fuzz.sh $<TARGET_FILE:lesson>
                   ${CMAKE_CURRENT_BINARY_DIR}/cli-fuzz.md)
  set_tests_properties(lesson_cli_fuzz PROPERTIES TIMEOUT 1800 ENVIRONMENT "OMP_WAIT_POLICY=passive"
                       LABELS "lesson;hardening")
endif()
