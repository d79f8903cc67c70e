// tests/run/cg_grid.cu - cg::this_grid() in an ordinary launch: a grid-stride loop over
// thread_rank() and size() fills every element once; labeled_partition and
// binary_partition split a warp by label (each lane counts its group, checked against the
// labels). With `sync` (argv[1]) the kernel calls grid.sync(), which needs a cooperative
// launch: the simulator's report and cudaErrorLaunchFailure. Prints "cg_grid: correct",
// "cg_grid sync: <error>" or the first mismatch (exit 1).
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

__global__ void stride(int *x, int n, int *groups, int *halves)
{
    cg::grid_group grid = cg::this_grid();
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        x[i] += 1;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned lane = warp.thread_rank();
    cg::coalesced_group same = cg::labeled_partition(warp, lane % 3); // 11, 11 and 10 lanes
    cg::coalesced_group odd = cg::binary_partition(warp, lane & 1);   // 16 and 16
    if (grid.block_rank() == 0 && threadIdx.x < 32) {
        groups[lane] = (int)same.size() * 100 + (int)same.thread_rank();
        halves[lane] = (int)odd.size() * 100 + (int)odd.thread_rank();
    }
}

__global__ void needs_all_blocks(int *x)
{
    cg::grid_group grid = cg::this_grid();
    x[grid.thread_rank()] = 1;
    grid.sync(); // MARK:sync
}

int main(int argc, char **argv)
{
    const int n = 10000;
    int *x, *groups, *halves;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&groups, 32 * sizeof(int));
    cudaMallocManaged(&halves, 32 * sizeof(int));
    memset(x, 0, n * sizeof(int));
    if (argc > 1 && !strcmp(argv[1], "sync")) {
        needs_all_blocks<<<4, 64>>>(x);
        printf("cg_grid sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 0;
    }
    stride<<<3, 64>>>(x, n, groups, halves); // 192 threads, 53 passes
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("cg_grid: %s\n", cudaGetErrorString(e));
        return 1;
    }
    for (int i = 0; i < n; i++)
        if (x[i] != 1) {
            printf("cg_grid: x[%d] = %d after the grid-stride loop, want 1\n", i, x[i]);
            return 1;
        }
    for (int l = 0; l < 32; l++) {
        int want_g = (l % 3 == 2 ? 10 : 11) * 100 + l / 3, want_h = 16 * 100 + l / 2;
        if (groups[l] != want_g || halves[l] != want_h) {
            printf("cg_grid: lane %d: labeled %d (want %d), binary %d (want %d)\n", l, groups[l], want_g, halves[l], want_h);
            return 1;
        }
    }
    printf("cg_grid: correct\n");
    return 0;
}
