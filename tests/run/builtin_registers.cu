// tests/run/builtin_registers.cu - the built-in variables are registers: in a grid-stride loop
// that adds into a shared word, `s[t] += g[i]; i += gridDim.x * blockDim.x`, g++ keeps s[t] in a
// register as nvcc does (no shared access in the loop), which it did not while threadIdx & co.
// were calls returning a struct through memory (2432 wavefronts, 15 more a warp, over 16
// iterations). The H100: 4 wavefronts a warp (the zero stored, the sum stored, two loads), 512.
#include <cstdio>

__global__ void gridsum(const float *g, float *out, unsigned n)
{
    __shared__ float s[256];
    const unsigned t = threadIdx.x;
    s[t] = 0.0f;
    for (unsigned i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        s[t] += g[i];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t] + s[255 - t]; // 2 loads of 1 wavefront a warp
}

int main()
{
    const unsigned blocks = 16, n = blocks * 256 * 16;
    static float h[n], r[blocks * 256];
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 5);
    float *g, *o;
    cudaMalloc(&g, sizeof h), cudaMalloc(&o, sizeof r);
    cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice);
    gridsum<<<blocks, 256>>>(g, o, n);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    double sum = 0, ref = 0;
    for (unsigned k = 0; k < blocks * 256; k++)
        sum += r[k];
    for (unsigned i = 0; i < n; i++)
        ref += 2.0 * h[i]; // each word twice
    printf("builtin_registers: %s (sum %g, reference %g)\n", sum == ref ? "correct" : "WRONG", sum, ref);
    return sum != ref;
}
