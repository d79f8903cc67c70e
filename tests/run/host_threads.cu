// tests/run/host_threads.cu - two host threads calling the runtime at once (cudaMemcpy,
// cudaEventRecord, cudaEventSynchronize, cudaMalloc/cudaFree), then events around host code: they
// must time that code (about 30 ms). The runtime's host clock keeps a depth of calls in progress
// and the time they took (sim/run/cudart.c, api_enter); plain statics updated by both threads lost
// updates, and a depth left off 0 froze the host's clock: the events then read 0 ms.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = 2.0f * x[i];
}

static void host_work(double ms)
{
    auto t0 = std::chrono::steady_clock::now();
    volatile double sink = 0;
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < ms)
        sink = sink + 1.0;
}

static int hammer(float *d, int iters)
{
    float h[16] = {0};
    cudaEvent_t e;
    if (cudaEventCreate(&e))
        return 1;
    int bad = 0;
    for (int i = 0; i < iters; i++) {
        bad |= cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess;
        bad |= cudaEventRecord(e) != cudaSuccess;
        bad |= cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess;
        bad |= cudaEventSynchronize(e) != cudaSuccess;
        if (i % 64 == 0) {
            void *p;
            bad |= cudaMalloc(&p, 256) != cudaSuccess;
            bad |= cudaFree(p) != cudaSuccess;
        }
    }
    cudaEventDestroy(e);
    return bad;
}

// events around ms of host code (the runtime's clock must follow it)
static float timed_host_work(double ms)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float t = -1;
    cudaEventRecord(a);
    host_work(ms);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    cudaEventElapsedTime(&t, a, b);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t;
}

int main(int argc, char **argv)
{
    const int rounds = 8, iters = argc > 1 ? atoi(argv[1]) : 500000;
    const int n = 1 << 12;
    float *x, *d0, *d1;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&d0, 64 * sizeof(float));
    cudaMalloc(&d1, 64 * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    scale<<<n / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
    int bad = 0, wrong_round = -1;
    float worst = 1e9f;
    auto w0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; r++) { // each round: both threads at once, then 10 ms timed
        int bad0 = 0, bad1 = 0;
        std::thread t0([&] { bad0 = hammer(d0, iters); });
        std::thread t1([&] { bad1 = hammer(d1, iters); });
        t0.join();
        t1.join();
        bad |= bad0 | bad1;
        const float t = timed_host_work(10);
        if (t < worst)
            worst = t;
        if ((t < 8 || t > 200) && wrong_round < 0)
            wrong_round = r;
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    const float host = timed_host_work(30);
    cudaFree(x);
    cudaFree(d0);
    cudaFree(d1);
    const int ok = !bad && wrong_round < 0 && host >= 25 && host < 300;
    printf("host_threads: %s (%d rounds of %d calls a thread in %.2f s, errors %d; events around 10 ms of host code "
           "after each: at least %.2f ms%s; around 30 ms at the end: %.2f ms)\n",
           ok ? "correct" : "WRONG", rounds, 4 * iters, wall, bad, worst,
           wrong_round >= 0 ? " (wrong from a round on)" : "", host);
    return !ok;
}
