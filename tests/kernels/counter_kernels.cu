/* tests/kernels/counter_kernels.cu - kernels for tests/test_counters.c.
 *
 * What they are: kernels whose memory traffic has a closed form the test
 * derives by hand: a strided copy (coalescing: sectors per warp request grow
 * with the stride) and the three classic transposes of an n x n float matrix
 * (naive: uncoalesced stores; tiled through a 32x32 shared tile: 32-way bank
 * conflicts on the column reads; tiled with the row padded to 33 words: no
 * conflicts). The y = 2x kernel is the lesson's own (lessons/02_scale).
 * All transposes use 32x8 threads per 32x32 tile, each thread moving 4
 * elements (rows threadIdx.y + 0, 8, 16, 24), n a multiple of 32.
 */
#include "kernel.h"
#include "counter_kernels.h"

/* copy_strided: y[i] = x[i * stride] for i < n; x is (n * stride,), y (n,). */
__global__ void copy_strided(float *y, const float *x, int n, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[(size_t)i * stride];
}

/* transpose_naive: out = in^T, both (n, n) row-major. A warp reads 32
 * consecutive floats of a row of in (coalesced) and writes them down a
 * column of out, 4n bytes apart (one sector per lane). */
__global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += TILE_ROWS)
        out[(size_t)x * n + (y + j)] = in[(size_t)(y + j) * n + x];
}

/* transpose_tiled: the tile is read from in by rows and written to out by
 * rows (both coalesced); the transpose happens in shared memory, where a
 * warp reads a column of the tile: 32 words 32 words apart, all in one bank. */
__global__ void transpose_tiled(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += TILE_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += TILE_ROWS)
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* transpose_padded: transpose_tiled with each tile row one word longer, so
 * a column's 32 words fall in 32 different banks. */
__global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += TILE_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += TILE_ROWS)
        out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* shared_doubles: one warp stores and loads 8-byte words of shared memory
 * with a stride (in doubles): s[t * stride] = t, then (after a barrier) lane
 * t loads its neighbour's s[((t + 1) % 32) * stride], so out[t] = (t+1) % 32.
 * A lane touches two 4-byte words, so a request covers 64 words: at best 2
 * wavefronts (CUDA: a 64-bit access by a full warp is two half-warp passes). */
__global__ void shared_doubles(double *out, int stride)
{
    __shared__ double s[32 * 16];
    unsigned t = threadIdx.x;
    s[t * stride] = (double)t;
    __syncthreads();
    out[t] = s[((t + 1) % 32) * stride];
}

/* shared_gather: one warp fills 32 x 32 floats of shared memory by rows (32
 * store requests of 32 consecutive words), then each lane loads word
 * (t % k) * spread: k distinct words, which share banks as spread decides;
 * lanes reading the same word are served together (broadcast). */
__global__ void shared_gather(float *out, int k, int spread)
{
    __shared__ float s[32 * 32];
    unsigned t = threadIdx.x;
    for (int j = 0; j < 32; j++)
        s[j * 32 + t] = (float)(j * 32 + t);
    __syncthreads();
    out[t] = s[(t % k) * spread];
}

/* shared_probe4: one warp fills 4096 floats of shared memory (128 store
 * requests of 32 consecutive words), then lane t makes one 128-bit load of
 * the 16-byte chunk idx[t] (floats 4 idx[t] .. 4 idx[t] + 3): one load
 * request, whose wavefronts depend on how the chunks fall into the banks. */
__global__ void shared_probe4(float *out, const int *idx)
{
    __shared__ float s[4096];
    unsigned t = threadIdx.x;
    for (int j = 0; j < 128; j++)
        s[j * 32 + t] = (float)(j * 32 + t);
    __syncthreads();
    const float4 v = load_float4(s + 4 * idx[t]);
    out[t] = v.x + v.y + v.z + v.w;
}

/* shared_probe8: the same with one 64-bit load (a double) of the 8-byte
 * item idx[t]; the shared array holds doubles 0, 1, 2, ... */
