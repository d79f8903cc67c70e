// tests/run/trap.cu - __trap() (or, with the argument "brkpt", __brkpt()) in one thread of a
// kernel: the simulator reports it with the kernel, thread and line, and the launch fails with
// cudaErrorLaunchFailure, as a GPU's trap does; the error is sticky.
#include <cstdio>
#include <cstring>

__global__ void stop_at(int *x, int bad, bool brkpt)
{
    if ((int)threadIdx.x == bad) {
        if (brkpt)
            __brkpt(); // MARK:brkpt
        else
            __trap(); // MARK:trap
    }
    x[threadIdx.x] = 1;
}

int main(int argc, char **argv)
{
    bool brkpt = argc > 1 && !strcmp(argv[1], "brkpt");
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    stop_at<<<1, 32>>>(d, 5, brkpt);
    cudaError_t e = cudaDeviceSynchronize();
    printf("trap: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return e == cudaSuccess ? 1 : 0;
}
