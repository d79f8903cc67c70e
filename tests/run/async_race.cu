// tests/run/async_race.cu - asynchronous copies read before their wait, under `simtlab run --detail`
// (tests/scripts/run_case.cmake, case async_race). The simulator's copies land at once, but on a GPU
// a cp.async lands some time before the wait that completes it: each of these is a race there.
//   ./async_race            three double-buffered pipelines done right (no report): the
//                           __pipeline primitives with __pipeline_wait_prior(1), cuda::pipeline
//                           with two stages, cg::memcpy_async with cg::wait_prior<1>; each block
//                           sums 8 tiles of 256 floats, the next tile's copy in flight meanwhile
//   ./async_race own        a thread reads its own copy before __pipeline_wait_prior
//   ./async_race other      a thread reads a neighbour's copy after a barrier, but the neighbour
//                           waits only after the barrier
//   ./async_race nocommit   cuda::memcpy_async with no producer_commit: consumer_wait waits for
//                           nothing (libcu++), so the read after the barrier races
//   ./async_race cg         a read before cg::wait
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstring>
namespace cg = cooperative_groups;

#define T 256    // a tile: one float a thread
#define TILES 8  // tiles a block sums

// out[b] = the sum of x[b * TILES * T ...] with every thread adding its lane of each tile, reduced
// at the end by a tree in shared memory (one thread's loop over part[] is one the GPU's compiler
// turns into 128-bit loads, which the simulator counts as the source's 4-byte ones)
__device__ void finish(float acc, float *out)
{
    __shared__ float part[T];
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int h = T / 2; h > 0; h /= 2) {
        if (threadIdx.x < h)
            part[threadIdx.x] += part[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = part[0];
}

__global__ void prims_ok(const float *x, float *out)
{
    __shared__ __align__(16) float buf[2][T];
    const float *g = x + blockIdx.x * TILES * T;
    float acc = 0;
    __pipeline_memcpy_async(&buf[0][threadIdx.x], &g[threadIdx.x], sizeof(float));
    __pipeline_commit();
    for (int k = 0; k < TILES; k++) {
        if (k + 1 < TILES) // the next tile in flight while this one is summed
            __pipeline_memcpy_async(&buf[(k + 1) % 2][threadIdx.x], &g[(k + 1) * T + threadIdx.x], sizeof(float));
        __pipeline_commit();
        __pipeline_wait_prior(1); // tile k has landed, tile k + 1 may not have
        __syncthreads();
        acc += buf[k % 2][(threadIdx.x + 1) % T]; // a neighbour's element: the barrier orders it
        __syncthreads();
    }
    finish(acc, out);
}

__global__ void pipe_ok(const float *x, float *out)
{
    __shared__ __align__(16) float buf[2][T];
    const float *g = x + blockIdx.x * TILES * T;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0;
    for (int k = 0; k < 2; k++) { // two stages in flight
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[k][threadIdx.x], &g[k * T + threadIdx.x], sizeof(float), pipe);
        pipe.producer_commit();
    }
    for (int k = 0; k < TILES; k++) {
        pipe.consumer_wait(); // the oldest stage: tile k
        __syncthreads();
        acc += buf[k % 2][(threadIdx.x + 1) % T];
        __syncthreads();
        pipe.consumer_release();
        if (k + 2 < TILES) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[k % 2][threadIdx.x], &g[(k + 2) * T + threadIdx.x], sizeof(float), pipe);
            pipe.producer_commit();
        }
    }
    finish(acc, out);
}

__global__ void cg_ok(const float *x, float *out)
{
    __shared__ __align__(16) float buf[2][T];
    cg::thread_block block = cg::this_thread_block();
    const float *g = x + blockIdx.x * TILES * T;
    float acc = 0;
    cg::memcpy_async(block, buf[0], g, sizeof(float) * T);
    for (int k = 0; k < TILES; k++) {
        if (k + 1 < TILES) {
            cg::memcpy_async(block, buf[(k + 1) % 2], g + (k + 1) * T, sizeof(float) * T);
            cg::wait_prior<1>(block); // all but the latest call's copies, and the block synchronized
        } else {
            cg::wait(block);
        }
        acc += buf[k % 2][(threadIdx.x + 1) % T];
        block.sync();
    }
    finish(acc, out);
}

__global__ void own_bad(const float *x, float *out)
{
    __shared__ __align__(16) float s[T];
    __pipeline_memcpy_async(&s[threadIdx.x], &x[threadIdx.x], sizeof(float));
    __pipeline_commit();
    float v = s[threadIdx.x]; // before the wait MARK:own_read
    __pipeline_wait_prior(0);
    out[threadIdx.x] = v;
}

__global__ void other_bad(const float *x, float *out)
{
    __shared__ __align__(16) float s[T];
    __pipeline_memcpy_async(&s[threadIdx.x], &x[threadIdx.x], sizeof(float));
    __pipeline_commit();
    __syncthreads();
    float v = s[(threadIdx.x + 1) % T]; // thread t + 1's copy: it waits only below
    __pipeline_wait_prior(0);
    out[threadIdx.x] = v;
}

__global__ void nocommit_bad(const float *x, float *out)
{
    __shared__ __align__(16) float s[T];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    pipe.producer_acquire();
    cuda::memcpy_async(&s[threadIdx.x], &x[threadIdx.x], sizeof(float), pipe);
    pipe.consumer_wait(); // nothing committed: returns at once
    __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % T];
}

__global__ void cg_bad(const float *x, float *out)
{
    __shared__ __align__(16) float s[T];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, s, x, sizeof(float) * T);
    float v = s[threadIdx.x]; // before cg::wait
    cg::wait(block);
    out[threadIdx.x] = v;
}

int main(int argc, char **argv)
{
    const int blocks = 4, n = blocks * TILES * T;
    static float h[blocks * TILES * T];
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 13) - 6.0f;
    float *x, *out;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&out, T * sizeof(float));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1) {
        const char *w = argv[1];
        if (!strcmp(w, "own"))
            own_bad<<<1, T>>>(x, out);
        else if (!strcmp(w, "other"))
            other_bad<<<1, T>>>(x, out);
        else if (!strcmp(w, "nocommit"))
            nocommit_bad<<<1, T>>>(x, out);
        else
            cg_bad<<<1, T>>>(x, out);
        printf("async_race %s: %s\n", w, cudaGetErrorString(cudaDeviceSynchronize()));
        return 0;
    }
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        if (k == 0)
            prims_ok<<<blocks, T>>>(x, out);
        else if (k == 1)
            pipe_ok<<<blocks, T>>>(x, out);
        else
            cg_ok<<<blocks, T>>>(x, out);
        float got[blocks];
        if (cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) != cudaSuccess) {
            printf("async_race: kernel %d failed\n", k);
            return 1;
        }
        for (int b = 0; b < blocks; b++) {
            double want = 0; // integers: the float sum is exact
            for (int i = 0; i < TILES * T; i++)
                want += h[b * TILES * T + i];
            if (got[b] != (float)want) {
                printf("async_race: kernel %d block %d: %g, expected %g\n", k, b, got[b], want);
                bad = 1;
            }
        }
    }
    printf(bad ? "async_race: WRONG\n" : "async_race: correct\n");
    return bad;
}
