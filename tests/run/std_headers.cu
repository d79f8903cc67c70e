// tests/run/std_headers.cu - C++ standard headers whose code writes __attribute__((__noinline__))
// (libstdc++'s shared_ptr: <memory>, <future>, <condition_variable>) compile beside CUDA's
// __noinline__, and a kernel launched from a std::async task runs.
#include <cstdio>
#include <memory>
#include <future>
#include <condition_variable>
__noinline__ __device__ int twice(int x) { return 2 * x; }
__global__ void k(int *o) { o[threadIdx.x] = twice(threadIdx.x); }
int main() {
    auto h = std::make_shared<int>(0);
    int *d; cudaMalloc(&d, 32 * sizeof(int));
    auto f = std::async(std::launch::deferred, [&] { k<<<1, 32>>>(d); return cudaDeviceSynchronize(); });
    cudaError_t e = f.get();
    int out[32]; cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    *h = out[31];
    printf("std_headers: %s, %d\n", cudaGetErrorName(e), *h);
    return *h == 62 ? 0 : 1;
}
