// tests/run/extern_shared.cu - an extern __shared__ array is an array, as in CUDA, in a function
// and at file scope: `(int *)&buf` and `&buf[0]` are the block's dynamic shared memory (`&buf`
// was the address of a local pointer: writes through it went to the thread's stack), `buf`
// passed where an `int *` is wanted, `sizeof(buf[0])`. Its accesses count as shared memory.
#include <cstdio>

extern __shared__ float fbuf[]; // file scope

__device__ void twice(int *p, int i) { p[i] *= 2; }

// out[i] = 2 (i + 1) + 4000
__global__ void in_function(int *out)
{
    extern __shared__ int buf[];
    int *t = (int *)&buf; // MARK:address
    t[threadIdx.x] = threadIdx.x + 1;
    __syncthreads();
    twice(buf, threadIdx.x);
    __syncthreads();
    const int *first = &buf[0];
    out[blockIdx.x * blockDim.x + threadIdx.x] = first[threadIdx.x] + (int)sizeof(buf[0]) * 1000;
}

// out[i] = the next thread's value, i + 1 (mod the block), + 4000
__global__ void at_file_scope(int *out)
{
    float *t = (float *)&fbuf;
    t[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    float *first = &fbuf[0];
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        (int)first[(threadIdx.x + 1) % blockDim.x] + (int)sizeof(fbuf[0]) * 1000;
}

int main()
{
    const int blocks = 2, threads = 64, n = blocks * threads;
    int h[n], *d, bad = 0;
    cudaMalloc(&d, sizeof h);
    in_function<<<blocks, threads, threads * sizeof(int)>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += h[i] != 2 * (i % threads + 1) + 4000;
    at_file_scope<<<blocks, threads, threads * sizeof(float)>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += h[i] != (i + 1) % threads + 4000;
    printf("extern_shared: %s (%s)\n", bad ? "WRONG" : "correct", cudaGetErrorString(cudaGetLastError()));
    return bad != 0;
}
