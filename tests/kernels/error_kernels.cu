/* tests/kernels/error_kernels.cu - kernels for tests/test_errors.c.
 *
 * What they are: kernels with one deliberate illegal access each, made by
 * one chosen thread of one chosen block (so the test can check that the
 * report names that block and thread), plus the two stack hogs and a
 * shared-memory race. On a GPU most of these fault or corrupt memory;
 * compute-sanitizer reports them, and so must the simulator.
 * The comments "SITE:..." mark the lines the tests expect in the reports.
 */
#include "kernel.h"
#include "error_kernels.h"

/* read_at: out[i] = in[i], except that thread (bt) of block (bb) reads
 * in[off] instead; off may lie outside in. */
__global__ void read_at(float *out, const float *in, long long off, int bb, int bt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long k = ((int)blockIdx.x == bb && (int)threadIdx.x == bt) ? off : i;
    out[i] = in[k]; /* SITE:read_at */
}

/* write_at: out[i] = i, except that thread (bt) of block (bb) writes out[off]. */
__global__ void write_at(float *out, long long off, int bb, int bt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long k = ((int)blockIdx.x == bb && (int)threadIdx.x == bt) ? off : i;
    out[k] = (float)i; /* SITE:write_at */
}

/* dyn_shared_at: thread 0 writes dynamic shared word idx and reads it back;
 * idx may lie outside the launch's shared_bytes. */
__global__ void dyn_shared_at(int *out, int idx)
{
    EXTERN_SHARED(int, s);
    if (threadIdx.x == 0) {
        s[idx] = 5; /* SITE:dyn_shared */
        out[blockIdx.x] = s[idx];
    }
}

/* misaligned_at: thread 0 writes a 4-byte int at byte offset off of base. */
__global__ void misaligned_at(char *base, int off)
{
    if (threadIdx.x == 0)
        *(int *)(base + off) = 1; /* SITE:misaligned */
}

/* misaligned_read_at: thread 0 reads a 4-byte float at byte offset off of base. */
__global__ void misaligned_read_at(float *out, const char *base, int off)
{
    if (threadIdx.x == 0)
        out[0] = *(const float *)(base + off);
}

/* misaligned_shared_at: thread 0 writes a 4-byte int at byte offset off of
 * the dynamic shared memory. */
__global__ void misaligned_shared_at(int off)
{
    EXTERN_SHARED(char, raw); /* CUDA: one name per type of extern __shared__ array in a file */
    if (threadIdx.x == 0)
        *(int *)(raw + off) = 1;
}

/* misaligned_local4: thread 0 stores a float4 at float offset off of a
 * 16-byte aligned local array and reads it back (a misaligned 128-bit local
 * access: cudaErrorMisalignedAddress on a GPU; the CPU's movaps would fault). */
__device__ __noinline__ float local4_roundtrip(float *a, int off)
{
    store_float4(a + off, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
    return load_float4(a + off).w;
}

__global__ void misaligned_local4(float *out, int off)
{
    __align__(16) float a[12];
    if (threadIdx.x == 0)
        out[0] = local4_roundtrip(a, off);
}

/* big_local: a local array of n floats (n <= BIG_LOCAL_MAX); BIG_LOCAL_MAX
 * floats are 80 KiB, more than the simulator's default 64 KiB stack. The
 * array is volatile so the compiler keeps it in memory (as a GPU keeps a
 * large local array in local memory). */
__global__ void big_local(float *out, int n)
{
    volatile float buf[BIG_LOCAL_MAX];
    for (int k = 0; k < n; k++)
        buf[BIG_LOCAL_MAX - 1 - k] = (float)k;
    out[threadIdx.x] = buf[BIG_LOCAL_MAX - n];
}

/* huge_local: a 256 KiB local array, four times the default stack: its frame
 * jumps past the 64 KiB guard unless every page is probed (regression:
 * -fstack-clash-protection for kernel units). */
__global__ void huge_local(float *out, int n)
{
    volatile float buf[65536];
    for (int k = 0; k < n; k++)
        buf[k] = (float)k;
    out[threadIdx.x] = buf[n - 1];
}

/* byte_flags: each thread writes its own byte of a shared char array, then
 * thread 0 reads them all after a barrier: no race (regression: the race check
 * once worked on whole words and reported neighbours as racing). */
__global__ void byte_flags(int *out)
{
    __shared__ char flags[256];
    flags[threadIdx.x] = (char)1;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < (int)blockDim.x; i++)
            sum += flags[i];
        out[blockIdx.x] = sum;
    }
}

