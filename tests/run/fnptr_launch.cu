// tests/run/fnptr_launch.cu - a launch through a function pointer variable (gpu-mode's lecture 8:
// `void benchmark(void (*kernel)(int *, int))` launching `kernel<<<...>>>`) is named in the summary
// and --json by the function it points to, not by the variable; a template instance too; and so is
// one through a function-pointer template parameter (`template <void (*K)(int *, int)>`, survey
// 19: xiaohuangyu's cuda_learning 12_atomic_race/03, whose three kernels were all named K).
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

template <void (*K)(int *, int)>
static void bench_t(int *d)
{
    K<<<1, 32>>>(d, 32);
}

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
    const int second = h[5];
    bench_t<with_divergence>(d);
    bench_t<tiled<5>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    const int ok = first == 3 && second == 4 && h[5] == 5;
    printf("fnptr_launch: %s\n", ok ? "correct" : "WRONG");
    return !ok;
}
