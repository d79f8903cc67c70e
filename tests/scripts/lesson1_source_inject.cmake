# tests/scripts/lesson1_source_inject.cmake - `lesson 1 --source PATH` must not run shell
# syntax held in PATH (issue 12). Copies a kernel file to a name holding $(touch MARKER),
# runs lesson 1 on it, and checks that MARKER was not made and that the run was refused
# with exit 2 and a message naming --source.
#   cmake -DLESSON=<path> -DSRC=<a .cu file> -DWORK=<scratch dir> -P lesson1_source_inject.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(marker "${WORK}/INJECTED")
set(evil "${WORK}/k'$(touch INJECTED)'.cu") # run in WORK: a shell would make WORK/INJECTED
file(COPY_FILE "${SRC}" "${evil}")
execute_process(COMMAND ${LESSON} 1 --source "${evil}" WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(EXISTS "${marker}")
  message(FATAL_ERROR "lesson 1 --source '${evil}' ran the shell command in the path (${marker} exists). Output:\n${out}")
endif()
if(NOT rc STREQUAL "2" OR NOT out MATCHES "--source")
  message(FATAL_ERROR "lesson 1 --source '${evil}': want exit 2 and a message naming --source; got ${rc}:\n${out}")
endif()
message(STATUS "lesson 1 refused the path (exit 2) and ran nothing from it")
