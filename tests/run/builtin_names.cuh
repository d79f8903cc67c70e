// tests/run/builtin_names.cuh - a macro for __device__ in the program's own header: the functions
// it qualifies in builtin_names.cu are device code, which keeps the built-ins' names.
#define DEVICE __device__
