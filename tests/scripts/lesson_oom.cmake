# tests/scripts/lesson_oom.cmake - a host allocation that fails under a memory limit is
# reported with what failed and how many bytes (issue 12: it printed "lesson 2 (sim): ").
#   cmake -DLESSON=<path> -DLIMIT_KB=<ulimit -v> "-DARGS=2 --n 268435456" "-DMATCH=regex" -P lesson_oom.cmake
# Needs sh with ulimit; not for sanitizer builds (ASan reserves terabytes of address space).
cmake_minimum_required(VERSION 3.20)
separate_arguments(argv UNIX_COMMAND "${ARGS}")
execute_process(COMMAND sh -c "ulimit -v ${LIMIT_KB} && exec \"$0\" \"$@\"" ${LESSON} ${argv}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc STREQUAL "1" OR NOT out MATCHES "${MATCH}")
  message(FATAL_ERROR "lesson ${ARGS} under ulimit -v ${LIMIT_KB}: want exit 1 and /${MATCH}/; got ${rc}:\n${out}")
endif()
message(STATUS "lesson ${ARGS} under ulimit -v ${LIMIT_KB}: exit 1, the allocation named with its size")
