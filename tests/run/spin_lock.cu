// tests/run/spin_lock.cu - a spin lock (atomicCAS to take it, atomicExch to give it back) around a
// plain update, in shared and in global memory. Correct with the fences CUDA's memory model asks
// for (a fence after taking the lock, one before giving it back): --detail reports no race. Without
// them, or with a thread that reads outside the lock, a race, at its line.
//   spin_lock shared       fenced, a plain `sum += 1` in shared memory: no race, 128 a block
//   spin_lock volatile     the same through a volatile pointer (the holder once waited at the
//                          volatile access's lockstep for lanes at the barrier until the watchdog)
//   spin_lock global       fenced, global lock and sum: no race note, 512
//   spin_lock nofence      shared, no fences: a race at the update, which names the missing fences
//   spin_lock outside      fenced, but thread 100 reads the sum outside the lock: a race at that read
//   spin_lock gnofence     global, no fences: the race note names the missing fences
//   spin_lock oneside      shared, a fence after taking the lock but none before giving it back: a
//                          race at the update (the update comes after the only fence: not released)
//   spin_lock after        fenced, then thread 5 writes a flag after giving the lock back and thread
//                          40 reads it: a race at the read, with no word of a lock (both fences are in)
//   spin_lock barred       lane 0 holds the lock and updates through a volatile pointer, then reads a
//                          word lane 1 wrote before waiting at __syncthreads(): a race at that read
//   (review of d1e8e95, helper-84: the first two were missed or mis-worded then, the third missed)
#include <cstdio>
#include <cstring>

// mode 0 fenced, 1 volatile, 2 no fences, 3 outside, 4 oneside, 5 after, 6 barred
__global__ void shared_lock(int *out, int mode)
{
    __shared__ int lock, sum, flag, seen;
    if (threadIdx.x == 0) {
        lock = 0;
        sum = 0;
        flag = 0;
        seen = 0;
    }
    __syncthreads();
    if (mode == 3 && threadIdx.x == 100)
        out[gridDim.x + blockIdx.x] = sum; /* MARK:outside */
    if (mode == 6 && threadIdx.x == 1)
        seen = 7; /* MARK:seen */
    bool done = mode == 6 && threadIdx.x != 0 && threadIdx.x < 32; /* 6: lane 0 and warps 1-3 take it */
    while (!done) {
        if (atomicCAS(&lock, 0, 1) == 0) {
            if (mode != 2)
                __threadfence_block();
            if (mode == 1 || mode == 6)
                *(volatile int *)&sum += 1;
            else
                sum += 1; /* MARK:update */
            if (mode == 6 && threadIdx.x == 0)
                out[2 * gridDim.x + blockIdx.x] = seen; /* MARK:barred */
            if (mode != 2 && mode != 4)
                __threadfence_block();
            atomicExch(&lock, 0);
            done = true;
        }
    }
    if (mode == 5 && threadIdx.x == 5)
        flag = 1;
    if (mode == 5 && threadIdx.x == 40)
        out[gridDim.x + blockIdx.x] = flag; /* MARK:after */
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}

__global__ void global_lock(int *lock, int *sum, int fenced)
{
    bool done = false;
    while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
            if (fenced)
                __threadfence();
            *sum += 1; /* MARK:gupdate */
            if (fenced)
                __threadfence();
            atomicExch(lock, 0);
            done = true;
        }
    }
}

int main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "shared";
    int *out, *lock, *sum, h[12] = {0};
    cudaMalloc(&out, sizeof h);
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&sum, sizeof(int));
    cudaMemset(out, 0, sizeof h);
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(sum, 0, sizeof(int));
    if (!strcmp(m, "global") || !strcmp(m, "gnofence")) {
        global_lock<<<4, 128>>>(lock, sum, !strcmp(m, "global"));
        cudaError_t e = cudaMemcpy(h, sum, sizeof(int), cudaMemcpyDeviceToHost);
        printf("spin_lock %s: %s, %d\n", m, cudaGetErrorName(e), h[0]);
        return e != cudaSuccess;
    }
    const char *modes[] = {"shared", "volatile", "nofence", "outside", "oneside", "after", "barred"};
    int mode = 0;
    for (int i = 0; i < 7; i++)
        if (!strcmp(m, modes[i]))
            mode = i;
    shared_lock<<<4, 128>>>(out, mode);
    cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("spin_lock %s: %s, %d %d %d %d\n", m, cudaGetErrorName(e), h[0], h[1], h[2], h[3]);
    return e != cudaSuccess;
}
