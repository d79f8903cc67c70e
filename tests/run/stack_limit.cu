// tests/run/stack_limit.cu - cudaDeviceSetLimit(cudaLimitStackSize): a recursive kernel whose
// frames hold 4 KiB each runs 48 deep (about 200 KiB, past the simulator's 64 KiB default) once
// the program asks for 1 MiB of stack; without asking (`-- nolimit`) the same launch is a stack
// overflow, reported, and the program gets cudaErrorLaunchFailure; a limit past 64 MiB is refused.
#include <cstdio>
#include <cstring>

__device__ int deep(int n) // a stack overflow is reported here, at the frame that did not fit
{
    volatile char frame[4096]; // a GPU keeps this in local memory; here it is the thread's stack
    frame[n % 4096] = (char)n;
    if (n == 0)
        return frame[0];
    return deep(n - 1) + frame[n % 4096] + 1;
}

__global__ void recurse(int *out, int n) { out[threadIdx.x] = deep(n); }

int main(int argc, char **argv)
{
    const bool ask = !(argc > 1 && !strcmp(argv[1], "nolimit"));
    size_t got = 0;
    if (cudaDeviceSetLimit(cudaLimitStackSize, (size_t)1 << 30) != cudaErrorInvalidValue) {
        printf("stack_limit: 1 GiB accepted: WRONG\n");
        return 1;
    }
    cudaGetLastError();
    if (ask && (cudaDeviceSetLimit(cudaLimitStackSize, 1 << 20) || cudaDeviceGetLimit(&got, cudaLimitStackSize) ||
                got != 1 << 20)) {
        printf("stack_limit: the limit was not kept: WRONG\n");
        return 1;
    }
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    recurse<<<1, 32>>>(d, 48);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("stack_limit: %s\n", cudaGetErrorName(e));
        return 0;
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++) // deep(n) = sum over k = 1..n of (k % 256 as a signed char) + 1, + 0
        bad += h[i] != 48 + 48 * 49 / 2;
    printf("stack_limit: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
