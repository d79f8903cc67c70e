/* tests/kernels/fault_kernels.cu - kernels for tests/test_faults.c: faults a
 * CPU would die of (integer division by zero, a store into read-only host
 * data), writes a GPU forbids (host static data, __constant__ memory),
 * threads that never end, and threads that spin on a flag another thread of
 * the block sets (legal since Volta). The comments "SITE:..." mark the lines
 * the tests expect in the reports. */
#include <string.h>

#include "kernel.h"
#include "fault_kernels.h"

/* out[i] = num / den for thread (bt) of block (bb), num / 1 for the others */
__global__ void divide_at(int *out, int num, int den, int bb, int bt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int d = ((int)blockIdx.x == bb && (int)threadIdx.x == bt) ? den : 1;
    out[i] = num / d; /* SITE:divide */
}

/* thread bt stores 7 through p (a host pointer, of whatever kind) */
__global__ void store_through(int *out, int *p, int bt)
{
    if ((int)threadIdx.x == bt)
        p[0] = 7; /* SITE:store_through */
    out[threadIdx.x] = 1;
}

/* thread bt clears n ints at p with memset: the C library's stores are not
 * instrumented, so only the CPU's fault can tell */
__global__ void memset_through(int *out, int *p, int n, int bt)
{
    if ((int)threadIdx.x == bt)
        memset(p, 0, (size_t)n * sizeof(int));
    out[threadIdx.x] = 1;
}

__constant__ int table[4] = {1, 2, 3, 4};

/* thread bt writes a __constant__ variable (nvcc refuses this; the
 * simulator must report it) */
__global__ void write_constant(int *out, int bt)
{
    int *t = (int *)table; /* nvcc would refuse even this cast's store */
    if ((int)threadIdx.x == bt)
        t[1] = 9; /* SITE:write_constant */
    out[threadIdx.x] = table[threadIdx.x % 4];
}

__device__ int counter;

/* __device__ variables are writable: every thread adds 1, thread 0 of the
 * last block to finish... simply: each block's thread 0 reads it at the end */
__global__ void device_counter(int *out)
{
    atomicAdd(&counter, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = counter;
}

/* thread (bt) of block (bb) never ends; with others_wait, the other threads
 * wait at a barrier it never reaches */
__global__ void spin_forever(int *out, int bb, int bt, int others_wait)
{
    if ((int)blockIdx.x == bb && (int)threadIdx.x == bt)
        for (;;) { /* SITE:forever */
        }
    if (others_wait)
        __syncthreads(); /* SITE:forever_barrier */
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

/* threads bt and up loop for ever after a barrier, the ones before bt end: the watchdog stops
 * the looping thread that ran, the others are ready and never run again */
__global__ void spin_after_barrier(int *out, int bt)
{
    __shared__ int s[64];
    s[threadIdx.x] = (int)threadIdx.x;
    __syncthreads(); /* SITE:spin_barrier */
    unsigned x = 0; /* even for ever (s[6] is 6): the loop never ends */
    while ((int)threadIdx.x >= bt) { /* SITE:spin_after */
        x += (unsigned)s[(threadIdx.x + 1) % blockDim.x]; /* SITE:spin_after_body */
        if (x == 1u) /* SITE:spin_after_test */
            break;
    }
    out[threadIdx.x] = (int)x;
}

/* thread 0 loops for ever after a barrier and a shuffle (64 threads): the shuffle releases warp
 * 0's lanes while the barrier's release is still resuming warp 1, and warp 1's after them, so
 * both wait in the ready queue as runs of lanes when the watchdog stops thread 0 (a loop with
 * no access: one over shared memory would let the others run, from counting mode's sampled
 * stretch, whose request table makes room by yielding) */
__global__ void spin_after_shuffle(int *out)
{
    __syncthreads();
    const int v = __shfl_xor_sync(0xffffffffu, (int)threadIdx.x, 1); /* SITE:spin_shuffle */
    if (threadIdx.x == 0)
        for (;;) { /* SITE:spin_shuffle_loop */
        }
    out[threadIdx.x] = v;
}

/* thread bt loops for ever over global loads and stores (instrumented accesses) */
__global__ void loop_forever_loads(float *out, const float *in, int bt)
{
    int i = threadIdx.x;
    if (i == bt)
        for (unsigned k = 0;; k++)
            out[i] = in[k % 32] + 1.0f; /* SITE:forever_loads */
    out[i] = in[i];
}

/* thread 0 waits until the block's last thread has set a flag in shared
 * memory; the others set their slot. Legal since Volta (independent thread
 * scheduling); threads here run one after another, so thread 0 must yield. */
__global__ void wait_for_last(int *out)
{
    __shared__ volatile int flag;
    __shared__ volatile int slot[256]; /* volatile: ordered by the flag, not a barrier */
    if (threadIdx.x == 0) {
        flag = 0;
        slot[0] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        while (flag == 0) /* SITE:wait_flag */
            ;
        int sum = 0;
        for (unsigned i = 1; i < blockDim.x; i++)
            sum += slot[i];
        out[blockIdx.x] = sum;
    } else {
        slot[threadIdx.x] = (int)threadIdx.x;
        __threadfence_block();
        if (threadIdx.x == blockDim.x - 1)
            flag = 1;
    }
}

/* threads 0 .. pollers - 1 poll a global flag with atomicAdd(flag, 0) until thread 31 sets it
 * (two pollers ping-ponged and never let thread 31 start: session 22) */
__global__ void wait_for_global_flag(int *out, int *flag, int pollers)
{
    if ((int)threadIdx.x < pollers) {
        int polls = 0;
        while (atomicAdd(flag, 0) == 0)
            polls++;
        if (threadIdx.x == 0)
            out[0] = polls > 0;
    } else if (threadIdx.x == 31) {
        atomicExch(flag, 1);
    }
}

/* every thread adds its index to out[0] under a spin lock (atomicCAS) */
__global__ void spin_lock_sum(int *out, int *lock)
{
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    volatile int *o = out;
    o[0] = o[0] + (int)threadIdx.x;
    __threadfence();
    atomicExch(lock, 0);
}

LAUNCHER(divide_at, (int *, out), (int, num), (int, den), (int, bb), (int, bt))
LAUNCHER(store_through, (int *, out), (int *, p), (int, bt))
LAUNCHER(memset_through, (int *, out), (int *, p), (int, n), (int, bt))
LAUNCHER(write_constant, (int *, out), (int, bt))
LAUNCHER(device_counter, (int *, out))
LAUNCHER(spin_forever, (int *, out), (int, bb), (int, bt), (int, others_wait))
LAUNCHER(spin_after_barrier, (int *, out), (int, bt))
LAUNCHER(spin_after_shuffle, (int *, out))
LAUNCHER(loop_forever_loads, (float *, out), (const float *, in), (int, bt))
LAUNCHER(wait_for_last, (int *, out))
LAUNCHER(wait_for_global_flag, (int *, out), (int *, flag), (int, pollers))
LAUNCHER(spin_lock_sum, (int *, out), (int *, lock))
