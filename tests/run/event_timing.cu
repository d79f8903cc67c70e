// tests/run/event_timing.cu - cudaEventElapsedTime on the two clocks (sim/run/cudart.c): events
// around host code on an idle GPU time the host's code, as on a GPU (olcf's hw8 times its CPU
// transpose so; it read 0 ms here, "inf GB/s"), and events around a launch time the simulated GPU,
// not the seconds the simulation itself takes.
#include <chrono>
#include <cstdio>

__global__ void busy(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f + 1.0f;
}

static void host_work(double ms) // the program's own host code: about ms of wall time
{
    auto t0 = std::chrono::steady_clock::now();
    volatile double sink = 0;
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < ms)
        sink = sink + 1.0;
}

int main()
{
    const int n = 1 << 20;
    float *x;
    cudaMalloc(&x, n * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float host = 0, kernel = 0, overlap = 0;

    cudaEventRecord(a);
    host_work(30);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&host, a, b);

    auto w0 = std::chrono::steady_clock::now();
    cudaEventRecord(a);
    busy<<<n / 256, 256>>>(x, n);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    double sim_wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
    cudaEventElapsedTime(&kernel, a, b);

    busy<<<n / 256, 256>>>(x, n); // queued; the host goes on at once
    cudaEventRecord(a);           // reached when the kernel ends
    host_work(30);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&overlap, a, b);

    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(x);
    const int ok = host >= 25 && host < 300 && kernel > 0 && kernel < 1 && overlap > 20 && overlap < 300;
    printf("event_timing: %s (host code %.2f ms, a launch %.4f ms while its simulation took %.0f ms, host code "
           "after a queued launch %.2f ms)\n",
           ok ? "correct" : "WRONG", host, kernel, sim_wall, overlap);
    return !ok;
}
