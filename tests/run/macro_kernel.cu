// tests/run/macro_kernel.cu - kernels that a macro defines, which the rewriter cannot see as
// definitions: a whole definition pasted from its arguments (DEFINE_FILL), and a macro that
// writes only the head, the body following it in the source (KERNEL_HEAD). Their host-pass
// copies once won the link and ran without hooks: every launch counted 0 bytes. Each kernel
// writes 32 ints (128 bytes, 4 sectors); the last one reads them too.
#include <cstdio>

#define DEFINE_FILL(name, value) \
    __global__ void name##_kernel(int *o) { o[threadIdx.x] = value; }
DEFINE_FILL(seven, 7)
DEFINE_FILL(two, 2)

#define KERNEL_HEAD(name) __global__ void name(int *o, int by)
KERNEL_HEAD(scale_kernel) { o[threadIdx.x] *= by; }

int main()
{
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    seven_kernel<<<1, 32>>>(d);
    two_kernel<<<1, 32>>>(d);
    scale_kernel<<<1, 32>>>(d, 5);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != 10;
    printf("macro_kernel: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
