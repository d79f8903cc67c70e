/* sim/kernel.h - the CUDA C subset a simtlab kernel file is written in.
 *
 * Every kernel file (.cu) includes this header and nothing else of simtlab.
 * Under nvcc it adds the macros that plain CUDA lacks a C spelling for and
 * the functions below; under gcc (the simulator build, `-x c`) it defines the CUDA names
 * themselves: threadIdx & co., __syncthreads, warp intrinsics, atomics, the
 * device math functions. It is not a host API: host drivers include
 * sim/launch.h and sim/memory.h (or the lessons' backend.h).
 *
 * The macros (see README "Writing kernels"):
 *   EXTERN_SHARED(type, name)   dynamic shared memory; CUDA's
 *                               `extern __shared__ type name[];`
 *   LAUNCHER(kernel, (T1, a1), (T2, a2), ...)
 *                               defines kernel_launch_sim / kernel_launch_cuda,
 *                               the C functions a host driver calls instead
 *                               of `kernel<<<grid, block, shared>>>(a1, a2)`.
 *   DECLARE_LAUNCHER(...)       the matching declarations, for a header.
 *   UNROLL                      `#pragma unroll` for nvcc and for gcc.
 * and these functions, the same in both builds:
 *   copy_async_float4(dst, src) copy 16 bytes from global src to shared dst
 *                               without passing through registers (cp.async,
 *                               LDGSTS; from sm_80, a plain copy before);
 *   copy_async_wait_all()       the thread's copies have landed (then a
 *                               __syncthreads shows them to the block). The
 *                               simulator completes a copy at once, counts
 *                               it apart (sim_counters.async_*), as the GPU
 *                               counts LDGSTS apart from stores, and reports
 *                               a barrier reached with copies not waited for.
 *                               Both pointers 16-byte aligned.
 *   exp2_approx(x)              2^x as the GPU's MUFU.EX2 computes it
 *                               (ex2.approx.ftz.f32: ~2 ulp, results below
 *                               2^-126 flushed to 0), one instruction where
 *                               exp2f needs a fix-up for subnormal results.
 *   tf32_round(x)               x rounded to TF32 (10 mantissa bits, to
 *                               nearest, ties away: cvt.rna.tf32.f32), as an
 *                               fp32 value whose low 13 bits are 0.
 *   mma_tf32(d, a, b)           the warp's D = A B + D on the tensor cores,
 *                               A 16 x 8, B 8 x 8, D 16 x 8 fp32, operands
 *                               read as TF32 (mma.sync.aligned.m16n8k8.row.
 *                               col.f32.tf32.tf32.f32). Every lane of the
 *                               warp calls it; lane l = 4g + t holds
 *                                 a[4] = A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]
 *                                 b[2] = B[t][g], B[t+4][g]
 *                                 d[4] = D[g][2t], D[g][2t+1], D[g+8][2t], D[g+8][2t+1].
 *   mma_tf32x3(d, ab, as, bb, bs)
 *                               the same product to fp32 accuracy from three
 *                               TF32 ones: A = Ab + As, B = Bb + Bs with
 *                               Ab = tf32_round(A), As = A - Ab; D += As Bb
 *                               + Ab Bs + Ab Bb (As Bs is below fp32's
 *                               rounding). CUTLASS calls it "fast fp32".
 *   load_float4(p), store_float4(p, v)
 *   load_float2(p), store_float2(p, v)
 *                               one 128-bit access of 4 floats at p (16-byte
 *                               aligned), or one 64-bit access of 2 (8-byte
 *                               aligned): LDG/LDS.128 (.64) on the GPU, one 16-byte (8-byte)
 *                               access in the simulator. A plain
 *                               `*(float4 *)p` is valid CUDA, but gcc splits
 *                               it into four 4-byte accesses, which the GPU
 *                               would count differently (sectors, wavefronts).
 */
#ifndef SIMTLAB_KERNEL_H
#define SIMTLAB_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "simt_cfg.h"

/* ======================================================================== */
#if defined(__CUDACC__)
/* ---- nvcc: CUDA is native; only the two macros ------------------------- */
#include <cuda_runtime.h>

#define EXTERN_SHARED(type, name) extern __shared__ __align__(16) type name[]
#define UNROLL _Pragma("unroll")

