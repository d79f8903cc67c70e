// tests/run/timeout_turns.cu - a long kernel the watchdog stops (SIMTLAB_TIMEOUT=1 in run_case.cmake):
// every thread sums a long array with no barrier, and the threads take turns every 1024 global
// accesses (the L2 model's turn). The report names the thread it stopped at its line, and the
// others as ready to run, taking turns (they were "still running, last seen at an unknown line":
// survey 18, a-hamdi/GPU's day 50 matmul at N = 4096).
#include <cstdio>

__global__ void sum_all(const float *a, float *out, long n)
{
    float s = 0.0f;
    for (long k = 0; k < n; k++)
        s += a[k]; /* MARK:loop */
    out[threadIdx.x] = s;
}

int main()
{
    const long n = 1L << 24;
    float *a, *out;
    cudaMalloc(&a, n * sizeof(float));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    sum_all<<<1, 64>>>(a, out, n);
    printf("timeout_turns: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
