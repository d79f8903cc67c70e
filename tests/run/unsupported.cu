// tests/run/unsupported.cu - a grid-wide cooperative group (grid.sync() needs a
// cooperative launch of co-resident blocks): `simtlab run` names the feature,
// the file and the line instead of a wall of compiler errors.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void k(float *x)
{
    cg::grid_group g = cg::this_grid(); // MARK:grid
    x[g.thread_rank()] = 1;
    g.sync();
}

int main()
{
    float *x;
    cudaMalloc(&x, 128);
    k<<<1, 32>>>(x);
    return 0;
}