__device__ __forceinline__ float4 load_float4(const float *p) { return *(const float4 *)p; }
__device__ __forceinline__ void store_float4(float *p, float4 v) { *(float4 *)p = v; }
__device__ __forceinline__ float2 load_float2(const float *p) { return *(const float2 *)p; }
__device__ __forceinline__ void store_float2(float *p, float2 v) { *(float2 *)p = v; }
__device__ __forceinline__ float exp2_approx(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}
__device__ __forceinline__ float tf32_round(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}
__device__ __forceinline__ void mma_tf32(float d[4], const float a[4], const float b[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])),
                   "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
}
__device__ __forceinline__ void mma_tf32x3(float d[4], const float ab[4], const float as[4], const float bb[2],
                                           const float bs[2])
{
    mma_tf32(d, as, bb);
    mma_tf32(d, ab, bs);
    mma_tf32(d, ab, bb);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__device__ __forceinline__ void copy_async_float4(float *shared_dst, const float *global_src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(shared_dst)),
                 "l"(global_src));
}
__device__ __forceinline__ void copy_async_wait_all(void) { asm volatile("cp.async.wait_all;" ::: "memory"); }
#else /* before sm_80: no cp.async; a copy through registers */
__device__ __forceinline__ void copy_async_float4(float *shared_dst, const float *global_src)
{
    store_float4(shared_dst, load_float4(global_src));
}
__device__ __forceinline__ void copy_async_wait_all(void) {}
#endif

/* Returns cudaSuccess (0) or the launch error; the error is left for
 * cudaGetLastError to report as well, as after a plain <<<>>> launch. */
#define LAUNCHER(k, ...)                                                                   \
    extern "C" int k##_launch_cuda(const simt_cfg *cfg, SIMT_MAP(SIMT_PARAM, SIMT_COMMA, __VA_ARGS__)) \
    {                                                                                      \
        if (cfg->shared_bytes > 48u * 1024u) /* opt in, as every host program must */    \
            cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,          \
                                 (int)cfg->shared_bytes);                                  \
        k<<<dim3(cfg->grid.x, cfg->grid.y, cfg->grid.z),                                   \
            dim3(cfg->block.x, cfg->block.y, cfg->block.z), cfg->shared_bytes,             \
            (cudaStream_t)cfg->stream>>>(SIMT_MAP(SIMT_NAME, SIMT_COMMA, __VA_ARGS__));    \
        return (int)cudaPeekAtLastError();                                                 \
    }

#else
/* ======================================================================== */
/* ---- gcc: the simulator's definition of the CUDA names ----------------- */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct uint3 {
    unsigned x, y, z;
} uint3;
typedef struct dim3 {
    unsigned x, y, z;
} dim3;

/* float4: CUDA's 16-byte vector of 4 floats. The vector member is what makes
 * load_float4/store_float4 one 16-byte access for the instrumentation (gcc
 * splits a struct copy into its fields); kernels use .x .y .z .w. */
typedef float sim_v4sf __attribute__((vector_size(16)));
typedef union float4 {
    sim_v4sf v;
    struct {
        float x, y, z, w;
    };
} float4;
static inline __attribute__((unused, always_inline)) float4 make_float4(float x, float y, float z, float w)
{
    float4 r;
    r.x = x;
    r.y = y;
    r.z = z;
    r.w = w;
    return r;
}
static inline __attribute__((unused, always_inline)) float4 load_float4(const float *p)
{
    float4 r;
    r.v = *(const sim_v4sf *)p;
    return r;
}
static inline __attribute__((unused, always_inline)) void store_float4(float *p, float4 v)
{
    *(sim_v4sf *)p = v.v;
}
/* float2: CUDA's 8-byte vector of 2 floats, one 8-byte access likewise. */
typedef float sim_v2sf __attribute__((vector_size(8)));
typedef union float2 {
    sim_v2sf v;
    struct {
        float x, y;
    };
} float2;
static inline __attribute__((unused, always_inline)) float2 make_float2(float x, float y)
{
    float2 r;
    r.x = x;
    r.y = y;
    return r;
}
static inline __attribute__((unused, always_inline)) float2 load_float2(const float *p)
{
    float2 r;
    r.v = *(const sim_v2sf *)p;
    return r;
}
static inline __attribute__((unused, always_inline)) void store_float2(float *p, float2 v)
{
    *(sim_v2sf *)p = v.v;
}
/* The copy is checked and counted by the simulator (sim/access.c), not by
 * the instrumentation: global read, shared write, its own request kind. */
