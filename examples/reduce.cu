// reduce.cu - the sum of n floats: each block of BLOCK threads adds 2 x BLOCK
// of them, a tree in shared memory down to 64 partial sums, then the last
// warp with register shuffles (__shfl_down_sync), and one atomicAdd per
// block into the result, a double: into a float, every block's add would be
// rounded to the float's step near the total (at n = 2^26, 131072 adds to a
// sum near 3.4e7, whose step is 4), and the sum drifts past the check.
//   ./simtlab run examples/reduce.cu --detail [-- n]    (n a multiple of 512)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

template <unsigned BLOCK>
__global__ void reduce_sum(const float *in, double *out)
{
    __shared__ float partial[BLOCK];
    unsigned tid = threadIdx.x, i = blockIdx.x * 2 * BLOCK + tid;
    partial[tid] = in[i] + in[i + BLOCK];
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        float v = partial[tid] + partial[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid == 0)
            atomicAdd(out, (double)v);
    }
}

int main(int argc, char **argv)
{
    const unsigned BLOCK = 256;
    long n = argc > 1 ? atol(argv[1]) : 1L << 22;
    if (n <= 0 || n % (2 * BLOCK)) {
        fprintf(stderr, "usage: reduce [n, a positive multiple of %u]\n", 2 * BLOCK);
        return 2;
    }
    std::vector<float> x(n);
    double ref = 0;
    for (long i = 0; i < n; i++) {
        x[i] = (float)((i * 37) % 101) / 101.0f;
        ref += x[i];
    }
    float *dx;
    double *dsum, sum = 0;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dsum, sizeof(double)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dsum, 0, sizeof(double)));
    reduce_sum<BLOCK><<<n / (2 * BLOCK), BLOCK>>>(dx, dsum);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&sum, dsum, sizeof(double), cudaMemcpyDeviceToHost));
    double rel = fabs(sum - ref) / ref; // each block's float tree: within 9 x 2^-24 of its exact sum
    printf("reduce: n = %ld, sum %.6g, reference %.6g, %s\n", n, sum, ref, rel <= 1e-5 ? "correct" : "WRONG");
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dsum));
    return rel > 1e-5;
}
