// scripts/gpu/inc_dec_probe.cu - is atomicInc / atomicDec with the limit ~0u aggregated by nvcc?
// (session 33: tests/run/atomic_aggregate.cu's k_many counted 1280 atomic sectors on an H100
// against the simulator's 2272: one of its inc and dec on u[3] with ~0u was one a warp). Each
// kernel alone, so that compare mode's atomic sectors say which: 1024 = every lane, 32 = a warp.
#include <cstdio>
__global__ void inc_max(unsigned *u) { atomicInc(&u[0], ~0u); }
__global__ void dec_max(unsigned *u) { atomicDec(&u[1], ~0u); }
__global__ void inc_small(unsigned *u) { atomicInc(&u[2], 1u << 30); }
__global__ void dec_small(unsigned *u) { atomicDec(&u[3], 1u << 30); }
int main()
{
    unsigned *u, h[4];
    cudaMalloc(&u, sizeof h);
    cudaMemset(u, 0, sizeof h);
    inc_max<<<4, 256>>>(u);
    dec_max<<<4, 256>>>(u);
    inc_small<<<4, 256>>>(u);
    dec_small<<<4, 256>>>(u);
    cudaMemcpy(h, u, sizeof h, cudaMemcpyDeviceToHost);
    printf("inc_dec_probe: %u %u %u %u\n", h[0], h[1], h[2], h[3]);
    return 0;
}
