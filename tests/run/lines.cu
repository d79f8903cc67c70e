// tests/run/lines.cu - what `simtlab run --lines` must point at: one
// uncoalesced global load and one bank-conflicted shared read, each on a
// line of its own (tests/run.cmake finds the lines by their markers).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void strided(const float *in, float *out, int stride)
{
    __shared__ float tile[32][32];
    int t = threadIdx.x;
    float v = in[t * stride];                    // MARK:uncoalesced
    out[blockIdx.x * 32 + t] = v;
    tile[t][0] = v;
    __syncthreads();
    out[1024 + t] = tile[0][t] + tile[t][0];     // MARK:conflict
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 32 * 32 * sizeof(float));
    cudaMalloc(&out, 2048 * sizeof(float));
    cudaMemset(in, 0, 32 * 32 * sizeof(float));
    strided<<<1, 32>>>(in, out, 32);
    cudaError_t e = cudaDeviceSynchronize();
    printf("lines: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