__global__ void shared_probe8(double *out, const int *idx)
{
    __shared__ double s[2048];
    unsigned t = threadIdx.x;
    for (int j = 0; j < 64; j++)
        s[j * 32 + t] = (double)(j * 32 + t);
    __syncthreads();
    out[t] = s[idx[t]];
}

/* global_float4: lane t copies the 16-byte chunk at x + 4 * stride * t to
 * y + 4 t: one 128-bit load and one 128-bit store request per warp. */
__global__ void global_float4(float *y, const float *x, int stride)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    store_float4(y + 4 * t, load_float4(x + 4 * (size_t)stride * t));
}

/* scatter_words: lane t stores the word y[(t % 16) * stride + (t / 16) * gap] (gap = 16 * stride:
 * y[t * stride]): one store request per warp, whose sectors are whole at stride 1 and written in
 * part beyond (session 30's L2 requests). */
__global__ void scatter_words(float *y, int stride, int gap)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    y[(size_t)(t % 16) * stride + (size_t)(t / 16) * gap] = (float)t;
}

/* copy_async_tile: lane t copies the 16-byte chunk at x + 4 * stride * t into
 * dynamic shared memory with copy_async_float4 (one LDGSTS request per warp),
 * waits, meets the block at a barrier and stores its neighbour's chunk to
 * y + 4 t. misuse 1: the source is shared memory; 2: the destination is y;
 * 3: no copy_async_wait_all before the barrier. */
__global__ void copy_async_tile(float *y, const float *x, int stride, int misuse)
{
    EXTERN_SHARED(float, s);
    unsigned t = threadIdx.x, u = (t + 1) % blockDim.x;
    if (misuse == 1)
        copy_async_float4(s + 4 * t, s);
    else if (misuse == 2)
        copy_async_float4(y + 4 * t, x + 4 * t);
    else
        copy_async_float4(s + 4 * t, x + 4 * (size_t)stride * t);
    if (misuse != 3)
        copy_async_wait_all();
    __syncthreads();
    store_float4(y + 4 * t, load_float4(s + 4 * u));
}

/* local_array: each thread fills a local array through a pointer and sums it
 * (n <= 64): n 4-byte stores and n 4-byte loads of thread-local memory.
 * The helpers are not inlined, so the array's address escapes and the
 * accesses stay real memory accesses (a local the compiler can see whole is
 * kept in registers or never instrumented: see tests/test_counters.c). */
__device__ __noinline__ void fill_local(int *a, int n, int seed)
{
    for (int k = 0; k < n; k++)
        a[k] = seed + k;
}

__device__ __noinline__ int sum_local(const int *a, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k];
    return s;
}

__global__ void local_array(int *out, int n)
{
    int a[64];
    fill_local(a, n, (int)threadIdx.x);
    out[threadIdx.x] = sum_local(a, n);
}

/* long_stretch: thread t sums x[t], x[t + blockDim.x], ... (no barrier in
 * the loop): detailed mode's request table must stay bounded (sim/access.c,
 * SIM_REQ_CAP) however long the stretch between barriers */
__global__ void long_stretch(float *y, const float *x, int n)
{
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += x[i];
    y[threadIdx.x] = s;
}

/* global_then_race: n global loads a thread, then each thread writes its shared word and
 * reads its neighbour's with no barrier between: a race that counting mode's sample must
 * still see after many global accesses (they do not use up its race checks' budget) */
__global__ void global_then_race(float *y, const float *x, int n)
{
    __shared__ float a[256];
    const int t = threadIdx.x;
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += x[(t + i) & 1023];
    a[t] = s;
    y[blockIdx.x * blockDim.x + t] = a[(t + 1) & 255];
}

/* shared_stretch: each thread writes its word of a 256-word shared array,
 * then, after one barrier, reads words of it n times without another barrier:
 * counting mode's bank-conflict sample drops a stretch this long (sim/launch.c,
 * SIM_SAMPLE_MAX_ACCESSES) */
