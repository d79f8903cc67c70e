// scripts/gpu/idle_probe.cu - what the H200 reads from DRAM while a kernel touches no memory
// (issue 15: flash v1 at N = 512 reads 0.17-0.28 MB more than its loads miss in L2, varying run
// to run; is that traffic the kernel's, or the chip's whatever runs?).
//
// Each launch spins on the global timer for a given time and loads or stores nothing (the one
// store is never taken). Usage: idle_probe REPS BLOCKS:MS [BLOCKS:MS ...]; every launch is one
// row of Nsight Compute's output and the program prints "launch <i> blocks <b> ms <ms>".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "ck.h"

__device__ unsigned long long now_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void spin(unsigned long long ns, int *sink)
{
    const unsigned long long t0 = now_ns();
    unsigned long long t;
    do
        t = now_ns();
    while (t - t0 < ns);
    if (t == 0)
        sink[threadIdx.x] = 1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s REPS BLOCKS:MS [BLOCKS:MS ...]\n", argv[0]);
        return 2;
    }
    const int reps = atoi(argv[1]);
    int *sink;
    CK(cudaMalloc(&sink, 1024 * sizeof(int)));
    int launch = 0;
    for (int a = 2; a < argc; a++) {
        int blocks = 0;
        double ms = 0;
        if (sscanf(argv[a], "%d:%lf", &blocks, &ms) != 2 || blocks < 1 || ms <= 0) {
            fprintf(stderr, "idle_probe: '%s' is not BLOCKS:MS (e.g. 1:10)\n", argv[a]);
            return 2;
        }
        for (int r = 0; r < reps; r++) {
            spin<<<blocks, 32>>>((unsigned long long)(ms * 1e6), sink);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            printf("launch %d blocks %d ms %g\n", launch++, blocks, ms);
        }
    }
    CK(cudaFree(sink));
    return 0;
}
