# tests/scripts/simtlab_cli.cmake - the `simtlab` wrapper says what it did:
#   PART=unknown  `simtlab foo` says "unknown command 'foo'", then the help, exit 2;
#                 `simtlab help` prints the help, exit 0
#   PART=quiet    `simtlab lesson list` with nothing to rebuild prints only the
#                 lesson list (no build output); run twice, the first may rebuild
#                 or print the configuration once; with nothing changed since the
#                 last build no build step runs, with a source newer than the
#                 target's stamp the build runs
#   cmake -DSIMTLAB=<script> -DBUILD=<build dir> -DLESSON=<lesson> -DPART=unknown|quiet -P simtlab_cli.cmake
cmake_minimum_required(VERSION 3.20)
function(fail text)
  message("${text}")
  message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: test failed (the reason is above)")
endfunction()
if(NOT SIMTLAB OR NOT BUILD OR NOT PART)
  fail("simtlab_cli.cmake needs -DSIMTLAB, -DBUILD and -DPART")
endif()
set(ENV{SIMTLAB_BUILD} "${BUILD}")
if(PART STREQUAL "unknown")
  execute_process(COMMAND ${SIMTLAB} foo RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "2")
    fail("`simtlab foo` exited ${rc}, want 2. stdout:\n${out}\nstderr:\n${err}")
  endif()
  if(NOT err MATCHES "^simtlab: unknown command 'foo'\n.*simtlab lesson 4")
    fail("`simtlab foo` should say \"simtlab: unknown command 'foo'\" then the help, on stderr. stdout:\n${out}\nstderr:\n${err}")
  endif()
  execute_process(COMMAND ${SIMTLAB} help RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR NOT out MATCHES "simtlab lesson 4" OR NOT err STREQUAL "")
    fail("`simtlab help` exited ${rc}; want 0 and the help on stdout. stdout:\n${out}\nstderr:\n${err}")
  endif()
  message(STATUS "`simtlab foo`: unknown command, help, exit 2; `simtlab help`: exit 0")
elseif(PART STREQUAL "quiet")
  # the wrapper configures with CMAKE_BUILD_TYPE=Release: on a build dir of another
  # type it would rebuild everything, so that is not run here
  file(STRINGS "${BUILD}/CMakeCache.txt" type REGEX "^CMAKE_BUILD_TYPE:")
  if(NOT type MATCHES "=Release$")
    message(STATUS "SKIP (not run): ${BUILD} is not a Release build (${type}); `simtlab` would rebuild it")
    return()
  endif()
  execute_process(COMMAND ${LESSON} list RESULT_VARIABLE rc OUTPUT_VARIABLE want ERROR_VARIABLE err)
  execute_process(COMMAND ${SIMTLAB} lesson list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE first)
  if(NOT rc STREQUAL "0")
    fail("`simtlab lesson list` exited ${rc}:\n${first}")
  endif()
  execute_process(COMMAND ${SIMTLAB} lesson list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR NOT err STREQUAL "" OR NOT out STREQUAL want)
    string(LENGTH "${err}" n)
    fail("`simtlab lesson list` with nothing to rebuild should print the lesson list only (exit ${rc}, ${n} characters on stderr):\n${err}\nstdout:\n${out}")
  endif()
  # nothing changed since the last build of the lesson: no build step at all (build.log
  # is not written again); a source file newer than the target's stamp: the build runs
  # (the stamp is aged rather than a source touched, so no other build sees a change)
  set(stamp "${BUILD}/.built-lesson")
  if(NOT EXISTS "${stamp}")
    fail("`simtlab lesson list` built the lesson but left no stamp ${stamp}")
  endif()
  file(REMOVE "${BUILD}/build.log")
  execute_process(COMMAND ${SIMTLAB} lesson list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0" OR EXISTS "${BUILD}/build.log")
    fail("`simtlab lesson list` with nothing changed since the last build ran the build (exit ${rc}):\n${err}")
  endif()
  execute_process(COMMAND touch -d "2000-01-01 00:00:00" "${stamp}" RESULT_VARIABLE rc)
  execute_process(COMMAND ${SIMTLAB} lesson list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(TIMESTAMP "${stamp}" year "%Y")
  if(NOT rc STREQUAL "0" OR NOT EXISTS "${BUILD}/build.log" OR year STREQUAL "2000")
    fail("`simtlab lesson list` with sources newer than ${stamp} did not build (exit ${rc}; stamp year ${year}):\n${err}")
  endif()
  message(STATUS "`simtlab lesson list`: the list only (first run said: ${first}); no build step when nothing "
                 "changed, the build when a source is newer than the stamp")
else()
  fail("PART must be unknown or quiet, not ${PART}")
endif()
