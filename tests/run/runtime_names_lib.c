/* tests/run/runtime_names_lib.c - a library's function for tests/run/runtime_names.cu: the test builds
 * it into libsimtlabtest.a and links it with -L and -l, as nvcc takes them */
int simtlab_test_lib_answer(void) { return 42; }
