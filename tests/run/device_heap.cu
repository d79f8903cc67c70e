// tests/run/device_heap.cu - malloc() and free() in a kernel come from the device
// heap (cudaLimitMallocHeapSize, set before the first launch): every thread
// allocates, fills and frees its own array; what does not fit is NULL, as on a
// GPU (1 TiB: a GPU rounds the heap's size up); the limit cannot change once the heap is in use. Prints
// "device_heap: correct" or the first mismatch (exit 1).
#include <cstdio>
#include <cstdlib>

__global__ void own_arrays(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *a = (int *)malloc(n * sizeof(int));
    if (!a) {
        out[t] = -1;
        return;
    }
    for (int i = 0; i < n; i++)
        a[i] = t + i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[t] = s;
    free(a);
}

__global__ void too_big(int *out, size_t bytes)
{
    void *p = malloc(bytes);
    out[0] = p == NULL;
    free(p); // free(NULL) does nothing
}

int main()
{
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) != cudaSuccess) {
        printf("device_heap: the heap's size was refused before the first launch\n");
        return 1;
    }
    const int blocks = 4, threads = 64, n = 100, total = blocks * threads;
    int *d, h[total];
    cudaMalloc(&d, sizeof h);
    for (int round = 0; round < 3; round++) { // freed memory is reused: 3 rounds fit in 1 MiB
        own_arrays<<<blocks, threads>>>(d, n);
        if (cudaDeviceSynchronize() != cudaSuccess) {
            printf("device_heap: round %d failed: %s\n", round, cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        for (int t = 0; t < total; t++)
            if (h[t] != n * t + n * (n - 1) / 2) {
                printf("device_heap: round %d, thread %d: %d, want %d\n", round, t, h[t], n * t + n * (n - 1) / 2);
                return 1;
            }
    }
    too_big<<<1, 1>>>(d, (size_t)1 << 40); // far past the heap (the H100 rounds a heap's size up: 2 MiB
                                            // from one set to 1 MiB succeeded there, docs/gpu/s43-h100)
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    if (h[0] != 1) {
        printf("device_heap: 1 TiB from a 1 MiB heap was not NULL\n");
        return 1;
    }
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20) != cudaErrorInvalidValue) {
        printf("device_heap: the heap's size changed while in use\n");
        return 1;
    }
    (void)cudaGetLastError();
    cudaFree(d);
    printf("device_heap: correct\n");
    return 0;
}
