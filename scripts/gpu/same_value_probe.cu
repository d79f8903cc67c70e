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

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0, *d, h[2];
    cudaMalloc(&d, sizeof h);
    shared_flag<<<2, 64>>>(d, mode);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("mode %d: %s, out %d %d\n", mode, cudaGetErrorString(e), h[0], h[1]);
    return e != cudaSuccess;
}