void sim_copy_async(void *dst, const void *src, unsigned size);
#define copy_async_float4(shared_dst, global_src) sim_copy_async((shared_dst), (global_src), 16)
void sim_copy_async_wait(void);
#define copy_async_wait_all() sim_copy_async_wait()
/* CUDA's ex2.approx.ftz.f32 (one MUFU.EX2, ~2 ulp, results below 2^-126
 * flushed to 0); exp2f adds a range fix-up for subnormal results. */
static inline __attribute__((unused, always_inline)) float exp2_approx(float x)
{
    const float y = exp2f(x);
    return y < 0x1p-126f ? 0.0f : y;
}

/* Kernel entry points keep external linkage so launchers and reports can
 * name them; device helpers and variables are file-local (as in CUDA's
 * whole-program mode). */
#define __global__
#define __device__ static __attribute__((unused))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
/* Host code in a kernel file (the CPU references) is not instrumented: the
 * simulator counts only what kernels do. Do not mark kernel helpers
 * __host__ __device__; write them __device__. */
#define __host__ __attribute__((no_sanitize_thread))
/* All threads of a block run on one OS thread, so block-local storage is
 * thread-local storage of that worker (sim/README: "shared memory"). */
#define __shared__ static _Thread_local __attribute__((aligned(16)))
/* __constant__ variables sit in a section of their own: a kernel that
 * writes one is reported (nvcc refuses such code; sim/access.c). */
#define __constant__ static __attribute__((section("simtlab_const")))
#define __restrict__ restrict
#define __align__(n) __attribute__((aligned(n)))
/* __launch_bounds__(T, B): nvcc gives each thread at most the registers that
 * let B blocks of T threads share an SM. B is a minimum, but a kernel that
 * declares it is one that needs those registers and takes them all (lesson
 * 4's flash v2: 168 registers, 2 blocks, where shared memory alone would
 * allow 4), so the simulator, which knows no registers, takes B as the
 * kernel's residency when it is below the threads' and shared memory's limit
 * (sim/l2.c sim_blocks_per_sm: the L2 model's window of resident blocks, the
 * time model's warps). gcc cannot attach a number to a function, so B
 * travels as the function's alignment, 32 << B bytes (B from 1 to 10; 16
 * bytes when there is no B or it is larger, where registers rarely bind),
 * read back by the launcher with __builtin_has_attribute
 * (SIM_LAUNCH_BOUNDS_BLOCKS). */
#define __launch_bounds__(...) SIM_LB_(__VA_ARGS__, 0, 0)
#define SIM_LB_(t, b, ...) __attribute__((aligned(SIM_LB_ALIGN(b))))
#define SIM_LB_ALIGN(b) ((b) <= 0 || (b) > 10 ? 16 : 32 << ((b) > 0 && (b) <= 10 ? (b) : 0))
#define SIM_LB_IS(k, b) __builtin_has_attribute(k, aligned(32 << (b)))
#define SIM_LAUNCH_BOUNDS_BLOCKS(k)                                                                        \
    (SIM_LB_IS(k, 10) ? 10u : SIM_LB_IS(k, 9) ? 9u : SIM_LB_IS(k, 8) ? 8u : SIM_LB_IS(k, 7) ? 7u           \
     : SIM_LB_IS(k, 6) ? 6u : SIM_LB_IS(k, 5) ? 5u : SIM_LB_IS(k, 4) ? 4u : SIM_LB_IS(k, 3) ? 3u           \
     : SIM_LB_IS(k, 2) ? 2u : SIM_LB_IS(k, 1) ? 1u : 0u)

/* Built-in variables: values returned by const functions, so the compiler
 * keeps them in registers and the instrumentation never sees a read. */
uint3 sim_thread_idx(void) __attribute__((const));
uint3 sim_block_idx(void) __attribute__((const));
dim3 sim_block_dim(void) __attribute__((const));
dim3 sim_grid_dim(void) __attribute__((const));
#define threadIdx (sim_thread_idx())
#define blockIdx (sim_block_idx())
#define blockDim (sim_block_dim())
#define gridDim (sim_grid_dim())
#define warpSize 32

