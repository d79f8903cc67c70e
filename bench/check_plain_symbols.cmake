# bench/check_plain_symbols.cmake: cmake -DNM=nm -DLIB=libbench_attention_plain.a -P this
# Fails when the uninstrumented twin defines an external symbol without the
# _plain suffix (it would collide with lesson_kernels_sim's at link time).
execute_process(COMMAND ${NM} --defined-only -g ${LIB} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REGEX MATCHALL "[0-9a-f]+ [A-Za-z] [A-Za-z_0-9.]+" syms "${out}")
set(bad)
foreach(s ${syms})
  string(REGEX REPLACE "^[0-9a-f]+ [A-Za-z] " "" name "${s}")
  if(NOT name MATCHES "_plain$")
    list(APPEND bad ${name})
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "bench_attention_plain: external symbols not renamed (add them to bench/attention_plain_names.h): ${bad}")
endif()
