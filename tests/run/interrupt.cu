// tests/run/interrupt.cu - a long launch stopped by SIGTERM (`timeout`) or Ctrl-C: the launch is
// stopped where its threads are, with a report, and the run ends with the launches so far and the
// signal's exit status (sim/launch.c, on_interrupt). It printed nothing before (survey 12).
// With a second argument the program interrupts itself nowhere: after a quick launch it waits in
// its own host code (run_interrupt_host) until the test's signal comes:
//   spin   a busy loop;   sleep   sleep(30), which a signal handler that returns cuts short;
//   own    its own SIGINT handler, installed before any runtime call: Ctrl-C runs it, the loop
//          ends, and the program ends as it chooses (exit 0 here).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>

__global__ void quick(float *x) { x[threadIdx.x] = 1.0f; }

__global__ void slow(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (int k = 0; k < n; k++)
        s += x[(i + k) & 1023] * 0.5f;
    x[i & 1023] = s;
}

static volatile sig_atomic_t own_stop;
static void own_handler(int) { own_stop = 1; }

static double now_s()
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1;
    const char *host = argc > 2 ? argv[2] : nullptr;
    if (host && !strcmp(host, "own"))
        signal(SIGINT, own_handler);
    float *x;
    cudaMalloc(&x, 4096 * sizeof(float));
    quick<<<1, 32>>>(x);
    if (host) {
        cudaDeviceSynchronize();
        printf("interrupt: in host code (%s)\n", host);
        fflush(stdout);
        const double t0 = now_s();
        if (!strcmp(host, "sleep")) {
            sleep(30); // a handler that returns cuts it short
        } else {
            volatile double sink = 0;
            while (!own_stop && now_s() - t0 < 30)
                sink = sink + 1.0;
        }
        printf("interrupt: host code done after %.1f s%s\n", now_s() - t0, own_stop ? ", own handler ran" : "");
        cudaFree(x);
        return 0;
    }
    slow<<<4096, 256>>>(x, n);
    printf("interrupt: finished (%d)\n", (int)cudaDeviceSynchronize());
    return 0;
}