/* Dynamic shared memory of the current block (the launch's shared_bytes). */
void *sim_dynamic_shared(void) __attribute__((const));
#define EXTERN_SHARED(type, name) type *name = (type *)sim_dynamic_shared()
/* full unrolling lets gcc keep small arrays (register tiles) in registers,
 * as nvcc does; otherwise they live on the stack and count as local memory */
#define UNROLL _Pragma("GCC unroll 16")

/* ---- barriers ----------------------------------------------------------- */
void sim_syncthreads(const char *file, int line);
int sim_syncthreads_op(int pred, int op, const char *file, int line);
enum { SIM_BAR_COUNT = 0, SIM_BAR_AND = 1, SIM_BAR_OR = 2 };
#define __syncthreads() sim_syncthreads(__FILE__, __LINE__)
#define __syncthreads_count(p) sim_syncthreads_op((p), SIM_BAR_COUNT, __FILE__, __LINE__)
#define __syncthreads_and(p) sim_syncthreads_op((p), SIM_BAR_AND, __FILE__, __LINE__)
#define __syncthreads_or(p) sim_syncthreads_op((p), SIM_BAR_OR, __FILE__, __LINE__)
#define __threadfence() ((void)0)
#define __threadfence_block() ((void)0)

/* ---- warp intrinsics: a rendezvous of the lanes named in mask ----------- */
enum { SIM_SHFL_IDX, SIM_SHFL_UP, SIM_SHFL_DOWN, SIM_SHFL_XOR };
enum { SIM_VOTE_BALLOT, SIM_VOTE_ANY, SIM_VOTE_ALL, SIM_VOTE_SYNC };
uint64_t sim_warp_shfl(unsigned mask, uint64_t v, int kind, int arg, int width, const char *file, int line);
unsigned sim_warp_vote(unsigned mask, int pred, int kind, const char *file, int line);
/* sm_70/80 warp collectives over the lanes of mask: __reduce_*_sync (v an unsigned or a
 * sign-extended int) and __match_any/all_sync (v the value, 32 or 64 bits) */
enum { SIM_COLL_ADD, SIM_COLL_MIN_U, SIM_COLL_MAX_U, SIM_COLL_MIN_I, SIM_COLL_MAX_I, SIM_COLL_AND, SIM_COLL_OR,
       SIM_COLL_XOR, SIM_COLL_MATCH_ANY, SIM_COLL_MATCH_ALL };
uint64_t sim_warp_collective(unsigned mask, uint64_t v, int op, const char *file, int line);
unsigned sim_activemask(void);

/* always_inline: a no_sanitize_thread function is not inlined into an instrumented one
 * otherwise, and every lane paid a call and a frame more a shuffle (gcc 12 and 13 inline an
 * always_inline one; the union stays in registers) */
#define SIMT_SHFL_T(T, suf, ...)                                                          \
    static inline __attribute__((unused, always_inline, no_sanitize_thread)) T sim_shfl_##suf( \
        unsigned m, T v, int kind, int arg, int w, const char *f, int l)                  \
    {                                                                                     \
        union { T t; uint64_t u; } in = {0}, out = {0};                                   \
        in.t = v;                                                                         \
        out.u = sim_warp_shfl(m, in.u, kind, arg, w, f, l);                               \
        return out.t;                                                                     \
    }
SIMT_SHFL_T(int, i)
SIMT_SHFL_T(unsigned, u)
SIMT_SHFL_T(long long, ll)
SIMT_SHFL_T(unsigned long long, ull)
SIMT_SHFL_T(float, f)
SIMT_SHFL_T(double, d)
#undef SIMT_SHFL_T
#define SIMT_SHFL(kind, m, v, a, w)                                                       \
    _Generic((v), int: sim_shfl_i, unsigned: sim_shfl_u, long: sim_shfl_ll,               \
             long long: sim_shfl_ll, unsigned long: sim_shfl_ull,                         \
             unsigned long long: sim_shfl_ull, float: sim_shfl_f, double: sim_shfl_d)(    \
        (m), (v), (kind), (a), (w), __FILE__, __LINE__)
