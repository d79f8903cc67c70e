// scripts/gpu/shfl_inactive_probe.cu - what a shuffle returns when its source lane does not take
// part: not in the mask and inactive (a branch it skipped: NVIDIA's reduction sample, reduce7's
// last warp), exited, or past the block's end. CUDA calls the value undefined; the simulator gives
// the reader a value and a note (sim/launch.c warp_compute). Lane i holds 1000 + i before the
// branch; the readers hold 100 + i.
//   nvcc -arch=sm_90 -o /tmp/si scripts/gpu/shfl_inactive_probe.cu && /tmp/si
#include <cstdio>

__global__ void inactive(int *out, int mode)
{
    const int lane = threadIdx.x % 32;
    volatile int keep = 1000 + lane; // the skipped lanes' value, in a register before the branch
    int v = keep;
    if (mode == 1 && lane >= 8)
        return; // exited
    if (lane < 8) {
        v = 100 + lane;
        int a = __shfl_down_sync(0xffu, v, 16); // lane 16 + i: inactive (mode 0) or exited (mode 1)
        int b = __shfl_down_sync(0xffu, v, 4);  // lanes 0-3: lanes 4-7 (in the mask); 4-7: 8-11
        out[lane] = a;
        out[8 + lane] = b;
    }
    out[16 + lane] = v; // mode 0: the skipped lanes' registers
}

__global__ void past_end(int *out)
{
    const int lane = threadIdx.x;
    int v = 100 + lane;
    out[lane] = __shfl_down_sync(0xffffffffu, v, 8); // 16 threads: lanes 8-15 read 16-23
}

int main()
{
    int *d, h[48];
    cudaMalloc(&d, sizeof h);
    for (int mode = 0; mode < 2; mode++) {
        cudaMemset(d, 0xff, sizeof h);
        inactive<<<1, 32>>>(d, mode);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("%s: %s\n  shfl_down 16 (lanes 0-7):", mode ? "exited" : "inactive", cudaGetErrorString(e));
        for (int i = 0; i < 8; i++)
            printf(" %d", h[i]);
        printf("\n  shfl_down 4 (lanes 0-7):");
        for (int i = 0; i < 8; i++)
            printf(" %d", h[8 + i]);
        printf("\n");
    }
    cudaMemset(d, 0xff, sizeof h);
    past_end<<<1, 16>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("past_end: %s\n  shfl_down 8 (lanes 0-15):", cudaGetErrorString(e));
    for (int i = 0; i < 16; i++)
        printf(" %d", h[i]);
    printf("\n");
    return 0;
}
