// tests/run/kernel_lambda.cu - a template kernel launched with a __device__ lambda (its instance
// has internal linkage, so this file builds in the single instrumented pass: run_case checks the
// note) and through a function pointer held in a local variable: the kernel call and its
// captures are read by the threads from the launch's argument block, as a GPU reads its
// parameter space.
#include <cstdio>

template <class F> __global__ void each(int n, F f)
{
    int i = threadIdx.x;
    if (i < n)
        f(i);
}
__global__ void twice(int *o) { o[threadIdx.x] *= 2; }

int main()
{
    int *o, h[32], bad = 0;
    cudaMalloc(&o, sizeof h);
    each<<<1, 32>>>(32, [=] __device__(int i) { o[i] = 3 * i; });
    void (*fp)(int *) = twice; // a local variable: the launch copies it
    fp<<<1, 32>>>(o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += h[i] != 6 * i;
    printf("kernel_lambda: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
