// tests/run/fault.cu - a kernel that reads past the end of its array: the
// simulator reports it (kernel, block, thread, line), the program's own
// check sees cudaErrorIllegalAddress, as on a GPU, and stops.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x)                                                                          \
    do {                                                                                  \
        cudaError_t e_ = (x);                                                             \
        if (e_ != cudaSuccess) {                                                          \
            printf("CHECK failed: %s (%s)\n", cudaGetErrorName(e_), cudaGetErrorString(e_)); \
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
    CHECK(cudaDeviceSynchronize());
    printf("not reached\n");
    return 0;
}
