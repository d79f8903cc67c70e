// tests/run/interblock_wait.cu - blocks that wait for a flag another block sets (HeCBench mis):
// CUDA does not promise blocks run at the same time; on a GPU this one usually ends, on the
// simulator's workers the waiting blocks take every worker and the setter never starts. The
// watchdog's report says why (survey 7's D12), beside its usual list of threads.
#include <cstdio>

__global__ void wait_for_last(volatile int *flag, int *out)
{
    if (blockIdx.x == gridDim.x - 1) {
        if (threadIdx.x == 0)
            *flag = 1;
        return;
    }
    while (*flag == 0) // MARK:spin
        ;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

int main()
{
    int *flag, *out;
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, 64 * 32 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    wait_for_last<<<64, 32>>>(flag, out);
    printf("interblock_wait: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
