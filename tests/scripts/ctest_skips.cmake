# tests/scripts/ctest_skips.cmake - the GPU tests must not read "Passed" in
# ctest's summary on a machine where they could not run. Runs ctest itself on
# the tests named in TESTS (from a scratch directory WORK whose
# CTestTestfile.cmake points at the real one, so the outer run's logs are not
# touched) and checks, when `lesson 2 --mode cuda` finds no GPU, that each is
# reported "Skipped" and that its output says why (a line with "SKIP ...: <reason>",
# or the lesson's own "no CUDA device" / "no CUDA backend" message).
# With a GPU there is nothing to check: it says so and is itself skipped.
#   cmake -DLESSON=<lesson> -DTESTDIR=<build>/tests -DWORK=<dir> -DTESTS=parity,lesson_2_mode_cuda -P ctest_skips.cmake
cmake_minimum_required(VERSION 3.20)
function(fail text)
  message("${text}")
  message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: test failed (the reason is above)")
endfunction()
if(NOT LESSON OR NOT TESTDIR OR NOT WORK OR NOT TESTS)
  fail("ctest_skips.cmake needs -DLESSON, -DTESTDIR, -DWORK and -DTESTS")
endif()
execute_process(COMMAND ${LESSON} 2 --mode cuda RESULT_VARIABLE grc OUTPUT_QUIET ERROR_QUIET)
if(grc STREQUAL "0")
  message(STATUS "SKIP (not run): a GPU is present, so ${TESTS} run on it; nothing to check here")
  return()
endif()
string(REPLACE "," ";" TESTS "${TESTS}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/CTestTestfile.cmake" "subdirs(\"${TESTDIR}\")\n")
string(REPLACE ";" "|" alt "${TESTS}")
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${WORK} -V -R "^(${alt})$"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
foreach(t ${TESTS})
  string(REGEX MATCH "Test +#([0-9]+): ${t} [.]+[ *]*([A-Za-z][^\n]*[a-z)])" line "${out}")
  if(line STREQUAL "")
    fail("ctest printed no result line for ${t}:\n${out}${err}")
  endif()
  set(num ${CMAKE_MATCH_1})
  set(verdict "${CMAKE_MATCH_2}")
  if(NOT verdict MATCHES "^Skipped")
    fail("without a GPU, ctest reports ${t} as \"${verdict}\", not \"Skipped\": it ran nothing on a GPU. ctest said:\n${out}${err}")
  endif()
  string(REGEX MATCH "\n${num}: [^\n]*(SKIP[^\n]*: |no CUDA device|no CUDA backend)[^\n]+" why "${out}")
  if(why STREQUAL "")
    fail("ctest reports ${t} as skipped, but its output has no line saying why (SKIP ...: <reason>, no CUDA device):\n${out}")
  endif()
  string(STRIP "${why}" why)
  message(STATUS "${t}: Skipped, ${why}")
endforeach()
