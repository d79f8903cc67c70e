// tests/run/std_headers.cu - C++ standard headers whose code writes __attribute__((__noinline__))
// (libstdc++'s shared_ptr: <memory>, <future>, <condition_variable>; GCC 13's basic_string writes
// __attribute__((__noinline__, __noclone__, __cold__)), as cold_path below does) compile beside
// CUDA's __noinline__ in both passes, and a kernel launched from a std::async task runs.
#include <cstdio>
#include <memory>
#include <future>
#include <condition_variable>
#include <string>
__attribute__((__noinline__, __noclone__, __cold__)) static void cold_path(std::string &s) { s += "!"; }
__noinline__ __device__ int twice(int x) { return 2 * x; }
__global__ void k(int *o) { o[threadIdx.x] = twice(threadIdx.x); }
int main() {
    auto h = std::make_shared<int>(0);
    int *d; cudaMalloc(&d, 32 * sizeof(int));
    auto f = std::async(std::launch::deferred, [&] { k<<<1, 32>>>(d); return cudaDeviceSynchronize(); });
    cudaError_t e = f.get();
    int out[32]; cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost);
    *h = out[31];
    std::string tag = "ok";
    cold_path(tag);
    printf("std_headers: %s, %d, %s\n", cudaGetErrorName(e), *h, tag.c_str());
    return *h == 62 ? 0 : 1;
}
