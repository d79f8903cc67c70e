/* tests/kernels/barrier_kernels.cu - kernels for tests/test_barrier.c.
 *
 * What they are: correct uses of __syncthreads (a block-wide reversal
 * through shared memory, a tree reduction, the counting barriers, a barrier
 * that block 0 never reaches because it exits wholly) and the two kinds of
 * barrier divergence the simulator must report instead of hanging.
 * The comments "SITE:..." mark lines the tests look up to check the file:line
 * that a report names; keep them on the barrier's line.
 */
#include "kernel.h"
#include "barrier_kernels.h"

/* reverse_block: out[b*n + t] = in[b*n + (n-1-t)], n = blockDim.x <= 1024.
 * Every thread reads a word another thread wrote, so without the barrier
 * the result would depend on the order threads run in. */
__global__ void reverse_block(int *out, const int *in)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x, n = blockDim.x;
    size_t base = (size_t)blockIdx.x * n;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[n - 1 - t];
}

/* reduce_tree: out[b] = sum of in[b*n .. b*n+n), n = blockDim.x a power of
 * two <= 1024; log2(n) barriers, half the threads dropping out each round
 * (they keep reaching the barrier: the guard is on the work). */
__global__ void reduce_tree(int *out, const int *in)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x;
    s[t] = in[(size_t)blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

/* sync_ops: pred is (total threads,); each thread writes the results of
 * __syncthreads_count, _and and _or of its predicate to res[3*i .. 3*i+2]. */
__global__ void sync_ops(int *res, const int *pred)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    int p = pred[i];
    int c = __syncthreads_count(p);
    int a = __syncthreads_and(p);
    int o = __syncthreads_or(p);
    res[3 * i] = c;
    res[3 * i + 1] = a;
    res[3 * i + 2] = o;
}

/* skip_block0: block 0 returns before the barrier as a whole (all its
 * threads), which is legal; the other blocks rotate through shared memory:
 * out[b*n + t] = b*n + (t+1) % n. out of block 0 keeps its old contents. */
__global__ void skip_block0(int *out)
{
    __shared__ int s[1024];
    if (blockIdx.x == 0)
        return;
    unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = (int)(blockIdx.x * n + t);
    __syncthreads();
    out[blockIdx.x * n + t] = s[(t + 1) % n];
}

/* exit_then_wait: threads t >= k return, threads t < k meet at a barrier:
 * it waits for the threads that have not exited (sm_70 and later; the H100
 * runs it, synccheck silent), so they pass it and see each other's writes. */
__global__ void exit_then_wait(int *out, int k)
{
    EXTERN_SHARED(int, s);
    const int t = (int)threadIdx.x;
    if (t >= k)
        return;
    s[t] = 100 + t;
    __syncthreads(); /* SITE:exit_wait */
    out[blockIdx.x * blockDim.x + t] = s[(t + 1) % k];
}

/* two_barriers: threads t < k wait at one barrier, the others at another
 * (a barrier inside a divergent branch). */
__global__ void two_barriers(int *out, int k)
{
    int t = (int)threadIdx.x;
    if (t < k) {
        out[t] = 1;
        __syncthreads(); /* SITE:branch_a */
        out[t] += 10;
    } else {
        out[t] = 2;
        __syncthreads(); /* SITE:branch_b */
        out[t] += 20;
    }
}

/* mixed_reduce: warp 0 at __syncthreads_count, warp 1 at a plain __syncthreads(): warp-uniform
 * sites, but a reduction's count would cover warp 0 alone (PTX: bar.red mixed with bar.sync is
 * undefined). */
__global__ void mixed_reduce(int *out)
{
    int t = (int)threadIdx.x;
    if (t < 32)
        out[t] = __syncthreads_count(1); /* SITE:mixed_count */
    else {
        __syncthreads(); /* SITE:mixed_plain */
        out[t] = 0;
    }
}

/* diverge_in_block: only block `bad` diverges: its thread 3 waits at a
 * barrier of its own while the others wait at the common one (a barrier in a
 * branch that splits warp 0). Every other block is correct. */
__global__ void diverge_in_block(int *out, int bad)
{
    if ((int)blockIdx.x == bad && threadIdx.x == 3) {
        __syncthreads(); /* SITE:own_barrier */
        return;
    }
    __syncthreads(); /* SITE:one_block */
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

LAUNCHER(reverse_block, (int *, out), (const int *, in))
LAUNCHER(reduce_tree, (int *, out), (const int *, in))
LAUNCHER(sync_ops, (int *, res), (const int *, pred))
LAUNCHER(skip_block0, (int *, out))
LAUNCHER(exit_then_wait, (int *, out), (int, k))
LAUNCHER(mixed_reduce, (int *, out))
LAUNCHER(two_barriers, (int *, out), (int, k))
LAUNCHER(diverge_in_block, (int *, out), (int, bad))
