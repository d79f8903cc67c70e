// tests/run/nvcc_compat.cu - what nvcc takes and simtlab run took badly (survey 18): a kernel
// with nvcc 12.9's __block_size__ attribute (a g++ syntax error before), a dead
// wmma::store_matrix_sync(nullptr, ...) that keeps a benchmark's loop (its pointer's type was
// deduced from the argument, and nullptr has none), a __shared__ array aligned to 16 KB (thread-local
// storage here: the loader refused to start the program), and, in run_case.cmake, the flags Makefiles
// pass nvcc (-O3, -arch=sm_80, --extended-lambda, -Xptxas -v, --use_fast_math: "unknown option").
#include <cstdio>
#include <mma.h>
using namespace nvcuda;

template <int WARPS>
__block_size__((WARPS * 32, 1, 1)) __global__ void iota(int *out)
{
    __shared__ __align__(16 * 1024) int staged[WARPS * 32]; /* past a page: the program did not load */
    staged[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = staged[threadIdx.x];
}

__global__ void tile(const half *a, const half *b, float *c, int never)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    if (threadIdx.x == never)
        wmma::store_matrix_sync(nullptr, fc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main()
{
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    iota<2><<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    half ha[256];
    float r[256];
    for (int i = 0; i < 256; i++)
        ha[i] = __float2half(i % 2 ? 1.0f : 0.5f);
    half *a;
    float *c;
    cudaMalloc(&a, sizeof ha);
    cudaMalloc(&c, sizeof r);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    tile<<<1, 32>>>(a, a, c, 1 << 20);
    cudaMemcpy(r, c, sizeof r, cudaMemcpyDeviceToHost);
    /* row i of A times column j of B (B col-major: the same 256 values): 8 x (0.25 + 1) */
    printf("nvcc_compat: iota %d %d, tile %g %g: %s\n", h[0], h[63], r[0], r[255],
           h[63] == 63 && r[0] == 10.0f && r[255] == 10.0f ? "correct" : "WRONG");
    return 0;
}
