// scripts/gpu/wlines_probe.cu - does the L2 keep lines a kernel writes as long as lines it only
// reads? (issue 15, session 21: on the H100, flash v1's full grid lost O, which it reads and
// rewrites at every key tile, three times as often as Q, which it only reads; the model's LRU
// loses Q first, since O is written after Q and so is younger: docs/l2-model.md "A second card".)
//
// Two buffers A and B of S bytes each, T = 2 S a fraction f of the card's L2. After a flush
// (a read of 256 MB of another buffer, which leaves L2 full of clean lines), three launches of
// one pass each go over both, element by element as flash v1 goes over Q and O:
//   rmw: a = A[i]; b = B[i]; B[i] = b + a   (A read, B read and rewritten)
//   ro:  a = A[i]; b = B[i]; sink           (both only read: the control)
// then one launch reads A alone, or (after another flush and three passes) B alone: its DRAM
// reads are what of that buffer L2 no longer held. Under LRU, rmw keeps B (touched last) and
// loses A first; ro loses them alike.
// Run under Nsight Compute with the caches left alone (the launches must see each other's L2):
//   ncu --cache-control none --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum ./wlines_probe
// and on the simulator (`SIMTLAB_L2_COLD=0 simtlab run scripts/gpu/wlines_probe.cu --arch <preset>
// --json PATH`). Every launch is one row; the program prints "launch <i> <what> <f> <MB>".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "ck.h"
#include "probe_rd.cuh"

__global__ void rmw(const float *a, float *b, size_t count)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        b[i] = b[i] + a[i];
}
__global__ void ro(const float *a, const float *b, size_t count, float *sink)
{
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        acc += a[i] * b[i];
    if (acc == -12345.f)
        sink[0] = acc;
}

static int launch_no;
static void note(const char *what, double f, double mb)
{
    printf("launch %d %s %.2f %.3f\n", launch_no++, what, f, mb);
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device %s, L2 %d bytes, %d SMs\n", p.name, p.l2CacheSize, p.multiProcessorCount);
    const size_t EV = (256u << 20) / 4;
    const double fr[] = {0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2};
    const size_t MAXS = (size_t)(1.2 * p.l2CacheSize / 2) / 4 + 1024;
    float *ev, *A, *B, *sink;
    CK(cudaMalloc(&ev, EV * 4));
    CK(cudaMalloc(&A, MAXS * 4));
    CK(cudaMalloc(&B, MAXS * 4));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(ev, 0, EV * 4));
    CK(cudaMemset(A, 0, MAXS * 4));
    CK(cudaMemset(B, 0, MAXS * 4));
    const int grid = p.multiProcessorCount * 8, block = 256;
    for (double f : fr) {
        const size_t n = (size_t)(f * p.l2CacheSize / 2) / 4 / 1024 * 1024; /* floats a buffer */
        const double mb = n * 4 / 1e6;
        for (int kind = 0; kind < 2; kind++) {
            const char *k = kind ? "ro" : "rmw";
            for (int which = 0; which < 2; which++) {
                rd<<<grid, block>>>(ev, EV, sink);
                note("flush", f, EV * 4 / 1e6);
                for (int pass = 0; pass < 3; pass++) {
                    if (kind == 0)
                        rmw<<<grid, block>>>(A, B, n);
                    else
                        ro<<<grid, block>>>(A, B, n, sink);
                    note(k, f, 2 * mb);
                }
                rd<<<grid, block>>>(which ? B : A, n, sink);
                note(which ? (kind ? "ro-then-B" : "rmw-then-B") : (kind ? "ro-then-A" : "rmw-then-A"), f, mb);
            }
        }
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaFree(ev));
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(sink));
    return 0;
}
