// scripts/gpu/l2req_probe.cu - what an L2 request costs, by kind (session 30; docs/NOTES.md).
// The naive transpose's uncoalesced stores take 310 us on the H100 at n = 4096 (the L2 80 %
// busy) while the L2's sectors at its read bandwidth would take 28 us: an L2 request of one
// partial sector costs far more than a quarter of a 4-sector one. Each kernel here moves a
// 16 MB buffer that stays in L2 (the L1 bypassed: __ldcg), with one pattern per kernel:
//   rd_coal   a warp reads 128 consecutive bytes: 1 line, 4 sectors a request
//   rd_sect4  lanes 8q..8q+7 read one whole sector of line q: 4 lines, 4 sectors
//   rd_line1  each lane reads a word of its own line: 32 lines, 32 sectors
//   wr_coal, wr_sect4, wr_line1   the same patterns stored (wr_line1: 32 partial sectors,
//             the naive transpose's)
//   wr_sect4p as wr_sect4, but only half of each sector written (lanes 8q+j write word j & 3)
// Each is timed with events on a warm L2 (median of 21 launches after 3); run under Nsight
// Compute with --cache-control none for the L2's requests and sectors (`./l2req 2 1`).
//   nvcc -O2 -arch=sm_90 -o l2req scripts/gpu/l2req_probe.cu && ./l2req
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define N (4u << 20) // floats: 16 MB
#define THREADS 256
#define BLOCKS 2048
#define CK(x)                                                                                                  \
    do {                                                                                                       \
        cudaError_t e_ = (x);                                                                                  \
        if (e_ != cudaSuccess) {                                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));                        \
            exit(1);                                                                                           \
        }                                                                                                      \
    } while (0)

// element of step k for pattern p (0 coal, 1 sect4, 2 line1, 3 sect4 half)
__device__ __forceinline__ unsigned elem(int p, unsigned w, unsigned lane, unsigned k, unsigned steps)
{
    const unsigned r = w * steps + k; // the warp's r-th request
    if (p == 0)
        return (r * 32 + lane) % N;
    if (p == 2)
        return ((r * 32 + lane) * 32 + (w & 7)) % N;
    const unsigned q = lane >> 3, j = p == 3 ? lane & 3 : lane & 7;
    return ((r * 4 + q) * 32 + (w & 3) * 8 + j) % N;
}

__global__ void rd(const float *a, float *out, int p, unsigned steps)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x, w = g >> 5, lane = g & 31;
    float s = 0.0f;
    for (unsigned k = 0; k < steps; k++)
        s += __ldcg(a + elem(p, w, lane, k, steps));
    if (s == -1.2345f) // never: keeps the loads
        out[g] = s;
}

__global__ void wr(float *a, int p, unsigned steps)
{
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x, w = g >> 5, lane = g & 31;
    for (unsigned k = 0; k < steps; k++)
        a[elem(p, w, lane, k, steps)] = (float)k;
}

int main(int argc, char **argv)
{
    // reps, skip: launches of each kernel and how many of them warm up (under Nsight Compute: 2 1)
    const int reps = argc > 1 ? atoi(argv[1]) : 24, skip = argc > 2 ? atoi(argv[2]) : 3;
    if (reps < 1 || skip < 0 || skip >= reps) {
        fprintf(stderr, "usage: l2req [reps > skip] [skip >= 0]\n");
        return 2;
    }
    float *a, *out;
    CK(cudaMalloc(&a, N * sizeof(float)));
    CK(cudaMalloc(&out, (size_t)BLOCKS * THREADS * sizeof(float)));
    CK(cudaMemset(a, 0, N * sizeof(float)));
    struct {
        const char *name;
        int write, p;
        unsigned steps, lines, sectors; // steps a thread; L2 lines and sectors a warp request
    } ks[] = {{"rd_coal", 0, 0, 256, 1, 4},  {"rd_sect4", 0, 1, 64, 4, 4},  {"rd_line1", 0, 2, 16, 32, 32},
              {"wr_coal", 1, 0, 256, 1, 4},  {"wr_sect4", 1, 1, 64, 4, 4},  {"wr_line1", 1, 2, 16, 32, 32},
              {"wr_sect4p", 1, 3, 64, 4, 4}};
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("%-10s %10s %12s %12s %10s %10s\n", "kernel", "us", "L2 requests", "L2 sectors", "ps/req", "ps/sector");
    for (const auto &k : ks) {
        std::vector<float> t;
        for (int i = 0; i < reps; i++) {
            CK(cudaEventRecord(e0));
            if (k.write)
                wr<<<BLOCKS, THREADS>>>(a, k.p, k.steps);
            else
                rd<<<BLOCKS, THREADS>>>(a, out, k.p, k.steps);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float ms;
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (i >= skip)
                t.push_back(ms);
        }
        CK(cudaGetLastError());
        std::sort(t.begin(), t.end());
        const double us = 1e3 * t[t.size() / 2];
        const double reqs = (double)BLOCKS * THREADS / 32 * k.steps * k.lines;
        const double secs = (double)BLOCKS * THREADS / 32 * k.steps * k.sectors;
        printf("%-10s %10.2f %12.0f %12.0f %10.2f %10.2f\n", k.name, us, reqs, secs, 1e6 * us / reqs,
               1e6 * us / secs);
    }
    CK(cudaFree(a));
    CK(cudaFree(out));
    return 0;
}