/* shared_flag: every thread stores to one shared word (and to one float4) with no barrier
 * between the stores. racecheck calls stores of the value the word already holds no
 * hazard (checked on the H100). mode 0: all store the same values (no race); 1: each
 * stores its own index + 1 (thread 1's store is the race, seen at thread 2's); 2: thread
 * n - 1 alone stores 2, as the block's last shared access (found at the block's end); 3:
 * thread 5 alone stores another .w into the float4 (a 16-byte store's fourth word). */
__global__ void shared_flag(int *out, int mode)
{
    __shared__ int flag;
    __shared__ float4 v;
    unsigned t = threadIdx.x, n = blockDim.x;
    if (t == 0) {
        flag = 0;
        v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    __syncthreads();
    v = make_float4(1.0f, 2.0f, 3.0f, mode == 3 && t == 5 ? 5.0f : 4.0f);
    flag = mode == 1 ? (int)t + 1 : mode == 2 && t == n - 1 ? 2 : 1; /* SITE:flag_write */
    if (mode == 2)
        return;
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = flag + (int)v.w;
}

/* shared_flag_more: the deferred write hazard's corners (review of shared_flag). 64 threads.
 * mode 0: each thread copies its own 13-int struct into one shared struct, all words but the
 * last different (a race: a copy's words are all checked before any is stored); 1: the same
 * struct from every thread (no race); 2: threads 0 and 32 store 1, warp 1 meets (__syncwarp),
 * thread 33 reads it (a read-after-write race with thread 0, whom the same-value store must not
 * hide); 3: thread 32 makes 4096 shared stores of its own (its warp's request table fills and
 * lets other lanes run), then overwrites thread 0's store with another value (a race); 4-6: below. */
typedef struct Big13 {
    int v[13];
} Big13;
__global__ void shared_flag_more(int *out, int mode)
{
    __shared__ Big13 s;
    __shared__ int flag, buf[16 * 64];
    unsigned t = threadIdx.x;
    if (mode <= 1) {
        Big13 b;
        for (int i = 0; i < 13; i++)
            b.v[i] = mode == 1 || i == 12 ? 7 : (int)t * 100 + i;
        s = b; /* SITE:copy_write */
        __syncthreads();
        if (t == 0)
            out[blockIdx.x] = s.v[0] + s.v[12];
        return;
    }
    if (mode == 2) {
        if (t == 0)
            flag = 1;
        if (t >= 32) {
            if (t == 32)
                flag = 1;
            __syncwarp();
            if (t == 33)
                out[blockIdx.x] = flag; /* SITE:flag_read */
        }
        return;
    }
    if (mode == 4) { /* lanes of warp 0 store the same value, meet, one reads it: no race */
        if (t == 0)
            flag = 0;
        __syncthreads();
        if (t < 32) {
            flag = 1;
            __syncwarp(0xffffffffu);
            if (t == 5)
                out[blockIdx.x] = flag + 1000; /* not mode 2's line: gcc would merge the two */
        }
        return;
    }
    if (mode == 5) { /* threads 0 and 32 copy different structs from shared memory into one: GCC's
                      * store hook comes before the load's (a race) */
        __shared__ Big13 src[2];
        if (t < 2)
            for (int i = 0; i < 13; i++)
                src[t].v[i] = (int)t * 100 + i;
        __syncthreads();
        if (t % 32 == 0)
            s = src[t / 32]; /* SITE:copy_shared */
        __syncthreads();
        if (t == 0)
            out[blockIdx.x] = s.v[0];
        return;
    }
    if (t == 0 && mode != 6)
        flag = 100;
    if (t >= 32 || mode == 6) { /* 6: all store 1 after their 4096 stores (no race) */
        for (int i = 0; i < 4096; i++)
            buf[(i & 15) * 64 + t] = i;
        if (mode == 6)
            flag = 1;
        else if (t == 32)
            flag = 32; /* SITE:flag_late */
    }
    __syncthreads();
    if (t == 0)
        out[blockIdx.x] = flag + buf[32];
}

/* shared_parts: threads whose elements share a shared word (shorts, chars). mode 0: a tree
 * reduction of 256 shorts, `s[t] += s[t + h]` (no race: each thread writes the element only it
 * read); 2: the same on chars (four threads a word); 1: even threads read their odd neighbour's
 * char and odd threads then overwrite it, with no barrier (a write-after-read race). */
__global__ void shared_parts(int *out, int mode)
{
    __shared__ short s[256];
    __shared__ unsigned char c[256];
    unsigned t = threadIdx.x;
    s[t] = 1;
    c[t] = 1;
    __syncthreads();
    if (mode == 1) {
        unsigned char v = c[t | 1];
        c[t] = (unsigned char)(v + 1); /* SITE:parts_write */
        __syncthreads();
        if (t == 0)
            out[blockIdx.x] = c[0];
        return;
    }
    for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
        if (t < h) {
            if (mode == 0)
                s[t] += s[t + h];
            else
                c[t] = (unsigned char)(c[t] + c[t + h]);
        }
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = mode == 0 ? s[0] : c[0];
}

/* recurse: depth levels of a function that keeps a local in each frame (so
 * the call cannot become a loop); returns depth * (depth + 1) / 2. */
__device__ __noinline__ int recurse(int depth)
{
    volatile int keep[16];
    keep[0] = depth;
    int below = depth > 0 ? recurse(depth - 1) : 0;
    return below + keep[0];
}

__global__ void deep_recursion(int *out, int depth)
{
    out[threadIdx.x] = recurse(depth);
}

/* shared_rotate: s[t] = t, then out[i] = s[(t + shift) % n]: the word read
 * was written by another thread, so a barrier must separate the two. With
 * use_barrier == 0 that is a race (reported in detailed mode). */
__global__ void shared_rotate(int *out, int shift, int use_barrier)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = (int)t; /* SITE:race_write */
    if (use_barrier)
        __syncthreads();
    out[blockIdx.x * n + t] = s[(t + (unsigned)shift) % n]; /* SITE:race_read */
}

