// tests/run/no_globals.cu - a file that defines no global symbol (only a static
// __device__ function, as a .cu that other files #include): the two-pass build
// must still hold (objcopy fails on an empty list of symbols to weaken; session 17).
static __device__ float no_globals_twice(float x) { return 2.0f * x; }
