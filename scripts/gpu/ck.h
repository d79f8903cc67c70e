// scripts/gpu/ck.h - CK(call): a CUDA runtime call that must succeed, for the
// standalone probes in scripts/gpu/ (l2_probe.cu, ceilings.cu); on failure it
// prints the call, the file, the line and CUDA's message, and exits 1.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)
