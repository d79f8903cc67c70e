// tests/run/atomic_race.cu - shared-memory atomics against plain accesses of other threads: a block
// histogram whose bins are zeroed, filled with atomicAdd and read back, each step after a barrier.
//   atomic_race          all three barriers: correct, no race in --detail
//   atomic_race init     no barrier after the zeroing: a thread zeroes a bin other threads already
//                        counted into (a GPU loses counts): in --detail a race at the zeroing
//   atomic_race final    no barrier before the read-back: a race at the read
//   atomic_race tail     an atomic past the bins' end, the kernel's last statement: reported at its line
#include <cstdio>
#include <cstring>
#define BINS 64
__global__ void hist(const unsigned char *data, int n, unsigned *bins, int mode) {
    __shared__ unsigned local[BINS];
    if (threadIdx.x < BINS)
        local[threadIdx.x] = 0; /* MARK:zero */
    if (mode != 1)
        __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    if (mode != 2)
        __syncthreads();
    if (threadIdx.x < BINS)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]); /* MARK:read */
}
// an atomic past the array's end as a kernel's last statement (g++ would make it a jump, not a
// call, and the report named the simulator's own code): the report names its line
__global__ void tail_oob(unsigned *bins) {
    atomicAdd(&bins[threadIdx.x + BINS / 2], 1u); /* MARK:tail */
}
int main(int argc, char **argv) {
    const int mode = argc > 1 ? (!strcmp(argv[1], "init") ? 1 : !strcmp(argv[1], "final") ? 2 : 0) : 0;
    const int n = 1 << 14;
    static unsigned char h[1 << 14];
    for (int i = 0; i < n; i++)
        h[i] = (unsigned char)(i * 7 + 3);
    unsigned char *d;
    unsigned *bins, out[BINS];
    cudaMalloc(&d, n);
    cudaMalloc(&bins, sizeof out);
    cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
    cudaMemset(bins, 0, sizeof out);
    if (argc > 1 && !strcmp(argv[1], "tail")) {
        tail_oob<<<1, BINS>>>(bins);
        printf("atomic_race tail: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
        return 2;
    }
    hist<<<8, 256>>>(d, n, bins, mode);
    cudaError_t e = cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("atomic_race: %s\n", cudaGetErrorName(e));
        return 2;
    }
    unsigned total = 0;
    for (int b = 0; b < BINS; b++)
        total += out[b];
    printf("atomic_race: total %u of %d\n", total, n);
    return total != (unsigned)n;
}