/* shared_reread: every thread reads a 64-word tile twice, whole words read by several and not
 * written, in static shared memory or, with dyn, dynamic; then
 *   mode 0: a barrier, thread 5 writes word 3, a barrier, every thread reads it: no race;
 *   mode 1: thread 7 writes word 3 with no barrier: write-after-read, with several readers;
 *   mode 2: a barrier, thread 0 writes word 3 and every thread reads it with no barrier between:
 *           read-after-write at thread 1 (the word's bit from the epoch before must not hide it). */
__global__ void shared_reread(int *out, int mode, int dyn)
{
    __shared__ int st[64];
    EXTERN_SHARED(int, ds);
    int *s = dyn ? ds : st;
    const unsigned t = threadIdx.x;
    if (t < 64)
        s[t] = (int)t * 3;
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 64; i++)
            acc += s[i];
    if (mode == 1) {
        if (t == 7)
            s[3] = acc; /* SITE:reread_war */
    } else {
        __syncthreads();
        if (t == (mode == 0 ? 5u : 0u))
            s[3] = acc + 1;
        if (mode == 0)
            __syncthreads();
        acc += s[3]; /* SITE:reread_raw */
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

/* scribble_stack: thread 0 publishes the address of its local variable in
 * shared memory; thread 1 writes through it (another thread's stack). */
__global__ void scribble_stack(int *out)
{
    __shared__ int *where;
    volatile int mine = 7;
    if (threadIdx.x == 0)
        where = (int *)&mine;
    __syncthreads();
    if (threadIdx.x == 1)
        *where = 8; /* SITE:scribble */
    __syncthreads();
    out[threadIdx.x] = mine;
}

LAUNCHER(read_at, (float *, out), (const float *, in), (long long, off), (int, bb), (int, bt))
LAUNCHER(write_at, (float *, out), (long long, off), (int, bb), (int, bt))
LAUNCHER(dyn_shared_at, (int *, out), (int, idx))
LAUNCHER(misaligned_at, (char *, base), (int, off))
LAUNCHER(misaligned_read_at, (float *, out), (const char *, base), (int, off))
LAUNCHER(misaligned_shared_at, (int, off))
LAUNCHER(misaligned_local4, (float *, out), (int, off))
LAUNCHER(big_local, (float *, out), (int, n))
LAUNCHER(deep_recursion, (int *, out), (int, depth))
LAUNCHER(huge_local, (float *, out), (int, n))
LAUNCHER(byte_flags, (int *, out))
LAUNCHER(shared_flag, (int *, out), (int, mode))
LAUNCHER(shared_parts, (int *, out), (int, mode))
LAUNCHER(shared_flag_more, (int *, out), (int, mode))
LAUNCHER(shared_rotate, (int *, out), (int, shift), (int, use_barrier))
LAUNCHER(shared_reread, (int *, out), (int, mode), (int, dyn))
LAUNCHER(scribble_stack, (int *, out))