/* width is optional in CUDA (default warpSize): pad the argument list. */
#define SIMT_SHFL4(kind, m, v, a, w, ...) SIMT_SHFL(kind, m, v, a, w)
#define __shfl_sync(...) SIMT_SHFL4(SIM_SHFL_IDX, __VA_ARGS__, 32, 0)
#define __shfl_up_sync(...) SIMT_SHFL4(SIM_SHFL_UP, __VA_ARGS__, 32, 0)
#define __shfl_down_sync(...) SIMT_SHFL4(SIM_SHFL_DOWN, __VA_ARGS__, 32, 0)
#define __shfl_xor_sync(...) SIMT_SHFL4(SIM_SHFL_XOR, __VA_ARGS__, 32, 0)
#define __ballot_sync(m, p) sim_warp_vote((m), (p), SIM_VOTE_BALLOT, __FILE__, __LINE__)
#define __any_sync(m, p) ((int)sim_warp_vote((m), (p), SIM_VOTE_ANY, __FILE__, __LINE__))
#define __all_sync(m, p) ((int)sim_warp_vote((m), (p), SIM_VOTE_ALL, __FILE__, __LINE__))
#define __syncwarp(...) ((void)sim_warp_vote((__VA_ARGS__ + 0) ? (__VA_ARGS__ + 0) : 0xffffffffu, 1, SIM_VOTE_SYNC, __FILE__, __LINE__))
#define __activemask() sim_activemask()

/* ---- tensor cores: mma.sync as a rendezvous of the whole warp ----------- */
/* Fragments on the lane's stack (registers on a GPU) are read as they are;
 * fragments in global or shared memory are counted and checked as the
 * lane's 4-byte accesses, reported at the mma's line (sim/launch.c). */
void sim_warp_mma(float *d, const float *ab, const float *as, const float *bb, const float *bs, const char *file,
                  int line);
#define mma_tf32(d, a, b) sim_warp_mma((d), (a), NULL, (b), NULL, __FILE__, __LINE__)
#define mma_tf32x3(d, ab, as, bb, bs) sim_warp_mma((d), (ab), (as), (bb), (bs), __FILE__, __LINE__)
static inline __attribute__((unused, always_inline)) float tf32_round(float x)
{
    union { float f; uint32_t u; } v = {x};
    if ((v.u & 0x7f800000u) != 0x7f800000u) /* finite: half of the last kept bit, then truncate (ties away) */
        v.u = (v.u + 0x1000u) & 0xffffe000u;
    else if (v.u & 0x007fffffu) /* NaN: quiet, its payload cut to TF32's bits (never turned into Inf) */
        v.u = (v.u | 0x00400000u) & 0xffffe000u;
    return v.f;
}

/* ---- atomics: read-modify-write of global or shared memory -------------- */
/* Counted as one read and one write of the word; grouped into warp requests
 * like any other access. Real atomics across OpenMP workers. */
enum { SIM_ATOM_ADD, SIM_ATOM_SUB, SIM_ATOM_MIN, SIM_ATOM_MAX, SIM_ATOM_EXCH, SIM_ATOM_CAS, SIM_ATOM_AND, SIM_ATOM_OR,
       SIM_ATOM_XOR, SIM_ATOM_INC, SIM_ATOM_DEC }; /* the same numbers in sim/run/include/cuda_runtime.h */
int sim_atomic_i(int *p, int v, int cmp, int op);
unsigned sim_atomic_u(unsigned *p, unsigned v, unsigned cmp, int op);
float sim_atomic_f(float *p, float v, float cmp, int op);
double sim_atomic_d(double *p, double v, double cmp, int op);
unsigned long long sim_atomic_ull(unsigned long long *p, unsigned long long v, unsigned long long cmp, int op);
unsigned short sim_atomic_us(unsigned short *p, unsigned short v, unsigned short cmp, int op);
/* simtlab run's mark before an atomic whose address is warp-uniform (sim/run/rewrite.c): nvcc
 * aggregates it, one lane issuing the warp's, and the simulator counts it so (sim/access.c) */
void sim_atomic_uniform_next(void);
/* 2 or 4 bytes, the new value op(old, v): simtlab run's atomicAdd on half and bfloat16 */
uint32_t sim_atomic_update(void *p, unsigned size, uint32_t v, uint32_t (*op)(uint32_t old, uint32_t v));
#define SIMT_ATOM(p, v, c, op)                                                            \
    _Generic((p), int *: sim_atomic_i, unsigned *: sim_atomic_u, float *: sim_atomic_f,   \
             unsigned long long *: sim_atomic_ull)((p), (v), (c), (op))
