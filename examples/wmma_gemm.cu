// wmma_gemm.cu - C = A B on the tensor cores (nvcuda::wmma: half inputs, float accumulators), n x n
// row-major matrices, twice:
//   wmma_direct  one warp a 16 x 16 tile of C; each k step loads its 16 x 16 tiles of A and B
//                straight from global memory into fragments (each element of A and B is read
//                n / 16 times, as the SIMT tiled matmul with TILE 16 reads it)
//   wmma_shared  a block of 4 warps a 32 x 32 tile of C; each k step the block copies its 32 x 16
//                tile of A and 16 x 32 tile of B to shared memory once, and the warps load their
//                fragments from there (each element read n / 32 times: half the global traffic)
//   ./simtlab run examples/wmma_gemm.cu --detail [-- n]     (n a multiple of 32)
// Closed forms: examples/README.md.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_fp16.h>
#include <mma.h>

#include "check.h"

using namespace nvcuda;

__global__ void wmma_direct(const half *A, const half *B, float *C, int n)
{
    const int warp = threadIdx.x / 32;                 // 4 warps: a 2 x 2 square of 16 x 16 tiles
    const int row = blockIdx.y * 32 + (warp / 2) * 16; // the warp's tile of C
    const int col = blockIdx.x * 32 + (warp % 2) * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += 16) {
        wmma::load_matrix_sync(a, A + (size_t)row * n + k, n);
        wmma::load_matrix_sync(b, B + (size_t)k * n + col, n);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row * n + col, acc, n, wmma::mem_row_major);
}

__global__ void wmma_shared(const half *A, const half *B, float *C, int n)
{
    __shared__ __align__(32) half As[32][16 + 8]; // rows padded to 48 bytes: a multiple of 16, as ldm
    __shared__ __align__(32) half Bs[16][32 + 8]; // must be, that spreads the rows over the banks
    const int t = threadIdx.x, warp = t / 32;
    const int r0 = blockIdx.y * 32, c0 = blockIdx.x * 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += 16) {
        // 128 threads, 4 halves (8 bytes) each: A's tile is 32 rows of 16, B's 16 rows of 32
        const int ar = t / 4, ac = (t % 4) * 4, br = t / 8, bc = (t % 8) * 4;
        *(uint2 *)&As[ar][ac] = *(const uint2 *)&A[(size_t)(r0 + ar) * n + k + ac];
        *(uint2 *)&Bs[br][bc] = *(const uint2 *)&B[(size_t)(k + br) * n + c0 + bc];
        __syncthreads();
        wmma::load_matrix_sync(a, &As[(warp / 2) * 16][0], 16 + 8);
        wmma::load_matrix_sync(b, &Bs[0][(warp % 2) * 16], 32 + 8);
        wmma::mma_sync(acc, a, b, acc);
        __syncthreads();
    }
    wmma::store_matrix_sync(C + (size_t)(r0 + (warp / 2) * 16) * n + c0 + (warp % 2) * 16, acc, n,
                            wmma::mem_row_major);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 256;
    if (n <= 0 || n % 32) {
        fprintf(stderr, "usage: wmma_gemm [n, a positive multiple of 32]\n");
        return 2;
    }
    // inputs: multiples of 1/16 in [-0.5, 0.5), exact in half; their products are exact in float
    std::vector<half> A((size_t)n * n), B((size_t)n * n);
    std::vector<float> Af(A.size()), Bf(B.size()), C((size_t)n * n);
    for (size_t i = 0; i < A.size(); i++) {
        Af[i] = (float)((i * 7) % 16) / 16.0f - 0.5f;
        Bf[i] = (float)((i * 5) % 16) / 16.0f - 0.5f;
        A[i] = __float2half(Af[i]);
        B[i] = __float2half(Bf[i]);
    }
    std::vector<double> ref((size_t)n * n); // double-precision reference
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++)
            for (int j = 0; j < n; j++)
                ref[(size_t)i * n + j] += (double)Af[(size_t)i * n + k] * Bf[(size_t)k * n + j];

    const size_t hbytes = (size_t)n * n * sizeof(half), fbytes = (size_t)n * n * sizeof(float);
    half *dA, *dB;
    float *dC;
    CHECK(cudaMalloc(&dA, hbytes));
    CHECK(cudaMalloc(&dB, hbytes));
    CHECK(cudaMalloc(&dC, fbytes));
    CHECK(cudaMemcpy(dA, A.data(), hbytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), hbytes, cudaMemcpyHostToDevice));
    const dim3 grid(n / 32, n / 32);

    int failed = 0;
    for (int version = 0; version < 2; version++) {
        CHECK(cudaMemset(dC, 0, fbytes));
        if (version == 0)
            wmma_direct<<<grid, 128>>>(dA, dB, dC, n);
        else
            wmma_shared<<<grid, 128>>>(dA, dB, dC, n);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(C.data(), dC, fbytes, cudaMemcpyDeviceToHost));
        // every product is a multiple of 2^-8 and every partial sum below 2^7 here: the float sums are
        // exact, on the tensor cores too; the tolerance, 1e-6 n (1 + |ref|), is for other inputs
        double worst = 0; // |error| / tolerance: within it when <= 1
        for (size_t i = 0; i < C.size(); i++)
            worst = fmax(worst, fabs(C[i] - ref[i]) / (1e-6 * n * (1 + fabs(ref[i]))));
        printf("wmma %s: n = %d, %s (worst error %.3g of the tolerance)\n", version ? "shared" : "direct", n,
               worst <= 1 ? "correct" : "WRONG", worst);
        failed |= worst > 1;
    }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    return failed;
}
