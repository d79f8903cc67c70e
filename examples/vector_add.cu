// vector_add.cu - c = a + b, one thread per element: the first CUDA program
// of every course. Runs unchanged with nvcc and with `simtlab run`.
//   ./simtlab run examples/vector_add.cu [--detail] [-- N]
// Each element is read twice (a, b) and written once (c), 4 bytes each:
// 12 N bytes between the SMs and global memory, in N/8 32-byte sectors per
// array (examples/README.md has every example's closed forms).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (n <= 0) {
        fprintf(stderr, "usage: vector_add [N > 0]\n");
        return 2;
    }
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i;
    }
    float *da, *db, *dc;
    size_t bytes = (size_t)n * sizeof(float);
    CHECK(cudaMalloc(&da, bytes));
    CHECK(cudaMalloc(&db, bytes));
    CHECK(cudaMalloc(&dc, bytes));
    CHECK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));

    const int threads = 256;
    dim3 grid((n + threads - 1) / threads);
    vector_add<<<grid, threads>>>(da, db, dc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < n; i++)
        if (c[i] != 3.0f * i)
            bad++;
    printf("vector_add: n = %d, %s\n", n, bad ? "FAILED" : "correct");
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    return bad ? 1 : 0;
}
