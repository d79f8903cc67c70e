// tests/run/unsupported.cu - cooperative groups: `simtlab run` names the
// feature, the file and the line instead of a wall of compiler errors.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void k(float *x)
{
    cg::thread_block b = cg::this_thread_block();
    x[b.thread_rank()] = 1;
}

int main()
{
    float *x;
    cudaMalloc(&x, 128);
    k<<<1, 32>>>(x);
    return 0;
}
