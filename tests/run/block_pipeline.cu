// tests/run/block_pipeline.cu - a block's cuda::pipeline under `simtlab run` (tests/scripts/run_case.cmake,
// case block_pipeline): cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> in shared memory,
// batches of 256 ints copied from global memory while earlier ones are summed. One block of 256 threads.
//   ./block_pipeline          three kernels, each checked against the host (integers: exact):
//     unified   make_pipeline(block, &state): every thread copies its share and sums, 2 stages
//     count     make_pipeline(block, &state, 32): warp 0 copies, the other 7 warps sum, 3 stages
//     role      make_pipeline(block, &state, role): the same split, by each thread's role
//   ./block_pipeline stuck    the consumers never release a stage: the producers wait forever
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

#define T 256
#define BATCHES 12

// every thread of the block: out[t] = sum over batches of batch[(t + 1) % T]
template <int STAGES> __global__ void unified_k(const int *x, int *out)
{
    __shared__ __align__(16) int buf[STAGES][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    cg::thread_block block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
    int acc = 0, fetch = 0;
    for (int b = 0; b < BATCHES; b++) {
        for (; fetch < BATCHES && fetch < b + STAGES; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], x + fetch * T, sizeof(int) * T, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += buf[b % STAGES][(threadIdx.x + 1) % T];
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

// warp 0 produces (each lane 8 ints of a batch), warps 1-7 consume: out[t] = sum over batches of
// batch[t - 32] + batch[t - 32 + 224 < T ? ...] (the consumer's elements, t - 32 and t + 192 when < T)
template <int STAGES> __device__ void split(cuda::pipeline<cuda::thread_scope_block> &pipe, int (*buf)[T],
                                            const int *x, int *out, bool producer)
{
    if (producer) {
        for (int b = 0; b < BATCHES; b++) {
            pipe.producer_acquire();
            for (int i = threadIdx.x; i < T; i += 32)
                cuda::memcpy_async(&buf[b % STAGES][i], &x[b * T + i], sizeof(int), pipe);
            pipe.producer_commit();
        }
        return;
    }
    const int c = threadIdx.x - 32; // 0..223
    int acc = 0;
    for (int b = 0; b < BATCHES; b++) {
        pipe.consumer_wait();
        acc += buf[b % STAGES][c] + (c + 224 < T ? buf[b % STAGES][c + 224] : 0);
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

__global__ void count_k(const int *x, int *out)
{
    __shared__ __align__(16) int buf[3][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 3> state;
    cg::thread_block block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state, 32);
    split<3>(pipe, buf, x, out, threadIdx.x < 32);
}

__global__ void role_k(const int *x, int *out)
{
    __shared__ __align__(16) int buf[3][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 3> state;
    cg::thread_block block = cg::this_thread_block();
    const cuda::pipeline_role role = threadIdx.x < 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state, role);
    split<3>(pipe, buf, x, out, role == cuda::pipeline_role::producer);
}

__global__ void stuck_k(const int *x, int *out)
{
    __shared__ __align__(16) int buf[2][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    cg::thread_block block = cg::this_thread_block();
    cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
    int acc = 0;
    for (int b = 0; b < 4; b++) {
        pipe.producer_acquire(); // MARK:stuck_acquire
        cuda::memcpy_async(block, buf[b % 2], x + b * T, sizeof(int) * T, pipe);
        pipe.producer_commit();
        pipe.consumer_wait();
        acc += buf[b % 2][threadIdx.x]; // no consumer_release: stage 0 is never free again
    }
    out[threadIdx.x] = acc;
}

int main(int argc, char **argv)
{
    static int h[BATCHES * T];
    int got[T], *x, *out;
    for (int i = 0; i < BATCHES * T; i++)
        h[i] = (i * 29) % 83 - 41;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&out, sizeof got);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1) {
        stuck_k<<<1, T>>>(x, out);
        printf("block_pipeline stuck: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 0;
    }
    int bad = 0;
    const char *names[] = {"unified", "count", "role"};
    for (int k = 0; k < 3; k++) {
        cudaMemset(out, 0, sizeof got);
        if (k == 0)
            unified_k<2><<<1, T>>>(x, out);
        else if (k == 1)
            count_k<<<1, T>>>(x, out);
        else
            role_k<<<1, T>>>(x, out);
        if (cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("block_pipeline: %s failed\n", names[k]);
            return 1;
        }
        for (int t = k == 0 ? 0 : 32; t < T; t++) {
            int want = 0;
            for (int b = 0; b < BATCHES; b++) {
                const int *batch = h + b * T;
                if (k == 0)
                    want += batch[(t + 1) % T];
                else
                    want += batch[t - 32] + (t - 32 + 224 < T ? batch[t - 32 + 224] : 0);
            }
            if (got[t] != want) {
                printf("block_pipeline: %s: out[%d] = %d, expected %d\n", names[k], t, got[t], want);
                bad = 1;
                break;
            }
        }
    }
    printf(bad ? "block_pipeline: WRONG\n" : "block_pipeline: correct\n");
    return bad;
}
