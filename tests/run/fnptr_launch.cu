// tests/run/fnptr_launch.cu - a launch through a function pointer variable (gpu-mode's lecture 8:
// `void benchmark(void (*kernel)(int *, int))` launching `kernel<<<...>>>`) is named in the summary
// and --json by the function it points to, not by the variable; a template instance too.
#include <cstdio>

__global__ void with_divergence(int *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] = i % 2 ? 1 : 2;
}
__global__ void without_divergence(int *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] = 3;
}

template <int F> __global__ void tiled(int *x, int n)
{
    int i = threadIdx.x;
    if (i < n)
        x[i] = F;
}

static void benchmark(void (*kernel)(int *, int), int *d) { kernel<<<1, 32>>>(d, 32); }

int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    benchmark(with_divergence, d);
    benchmark(without_divergence, d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    const int first = h[5];
    benchmark(tiled<4>, d); // a template instance: named too
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("fnptr_launch: %s\n", first == 3 && h[5] == 4 ? "correct" : "WRONG");
    return !(first == 3 && h[5] == 4);
}
