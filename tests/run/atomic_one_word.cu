// tests/run/atomic_one_word.cu - atomics on one global word wait for each other at the L2: the
// time model charges the launch's most-hit word, floating-point ones (time_model.atomics_one_word)
// at 1.757 ns each, the H100's (OLCF's naive atomic float sum took 14.7 ms for 8 M of them), and
// integer ones (int_atomics_one_word) at 0.741 ns, as the chip issues them: one a warp where nvcc
// aggregates them (int_count: 8.19 us on the H100, 8.32 predicted), every lane's where it does
// not (int_data: 194.3 us, the constant's measure). Shared-memory atomics are not counted.
#include <cstdio>

__global__ void float_sum(const float *x, float *sum, float *other)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, x[i]);                     // every thread on one word
    atomicAdd(&other[i % 1024], 1.0f);        // 1024 words, each hit n / 1024 times
}

__global__ void int_count(int *count) { atomicAdd(count, 1); }

// an integer atomic whose address comes from loaded data: nvcc does not aggregate it, so every
// thread's reaches the L2 (here all on one word: bin[i] is 0)
__global__ void int_data(const int *bin, int *hist) { atomicAdd(&hist[bin[blockIdx.x * blockDim.x + threadIdx.x]], 1); }

__global__ void shared_sum(const float *x, float *out)
{
    __shared__ float s;
    if (threadIdx.x == 0)
        s = 0.0f;
    __syncthreads();
    atomicAdd(&s, x[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

int main()
{
    const unsigned n = 1 << 18, T = 256;
    static float h[n];
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 4);
    float *x, *sum, *other, *out;
    int *count, *bin, *hist;
    cudaMalloc(&x, sizeof h), cudaMalloc(&sum, 4), cudaMalloc(&other, 1024 * 4), cudaMalloc(&out, n / T * 4);
    cudaMalloc(&count, 4), cudaMalloc(&bin, n * 4), cudaMalloc(&hist, 4);
    cudaMemset(bin, 0, n * 4), cudaMemset(hist, 0, 4);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(sum, 0, 4), cudaMemset(other, 0, 1024 * 4), cudaMemset(count, 0, 4);
    float_sum<<<n / T, T>>>(x, sum, other);
    int_count<<<n / T, T>>>(count);
    shared_sum<<<n / T, T>>>(x, out);
    int_data<<<n / T, T>>>(bin, hist);
    float s = 0, o[1024], b[n / T];
    int c = 0, hc = 0;
    cudaMemcpy(&s, sum, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(o, other, sizeof o, cudaMemcpyDeviceToHost);
    cudaMemcpy(&c, count, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(b, out, sizeof b, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hc, hist, 4, cudaMemcpyDeviceToHost);
    int bad = s != 1.5f * n || c != (int)n || hc != (int)n; // small integers: exact in float in any order
    for (unsigned k = 0; k < 1024; k++)
        bad += o[k] != (float)(n / 1024);
    for (unsigned k = 0; k < n / T; k++)
        bad += b[k] != 1.5f * T;
    printf("atomic_one_word: %s (%d wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
