// cublas_gemm.cu - C = A B for n x n row-major matrices, twice: the course's tiled kernel (TILE x
// TILE tiles of A and B in shared memory, each global element read n / TILE times) and cuBLAS's
// cublasSgemm. cuBLAS is column-major: a row-major matrix is its transpose to it, so C = A B is
// asked for as C^T = B^T A^T, passing B first (no copy, no transpose).
//   nvcc -o cublas_gemm cublas_gemm.cu -lcublas && ./cublas_gemm [n]
//   ./simtlab run examples/cublas_gemm.cu --detail [-- n]     (n a multiple of 64)
// On the simulator, cublasSgemm is one launch of simtlab's own textbook GEMM (64 x 64 tiles of
// C, k in steps of 16, 4 x 4 results a thread): A and B are read n / 64 times, a quarter of the
// tiled kernel's traffic, and each shared load feeds 2 multiply-adds where the tiled kernel's
// feeds 1/2 (docs/run.md, "cuBLAS"). On a GPU, cublasSgemm is NVIDIA's kernel: compare both.
// Closed forms (examples/README.md): tiled n^3 / 64 load sectors, cublasSgemm n^3 / 256; both
// store n^2 / 8.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>

#include "check.h"

#define CHECK_CUBLAS(call)                                                                       \
    do {                                                                                         \
        cublasStatus_t st_ = (call);                                                             \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                      \
            fprintf(stderr, "%s:%d: %s failed: status %d\n", __FILE__, __LINE__, #call, (int)st_); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

template <int TILE>
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}

int main(int argc, char **argv)
{
    const int TILE = 16;
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n <= 0 || n % 64) {
        fprintf(stderr, "usage: cublas_gemm [n, a positive multiple of 64]\n");
        return 2;
    }
    std::vector<float> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n);
    for (size_t i = 0; i < A.size(); i++) {
        A[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
        B[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    }
    std::vector<double> ref((size_t)n * n); // double-precision reference, row-major
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                ref[(size_t)i * n + j] += (double)A[(size_t)i * n + k] * B[(size_t)k * n + j];

    size_t bytes = (size_t)n * n * sizeof(float);
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, bytes));
    CHECK(cudaMalloc(&dB, bytes));
    CHECK(cudaMalloc(&dC, bytes));
    CHECK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));

    int failed = 0;
    for (int version = 0; version < 2; version++) {
        CHECK(cudaMemset(dC, 0, bytes));
        if (version == 0) {
            matmul_tiled<TILE><<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(dA, dB, dC, n);
            CHECK(cudaGetLastError());
        } else {
            const float one = 1.0f, zero = 0.0f;
            // column-major C^T (n x n, leading dimension n) = B^T A^T: B's and A's row-major
            // storage is B^T's and A^T's column-major storage
            CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dB, n, dA, n, &zero, dC, n));
        }
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost));
        double worst = 0; // |error| / (1e-5 * n * (1 + |ref|)): within tolerance when <= 1
        for (size_t i = 0; i < C.size(); i++)
            worst = fmax(worst, fabs(C[i] - ref[i]) / (1e-5 * n * (1 + fabs(ref[i]))));
        printf("%s: n = %d, %s (worst error %.3g of the tolerance)\n", version ? "cublasSgemm" : "matmul tiled", n,
               worst <= 1 ? "correct" : "WRONG", worst);
        failed |= worst > 1;
    }
    CHECK_CUBLAS(cublasDestroy(handle));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    return failed;
}
