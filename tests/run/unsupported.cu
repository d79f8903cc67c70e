// tests/run/unsupported.cu - a cooperative launch (all of a grid's blocks resident at once,
// where the simulator runs them one after another): `simtlab run` names the feature, the
// file and the line instead of a wall of compiler errors.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void k(float *x)
{
    cg::grid_group g = cg::this_grid();
    x[g.thread_rank()] = 1;
    g.sync();
}

int main()
{
    float *x;
    cudaMalloc(&x, 128);
    void *args[] = {&x};
    cudaLaunchCooperativeKernel((void *)k, 1, 32, args); // MARK:grid
    return 0;
}
