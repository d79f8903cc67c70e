// tests/run/partial_warp.cu - warp intrinsics with lanes that exited or lie past the block's end:
// they drop out of a full mask, as on the H100 (docs/gpu/h100-partial-warp). A warp reduction after
// `if (i >= n) return;`, guarded so that no lane uses a value it read from an exited lane, sums
// right; the read itself (undefined in CUDA) is a note, not a failure. A 16-thread block's
// full-mask ballot (CUDA-Programming's warp.cu) gives the 16 lanes' bits.
#include <cstdio>

__global__ void guarded_sum(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    for (int o = 16; o > 0; o /= 2) {
        float w = __shfl_down_sync(0xffffffffu, v, o); // MARK:read
        if ((int)(threadIdx.x % 32) + o < 32 && i + o < n)
            v += w;
    }
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, v);
}

__global__ void ballot16(unsigned *out)
{
    unsigned b = __ballot_sync(0xffffffffu, threadIdx.x > 0);
    __syncwarp();
    out[threadIdx.x] = b;
}

int main()
{
    const int n = 1000;
    float *x, *s;
    unsigned *b;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&s, sizeof(float));
    cudaMallocManaged(&b, 16 * sizeof(unsigned));
    for (int i = 0; i < n; i++)
        x[i] = (float)(i % 7);
    *s = 0;
    guarded_sum<<<(n + 255) / 256, 256>>>(x, s, n);
    ballot16<<<1, 16>>>(b);
    cudaError_t e = cudaDeviceSynchronize();
    double want = 0;
    for (int i = 0; i < n; i++)
        want += i % 7;
    int ok = e == cudaSuccess && *s == (float)want;
    for (int t = 0; t < 16; t++)
        ok &= b[t] == 0x0000fffeu;
    printf("partial_warp: %s (%s, sum %g of %g, ballot 0x%08x)\n", ok ? "correct" : "WRONG", cudaGetErrorString(e),
           *s, want, b[0]);
    return !ok;
}
