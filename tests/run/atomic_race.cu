// tests/run/atomic_race.cu - shared-memory atomics against plain accesses of other threads: a block
// histogram whose bins are zeroed, filled with atomicAdd and read back, each step after a barrier.
//   atomic_race          all three barriers: correct, no race in --detail
//   atomic_race init     no barrier after the zeroing: a thread zeroes a bin other threads already
//                        counted into (a GPU loses counts): in --detail a race at the zeroing
//   atomic_race final    no barrier before the read-back: a race at the read
//   atomic_race tail     an atomic past the bins' end, the kernel's last statement: reported at its line
//   atomic_race counterN a shared counter's atomics against plain accesses, N = 1-4 (below): a race each
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
// a shared counter and its atomics (helper-80's cases: each a race on a GPU, none reported before):
//   1 thread 0 reads the counter while the others add to it (an atomic after another's read)
//   2 the zeroing thread adds too, with no barrier after its zeroing
//   3 thread 64 overwrites the counter between the others' atomics
//   4 thread 0 reads the counter right after its own atomic, while the others add
//   5 (a block of one warp) the zeroing, __syncwarp(), the atomics: no race, the count 32
__global__ void counter(int *out, int mode) {
    __shared__ int cnt;
    if (threadIdx.x == 0)
        cnt = 0;
    if (mode == 5) /* one warp: __syncwarp orders the zeroing before its lanes' atomics (no race) */
        __syncwarp();
    else if (mode != 2)
        __syncthreads();
    if (mode == 1) {
        if (threadIdx.x == 0)
            out[blockIdx.x] = cnt;
        else
            atomicAdd(&cnt, 1); /* MARK:c1 */
    } else {
        atomicAdd(&cnt, 1); /* MARK:c2 */
        if (mode == 3 && threadIdx.x == 64)
            cnt = 1000; /* MARK:c3 */
        if (mode == 4 && threadIdx.x == 0)
            out[blockIdx.x] = cnt;
    }
    __syncthreads();
    if (threadIdx.x == 0 && mode != 1 && mode != 4)
        out[blockIdx.x] = cnt;
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
    if (argc > 1 && !strncmp(argv[1], "counter", 7)) {
        int *o;
        cudaMalloc(&o, 2 * sizeof(int));
        const int m = argv[1][7] - '0';
        counter<<<2, m == 5 ? 32 : 128>>>(o, m);
        int h = 0;
        const cudaError_t e = cudaMemcpy(&h, o, sizeof h, cudaMemcpyDeviceToHost);
        printf("atomic_race %s: %s, %d\n", argv[1], cudaGetErrorName(e), h);
        return e == cudaSuccess ? 0 : 2;
    }
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
