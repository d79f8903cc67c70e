// tests/run/cg.cu - the block-level cooperative groups a course uses:
// this_thread_block(), cg::sync, tiled_partition<32> and a tile's
// shfl_down reduction, meta_group_rank; the sum against the host's.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int warp_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = in[blockIdx.x * block.size() + block.thread_rank()];
    for (int d = tile.size() / 2; d > 0; d /= 2)
        v += tile.shfl_down(v, d);
    if (tile.thread_rank() == 0)
        warp_sums[tile.meta_group_rank()] = v;
    cg::sync(block);
    if (block.thread_rank() == 0) {
        int s = 0;
        for (unsigned w = 0; w < tile.meta_group_size(); w++)
            s += warp_sums[w];
        out[blockIdx.x] = s;
    }
}

int main()
{
    const int blocks = 3, threads = 256;
    int h[blocks * threads], r[blocks], *in, *out;
    for (int i = 0; i < blocks * threads; i++)
        h[i] = (i * 13) % 17;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum<<<blocks, threads>>>(in, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = 0; i < threads; i++)
            want += h[b * threads + i];
        bad += r[b] != want;
    }
    printf("cg: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
