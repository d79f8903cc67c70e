// scripts/gpu/same_value_probe.cu - what compute-sanitizer's racecheck says about stores to one
// shared word with no barrier between them (tests/kernels/error_kernels.cu shared_flag, the same
// kernel): `./p MODE` under `compute-sanitizer --tool racecheck --racecheck-report all`.
// mode 0: every thread stores the same values (the simulator: no hazard); 1: each its own index
// (a write-after-write race); 2: the last thread alone stores 2 (a race); 3: thread 5 alone stores
// another .w into a float4 (a race on the 16-byte store's fourth word).
#include <cstdio>
#include <cstdlib>

__global__ void shared_flag(int *out, int mode)
{
    __shared__ int flag;
    __shared__ float4 v;
    unsigned t = threadIdx.x, n = blockDim.x;
    if (t == 0) {
        flag = 0;
        v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    __syncthreads();
    v = make_float4(1.0f, 2.0f, 3.0f, mode == 3 && t == 5 ? 5.0f : 4.0f);
    flag = mode == 1 ? (int)t + 1 : mode == 2 && t == n - 1 ? 2 : 1;
    if (mode == 2)
        return;
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = flag + (int)v.w;
}

// shared_parts (error_kernels.cu, the same kernel): `./p parts MODE`. mode 0: a tree reduction on
// shorts (two threads' elements a word); 2: on chars (four); 1: even threads read their odd
// neighbour's char, which it then overwrites, no barrier between.
__global__ void shared_parts(int *out, int mode)
{
    __shared__ short s[256];
    __shared__ unsigned char c[256];
    unsigned t = threadIdx.x;
    s[t] = 1;
    c[t] = 1;
    __syncthreads();
    if (mode == 1) {
        unsigned char v = c[t | 1];
        c[t] = (unsigned char)(v + 1);
        __syncthreads();
        if (t == 0)
            out[blockIdx.x] = c[0];
        return;
    }
    for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
        if (t < h) {
            if (mode == 0)
                s[t] += s[t + h];
            else
                c[t] = (unsigned char)(c[t] + c[t + h]);
        }
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = mode == 0 ? s[0] : c[0];
}

int main(int argc, char **argv)
{
    const bool parts = argc > 2;
    int mode = argc > 1 ? atoi(argv[argc - 1]) : 0, *d, h[2];
    cudaMalloc(&d, sizeof h);
    if (parts)
        shared_parts<<<2, 256>>>(d, mode);
    else
        shared_flag<<<2, 64>>>(d, mode);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s mode %d: %s, out %d %d\n", parts ? "shared_parts" : "shared_flag", mode, cudaGetErrorString(e), h[0], h[1]);
    return e != cudaSuccess;
}
