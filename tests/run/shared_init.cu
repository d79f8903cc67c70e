// tests/run/shared_init.cu - __shared__ objects whose type has a constant, non-zero initializer
// (dim3's constructor, a struct's default member initializers): nvcc takes them, and runs no
// initializer for shared memory. g++ puts them in .tdata, which came before the simulator's
// own thread-locals, outside the static __shared__ window: every access was reported as
// "invalid ... before the start of the static __shared__ memory". Thread 0 writes both objects
// (20 bytes), every thread reads both after the barrier (20 bytes each).
#include <cstdio>

struct Acc {
    float m = -1.0f; // a running maximum's start, as a softmax kernel writes it
    int n = 3;
};

__global__ void use_shared(int *o)
{
    __shared__ dim3 d;
    __shared__ Acc a;
    if (threadIdx.x == 0) {
        d = dim3(blockDim.x, 2, 3);
        a.m = 4.0f;
        a.n = 5;
    }
    __syncthreads();
    o[threadIdx.x] = (int)(d.x + d.y + d.z) + (int)a.m + a.n;
}

int main()
{
    int *o, h[32];
    cudaMalloc(&o, sizeof h);
    use_shared<<<1, 32>>>(o);
    cudaError_t e = cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    int bad = e != cudaSuccess;
    for (int i = 0; i < 32 && !bad; i++)
        bad += h[i] != 32 + 2 + 3 + 4 + 5;
    printf("shared_init: %s (%s)\n", bad ? "WRONG" : "correct", cudaGetErrorName(e));
    return bad != 0;
}
