// tests/run/host_call.cu - a kernel called like a host function, without <<<grid, block>>>,
// through a template that takes "something callable" (llm.c's dev/cuda/permute.cu passes its
// kernel to benchmark_kernel, which calls kernel(args...)). On a GPU that call launches nothing;
// here the kernel's body runs on the host and its threadIdx read faults: the program dies, and
// the report says why before simtlab run says it was killed (test run_host_call).
#include <cstdio>

__global__ void add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

template <class Kernel, class... Args> static void time_it(Kernel kernel, Args... args)
{
    kernel(args...); // the mistake: no <<<grid, block>>>
}

int main()
{
    float *d, h[64];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    add_one<<<2, 32>>>(d, 64); // a real launch first: the direct call comes between launches
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("host_call: launched, h[5] = %g\n", h[5]);
    fflush(stdout);
    time_it(add_one, d, 64);
    printf("host_call: not reached\n");
    return 0;
}
