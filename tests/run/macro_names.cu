// tests/run/macro_names.cu - a program built with a macro for every capital letter (`-DN=7`, a
// size on nvcc's command line, is common): the shim headers must not use those names
// (tests/scripts/run_case.cmake, case macro_names: -DA=7 ... -DZ=7). Prints 225 (32 x 7 + 1).
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuComplex.h>
#include <curand_kernel.h>
#include <curand.h>
#include <cublas_v2.h>
#include <mma.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda/std/type_traits>
#include <cuda_pipeline.h>
#include <math_constants.h>
namespace cg = cooperative_groups;
__global__ void k(float *x) {
    auto t = cg::tiled_partition<32>(cg::this_thread_block());
    x[threadIdx.x] = cg::reduce(t, (float)N, cg::plus<float>()) + __half2float(__float2half(1.0f));
}
int main() { float *d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); float h; cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("%g\n", h); }
