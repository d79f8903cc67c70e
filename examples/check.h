// examples/check.h - the error check every CUDA course writes: wrap each
// runtime call, print where and why it failed, and stop.
#ifndef EXAMPLES_CHECK_H
#define EXAMPLES_CHECK_H
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t err_ = (call);                                                               \
        if (err_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,            \
                    cudaGetErrorString(err_), cudaGetErrorName(err_));                           \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)
#endif
