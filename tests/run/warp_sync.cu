// tests/run/warp_sync.cu - the legacy "unrolled last warp" of a reduction:
// volatile shared memory and no __syncwarp between the steps, as many
// tutorials still write it (undefined since Volta, correct in practice), and
// the same in global memory (CUDA_Freshman's in-place reductions). The
// simulator runs a warp's volatile shared and global accesses in lockstep, so
// the sums are right, as on a GPU; a thread's own volatile locals are not
// waited on.
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

// the last warp with plain stores and volatile loads (professional-cuda-c-programming's
// reduceInteger-sync: `idata[tid] += vmem[tid + 16]`, a barrier between the steps): a GPU makes
// a warp's loads of one instruction before its stores, so lane t reads t + 16 before lane t + 16
// writes it. The simulator's lanes run one after another, so it waits for the warp after a
// volatile access too (at the lane's next access), not only before it.
__global__ void mixed_sum(int *data, int *out, int in_shared)
{
    __shared__ int s[128];
    int t = threadIdx.x, *d = in_shared ? s : data + blockIdx.x * 128;
    if (in_shared)
        s[t] = data[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64)
        d[t] += d[t + 64];
    __syncthreads();
    volatile int *v = d;
    for (int k = 32; k >= 1; k /= 2) {
        if (t < 32)
            d[t] += v[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = d[0];
}

// lane 0 waits on the clock for a flag lane 1 sets after a volatile store: the store's lockstep
// must not wait for lane 0 for ever (it did: the clock's yield did not let it go on, as a spin's does)
__global__ void clock_poll(int *flag, int *other)
{
    if (threadIdx.x == 0) {
        while (*flag == 0)
            clock64();
    } else {
        *(volatile int *)other = 1;
        *flag = 1;
    }
}

// the whole reduction in place in global memory, the last warp through a volatile pointer
__global__ void global_sum(int *data, int *out)
{
    int t = threadIdx.x, *d = data + blockIdx.x * 128;
    if (t < 64)
        d[t] += d[t + 64];
    __syncthreads();
    if (t < 32) {
        volatile int *v = d;
        volatile int mine = t; // a local: no other lane reads it
        v[t] += v[t + 32] + (mine - t);
        v[t] += v[t + 16];
        v[t] += v[t + 8];
        v[t] += v[t + 4];
        v[t] += v[t + 2];
        v[t] += v[t + 1];
    }
    if (t == 0)
        out[blockIdx.x] = d[0];
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
    int bad = 0, g[blocks];
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    global_sum<<<blocks, 128>>>(in, out);
    cudaMemcpy(g, out, sizeof g, cudaMemcpyDeviceToHost);
    int m[2][blocks];
    for (int sh = 0; sh < 2; sh++) {
        cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
        mixed_sum<<<blocks, 128>>>(in, out, sh);
        cudaMemcpy(m[sh], out, sizeof m[sh], cudaMemcpyDeviceToHost);
    }
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = 0; i < 128; i++)
            want += h[b * 128 + i];
        bad += r[b] != want;
        if (g[b] != want) {
            printf("warp_sync: block %d's sum in global memory is %d, expected %d\n", b, g[b], want);
            bad++;
        }
        for (int sh = 0; sh < 2; sh++)
            if (m[sh][b] != want) {
                printf("warp_sync: block %d's sum with plain stores and volatile loads in %s memory is %d, "
                       "expected %d\n", b, sh ? "shared" : "global", m[sh][b], want);
                bad++;
            }
    }
    cudaMemset(in, 0, 8);
    clock_poll<<<1, 2>>>(in, in + 1);
    cudaError_t ce = cudaDeviceSynchronize();
    if (ce != cudaSuccess) {
        printf("warp_sync: the clock poll ended with %s\n", cudaGetErrorString(ce));
        bad++;
    }
    printf("warp_sync: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