#define atomicAdd(p, v) SIMT_ATOM(p, v, 0, SIM_ATOM_ADD)
#define atomicSub(p, v) SIMT_ATOM(p, v, 0, SIM_ATOM_SUB)
#define atomicMin(p, v) SIMT_ATOM(p, v, 0, SIM_ATOM_MIN)
#define atomicMax(p, v) SIMT_ATOM(p, v, 0, SIM_ATOM_MAX)
#define atomicExch(p, v) SIMT_ATOM(p, v, 0, SIM_ATOM_EXCH)
#define atomicCAS(p, c, v) SIMT_ATOM(p, v, c, SIM_ATOM_CAS)

/* ---- device math ---------------------------------------------------------- */
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __fdividef(a, b) ((a) / (b))
#define __frcp_rn(x) (1.0f / (x))
#define __saturatef(x) fminf(fmaxf((x), 0.0f), 1.0f)
#define rsqrtf(x) (1.0f / sqrtf(x))
#define __ldg(p) (*(p))
#define __popc(x) __builtin_popcount((unsigned)(x))
#define __popcll(x) __builtin_popcountll((unsigned long long)(x))
#define __clz(x) ((unsigned)(x) ? __builtin_clz((unsigned)(x)) : 32)
#define __ffs(x) __builtin_ffs((int)(x))
#define __float_as_int(f) (((union { float f_; int i_; }){.f_ = (f)}).i_)
#define __int_as_float(i) (((union { int i_; float f_; }){.i_ = (i)}).f_)
static inline __attribute__((unused)) int sim_min_i(int a, int b) { return a < b ? a : b; }
static inline __attribute__((unused)) int sim_max_i(int a, int b) { return a > b ? a : b; }
static inline __attribute__((unused)) unsigned sim_min_u(unsigned a, unsigned b) { return a < b ? a : b; }
static inline __attribute__((unused)) unsigned sim_max_u(unsigned a, unsigned b) { return a > b ? a : b; }
static inline __attribute__((unused)) long long sim_min_ll(long long a, long long b) { return a < b ? a : b; }
static inline __attribute__((unused)) long long sim_max_ll(long long a, long long b) { return a > b ? a : b; }
static inline __attribute__((unused)) unsigned long long sim_min_ull(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline __attribute__((unused)) unsigned long long sim_max_ull(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
#define min(a, b)                                                                                  \
    _Generic((a) + (b), unsigned: sim_min_u, long: sim_min_ll, long long: sim_min_ll,               \
             unsigned long: sim_min_ull, unsigned long long: sim_min_ull, float: fminf, double: fmin, \
             default: sim_min_i)((a), (b))
#define max(a, b)                                                                                  \
    _Generic((a) + (b), unsigned: sim_max_u, long: sim_max_ll, long long: sim_max_ll,               \
             unsigned long: sim_max_ull, unsigned long long: sim_max_ull, float: fmaxf, double: fmax, \
             default: sim_max_i)((a), (b))

/* ---- launch --------------------------------------------------------------- */
int sim_launch(const simt_cfg *cfg, const char *kernel, void (*thunk)(const void *args), const void *args);

/* The thunk unpacks the argument struct (which lives in the host frame) and
 * calls the kernel; it is host code, so it is not instrumented. */
#define LAUNCHER(k, ...)                                                                   \
    struct k##_args_ { SIMT_MAP(SIMT_FIELD, SIMT_SEMI, __VA_ARGS__); };                     \
    __attribute__((no_sanitize_thread)) static void k##_thunk_(const void *p_)             \
    {                                                                                      \
        const struct k##_args_ *a_ = (const struct k##_args_ *)p_;                         \
        k(SIMT_MAP(SIMT_FROM, SIMT_COMMA, __VA_ARGS__));                                   \
    }                                                                                      \
    __attribute__((no_sanitize_thread)) int k##_launch_sim(const simt_cfg *cfg,            \
        SIMT_MAP(SIMT_PARAM, SIMT_COMMA, __VA_ARGS__))                                     \
    {                                                                                      \
        struct k##_args_ a_ = {SIMT_MAP(SIMT_NAME, SIMT_COMMA, __VA_ARGS__)};              \
        simt_cfg c_ = *cfg;                                                                \
        c_.min_blocks_per_sm = SIM_LAUNCH_BOUNDS_BLOCKS(k);                                \
        return sim_launch(&c_, #k, k##_thunk_, &a_);                                        \
    }

#endif /* __CUDACC__ */
#endif /* SIMTLAB_KERNEL_H */