__global__ void shared_stretch(float *y, int n)
{
    __shared__ float a[256];
    const int t = threadIdx.x;
    a[t] = (float)t;
    __syncthreads();
    float s = 0.0f;
    for (int i = 0; i < n; i++)
        s += a[(t + i) & 255];
    y[t] = s;
}

/* log_mix: detailed mode's log of shared accesses (sim/access.c) against its table: n rounds of
 * four loads in step (a row, a wrapping column, a broadcast, a row whose lane 0 makes a bank
 * conflict), with `generic` a fifth: a generic pointer's load, shared for half the lanes and
 * global (g, 256 floats) for the others, swapping each round (one instruction in both spaces: a
 * stretch the table must take), then lanes that part: a count
 * of loads per lane, a branch per lane, one instruction reading either window (static for even
 * lanes, dynamic for odd), 16- and 24-byte loads, a shuffle, loads after it; then stores after
 * a barrier. n > 511 passes a log's 2047 entries (the table takes the stretch over). The
 * launch needs 4096 bytes of dynamic shared memory. */
typedef struct log_mix_trio {
    float v[6];
} log_mix_trio;

__global__ void log_mix(float *out, const float *g, int n, int generic)
{
    __shared__ float4 st4[256];
    __shared__ log_mix_trio trio[32];
    EXTERN_SHARED(float, dy);
    float *st = (float *)st4;
    const int t = threadIdx.x, lane = t % 32;
    for (int i = t; i < 1024; i += blockDim.x) {
        st[i] = (float)i;
        dy[i] = (float)(2 * i);
    }
    if (t < 32)
        for (int k = 0; k < 6; k++)
            trio[t].v[k] = (float)(t + k);
    __syncthreads();
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s += st[(t + i) & 1023];
        s += st[(t * 33 + i) & 1023];
        s += dy[i & 1023];
        s += st[(lane ? lane : 33) + 64 * (i & 7)]; /* lane 0 makes bank 1 a 2-way conflict */
        if (generic) {
            const float *gp = ((lane + i) & 1) ? &st[lane] : &g[lane * 8]; /* one instruction, both spaces */
            s += *gp;
        }
    }
    for (int i = 0; i < lane % 5; i++)
        s += st[(lane * 7 + i) & 1023];
    if (lane < 7)
        s += st[lane];
    else
        s += dy[lane * 2];
    const float *p = (lane & 1) ? dy : st;
    s += p[lane * 3];
    const float4 q = st4[(lane * 5) & 255];
    const log_mix_trio tr = trio[(lane + 3) & 31];
    s += q.x + q.w + tr.v[0] + tr.v[5];
    s += __shfl_xor_sync(0xffffffffu, s, 1);
    s += st[lane ^ 3] + dy[(lane * 4) & 1023];
    __syncthreads();
    st[t & 1023] = s;
    out[blockIdx.x * blockDim.x + t] = s;
}

LAUNCHER(log_mix, (float *, out), (const float *, g), (int, n), (int, generic))
LAUNCHER(long_stretch, (float *, y), (const float *, x), (int, n))
LAUNCHER(shared_stretch, (float *, y), (int, n))
LAUNCHER(global_then_race, (float *, y), (const float *, x), (int, n))
LAUNCHER(copy_strided, (float *, y), (const float *, x), (int, n), (int, stride))
LAUNCHER(transpose_naive, (float *, out), (const float *, in), (int, n))
LAUNCHER(transpose_tiled, (float *, out), (const float *, in), (int, n))
LAUNCHER(transpose_padded, (float *, out), (const float *, in), (int, n))
LAUNCHER(local_array, (int *, out), (int, n))
LAUNCHER(shared_doubles, (double *, out), (int, stride))
LAUNCHER(shared_gather, (float *, out), (int, k), (int, spread))
LAUNCHER(shared_probe4, (float *, out), (const int *, idx))
LAUNCHER(shared_probe8, (double *, out), (const int *, idx))
LAUNCHER(global_float4, (float *, y), (const float *, x), (int, stride))
LAUNCHER(scatter_words, (float *, y), (int, stride), (int, gap))
LAUNCHER(copy_async_tile, (float *, y), (const float *, x), (int, stride), (int, misuse))
