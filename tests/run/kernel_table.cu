// tests/run/kernel_table.cu - kernels launched through arrays of function pointers, `table[i]<<<...>>>`
// (survey 9: NVIDIA's finite-difference sample picks its kernel so; the rewriter refused it as
// "cannot tell which kernel this <<< launches"): a local array, which the launch copies, and one
// at file scope, two-dimensional, indexed by expressions.
#include <cstdio>

__global__ void add1(int *o) { o[threadIdx.x] += 1; }
__global__ void twice(int *o) { o[threadIdx.x] *= 2; }
__global__ void square(int *o) { o[threadIdx.x] *= o[threadIdx.x]; }

void (*const steps[2][2])(int *) = {{add1, twice}, {square, add1}};

int main()
{
    int *o, h[32], bad = 0;
    cudaMalloc(&o, sizeof h);
    cudaMemset(o, 0, sizeof h);
    void (*local[3])(int *) = {add1, twice, square};
    for (int i = 0; i < 3; i++)
        local[i] <<<1, 32>>>(o); // (0 + 1) * 2, squared: 4
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            steps[r][(c + r) % 2]<<<1, 32>>>(o); // add1, twice; add1, square: ((4 + 1) * 2 + 1)^2 = 121
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += h[i] != 121;
    printf("kernel_table: %s (%d)\n", bad ? "WRONG" : "correct", h[0]);
    return bad != 0;
}
