// tests/run/interrupt.cu - a long launch stopped by SIGTERM (`timeout`) or Ctrl-C: the launch is
// stopped where its threads are, with a report, and the run ends with the launches so far and the
// signal's exit status (sim/launch.c, on_interrupt). It printed nothing before (survey 12).
#include <cstdio>
#include <cstdlib>

__global__ void quick(float *x) { x[threadIdx.x] = 1.0f; }

__global__ void slow(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < n; k++)
        s += x[(i + k) & 1023] * 0.5f;
    x[i & 1023] = s;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1;
    float *x;
    cudaMalloc(&x, 4096 * sizeof(float));
    quick<<<1, 32>>>(x);
    slow<<<4096, 256>>>(x, n);
    printf("interrupt: finished (%d)\n", (int)cudaDeviceSynchronize());
    return 0;
}
