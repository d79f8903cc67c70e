// histogram.cu - a 256-bin histogram of n bytes: each block counts into its
// own histogram in shared memory (atomicAdd on shared words), then adds it to
// the global one (one atomicAdd per bin per block). The input is i % 256, so
// the 32 lanes of a warp add to 32 different bins: no two lanes collide.
//   ./simtlab run examples/histogram.cu --detail [-- n blocks]
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "check.h"

#define BINS 256

__global__ void histogram(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned local[BINS];
    local[threadIdx.x] = 0; // blockDim.x == BINS
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 22, blocks = argc > 2 ? atoi(argv[2]) : 64;
    if (n <= 0 || blocks <= 0 || n % (blocks * BINS)) {
        fprintf(stderr, "usage: histogram [n [blocks]], n a multiple of blocks x %d\n", BINS);
        return 2;
    }
    std::vector<unsigned char> data(n);
    for (int i = 0; i < n; i++)
        data[i] = (unsigned char)(i % BINS);
    unsigned char *ddata;
    unsigned *dhist;
    CHECK(cudaMalloc(&ddata, n));
    CHECK(cudaMalloc(&dhist, BINS * sizeof(unsigned)));
    CHECK(cudaMemcpy(ddata, data.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dhist, 0, BINS * sizeof(unsigned)));
    histogram<<<blocks, BINS>>>(ddata, n, dhist);
    CHECK(cudaGetLastError());
    std::vector<unsigned> hist(BINS);
    CHECK(cudaMemcpy(hist.data(), dhist, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < BINS; b++)
        bad += hist[b] != (unsigned)(n / BINS);
    printf("histogram: n = %d, %d blocks, %s\n", n, blocks, bad ? "WRONG" : "correct");
    CHECK(cudaFree(ddata));
    CHECK(cudaFree(dhist));
    return bad != 0;
}
