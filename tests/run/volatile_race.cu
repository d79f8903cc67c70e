// tests/run/volatile_race.cu - volatile shared accesses against plain ones, under `simtlab run --detail`
// (tests/scripts/run_case.cmake, case volatile_race). A block of 128 threads sums 128 ints:
//   ./volatile_race          the classic reduction: a loop of __syncthreads() steps down to 64, then
//                            the last warp unrolled through a volatile pointer (correct: no report)
//   ./volatile_race nosync   the same without the __syncthreads() before the last warp: its volatile
//                            reads race with the other warp's plain stores (ENCCS's reduction_gpu_7,
//                            survey 16: a wrong sum, silently, before)
//   ./volatile_race flag     warp 0 stores its data plainly, fences and raises a volatile flag;
//                            thread 32 spins on the flag, fences and reads the data through a
//                            volatile pointer: ordered by the memory model (no report)
#include <cstdio>
#include <cstring>

#define T 128

__device__ void last_warp(volatile int *v, int t)
{
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
}

__global__ void reduce_k(const int *x, int *out, int sync)
{
    __shared__ int s[T];
    const int t = threadIdx.x;
    s[t] = x[t];
    __syncthreads();
    if (t < 64)
        s[t] += s[t + 64];
    if (sync)
        __syncthreads();
    if (t < 32)
        last_warp(s, t);
    if (t == 0)
        *out = s[0];
}

__global__ void flag_k(const int *x, int *out)
{
    __shared__ int data[32];
    __shared__ int f;
    volatile int *vd = data, *vf = &f;
    if (threadIdx.x == 0)
        f = 0;
    __syncthreads();
    if (threadIdx.x < 32) {
        data[threadIdx.x] = x[threadIdx.x];
        __threadfence_block();
        __syncwarp();
        if (threadIdx.x == 0)
            *vf = 1;
    } else if (threadIdx.x == 32) {
        while (*vf == 0) {
        }
        __threadfence_block();
        int s = 0;
        for (int i = 0; i < 32; i++)
            s += vd[i];
        *out = s;
    }
}

int main(int argc, char **argv)
{
    int h[T], *x, *out, got = 0, want = 0;
    for (int i = 0; i < T; i++)
        want += h[i] = i % 11 - 3;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    const char *w = argc > 1 ? argv[1] : "";
    if (!strcmp(w, "flag")) {
        flag_k<<<1, 64>>>(x, out);
        cudaError_t e = cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
        int sum = 0;
        for (int i = 0; i < 32; i++)
            sum += h[i];
        printf("volatile_race flag: %s, %s\n", cudaGetErrorString(e), got == sum ? "correct" : "WRONG");
        return 0;
    }
    reduce_k<<<1, T>>>(x, out, strcmp(w, "nosync") != 0);
    cudaError_t e = cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
    if (argc > 1) {
        printf("volatile_race %s: %s\n", w, cudaGetErrorString(e));
        return 0;
    }
    printf(e == cudaSuccess && got == want ? "volatile_race: correct\n" : "volatile_race: WRONG (%d, expected %d)\n", got,
           want);
    return got != want;
}
