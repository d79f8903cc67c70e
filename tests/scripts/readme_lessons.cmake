# tests/scripts/readme_lessons.cmake - the README's lesson table must be the
# output of `lesson list --markdown` (the registry in lessons/main.c), so the
# two cannot drift. The table sits between the lines
#   <!-- lessons:begin -->
#   <!-- lessons:end -->
# of README.md; leading and trailing blank lines inside are ignored.
#   cmake -DLESSON=<path> -DREADME=<README.md> -P readme_lessons.cmake
cmake_minimum_required(VERSION 3.20)
# fail(<text>): prints text as it is (message(FATAL_ERROR) would rewrap it) and stops.
function(fail text)
  message("${text}")
  message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: test failed (the reason is above)")
endfunction()
set(begin "<!-- lessons:begin -->")
set(end "<!-- lessons:end -->")
execute_process(COMMAND ${LESSON} list --markdown RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc STREQUAL "0")
  fail("`lesson list --markdown` exited ${rc}: ${err}")
endif()
string(STRIP "${table}" table)
set(fix "To fix: run `lesson list --markdown` (build/lesson list --markdown) and paste its output into ${README} between a line\n  ${begin}\nand a line\n  ${end}\nThe table it prints now:\n${table}\n")
if(NOT EXISTS "${README}")
  fail("README drift check: ${README} does not exist.\n${fix}")
endif()
file(READ "${README}" text)
string(FIND "${text}" "${begin}" b)
string(FIND "${text}" "${end}" e)
if(b EQUAL -1 OR e EQUAL -1)
  fail("README drift check: ${README} lacks the markers (begin found: ${b}, end found: ${e}; -1 = missing).\n${fix}")
endif()
string(LENGTH "${begin}" blen)
math(EXPR from "${b} + ${blen}")
if(e LESS from)
  fail("README drift check: in ${README} the end marker comes before the begin marker.\n${fix}")
endif()
math(EXPR n "${e} - ${from}")
string(SUBSTRING "${text}" ${from} ${n} readme_table)
string(STRIP "${readme_table}" readme_table)
if(NOT readme_table STREQUAL table)
  fail("README drift check: the lesson table in ${README} differs from `lesson list --markdown`.\nREADME has:\n${readme_table}\n\n${fix}")
endif()
message(STATUS "README lesson table matches `lesson list --markdown`")
