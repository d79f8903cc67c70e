// scripts/gpu/partial_warp_probe.cu - what the chip and compute-sanitizer's synccheck do with a full
// mask in a partial warp (a block of 16 threads calling __ballot_sync(0xffffffff, ...), as
// CUDA-Programming's warp.cu does): the simulator reports it (tests/test_warp.c
// full_mask_on_partial_warp); survey 6 asked whether a GPU or its sanitizer does.
//   nvcc -arch=sm_90 -o /tmp/pw scripts/gpu/partial_warp_probe.cu && /tmp/pw &&
//   compute-sanitizer --tool synccheck /tmp/pw
#include <cstdio>

__global__ void ballot16(unsigned *out)
{
    unsigned m = __ballot_sync(0xffffffffu, threadIdx.x > 0);
    int s = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
    if (threadIdx.x == 0) {
        out[0] = m;
        out[1] = (unsigned)s;
    }
}

// Lanes that exited before a full-mask vote (`if (i >= n) return;` then a full-mask warp
// reduction): the simulator reported "names lanes ..., which have exited" before session 23
// (tests/test_warp.c mask_names_exited_lane). What does the chip give, and does synccheck report it?
// (The H100: ballot 0x0000ffff, no report: docs/gpu/h100-partial-warp/pw2.txt.)
__global__ void ballot_after_exit(unsigned *out)
{
    if (threadIdx.x >= 16)
        return;
    unsigned m = __ballot_sync(0xffffffffu, 1);
    int s = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1, 16);
    if (threadIdx.x == 0) {
        out[0] = m;
        out[1] = (unsigned)s;
    }
}

// __syncwarp(0xffffffff) after lanes 16-31 exited, and lane 31 exiting late (after a delay)
// while lanes 0-30 wait at a full-mask ballot: out[2] = 1 when the syncwarp returned, out[3] the
// late ballot.
__global__ void sync_after_exit(unsigned *out)
{
    const unsigned lane = threadIdx.x;
    if (lane >= 16)
        return;
    __syncwarp(0xffffffffu);
    if (lane == 0)
        out[2] = 1;
}

__global__ void late_exit(unsigned *out)
{
    const unsigned lane = threadIdx.x;
    if (lane == 31) {
        long long t0 = clock64();
        while (clock64() - t0 < 100000)
            ;
        return;
    }
    unsigned m = __ballot_sync(0xffffffffu, 1);
    if (lane == 0)
        out[3] = m;
}

int main()
{
    unsigned *d, h[2] = {0, 0};
    cudaMalloc(&d, sizeof h);
    ballot16<<<1, 16>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("partial_warp: %s, ballot 0x%08x, lane 0's shfl_down 1 = %u\n", cudaGetErrorString(e), h[0], h[1]);
    if (e != cudaSuccess)
        return 1;
    h[0] = h[1] = 0;
    ballot_after_exit<<<1, 32>>>(d);
    e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("after_exit: %s, ballot 0x%08x, lane 0's shfl_down 1 = %u\n", cudaGetErrorString(e), h[0], h[1]);
    unsigned g[4] = {0, 0, 0, 0};
    cudaMemset(d, 0, sizeof h);
    unsigned *d4;
    cudaMalloc(&d4, sizeof g);
    cudaMemset(d4, 0, sizeof g);
    sync_after_exit<<<1, 32>>>(d4);
    e = cudaDeviceSynchronize();
    cudaMemcpy(g, d4, sizeof g, cudaMemcpyDeviceToHost);
    printf("sync_after_exit: %s, returned %u\n", cudaGetErrorString(e), g[2]);
    late_exit<<<1, 32>>>(d4);
    e = cudaDeviceSynchronize();
    cudaMemcpy(g, d4, sizeof g, cudaMemcpyDeviceToHost);
    printf("late_exit: %s, ballot 0x%08x\n", cudaGetErrorString(e), g[3]);
    return e != cudaSuccess;
}
