// tests/run/course.cu - a program written as a CUDA course writes it, run
// unchanged: std::vector on the host, a CHECK macro, dim3, templates (a
// functor and a template kernel with its argument deduced), a __device__
// helper, static and extern __shared__ memory, __constant__ filled by
// cudaMemcpyToSymbol, cudaMallocManaged, streams, events, printf in a
// kernel, cudaGetDeviceProperties and a launch with all four <<<>>> arguments.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t e = (call);                                                          \
        if (e != cudaSuccess) {                                                          \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            std::exit(EXIT_FAILURE);                                                     \
        }                                                                                \
    } while (0)

__constant__ float coeff[4];
__device__ int launches_seen;

struct Square {
    __device__ float operator()(float x) const { return x * x; }
};

__device__ __forceinline__ float poly(float x)
{
    return coeff[0] + x * (coeff[1] + x * (coeff[2] + x * coeff[3]));
}

template <typename T, typename F>
__global__ void apply(const T *__restrict__ in, T *__restrict__ out, size_t n, F f)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = f(poly(in[i]));
    if (i == 0)
        atomicAdd(&launches_seen, 1);
}

__global__ void block_sums(const float *in, float *out)
{
    extern __shared__ float buf[];
    __shared__ float total;
    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, buf[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = total;
        if (blockIdx.x == 0)
            printf("block %d of %d: sum %.1f\n", blockIdx.x, gridDim.x, total);
    }
}

int main()
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %d SMs, %zu bytes of shared memory per block, warp %d\n", prop.multiProcessorCount,
           prop.sharedMemPerBlock, prop.warpSize);

    const size_t n = 1000;
    std::vector<float> h(n), r(n);
    for (size_t i = 0; i < n; i++)
        h[i] = (float)i / n;
    const float c[4] = {1, 2, 0, 0};
    CHECK(cudaMemcpyToSymbol(coeff, c, sizeof c));

    float *in, *out;
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMallocManaged(&out, n * sizeof(float)));
    CHECK(cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    cudaStream_t s;
    cudaEvent_t t0, t1;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaEventCreate(&t0));
    CHECK(cudaEventCreate(&t1));
    dim3 block(128), grid((unsigned)((n + block.x - 1) / block.x));
    CHECK(cudaEventRecord(t0, s));
    apply<<<grid, block, 0, s>>>(in, out, n, Square());
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(t1, s));
    CHECK(cudaStreamSynchronize(s));
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    int bad = 0;
    for (size_t i = 0; i < n; i++) { // managed memory: read on the host directly
        float p = 1 + 2 * h[i];
        bad += out[i] != p * p;
    }
    float *sums;
    CHECK(cudaMalloc(&sums, 8 * sizeof(float)));
    block_sums<<<8, 125, 125 * sizeof(float)>>>(in, sums);
    CHECK(cudaGetLastError());
    std::vector<float> hs(8);
    CHECK(cudaMemcpy(hs.data(), sums, 8 * sizeof(float), cudaMemcpyDeviceToHost));
    int seen = 0;
    CHECK(cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen));
    printf("apply: %s, %d launch seen, event time %s\n", bad ? "WRONG" : "correct", seen, ms > 0 ? "positive" : "NOT POSITIVE");
    printf("block_sums: first %.1f\n", hs[0]);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaEventDestroy(t0));
    CHECK(cudaEventDestroy(t1));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(sums));
    return bad != 0 || seen != 1;
}
