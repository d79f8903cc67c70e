// tests/run/split_barrier.cu - cooperative groups' split barrier (CUDA 12.2): barrier_arrive(),
// work, barrier_wait(std::move(token)). What a thread wrote before arriving is what the others
// read after their waits (mode "ok": each thread reads its mirror's element); a read between the
// arrival and the wait of what another thread wrote before its arrival is ordered with nothing,
// a race on a GPU (mode "race": the report names it). Survey 19 (xiaohuangyu's cuda_learning
// 16_cooperative_groups/01) stopped at g++'s "no member named 'barrier_arrive'".
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <utility>
namespace cg = cooperative_groups;

__global__ void mirror(int *out, int racy)
{
    __shared__ int s[64];
    cg::thread_block b = cg::this_thread_block();
    const unsigned t = b.thread_rank();
    s[t] = (int)t;
    auto token = b.barrier_arrive();
    int early = 0;
    if (racy)
        early = s[63 - t]; /* MARK:early: before the wait, the other thread may not have written it */
    b.barrier_wait(std::move(token));
    out[t] = racy ? early : s[63 - t];
}

int main(int argc, char **argv)
{
    const int racy = argc > 1 && !strcmp(argv[1], "race");
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    mirror<<<1, 64>>>(d, racy);
    const cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < 64 && !e; t++)
        bad += h[t] != 63 - t;
    printf("split_barrier %s: %s, %d wrong\n", racy ? "race" : "ok", cudaGetErrorName(e), bad);
    return 0;
}
