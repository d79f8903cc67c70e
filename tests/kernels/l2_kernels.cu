/* tests/kernels/l2_kernels.cu - kernels for tests/test_l2.c (the L2 model, sim/l2.c).
 *
 * Each kernel's traffic has a closed form at the sector level: grid-stride
 * loops over n floats, so every 32-byte sector of the range is touched by a
 * warp's consecutive lanes (8 floats a sector), in whatever order the blocks
 * run. The reads never write: the sum is stored only if it equals a value no
 * input here produces (the inputs are small non-negative numbers).
 */
#include "kernel.h"
#include "l2_kernels.h"

/* reads x[0..n) `passes` times, spread over the grid; one float of every
 * `stride` */
__global__ void l2_read(float *sink, const float *x, long long n, int passes, int stride)
{
    float acc = 0;
    for (int p = 0; p < passes; p++)
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n / stride;
             i += (long long)gridDim.x * blockDim.x)
            acc += x[i * stride];
    if (acc == -12345.0f)
        sink[0] = acc;
}

/* writes y[0..n) once, spread over the grid */
__global__ void l2_write(float *y, long long n, float v)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = v;
}

/* writes y[i * stride] for i in [0, n): at stride 8 one word of each sector, which the L2
 * holds partial and fetches from DRAM when it writes it back (sim/l2.c write_back) */
__global__ void l2_write_strided(float *y, long long n, int stride, float v)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i * stride] = v;
}

/* every block reads all of x[0..n): the reuse of K and V tiles by every row tile */
__global__ void l2_read_all_blocks(float *sink, const float *x, int n)
{
    float acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += x[i];
    if (acc == -12345.0f)
        sink[blockIdx.x] = acc;
}

/* block b reads chunk b % chunks of x (about n / chunks floats, contiguous; the
 * last takes the rest): a grid
 * of k x chunks blocks sweeps x k times, one sweep after another when each
 * sweep is a wave */
__device__ void read_chunk(float *sink, const float *x, long long n, int chunks)
{
    float acc = 0;
    long long len = (n / chunks) & ~15LL, c = blockIdx.x % chunks; /* chunks start 64-byte pairs */
    long long end = c == chunks - 1 ? n : (c + 1) * len;
    for (long long i = c * len + threadIdx.x; i < end; i += blockDim.x)
        acc += x[i];
    if (acc == -12345.0f)
        sink[0] = acc;
}
__global__ void l2_read_chunks(float *sink, const float *x, long long n, int chunks) { read_chunk(sink, x, n, chunks); }

/* the same, declared to hold one block an SM (as registers would: nvcc's
 * __launch_bounds__), and two */
__global__ void __launch_bounds__(256, 1) l2_read_chunks_lb1(float *sink, const float *x, long long n, int chunks)
{
    read_chunk(sink, x, n, chunks);
}
__global__ void __launch_bounds__(256, 2) l2_read_chunks_lb2(float *sink, const float *x, long long n, int chunks)
{
    read_chunk(sink, x, n, chunks);
}

/* block b reads chunk b of x, then writes chunk b of y (n floats each, in
 * gridDim.x chunks of whole 64-byte pairs): a block's writes come at its end */
__global__ void l2_read_then_write(float *y, const float *x, long long n, long long m)
{
    float acc = 0;
    const long long len = (n / gridDim.x) & ~15LL, wlen = (m / gridDim.x) & ~15LL;
    for (long long i = blockIdx.x * len + threadIdx.x; i < (blockIdx.x + 1) * len; i += blockDim.x)
        acc += x[i];
    for (long long i = blockIdx.x * wlen + threadIdx.x; i < (blockIdx.x + 1) * wlen; i += blockDim.x)
        y[i] = acc == -12345.0f ? acc : 1.0f;
}

/* writes y[0..n) once, spread over the grid, each write beside a read of
 * x[i % m]: x is read again and again while y streams through (standard
 * scores' Q and K tiles beside its S) */
__global__ void l2_write_reading(float *y, long long n, const float *x, long long m)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = x[i % m] + 1.0f;
}

/* every thread adds 1 to one counter */
__global__ void l2_atomic_one(int *counter)
{
    atomicAdd(counter, 1);
}

/* l2_turns: every thread reads x with a warp shuffle after each load (the
 * shuffle makes its warp's lanes rendezvous), and logs two events through
 * an atomic ticket: 1000 + t when thread t >= 32 starts, and t when it has
 * made 1024 global loads. Threads take turns every 1024 global accesses (the
 * L2 model's trace stays interleaved, sim/l2.c): a thread not started yet
 * runs first, so warp 1's starts come before warp 0's 1024th loads. */
__global__ void l2_turns(int *log, int *ticket, const float *x, int iters)
{
    float v = 0.0f;
    const int t = threadIdx.x;
    for (int i = 0; i < iters; i++) {
        if (i == 0 && t >= 32)
            log[atomicAdd(ticket, 1)] = 1000 + t;
        v += x[(i * 64 + t) % 4096];
        if (i == 1023)
            log[atomicAdd(ticket, 1)] = t;
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    if (v == -1.0f)
        log[0] = -1; /* never: keeps v */
}

/* Blocks below `heavy` make 4 loads a thread, the others 1; every thread one
 * store (tests/test_l2.c: where the blocks are placed). */
__global__ void l2_uneven(float *out, const float *in, int heavy)
{
    const int b = blockIdx.x, t = threadIdx.x, reps = b < heavy ? 4 : 1;
    float s = 0.0f;
    for (int r = 0; r < reps; r++)
        s += in[(t + r * 32) % 256];
    out[b * blockDim.x + t] = s;
}

LAUNCHER(l2_turns, (int *, log), (int *, ticket), (const float *, x), (int, iters))
LAUNCHER(l2_read, (float *, sink), (const float *, x), (long long, n), (int, passes), (int, stride))
LAUNCHER(l2_write, (float *, y), (long long, n), (float, v))
LAUNCHER(l2_write_strided, (float *, y), (long long, n), (int, stride), (float, v))
LAUNCHER(l2_read_all_blocks, (float *, sink), (const float *, x), (int, n))
LAUNCHER(l2_atomic_one, (int *, counter))
LAUNCHER(l2_read_chunks, (float *, sink), (const float *, x), (long long, n), (int, chunks))
LAUNCHER(l2_read_chunks_lb1, (float *, sink), (const float *, x), (long long, n), (int, chunks))
LAUNCHER(l2_read_chunks_lb2, (float *, sink), (const float *, x), (long long, n), (int, chunks))
LAUNCHER(l2_read_then_write, (float *, y), (const float *, x), (long long, n), (long long, m))
LAUNCHER(l2_write_reading, (float *, y), (long long, n), (const float *, x), (long long, m))
LAUNCHER(l2_uneven, (float *, out), (const float *, in), (int, heavy))
