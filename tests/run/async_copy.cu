// tests/run/async_copy.cu - asynchronous copies from global to shared memory under `simtlab run`
// (tests/scripts/run_case.cmake, case async_copy), each kernel a block of 128 threads staging
// 2048 floats (8 KiB) of x in shared memory and writing each element back, times its copy's
// number, to y:
//   pipe    cuda::pipeline<thread_scope_thread> and cuda::memcpy_async of float4 pieces
//           (aligned_size_t<16>), pipeline_consumer_wait_prior<0>, then __syncthreads (the
//           tensor-core samples' pattern)
//   group   cg::memcpy_async(block, ...) of the whole 8 KiB, then cg::wait(block)
//   prims   __pipeline_memcpy_async of 16 bytes, __pipeline_commit, __pipeline_wait_prior(0)
//   odd     cuda::memcpy_async of 12 bytes from float pointers: float's alignment, 4-byte cp.async
//   bytes   cg::memcpy_async of a byte count into an `__shared__ alignas(16)` array
//   count   cg::memcpy_async of element counts: half of x copied (the rest zeroed by the kernel)
// `./async_copy bad_size`: __pipeline_memcpy_async of 2 bytes, which traps as CUDA's header does.
// Each kernel reads x once (8 KiB) and writes y once; the first three as cp.async (512 pieces of
// 16 bytes: 256 sectors, 64 shared wavefronts), odd as 4-byte pieces.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdio>
namespace cg = cooperative_groups;

#define N 2048

__device__ void write_back(const float *s, float *y, float times)
{
    __syncthreads();
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        y[i] = s[i] * times;
}

__global__ void pipe_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const auto shape = cuda::aligned_size_t<16>(sizeof(float4));
    for (int i = threadIdx.x * 4; i < N; i += blockDim.x * 4) {
        pipe.producer_acquire();
        if (i % 8) // float4 pointers and a byte count: float4's alignment, as libcu++ takes it
            cuda::memcpy_async((float4 *)&s[i], (const float4 *)&x[i], sizeof(float4), pipe);
        else
            cuda::memcpy_async(&s[i], &x[i], shape, pipe);
        pipe.producer_commit();
    }
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    write_back(s, y, 1.0f);
}

__global__ void group_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, x, cuda::aligned_size_t<16>(sizeof s));
    cg::wait(block);
    write_back(s, y, 2.0f);
}

// a byte count (its alignment found at run time: cp.async too) into an alignas(16) array (the
// rewriter puts the alignas before __shared__, where g++ takes it)
__global__ void bytes_k(const float *x, float *y)
{
    __shared__ alignas(16) float s[N];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, x, sizeof s);
    cg::wait(block);
    write_back(s, y, 5.0f);
}

// element counts: the first N/2 floats copied (CUDA copies min(dst_count, src_count) elements
// and leaves the rest of dst as it was: the kernel zeroes it itself, so y's second half is 0)
__global__ void count_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    for (int i = N / 2 + threadIdx.x; i < N; i += blockDim.x)
        s[i] = 0.0f;
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, (size_t)N, x, (size_t)(N / 2));
    cg::wait(block);
    write_back(s, y, 6.0f);
}

// a size __pipeline_memcpy_async does not take (2 bytes): CUDA's header traps
__global__ void bad_size_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    __pipeline_memcpy_async(&s[threadIdx.x], &x[threadIdx.x], 2); // MARK:bad_size
    __pipeline_wait_prior(0);
    write_back(s, y, 1.0f);
}

__global__ void prims_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    for (int i = threadIdx.x * 4; i < N; i += blockDim.x * 4)
        __pipeline_memcpy_async(&s[i], &x[i], 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    write_back(s, y, 3.0f);
}

__global__ void odd_k(const float *x, float *y)
{
    __shared__ __align__(16) float s[N];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int i = threadIdx.x * 3; i + 3 <= N; i += blockDim.x * 3)
        cuda::memcpy_async(&s[i], &x[i], 3 * sizeof(float), pipe);
    pipe.producer_commit(); // without it consumer_wait waits for nothing (libcu++): --detail reports the race
    if (threadIdx.x == 0) // the last N % 3 floats
        for (int i = N / 3 * 3; i < N; i++)
            s[i] = x[i];
    pipe.consumer_wait();
    write_back(s, y, 4.0f);
}

int main(int argc, char **argv)
{
    float h[N], out[N], *x, *y;
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 97) - 48.0f;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&y, sizeof h);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1) { // ./async_copy bad_size
        bad_size_k<<<1, 32>>>(x, y);
        printf("async_copy bad_size: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    int bad = 0;
    for (int k = 0; k < 6; k++) {
        cudaMemset(y, 0, sizeof h);
        if (k == 0)
            pipe_k<<<1, 128>>>(x, y);
        else if (k == 1)
            group_k<<<1, 128>>>(x, y);
        else if (k == 2)
            prims_k<<<1, 128>>>(x, y);
        else if (k == 3)
            odd_k<<<1, 128>>>(x, y);
        else if (k == 4)
            bytes_k<<<1, 128>>>(x, y);
        else
            count_k<<<1, 128>>>(x, y);
        cudaError_t e = cudaMemcpy(out, y, sizeof out, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            printf("async_copy: kernel %d: %s\n", k, cudaGetErrorString(e));
            return 1;
        }
        for (int i = 0; i < N; i++)
            bad += out[i] != (k == 5 && i >= N / 2 ? 0.0f : h[i] * (float)(k + 1));
    }
    printf(bad ? "async_copy: WRONG (%d elements)\n" : "async_copy: correct\n", bad);
    return bad != 0;
}
