/* scripts/gpu/bwd_tune.cu - times lesson 7's flash v2 backward kernel
 * (attn_bwd_v2_d64, dQ by atomics) alone at B=4, H=16, N=4096, d=64, fp32,
 * for scripts/gpu/bwd_tune.sh, which builds it once per variant of
 * backward.cu's tuning knobs (BWD_V2_*_UNROLL) and runs the builds in
 * interleaved rounds.
 *
 *   bwd_tune TAG REPS [SAMPLE_FILE]
 *
 * Inputs: Q, K, V, dO uniform in [-1, 1) (a fixed LCG), L = ln N + 0.2 (the
 * logsumexp of such rows is about that), D uniform in [-0.1, 0.1): timing
 * inputs, not a check (lesson 7 checks the kernel against the reference).
 * Each rep: dQ zeroed, the L2 flushed (a 256 MiB memset), then CUDA events
 * around the launch alone. Prints "TAG median_ms min_ms"; SAMPLE_FILE gets
 * every 257th float of dQ, dK and dV (the script compares variants by it).
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "kernel.h"
#include "backward.h"

static void ck(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "bwd_tune: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bwd_tune TAG REPS [SAMPLE_FILE]\n");
        return 2;
    }
    const char *tag = argv[1];
    const int reps = atoi(argv[2]);
    const int B = 4, H = 16, N = 4096, d = 64;
    const size_t nd = (size_t)B * H * N * d, rows = (size_t)B * H * N;
    unsigned state = 12345u;
    auto rnd = [&state]() {
        state = state * 1664525u + 1013904223u;
        return (float)((state >> 8) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    };
    std::vector<float> h(nd);
    float *in[4];
    for (int t = 0; t < 4; t++) {
        for (size_t i = 0; i < nd; i++)
            h[i] = rnd();
        ck(cudaMalloc(&in[t], nd * 4), "cudaMalloc");
        ck(cudaMemcpy(in[t], h.data(), nd * 4, cudaMemcpyHostToDevice), "copy");
    }
    std::vector<float> hl(rows), hd(rows);
    for (size_t i = 0; i < rows; i++) {
        hl[i] = logf((float)N) + 0.2f;
        hd[i] = 0.1f * rnd();
    }
    float *L, *D, *dq, *dk, *dv, *flush;
    const size_t flush_bytes = 256u << 20;
    ck(cudaMalloc(&L, rows * 4), "cudaMalloc");
    ck(cudaMalloc(&D, rows * 4), "cudaMalloc");
    ck(cudaMemcpy(L, hl.data(), rows * 4, cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(D, hd.data(), rows * 4, cudaMemcpyHostToDevice), "copy");
    ck(cudaMalloc(&dq, nd * 4), "cudaMalloc");
    ck(cudaMalloc(&dk, nd * 4), "cudaMalloc");
    ck(cudaMalloc(&dv, nd * 4), "cudaMalloc");
    ck(cudaMalloc(&flush, flush_bytes), "cudaMalloc");
    simt_cfg cfg = {};
    cfg.grid.x = (N + BWD_V2_BC - 1) / BWD_V2_BC;
    cfg.grid.y = B * H;
    cfg.grid.z = 1;
    cfg.block.x = BWD_V2_THREADS;
    cfg.block.y = cfg.block.z = 1;
    cfg.shared_bytes = bwd_v2_shared_bytes(d);
    const float scale = 1.0f / sqrtf((float)d);
    cudaEvent_t e0, e1;
    ck(cudaEventCreate(&e0), "event");
    ck(cudaEventCreate(&e1), "event");
    std::vector<float> ms;
    for (int r = -1; r < reps; r++) { /* r = -1: warm-up */
        ck(cudaMemsetAsync(dq, 0, nd * 4), "memset");
        ck(cudaMemsetAsync(flush, r & 0xff, flush_bytes), "flush");
        ck(cudaEventRecord(e0), "record");
        ck((cudaError_t)attn_bwd_v2_d64_launch_cuda(&cfg, dq, dk, dv, in[0], in[1], in[2], in[3], L, D, N, scale, 0, 1),
           "launch");
        ck(cudaEventRecord(e1), "record");
        ck(cudaEventSynchronize(e1), "sync");
        float t;
        ck(cudaEventElapsedTime(&t, e0, e1), "elapsed");
        if (r >= 0)
            ms.push_back(t);
    }
    std::vector<float> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    printf("%s %.4f %.4f\n", tag, sorted[sorted.size() / 2], sorted[0]);
    if (argc > 3) {
        FILE *f = fopen(argv[3], "wb");
        if (!f)
            return 1;
        for (float *p : {dq, dk, dv}) {
            ck(cudaMemcpy(h.data(), p, nd * 4, cudaMemcpyDeviceToHost), "copy back");
            for (size_t i = 0; i < nd; i += 257)
                fwrite(&h[i], 4, 1, f);
        }
        fclose(f);
    }
    return 0;
}
