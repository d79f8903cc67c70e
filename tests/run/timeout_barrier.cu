// tests/run/timeout_barrier.cu - a kernel that only loops over __syncthreads() for longer than the
// watchdog allows (SIMTLAB_TIMEOUT=1 in run_case.cmake). The watchdog stops it as a barrier
// opens, every thread there: the report says so, not "In this block: ; 64 waiting at a barrier"
// (survey 19, caijixueIT's reduce/prefix_sum under timeout(1)).
#include <cstdio>

__global__ void spin_at_barriers(int *out, long iters)
{
    for (long i = 0; i < iters; i++)
        __syncthreads();
    out[threadIdx.x] = 1;
}

int main()
{
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    spin_at_barriers<<<1, 64>>>(d, 1L << 40);
    printf("timeout_barrier: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
