// scripts/gpu/ceilings.cu - the H200's ceilings for the simulator's time model
// (issue 15): what a kernel can move or compute per second at best, measured
// with CUDA events (median of 20 runs after 3 warm-ups), each on data sized
// for the level it measures:
//   dram_copy     a 2 GiB copy, bytes read + written per second (float4)
//   dram_read     a 2 GiB read (float4; the sum is stored only if impossible)
//   l2_read       a 16 MiB buffer read 64 times by the grid (stays in L2)
//   smem          shared-memory loads and stores, float4, no bank conflicts
//   fp32_fma      FMAs, 8 independent chains a thread (2 FLOPs each)
//   launch        an empty kernel's time (what every launch costs at least)
// Prints one line per ceiling: "ceiling <name> <value> <unit>".
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "ck.h"


__global__ void copy4(float4 *__restrict__ y, const float4 *__restrict__ x, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        y[i] = x[i];
}
__global__ void read4(const float4 *__restrict__ x, size_t n, int reps, float *sink)
{
    float acc = 0;
    for (int r = 0; r < reps; r++)
        for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
            float4 v = x[i];
            acc += v.x + v.y + v.z + v.w;
        }
    if (acc == -1.2345f)
        sink[0] = acc;
}
__global__ void smem4(float *sink, int iters)
{
    __shared__ float4 s[1024];
    const int t = threadIdx.x;
    s[t] = make_float4(t, t, t, t);
    __syncthreads();
    float4 a = make_float4(0, 0, 0, 0);
    for (int k = 0; k < iters; k++) {
        float4 v = s[(t + k) & 1023];
        a.x += v.x, a.y += v.y, a.z += v.z, a.w += v.w;
        s[(t + k + 512) & 1023] = a;
    }
    if (a.x == -1.2345f)
        sink[0] = a.y;
}
__global__ void fma8(float *sink, int iters)
{
    float a[8];
    for (int j = 0; j < 8; j++)
        a[j] = threadIdx.x * 0.001f + j;
    for (int k = 0; k < iters; k++)
#pragma unroll
        for (int j = 0; j < 8; j++)
            a[j] = fmaf(a[j], 0.9999f, 0.0001f);
    float s = 0;
    for (int j = 0; j < 8; j++)
        s += a[j];
    if (s == -1.2345f)
        sink[0] = s;
}
__global__ void empty(void) {}

template <class F> static double median_ms(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++)
        launch();
    std::vector<float> t;
    for (int i = 0; i < 20; i++) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(void)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    const int sms = p.multiProcessorCount, grid = sms * 16;
    const size_t big = (size_t)2 << 30, n4 = big / 16;
    float4 *x, *y;
    float *sink;
    CK(cudaMalloc(&x, big));
    CK(cudaMalloc(&y, big));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMemset(x, 0, big));
    CK(cudaMemset(y, 0, big));
    printf("device %s sms %d\n", p.name, sms);
    double ms = median_ms([&] { copy4<<<grid, 256>>>(y, x, n4); });
    printf("ceiling dram_copy %.4g B/s\n", 2.0 * big / (ms * 1e-3));
    ms = median_ms([&] { read4<<<grid, 256>>>(x, n4, 1, sink); });
    printf("ceiling dram_read %.4g B/s\n", (double)big / (ms * 1e-3));
    const size_t l2n = ((size_t)16 << 20) / 16;
    ms = median_ms([&] { read4<<<grid, 256>>>(x, l2n, 64, sink); });
    printf("ceiling l2_read %.4g B/s\n", 64.0 * l2n * 16 / (ms * 1e-3));
    const int iters = 4096;
    ms = median_ms([&] { smem4<<<sms * 8, 1024>>>(sink, iters); });
    printf("ceiling smem %.4g B/s\n", (double)sms * 8 * 1024 * iters * 32 / (ms * 1e-3)); // 16 B load + 16 B store
    ms = median_ms([&] { fma8<<<sms * 8, 256>>>(sink, iters * 4); });
    printf("ceiling fp32 %.4g FLOP/s\n", (double)sms * 8 * 256 * iters * 4 * 8 * 2 / (ms * 1e-3));
    ms = median_ms([&] { empty<<<1, 32>>>(); });
    printf("ceiling launch %.4g s\n", ms * 1e-3);
    return 0;
}
