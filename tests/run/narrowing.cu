// tests/run/narrowing.cu - a template kernel whose braced initializer narrows for some of its types
// (`T{0.5f}` with T = int or long: nvcc's front end warns, #2361-D; g++ alone refuses it): it
// builds, and the narrowing is the conversion's (0). Prints "narrowing: correct" or the mismatch.
#include <cstdio>

template <typename T>
__global__ void fill(T *out, const T *in, int n)
{
    int i = threadIdx.x;
    out[i] = i < n ? in[i] : T{0.5f};
}

template <typename T>
static int check(const char *name)
{
    T h[32], *a, *b;
    for (int i = 0; i < 32; i++)
        h[i] = (T)(i + 1);
    cudaMalloc(&a, sizeof h);
    cudaMalloc(&b, sizeof h);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    fill<<<1, 32>>>(b, a, 16);
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(a);
    cudaFree(b);
    for (int i = 0; i < 32; i++)
        if (h[i] != (i < 16 ? (T)(i + 1) : (T)0.5f)) {
            printf("narrowing: %s, element %d: %g\n", name, i, (double)h[i]);
            return 1;
        }
    return 0;
}

int main()
{
    if (check<int>("int") || check<long>("long") || check<float>("float"))
        return 1;
    printf("narrowing: correct\n");
    return 0;
}
