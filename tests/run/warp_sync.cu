// tests/run/warp_sync.cu - the legacy "unrolled last warp" of a reduction:
// volatile shared memory and no __syncwarp between the steps, as many
// tutorials still write it (undefined since Volta, correct in practice). The
// simulator runs a warp's volatile shared accesses in lockstep, so the sum
// is right, as on a GPU.
#include <cstdio>

__device__ void last_warp(volatile int *s, int t)
{
    s[t] += s[t + 32];
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64)
        s[t] += s[t + 64];
    __syncthreads();
    if (t < 32)
        last_warp(s, t);
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    const int blocks = 4;
    int h[blocks * 128], r[blocks], *in, *out;
    for (int i = 0; i < blocks * 128; i++)
        h[i] = i % 7;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof r);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    block_sum<<<blocks, 128>>>(in, out);
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = 0; i < 128; i++)
            want += h[b * 128 + i];
        bad += r[b] != want;
    }
    printf("warp_sync: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
