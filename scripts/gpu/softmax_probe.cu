// scripts/gpu/softmax_probe.cu - why the H200 reads standard softmax's S from DRAM more often
// than the L2 model predicts (issue 15: attn_std_softmax at N = 8192 reads 992 MB on the chip,
// 736 MB in the model, of 1611 MB requested).
//
// attn_std_softmax reads each row three times (max, sum, write) and writes P: one block of 256
// threads a row, 8 blocks an SM. This probe runs the same kernel with one thing changed at a
// time: the passes over the row (1, 2, 3), whether the last pass writes (P, or S in place, or
// nothing), the row length, the rows, and the blocks an SM (capped by dynamic shared memory).
// Each variant is one launch on an L2 that ncu flushes first:
//   ncu --cache-control all --clock-control none --metrics dram__bytes_read.sum,... ./softmax_probe
// The same file runs on the simulator (`simtlab run scripts/gpu/softmax_probe.cu --arch h200
// --json out.json -- [variant...]`), whose dram.read_bytes per launch set beside the chip's say
// which change the model follows and which it does not.
// Arguments: variant numbers to run (default all). Prints "launch <i> variant <v> <name> <MB
// requested>" before each launch; <i> counts launches, ncu's "ID" column.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "ck.h"

// passes: reads of the row (1..3); write: 0 none, 1 P, 2 S in place (on the last pass)
__global__ void probe_softmax(float *P, float *S, int L, int passes, int write)
{
    __shared__ float partials[32];
    const size_t row = blockIdx.x;
    float *s = S + row * L;
    float *p = (write == 2 ? S : P) + row * L;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
    float mx = 0.0f, sum = 0.0f;
    for (int pass = 1; pass <= passes; pass++) {
        const int last = pass == passes;
        if (last && write) {
            const float inv = 1.0f / (sum + 1.0f);
            for (int j = threadIdx.x; j < L; j += blockDim.x)
                p[j] = expf(s[j] - mx) * inv;
            break;
        }
        float v = pass == 1 ? -INFINITY : 0.0f;
        for (int j = threadIdx.x; j < L; j += blockDim.x)
            v = pass == 1 ? fmaxf(v, s[j]) : v + expf(s[j] - mx);
        for (int off = 16; off > 0; off /= 2) {
            float w = __shfl_xor_sync(0xffffffffu, v, off);
            v = pass == 1 ? fmaxf(v, w) : v + w;
        }
        __syncthreads();
        if (lane == 0)
            partials[warp] = v;
        __syncthreads();
        v = lane < nwarps ? partials[lane] : (pass == 1 ? -INFINITY : 0.0f);
        for (int off = 16; off > 0; off /= 2) {
            float w = __shfl_xor_sync(0xffffffffu, v, off);
            v = pass == 1 ? fmaxf(v, w) : v + w;
        }
        if (pass == 1)
            mx = v;
        else
            sum = v;
    }
    if (sum == -1.0f && mx == -1.0f) // never: keeps the reads of a pass without a write
        P[0] = sum;
}

struct variant {
    const char *name;
    int passes, write, L, rows, per_sm; // per_sm 0: no cap (8 of 256 threads)
};
static const variant V[] = {
    {"softmax_like", 3, 1, 8192, 16384, 0}, // attn_std_softmax at N 8192, B*H 2
    {"read2", 2, 0, 8192, 16384, 0},
    {"read3", 3, 0, 8192, 16384, 0},
    {"read1_write", 1, 1, 8192, 16384, 0},
    {"read2_write", 2, 1, 8192, 16384, 0},
    {"softmax_like_sm4", 3, 1, 8192, 16384, 4},
    {"softmax_like_sm2", 3, 1, 8192, 16384, 2},
    {"softmax_like_sm1", 3, 1, 8192, 16384, 1},
    {"softmax_like_L2048", 3, 1, 2048, 65536, 0},
    {"softmax_like_L4096", 3, 1, 4096, 32768, 0},
    {"softmax_like_L16384", 3, 1, 16384, 8192, 0},
    {"read2_sm4", 2, 0, 8192, 16384, 4},
    {"read3_sm4", 3, 0, 8192, 16384, 4},
    {"softmax_like_half", 3, 1, 8192, 8192, 0}, // one head
    {"softmax_inplace", 3, 2, 8192, 16384, 0},
    {"read2_L16384", 2, 0, 16384, 8192, 0},
    {"read2_L4096", 2, 0, 4096, 32768, 0},
    {"read3_L4096", 3, 0, 4096, 32768, 0},
};
static const int NV = sizeof V / sizeof V[0];

int main(int argc, char **argv)
{
    int run[64], nrun = 0;
    for (int a = 1; a < argc; a++) {
        char *end;
        long v = strtol(argv[a], &end, 10);
        if (*end || v < 0 || v >= NV || nrun == 64) {
            fprintf(stderr, "softmax_probe: variant '%s' is not 0..%d (at most 64 of them)\n", argv[a], NV - 1);
            return 2;
        }
        run[nrun++] = (int)v;
    }
    if (!nrun)
        for (int v = 0; v < NV; v++)
            run[nrun++] = v;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device %s, L2 %d bytes, %d SMs, %zu bytes of shared memory an SM\n", p.name, p.l2CacheSize,
           p.multiProcessorCount, (size_t)p.sharedMemPerMultiprocessor);
    const size_t FL = (size_t)8192 * 16384; // every variant's rows * L
    float *S, *P;
    CK(cudaMalloc(&S, FL * 4));
    CK(cudaMalloc(&P, FL * 4));
    CK(cudaMemset(S, 0, FL * 4));
    CK(cudaMemset(P, 0, FL * 4));
    CK(cudaFuncSetAttribute(probe_softmax, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
    int launch = 0;
    for (int r = 0; r < nrun; r++) {
        const variant &v = V[run[r]];
        // k blocks an SM: each takes just over 1 / (k + 1) of the SM's shared memory (dynamic
        // shared memory the kernel never touches: it only caps the blocks an SM)
        size_t dyn = v.per_sm ? p.sharedMemPerMultiprocessor / (v.per_sm + 1) + 1024 : 0;
        const double mb = (v.passes + (v.write ? 1 : 0)) * (double)v.rows * v.L * 4 / 1e6; // requested
        printf("launch %d variant %d %s %.3f\n", launch++, run[r], v.name, mb);
        fflush(stdout);
        probe_softmax<<<v.rows, 256, dyn>>>(P, S, v.L, v.passes, v.write);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    printf("done %d launches\n", launch);
    return 0;
}
