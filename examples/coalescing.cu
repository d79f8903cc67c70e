// coalescing.cu - why the order of a warp's addresses matters even when the
// bytes are the same (the course's "memory coalescing"; olcf's row/column sums).
//   row_sums     a thread per row: at each step the 32 lanes of a warp read 32
//                different rows, 32 sectors a request (the L1 keeps them, so the
//                bytes from DRAM are the same as column_sums')
//   column_sums  a thread per column: the 32 lanes read 32 consecutive floats,
//                4 sectors a request
//   strided      out[i] = in[i * s] for s = 1, 2, 4, ... 32: 4, 8, 16, 32 sectors
//                a request, in 1 to 32 different 128-byte lines
//   scatter      out[i * s] = in[i]: the same pattern on the stores (a naive
//                transpose's): each 4-byte store a sector of its own from s = 8 on
// Each kernel is timed with CUDA events (on the simulator the events give the
// time model's prediction) and checked exactly against the CPU. GB/s: the n^2
// floats summed, or the m floats copied, over that time.
//   ./simtlab run examples/coalescing.cu --lines [-- n m]
//   n: the matrix is n x n (a multiple of 256, default 4096); m: strided's
//   elements (a multiple of 256, default 2^20)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

#define THREADS 256

__global__ void row_sums(const float *A, float *sums, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n) {
        float s = 0.0f;
        for (int c = 0; c < n; c++)
            s += A[(size_t)r * n + c];
        sums[r] = s;
    }
}

__global__ void column_sums(const float *A, float *sums, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < n) {
        float s = 0.0f;
        for (int r = 0; r < n; r++)
            s += A[(size_t)r * n + c];
        sums[c] = s;
    }
}

__global__ void strided(const float *in, float *out, int m, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        out[i] = in[(size_t)i * stride];
}

__global__ void scatter(const float *in, float *out, int m, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        out[(size_t)i * stride] = in[i];
}

// Milliseconds between two events recorded around a launch.
static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0.0f;
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 4096, m = argc > 2 ? atol(argv[2]) : 1L << 20;
    if (n <= 0 || n % THREADS || n > 32768 || m <= 0 || m % THREADS || m > (1L << 24)) {
        fprintf(stderr,
                "usage: coalescing [n [m]]: n (the matrix side) a multiple of %d up to 32768, m (strided's "
                "elements) a multiple of %d up to 2^24; got n = %ld, m = %ld\n",
                THREADS, THREADS, n, m);
        return 2;
    }
    // Small integers: every sum is exact in float, so the check is exact.
    std::vector<float> A((size_t)n * n);
    for (size_t i = 0; i < A.size(); i++)
        A[i] = (float)(i % 7);
    float *dA, *dsums, *din, *dout;
    const int smax = 32;
    CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
    CHECK(cudaMalloc(&dsums, n * sizeof(float)));
    CHECK(cudaMalloc(&din, (size_t)m * smax * sizeof(float)));
    CHECK(cudaMalloc(&dout, m * sizeof(float)));
    CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<float> in((size_t)m * smax);
    for (size_t i = 0; i < in.size(); i++)
        in[i] = (float)(i % 1000);
    CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
    cudaEvent_t t0, t1;
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    // A GPU loads a kernel's code at its first launch: one launch of each with no work first,
    // so the timed launches measure the kernels alone.
    row_sums<<<1, THREADS>>>(dA, dsums, 0);
    column_sums<<<1, THREADS>>>(dA, dsums, 0);
    strided<<<1, THREADS>>>(din, dout, 0, 1);
    scatter<<<1, THREADS>>>(dout, din, 0, 1);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int failed = 0;
    std::vector<float> sums(n);
    printf("%-12s %8s %10s %12s\n", "kernel", "", "ms", "GB/s moved");
    for (int v = 0; v < 2; v++) {
        CHECK(cudaMemset(dsums, 0, n * sizeof(float)));
        CHECK(cudaEventRecord(t0));
        if (v == 0)
            row_sums<<<n / THREADS, THREADS>>>(dA, dsums, (int)n);
        else
            column_sums<<<n / THREADS, THREADS>>>(dA, dsums, (int)n);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        float ms = elapsed(t0, t1);
        CHECK(cudaMemcpy(sums.data(), dsums, n * sizeof(float), cudaMemcpyDeviceToHost));
        long bad = 0;
        for (long i = 0; i < n; i++) {
            double want = 0.0;
            for (long j = 0; j < n; j++)
                want += A[v == 0 ? (size_t)i * n + j : (size_t)j * n + i];
            bad += (double)sums[i] != want;
        }
        printf("%-12s %8s %10.3f %12.1f  %s\n", v == 0 ? "row_sums" : "column_sums", "", ms,
               (double)n * n * sizeof(float) / (ms * 1e6), bad ? "WRONG" : "correct");
        failed |= bad != 0;
    }
    std::vector<float> out(m);
    for (int s = 1; s <= smax; s *= 2) {
        CHECK(cudaMemset(dout, 0, m * sizeof(float)));
        CHECK(cudaEventRecord(t0));
        strided<<<m / THREADS, THREADS>>>(din, dout, (int)m, s);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        float ms = elapsed(t0, t1);
        CHECK(cudaMemcpy(out.data(), dout, m * sizeof(float), cudaMemcpyDeviceToHost));
        long bad = 0;
        for (long i = 0; i < m; i++)
            bad += out[i] != in[(size_t)i * s];
        printf("%-12s s = %-4d %10.3f %12.1f  %s\n", "strided", s, ms, (double)m * sizeof(float) / (ms * 1e6),
               bad ? "WRONG" : "correct");
        failed |= bad != 0;
    }
    // scatter: out is din (m * 32 floats), in is dout (strided's last output, in[i * 32]);
    // each pass writes its words over in's values, which the check reads back
    std::vector<float> big((size_t)m * smax), src(m);
    CHECK(cudaMemcpy(src.data(), dout, m * sizeof(float), cudaMemcpyDeviceToHost));
    for (int s = 1; s <= smax; s *= 2) {
        CHECK(cudaMemset(din, 0, (size_t)m * smax * sizeof(float)));
        CHECK(cudaEventRecord(t0));
        scatter<<<m / THREADS, THREADS>>>(dout, din, (int)m, s);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(t1));
        float ms = elapsed(t0, t1);
        CHECK(cudaMemcpy(big.data(), din, big.size() * sizeof(float), cudaMemcpyDeviceToHost));
        long bad = 0;
        for (size_t j = 0; j < big.size(); j++)
            bad += big[j] != (j % s == 0 && j / s < (size_t)m ? src[j / s] : 0.0f);
        printf("%-12s s = %-4d %10.3f %12.1f  %s\n", "scatter", s, ms, (double)m * sizeof(float) / (ms * 1e6),
               bad ? "WRONG" : "correct");
        failed |= bad != 0;
    }
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dsums));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    return failed;
}
