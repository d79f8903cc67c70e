// tests/run/shared_overrun.cu - a loop that writes far past a static __shared__ array's end (the
// bound of a tile loop off by a row count): on a GPU an illegal address or a corrupted neighbour;
// here the write runs off the static shared memory's end and is reported, naming it. It used to
// reach the simulator's own thread-locals first, which lie beside __shared__ variables, and hang.
#include <cstdio>
#include <cstdlib>

__global__ void overrun(float *out, int past)
{
    __shared__ float tile[256];
    tile[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int i = 0; i < past; i++)
            tile[256 + i] = 7.0f; // MARK:overrun
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

int main(int argc, char **argv)
{
    float *d;
    cudaMalloc(&d, 256 * sizeof(float));
    overrun<<<2, 256>>>(d, argc > 1 ? atoi(argv[1]) : 100000);
    printf("shared_overrun: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
