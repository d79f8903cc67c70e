// matmul.cu - C = A B for n x n matrices, twice: the naive kernel (each
// thread reads a row of A and a column of B from global memory) and the
// tiled one (a block stages TILE x TILE tiles of A and B in shared memory,
// so each global element is read n / TILE times instead of n times).
//   ./simtlab run examples/matmul.cu --detail [-- n]     (n a multiple of 16)
// Closed forms (examples/README.md): naive loads n^3 / 8 sectors, tiled
// n^3 / 64; both store n^2 / 8.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

__global__ void matmul_naive(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; k++)
            sum += A[row * n + k] * B[k * n + col];
        C[row * n + col] = sum;
    }
}

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
    if (n <= 0 || n % TILE) {
        fprintf(stderr, "usage: matmul [n, a positive multiple of %d]\n", TILE);
        return 2;
    }
    std::vector<float> A((size_t)n * n), B((size_t)n * n), C((size_t)n * n);
    for (size_t i = 0; i < A.size(); i++) {
        A[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
        B[i] = (float)((i * 5) % 11) / 11.0f - 0.5f;
    }
    std::vector<double> ref((size_t)n * n); // double-precision reference
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
    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);

    int failed = 0;
    for (int version = 0; version < 2; version++) {
        CHECK(cudaMemset(dC, 0, bytes));
        if (version == 0)
            matmul_naive<<<grid, block>>>(dA, dB, dC, n);
        else
            matmul_tiled<TILE><<<grid, block>>>(dA, dB, dC, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost));
        double worst = 0; // |error| / (1e-5 * (1 + |ref|)): within tolerance when <= 1
        for (size_t i = 0; i < C.size(); i++)
            worst = fmax(worst, fabs(C[i] - ref[i]) / (1e-5 * n * (1 + fabs(ref[i]))));
        printf("matmul %s: n = %d, %s (worst error %.3g of the tolerance)\n", version ? "tiled" : "naive", n,
               worst <= 1 ? "correct" : "WRONG", worst);
        failed |= worst > 1;
    }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    return failed;
}
