# tests/scripts/lesson_cuda_mode.cmake - `lesson <ARGS> --mode cuda` either
# runs on a GPU (exit 0, verdict PASS) or refuses with the reason (exit 2):
# a build without the CUDA backend must say "no CUDA backend"; a CUDA build
# on a machine without a usable GPU must say why (CUDA, GPU, driver or
# device named in the message). Exit 1, a crash, or a silent refusal fail.
# A refusal with its reason has tested nothing on a GPU: the script prints
#   -- SKIP (not run): `lesson ...` (build: ...): <reason>
# and the test's SKIP_REGULAR_EXPRESSION "SKIP \\(not run\\): " (tests/output.cmake)
# makes ctest report it as skipped, with that line in its output.
#   cmake -DLESSON=<path> -DHAVE_CUDA=ON|OFF "-DARGS=2" -P lesson_cuda_mode.cmake
cmake_minimum_required(VERSION 3.20)
# fail(<text>): prints text as it is (message(FATAL_ERROR) would rewrap it) and stops.
function(fail text)
  message("${text}")
  message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: test failed (the reason is above)")
endfunction()
if(NOT LESSON)
  fail("lesson_cuda_mode.cmake needs -DLESSON=<path>")
endif()
separate_arguments(argv UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${LESSON} ${argv} --mode cuda RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(what "`lesson ${ARGS} --mode cuda` (build: CUDA backend ${HAVE_CUDA})")
if(rc STREQUAL "0")
  if(NOT HAVE_CUDA)
    fail("${what} exited 0 although this build has no CUDA backend. Output:\n${out}${err}")
  endif()
  if(NOT out MATCHES "\nPASS\n$")
    fail("${what} exited 0 but did not end with the verdict PASS. Output:\n${out}${err}")
  endif()
  message(STATUS "${what}: ran on the GPU and passed")
elseif(rc STREQUAL "2")
  string(STRIP "${err}" reason)
  if(reason STREQUAL "")
    fail("${what} exited 2 without saying why on stderr. stdout:\n${out}")
  endif()
  if(NOT HAVE_CUDA AND NOT err MATCHES "no CUDA backend")
    fail("${what} exited 2 but its message does not say \"no CUDA backend\":\n${err}")
  endif()
  if(NOT err MATCHES "CUDA|GPU|[Dd]river|[Dd]evice")
    fail("${what} exited 2 but its message names no reason (CUDA, GPU, driver, device):\n${err}")
  endif()
  message(STATUS "SKIP (not run): ${what}: refused, as it must without a GPU: ${reason}")
else()
  fail("${what} exited ${rc}; want 0 (GPU present, check passed) or 2 (no CUDA, with the reason). Output:\n${out}${err}")
endif()
