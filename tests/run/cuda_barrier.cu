// tests/run/cuda_barrier.cu - libcu++'s cuda::barrier of a block under `simtlab run` (tests/scripts/run_case.cmake,
// case cuda_barrier). Each kernel is one block of 256 threads:
//   ./cuda_barrier           four uses, each checked against the host's sums (integers: exact):
//     tree    a shared-memory tree reduction with bar.arrive_and_wait() for __syncthreads()
//     split   bar.arrive() before work of the thread's own, bar.wait(token) after it
//     drop    half the threads leave with arrive_and_drop() after the first phase; the others
//             go on for three more phases
//     copy    cuda::memcpy_async(block, ..., bar) of 1 KiB, then bar.arrive_and_wait()
//   ./cuda_barrier missing   thread 5 returns before it arrives: the others wait forever (a report)
//   ./cuda_barrier uninit    a barrier used before init()
//   ./cuda_barrier stale     the same after a launch whose barrier had that shared address
//   ./cuda_barrier over      arrive(1000) on a barrier whose phase expects 256
//   ./cuda_barrier zero      init(&bar, 0)
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cstdio>
#include <cstring>
#include <utility>
namespace cg = cooperative_groups;

#define T 256

__global__ void tree_k(const int *x, int *out)
{
    __shared__ int s[T];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = x[threadIdx.x];
    bar.arrive_and_wait();
    for (int h = T / 2; h > 0; h /= 2) {
        int v = threadIdx.x < h ? s[threadIdx.x + h] : 0;
        bar.arrive_and_wait();
        if (threadIdx.x < h)
            s[threadIdx.x] += v;
        bar.arrive_and_wait();
    }
    if (threadIdx.x == 0)
        out[0] = s[0];
}

__global__ void split_k(const int *x, int *out)
{
    __shared__ int s[T];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = x[threadIdx.x];
    cuda::barrier<cuda::thread_scope_block>::arrival_token token = bar.arrive();
    int own = 0; // work of the thread's own while the others arrive
    for (int i = 0; i <= (int)threadIdx.x % 7; i++)
        own += i;
    bar.wait(std::move(token));
    out[threadIdx.x] = s[(threadIdx.x + 1) % T] + own;
}

__global__ void drop_k(const int *x, int *out)
{
    __shared__ int s[T];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = x[threadIdx.x];
    if (threadIdx.x >= T / 2) { // gone after this phase: the barrier expects T / 2 from the next one on
        bar.arrive_and_drop();
        return;
    }
    bar.arrive_and_wait();
    int v = s[threadIdx.x + T / 2]; // written before the phase completed
    for (int k = 0; k < 3; k++) {
        bar.arrive_and_wait();
        s[threadIdx.x] += v;
        bar.arrive_and_wait();
        v = s[(threadIdx.x + 1) % (T / 2)];
    }
    out[threadIdx.x] = v;
}

__global__ void copy_k(const int *x, int *out)
{
    __shared__ __align__(16) int s[T];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, s, x, sizeof(int) * T, bar);
    bar.arrive_and_wait();
    out[threadIdx.x] = s[T - 1 - threadIdx.x];
}

__global__ void missing_k(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    if (threadIdx.x == 5)
        return;
    bar.arrive_and_wait(); // MARK:missing_wait
    out[threadIdx.x] = 1;
}

__global__ void uninit_k(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    bar.arrive_and_wait(); // MARK:uninit
    out[threadIdx.x] = 1;
}

__global__ void over_k(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    (void)bar.arrive(threadIdx.x == 0 ? 1000 : 1);
    out[threadIdx.x] = 1;
}

__global__ void zero_k(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, 0); // MARK:zero
    __syncthreads();
    out[threadIdx.x] = 1;
}

int main(int argc, char **argv)
{
    int h[T], got[T], *x, *out;
    for (int i = 0; i < T; i++)
        h[i] = (i * 37) % 101 - 50;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&out, sizeof got);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1) {
        const char *w = argv[1];
        if (!strcmp(w, "missing"))
            missing_k<<<1, T>>>(out);
        else if (!strcmp(w, "uninit"))
            uninit_k<<<1, T>>>(out);
        else if (!strcmp(w, "stale")) { // a barrier of an earlier launch at the same shared address
            tree_k<<<1, T>>>(x, out);
            cudaDeviceSynchronize();
            uninit_k<<<1, T>>>(out);
        }
        else if (!strcmp(w, "over"))
            over_k<<<1, T>>>(out);
        else
            zero_k<<<1, T>>>(out);
        printf("cuda_barrier %s: %s\n", w, cudaGetErrorString(cudaDeviceSynchronize()));
        return 0;
    }
    int bad = 0;
    const char *names[] = {"tree", "split", "drop", "copy"};
    for (int k = 0; k < 4; k++) {
        cudaMemset(out, 0, sizeof got);
        if (k == 0)
            tree_k<<<1, T>>>(x, out);
        else if (k == 1)
            split_k<<<1, T>>>(x, out);
        else if (k == 2)
            drop_k<<<1, T>>>(x, out);
        else
            copy_k<<<1, T>>>(x, out);
        if (cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("cuda_barrier: %s failed\n", names[k]);
            return 1;
        }
        int want[T];
        if (k == 0) {
            want[0] = 0;
            for (int i = 0; i < T; i++)
                want[0] += h[i];
        } else if (k == 1) {
            for (int t = 0; t < T; t++)
                want[t] = h[(t + 1) % T] + (t % 7) * (t % 7 + 1) / 2;
        } else if (k == 2) { // the kernel's loop, on the host
            int s[T / 2], v[T / 2];
            for (int t = 0; t < T / 2; t++)
                s[t] = h[t], v[t] = h[t + T / 2];
            for (int r = 0; r < 3; r++) {
                for (int t = 0; t < T / 2; t++)
                    s[t] += v[t];
                for (int t = 0; t < T / 2; t++)
                    v[t] = s[(t + 1) % (T / 2)];
            }
            for (int t = 0; t < T / 2; t++)
                want[t] = v[t];
        } else {
            for (int t = 0; t < T; t++)
                want[t] = h[T - 1 - t];
        }
        const int n = k == 0 ? 1 : k == 2 ? T / 2 : T;
        for (int t = 0; t < n; t++)
            if (got[t] != want[t]) {
                printf("cuda_barrier: %s: out[%d] = %d, expected %d\n", names[k], t, got[t], want[t]);
                bad = 1;
                break;
            }
    }
    printf(bad ? "cuda_barrier: WRONG\n" : "cuda_barrier: correct\n");
    return bad;
}
