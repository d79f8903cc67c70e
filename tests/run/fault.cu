// tests/run/fault.cu - a kernel that reads past the end of its array: the
// simulator reports it (kernel, block, thread, line), and the program's own
// checks see it where they would on a GPU: cudaGetLastError right after the
// launch returns cudaSuccess (the kernel has not run there yet), and
// cudaDeviceSynchronize returns cudaErrorIllegalAddress; the program stops.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            printf("CHECK failed: %s: %s (%s)\n", #x, cudaGetErrorName(e_), cudaGetErrorString(e_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

__global__ void off_by_one(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)          // the bug: i == n reads a[n]
        b[i] = a[i] * 2; // MARK:oob
}

int main()
{
    const int n = 1024 * 16;
    float *a, *b;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, (n + 64) * sizeof(float)));
    off_by_one<<<n / 256 + 1, 256>>>(a, b, n);
    CHECK(cudaGetLastError());
    printf("launch checked\n");
    CHECK(cudaDeviceSynchronize());
    printf("not reached\n");
    return 0;
}
