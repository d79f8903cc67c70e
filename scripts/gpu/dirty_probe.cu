// scripts/gpu/dirty_probe.cu - how much of a pure write stream the H200's L2 keeps dirty,
// by write pattern (issue 15: the model's cap of dirty lines a set, sim/l2.c dirty_cap).
//
// flash v1's init kernel (linear writes) leaves 29.3-29.4 MB dirty, standard attention's
// scores kernel (64 x 64 tiles, a row stride of N floats) 26.0-26.6 MB. This probe writes
// the same bytes both ways, from an L2 filled with clean lines of another buffer, so the
// difference (if any) is the pattern's. Run under Nsight Compute with the caches left alone:
//   ncu --cache-control none --clock-control none --metrics dram__bytes_write.sum,... ./dirty_probe
// Every launch is one row of ncu's output; the program prints "launch <i> <what> <MB>".
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "ck.h"
#include "probe_rd.cuh"

// linear: a grid-stride loop over count floats (flash v1's init kernel's pattern)
__global__ void wr_linear(float *p, size_t count, float v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v;
}
// tiles: grid (N/64, N/64, BH), block (16, 16), each thread 4 x 4 values at rows ty + 16 r,
// columns tx + 16 c of its block's 64 x 64 tile of an N x N matrix (attn_std_scores' stores)
__global__ void wr_tiles(float *S, int N, float v)
{
    const int i0 = blockIdx.y * 64, j0 = blockIdx.x * 64;
    float *s = S + (size_t)blockIdx.z * N * N;
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            s[(size_t)(i0 + threadIdx.y + 16 * r) * N + j0 + threadIdx.x + 16 * c] = v;
}

static int launch_no;
static void note(const char *what, double mb) { printf("launch %d %s %.3f\n", launch_no++, what, mb); }

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("device %s, L2 %d bytes, %d SMs\n", p.name, p.l2CacheSize, p.multiProcessorCount);
    const size_t EV = (256u << 20) / 4, MAXF = (size_t)16 * 1024 * 1024 * 4; /* 256 MB of floats */
    float *ev, *big, *sink;
    CK(cudaMalloc(&ev, EV * 4));
    CK(cudaMalloc(&big, MAXF * 4));
    CK(cudaMalloc(&sink, 4));
    CK(cudaMemset(ev, 0, EV * 4));
    const int grid = p.multiProcessorCount * 8;
    struct { int bh, n; } cases[] = {{2, 2048}, {4, 2048}, {1, 4096}, {16, 1024}, {64, 512}, {1, 2880}, {8, 2048}};
    for (auto c : cases) {
        const size_t floats = (size_t)c.bh * c.n * c.n;
        const double mb = floats * 4 / 1e6;
        for (int pattern = 0; pattern < 2; pattern++) {
            rd<<<grid, 256>>>(ev, EV, sink); /* fill L2 with clean lines; writes back what the last left */
            CK(cudaGetLastError());
            note("evict", 268.435);
            char what[64];
            if (pattern == 0) {
                wr_linear<<<grid, 256>>>(big, floats, 1.0f);
                snprintf(what, sizeof what, "linear_bh%d_n%d", c.bh, c.n);
            } else {
                wr_tiles<<<dim3((c.n + 63) / 64, (c.n + 63) / 64, c.bh), dim3(16, 16)>>>(big, c.n, 1.0f);
                snprintf(what, sizeof what, "tiles_bh%d_n%d", c.bh, c.n);
            }
            CK(cudaGetLastError());
            note(what, mb);
        }
    }
    CK(cudaDeviceSynchronize());
    printf("done %d launches\n", launch_no);
    return 0;
}
