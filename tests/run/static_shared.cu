// tests/run/static_shared.cu - `static __shared__` (NVIDIA's blockReduceSum idiom), also as
// `__shared__ static` and at file scope: the same block-shared variables as without `static`.
#include <cstdio>

static __shared__ int block_count; // file scope

template <class T> __device__ T warp_sum(T v)
{
    for (int d = 16; d > 0; d /= 2)
        v += __shfl_down_sync(0xffffffff, v, d);
    return v;
}

template <class T> __device__ T block_sum(T v)
{
    static __shared__ T partial[32]; // one slot a warp
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0;
    if (warp == 0)
        v = warp_sum(v);
    return v;
}

__global__ void sum(const int *in, int *out, int *counted)
{
    __shared__ static int seen;
    if (threadIdx.x == 0)
        seen = 0, block_count = 0;
    __syncthreads();
    atomicAdd(&seen, 1);
    atomicAdd(&block_count, 2);
    int s = block_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (threadIdx.x == 0) {
        atomicAdd(out, s);
        atomicAdd(counted, seen + block_count);
    }
}

int main()
{
    const int blocks = 4, threads = 256, n = blocks * threads;
    int h[n], *in, *out, *counted, total = 0, count = 0;
    for (int i = 0; i < n; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMalloc(&counted, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof(int));
    cudaMemset(counted, 0, sizeof(int));
    sum<<<blocks, threads>>>(in, out, counted);
    cudaMemcpy(&total, out, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&count, counted, sizeof(int), cudaMemcpyDeviceToHost);
    int ok = total == n * (n - 1) / 2 && count == blocks * threads * 3;
    printf("static_shared: sum %d, count %d, %s\n", total, count, ok ? "correct" : "WRONG");
    return !ok;
}
