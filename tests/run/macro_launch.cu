// tests/run/macro_launch.cu - launches inside function-like macros, defined before host functions:
// the macro's head stays as written (the rewriter once took `GO(K, d)` for a function's name and
// parameters and broke the build), and a launch of a macro parameter is named by the argument
// ("fill", "scale<int>"), not by the parameter's name ("K"), and so is a template kernel whose
// template argument is one too (`K<T>`: "scale<int>", where both launches were named "K<T>";
// survey 17).
#include <cstdio>

#define GO(K, d) K<<<1, 32>>>(d)
#define LAUNCH(K, n, ...)           \
    do {                            \
        K<<<1, n>>>(__VA_ARGS__);   \
    } while (0)
#define TWICE(K, T, d, by) K<T><<<1, 32>>>(d, by)

__global__ void fill(int *o) { o[threadIdx.x] = threadIdx.x; }

template <class T> __global__ void scale(T *o, T by) { o[threadIdx.x] *= by; }

static void run(int *d)
{
    GO(fill, d);
    LAUNCH(scale<int>, 32, d, 3);
    TWICE(scale, int, d, 2);
}

int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    run(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != 6 * i;
    printf("macro_launch: %s (%d wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
