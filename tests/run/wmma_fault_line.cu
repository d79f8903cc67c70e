// tests/run/wmma_fault_line.cu - a wmma load past its tile's end is reported at its own line. g++
// merges the two identical load_matrix_sync calls below into one call site, so the fault's pc names
// one line for both; the report takes the line the call passed (sim_access_at).
//   wmma_fault_line global|shared
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const __half *A, float *C, int mode) {
    __shared__ __align__(32) __half sa[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 1.0f);
    if (mode == 0) wmma::load_matrix_sync(a, A + 128, 16); /* MARK:global rows 8..15 past A's 256 halves */
    if (mode == 1) wmma::load_matrix_sync(a, sa + 128, 16); /* MARK:shared past sa */
    C[threadIdx.x] += c.x[0];
}
int main(int argc, char **argv) {
    const int mode = argc > 1 && !strcmp(argv[1], "shared");
    __half *A; float *C;
    cudaMalloc(&A, 512);
    cudaMalloc(&C, 1024);
    cudaMemset(A, 0, 512);
    cudaMemset(C, 0, 1024);
    k<<<1, 32>>>(A, C, mode);
    printf("wmma_fault_line %s: %s\n", mode ? "shared" : "global", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
