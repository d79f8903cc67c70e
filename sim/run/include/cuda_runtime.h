/* sim/run/include/cuda_runtime.h - what an ordinary CUDA program includes,
 * for `simtlab run` (C++, g++): the runtime API (simtlab_cudart.h, C, over
 * the simulator), CUDA's C++ forms of it (templates, dim3), and the names a
 * kernel uses (threadIdx, __syncthreads, __shfl_*_sync, atomics, the device
 * math functions), mapped onto the simulator's C core as sim/kernel.h maps
 * them for the lessons' C kernel files.
 *
 * Every function of this file compiled into a program is instrumented
 * (-fsanitize=thread hooks, sim/access.c): inside a launch the hooks count,
 * outside one they return at once (host code is not counted). The launch
 * machinery below is not instrumented (no_sanitize_thread): it reads the
 * arguments from the host frame.
 *
 * The <<<grid, block, shared, stream>>> syntax is rewritten by `simtlab
 * run` before compilation (sim/run/rewrite.c) into SIMTLAB_LAUNCH_ below;
 * `extern __shared__ T name[];` into a pointer to the block's dynamic
 * shared memory.
 */
#ifndef SIMTLAB_CUDA_RUNTIME_H
#define SIMTLAB_CUDA_RUNTIME_H
#ifndef __cplusplus
#error "simtlab: cuda_runtime.h is C++ (a .cu file is C++ to nvcc); the lessons' C kernel files include sim/kernel.h"
#endif

#include <climits> /* nvcc's headers bring <limits.h> (driver_types.h): UINT_MAX and co. */
#include <cmath>
#include <math.h> /* as nvcc's math_functions.h: libstdc++'s C++ <math.h> puts std's isfinite, isnan,
                     isinf, signbit and the float overloads into the global namespace (survey 9) */
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <ctime>
#include <time.h>
#include <tuple>
#include <type_traits>
#include <utility>

/* The shim headers spell their single-letter names (template and macro parameters) _SimT,
 * _SimN, ...: a program's macro (`-DN=1024` on the command line) must not reach them. Their
 * comments name them by the plain letter. Test run_macro_names. */
#include "simtlab_cudart.h"

#define CUDART_VERSION SIMTLAB_CUDART_VERSION
/* an inline PTX operand's bits for simtlab_ptx_asm (sim/run/ptx.c): a float's or a double's as
 * they are (an "f" or "d" register), an integer's or a pointer's value */
inline unsigned long long simtlab_ptx_bits(float v)
{
    unsigned u;
    memcpy(&u, &v, 4);
    return u;
}
inline unsigned long long simtlab_ptx_bits(double v)
{
    unsigned long long u;
    memcpy(&u, &v, 8);
    return u;
}
/* by value: an operand `&src[i]` of a `const float *__restrict__ src` in a template is restrict-
 * qualified, and a const reference cannot bind it (g++: "discards qualifiers"; survey 17) */
template <class _SimT> inline unsigned long long simtlab_ptx_bits(_SimT v) { return (unsigned long long)v; }
#define __CUDA_RUNTIME_H__
#define SIMTLAB_RUN 1

/* ---- qualifiers ----------------------------------------------------------- */
#ifndef SIMTLAB_HOST_FN /* simtlab-run defines these (-D): rewrite.h */
#define SIMTLAB_HOST_FN
#endif
#ifndef SIMTLAB_DEV_FN
#define SIMTLAB_DEV_FN
#endif
#ifndef SIMTLAB_KERNEL_MARK /* the host pass's `hot`: run.c finds its kernels with internal linkage by it */
#define SIMTLAB_KERNEL_MARK
#endif
/* The instrumented passes (SIMTLAB_DEVICE_PASS: run.c) inline every call a kernel makes, as nvcc
 * inlines __device__ functions: GCC's ThreadSanitizer pass instruments assignments, not a call's
 * aggregate arguments or result, so `r[i] = pmin(a[i], b[i])` with a struct P passed by value to
 * a function g++ kept out of line read and wrote 0 bytes (HeCBench's f16max; test run_struct_args).
 * Inlined, the copies are loads and stores, counted and checked. __noinline__ is dropped there for
 * the same reason (the chip's caller loads such arguments from memory too); recursion stays a call. */
#ifdef SIMTLAB_DEVICE_PASS
#define __global__ __attribute__((noinline, used, flatten)) SIMTLAB_KERNEL_MARK
#else
#define __global__ __attribute__((noinline, used)) SIMTLAB_KERNEL_MARK
#endif
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
/* __noinline__ is empty in every pass. libstdc++ writes it as an attribute's name:
 * __attribute__((__noinline__)) in shared_ptr (GCC 12 on), __attribute__((__noinline__,
 * __noclone__, __cold__)) in basic_string (GCC 13), where CUDA's `__attribute__((noinline))` would
 * nest one attribute in another and stop the host pass (the device machine's g++ 13 did: the
 * single-pass fallback then built NVIDIA's bf16TensorCoreGemm without __CUDA_ARCH__; test
 * run_std_headers). Empty, those lists stay valid. The instrumented passes drop it anyway (above);
 * in the host pass it only ever kept host code out of line, which changes nothing it computes.
 * <memory> stays included here, as it was when it had to come before the macro. */
#include <memory>
#define __noinline__
#define __launch_bounds__(...)
#define __block_size__(...) /* nvcc 12.9's block size attribute: the launch gives the block's size here */
#define __restrict__ __restrict
/* At most a page: static __shared__ variables are thread-local storage here, and the dynamic loader
 * refuses a TLS segment aligned past a page ("cannot apply additional memory protection after
 * relocation": `__shared__ __align__(16 * 1024) char smem[...]`, tpoisonooo's MMult_cuda_5; survey
 * 18). Bank and sector counts look at an address's low 7 bits only. */
#define __align__(n) __attribute__((aligned((n) > 4096 ? 4096 : (n))))
#define __grid_constant__
/* All threads of a block run on one OS thread: block-local storage is the
 * thread-local storage of that worker (sim/README "shared memory"). __constinit (GCC's
 * extension, C++20's constinit): an object of a class type with a constructor (__half, any
 * user struct with one) is not initialized at run time, as CUDA has it; without it GCC guards
 * even a trivial default initialization with a thread-local flag, and every thread's read of
 * that flag was a shared-memory access and, in detailed mode, a race (test run_static_shared). */
#ifndef SIMTLAB_SHARED_DYNAMIC_INIT /* sim/run/run.c: a class GCC cannot build constinit */
#define __shared__ __constinit static thread_local __attribute__((aligned(16)))
#else
#define __shared__ static thread_local __attribute__((aligned(16)))
#endif
/* __constant__ data sits in a section of its own: a kernel that writes it is
 * reported (sim/access.c); host code fills it with cudaMemcpyToSymbol. */
#define __constant__ __attribute__((section("simtlab_const")))
/* a const-qualified one (`__constant__ const T x[] = {...}`): read-only data may not share a
 * section with writable data (g++: "section type conflict"); the rewriter writes this instead */
#define SIMTLAB_CONST_RO __attribute__((section("simtlab_cro")))
#define __managed__

/* ---- vector types ------------------------------------------------------- */
struct uint3 {
    unsigned x, y, z;
};
struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
/* The alignments are CUDA's (vector_types.h): a 2-vector of 4-byte elements is 8-aligned, of
 * 8-byte ones 16, so a copy of one is one 8- or 16-byte access here as it is one LDG.64 or LDG.128
 * on the chip (a float2 aligned to 4 was two 4-byte requests, twice the chip's sectors); structs
 * holding them are laid out as nvcc lays them out. The 3-vectors keep their elements' alignment. */
/* A 2- or 4-vector is copied whole: one access of its size (16-byte pieces past 16: double4's
 * two), as nvcc's LDG/STG.64 or .128, where g++'s SRA would split `float4 v = in[i]; ... v.x ...`
 * into one 4-byte load a field used (4x the requests and, a warp's lanes 16 bytes apart, 4x the
 * sectors). A user-provided copy makes the types non-trivially copyable (docs/run.md). */
template <class _SimV> static inline __attribute__((always_inline)) void simtlab_whole(_SimV *d, const _SimV *s)
{
    constexpr size_t n = sizeof(_SimV) < 16 ? sizeof(_SimV) : 16;
    typedef char simtlab_b __attribute__((vector_size(n), may_alias, aligned(alignof(_SimV) < n ? alignof(_SimV) : n)));
    for (size_t o = 0; o < sizeof(_SimV); o += n)
        *(simtlab_b *)(void *)((char *)d + o) = *(const simtlab_b *)(const void *)((const char *)s + o);
}
#ifdef SIMTLAB_TRIVIAL_VECTORS /* the driver's second try (run.c vector_copy_refused): plain structs */
#define SIMTLAB_WHOLE2(_SimN, _SimT)
#define SIMTLAB_WHOLE4(_SimN, _SimT)
#else
#define SIMTLAB_WHOLE_COMMON(_SimN)                                                           \
    _SimN() = default;                                                                        \
    _SimN(const _SimN &o) { simtlab_whole(this, &o); }                                            \
    _SimN &operator=(const _SimN &o) { simtlab_whole(this, &o); return *this; }
/* Braces only: `float4 v = {a, b}`, `{0}`, `{}` as for an aggregate, but no constructor from one
 * scalar, which would turn brace elision (`float2 c[] = {1, 2, 3, 4}`: two float2s to nvcc) into
 * one vector a scalar, silently, and `struct { float4 p; float m; } s = {1, 2, 3, 4, 5}` into an
 * error; both now fail to compile here and the driver builds the program with plain vectors. */
template <class _SimT> constexpr _SimT simtlab_elem_at(std::initializer_list<_SimT> l, size_t i)
{
    return i < l.size() ? l.begin()[i] : _SimT();
}
#define SIMTLAB_WHOLE2(_SimN, _SimT)                                                              \
    typedef _SimT simtlab_elem;                                                               \
    SIMTLAB_WHOLE_COMMON(_SimN)                                                               \
    constexpr _SimN(std::initializer_list<simtlab_elem> l)                                    \
        : x(simtlab_elem_at(l, 0)), y(simtlab_elem_at(l, 1)) {}
#define SIMTLAB_WHOLE4(_SimN, _SimT)                                                              \
    typedef _SimT simtlab_elem;                                                               \
    SIMTLAB_WHOLE_COMMON(_SimN)                                                               \
    constexpr _SimN(std::initializer_list<simtlab_elem> l)                                    \
        : x(simtlab_elem_at(l, 0)), y(simtlab_elem_at(l, 1)), z(simtlab_elem_at(l, 2)),   \
          w(simtlab_elem_at(l, 3)) {}
#endif
/* make_float4 & co. build the value in a vector register and copy it whole: `y[i] =
 * make_float4(...)` is then one 16-byte store, as nvcc's STG.128, where g++ would construct the
 * struct in place field by field (four 4-byte stores: four requests, each sector written in part,
 * 4x the chip's L2 requests in the time model; session 30). Vectors over 16 bytes (double4),
 * which the chip stores in two, and the 3-vectors keep the plain form. */
template <class _SimV, class _SimT, bool = (sizeof(_SimV) <= 16)> struct simtlab_make {
    template <class... _SimA> static inline _SimV of(_SimA... a)
    {
        typedef _SimT simtlab_v __attribute__((vector_size(sizeof(_SimV))));
        const simtlab_v t = {a...};
        _SimV r;
        __builtin_memcpy((void *)&r, &t, sizeof r);
        return r;
    }
};
template <class _SimV, class _SimT> struct simtlab_make<_SimV, _SimT, false> {
    template <class... _SimA> static inline _SimV of(_SimA... a) { return _SimV{a...}; }
};
#define SIMTLAB_VEC(_SimT, N2, N3, N4, A2, A4)                                                \
    struct __attribute__((aligned(A2))) N2 { _SimT x, y; SIMTLAB_WHOLE2(N2, _SimT) };            \
    struct N3 { _SimT x, y, z; };                                                             \
    struct __attribute__((aligned(A4))) N4 { _SimT x, y, z, w; SIMTLAB_WHOLE4(N4, _SimT) };      \
    static inline N2 make_##N2(_SimT x, _SimT y) { return simtlab_make<N2, _SimT>::of(x, y); }        \
    static inline N3 make_##N3(_SimT x, _SimT y, _SimT z) { return N3{x, y, z}; }                     \
    static inline N4 make_##N4(_SimT x, _SimT y, _SimT z, _SimT w) { return simtlab_make<N4, _SimT>::of(x, y, z, w); }
SIMTLAB_VEC(float, float2, float3, float4, 8, 16)
SIMTLAB_VEC(int, int2, int3, int4, 8, 16)
SIMTLAB_VEC(double, double2, double3, double4, 16, 16)
/* the 64-bit integers' vectors: 2- and 4-vectors 16-aligned, as CUDA's vector_types.h (session 31:
 * HeCBench's blockAccess and quantBnB use long2) */
SIMTLAB_VEC(long, long2, long3, long4, 16, 16)
SIMTLAB_VEC(unsigned long, ulong2, ulong3, ulong4, 16, 16)
SIMTLAB_VEC(long long, longlong2, longlong3, longlong4, 16, 16)
SIMTLAB_VEC(unsigned long long, ulonglong2, ulonglong3, ulonglong4, 16, 16)
#undef SIMTLAB_VEC
/* the 1-vectors, and the 3-vectors of 1- and 2-byte elements: plain structs of their element's
 * alignment (HeCBench's histogram uses uchar1, base64e and dpid uchar3) */
#define SIMTLAB_VEC1(_SimT, N1)                                                               \
    struct N1 { _SimT x; };                                                                   \
    static inline N1 make_##N1(_SimT x) { return N1{x}; }
SIMTLAB_VEC1(signed char, char1)
SIMTLAB_VEC1(unsigned char, uchar1)
SIMTLAB_VEC1(short, short1)
SIMTLAB_VEC1(unsigned short, ushort1)
SIMTLAB_VEC1(int, int1)
SIMTLAB_VEC1(unsigned, uint1)
SIMTLAB_VEC1(long, long1)
SIMTLAB_VEC1(unsigned long, ulong1)
SIMTLAB_VEC1(long long, longlong1)
SIMTLAB_VEC1(unsigned long long, ulonglong1)
SIMTLAB_VEC1(float, float1)
SIMTLAB_VEC1(double, double1)
#undef SIMTLAB_VEC1
#define SIMTLAB_VEC3(_SimT, N3)                                                               \
    struct N3 { _SimT x, y, z; };                                                             \
    static inline N3 make_##N3(_SimT x, _SimT y, _SimT z) { return N3{x, y, z}; }
SIMTLAB_VEC3(signed char, char3)
SIMTLAB_VEC3(unsigned char, uchar3)
SIMTLAB_VEC3(short, short3)
SIMTLAB_VEC3(unsigned short, ushort3)
#undef SIMTLAB_VEC3
#define SIMTLAB_VEC24(_SimT, N2, N4, A2, A4)                                                  \
    struct __attribute__((aligned(A2))) N2 { _SimT x, y; SIMTLAB_WHOLE2(N2, _SimT) };            \
    struct __attribute__((aligned(A4))) N4 { _SimT x, y, z, w; SIMTLAB_WHOLE4(N4, _SimT) };      \
    static inline N2 make_##N2(_SimT x, _SimT y) { return simtlab_make<N2, _SimT>::of(x, y); }        \
    static inline N4 make_##N4(_SimT x, _SimT y, _SimT z, _SimT w) { return simtlab_make<N4, _SimT>::of(x, y, z, w); }
SIMTLAB_VEC24(unsigned char, uchar2, uchar4, 2, 4)
SIMTLAB_VEC24(signed char, char2, char4, 2, 4)
SIMTLAB_VEC24(short, short2, short4, 4, 8)
SIMTLAB_VEC24(unsigned short, ushort2, ushort4, 4, 8)
#undef SIMTLAB_VEC24
struct __attribute__((aligned(8))) uint2 { unsigned x, y; SIMTLAB_WHOLE2(uint2, unsigned) };
struct __attribute__((aligned(16))) uint4 { unsigned x, y, z, w; SIMTLAB_WHOLE4(uint4, unsigned) };
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
static inline uint2 make_uint2(unsigned x, unsigned y) { return simtlab_make<uint2, unsigned>::of(x, y); }
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w)
{
    return simtlab_make<uint4, unsigned>::of(x, y, z, w);
}

/* ---- built-in variables ------------------------------------------------- */
extern "C" {
uint3 sim_thread_idx(void) __attribute__((const));
uint3 sim_block_idx(void) __attribute__((const));
uint3 sim_block_dim(void) __attribute__((const));
uint3 sim_grid_dim(void) __attribute__((const));
void *sim_dynamic_shared(void) __attribute__((const));
void sim_syncthreads(const char *file, int line);
int sim_syncthreads_op(int pred, int op, const char *file, int line);
uint64_t sim_warp_shfl(unsigned mask, uint64_t v, int kind, int arg, int width, const char *file, int line);
unsigned sim_warp_vote(unsigned mask, int pred, int kind, const char *file, int line);
uint64_t sim_warp_collective(unsigned mask, uint64_t v, int op, const char *file, int line);
unsigned sim_activemask(void);
int sim_atomic_i(int *p, int v, int cmp, int op);
unsigned sim_atomic_u(unsigned *p, unsigned v, unsigned cmp, int op);
float sim_atomic_f(float *p, float v, float cmp, int op);
double sim_atomic_d(double *p, double v, double cmp, int op);
unsigned long long sim_atomic_ull(unsigned long long *p, unsigned long long v, unsigned long long cmp, int op);
unsigned short sim_atomic_us(unsigned short *p, unsigned short v, unsigned short cmp, int op);
uint32_t sim_atomic_update(void *p, unsigned size, uint32_t v, uint32_t (*op)(uint32_t old, uint32_t v));
void sim_atomic_uniform_next(void); /* the rewriter's mark: the next atomic's address is warp-uniform */
void sim_copy_async(void *dst, const void *src, unsigned size);
void sim_cp_async(void *dst, const void *src, unsigned size); /* cp.async, pending until a wait (simtlab_async.h) */
void sim_cp_async_commit(void);
void sim_cp_async_wait_prior(unsigned n);
}
/* Address spaces (sim/access.c): __isGlobal & co., and the shared window's 32-bit addresses of
 * __cvta_generic_to_shared (static __shared__ from 0, the dynamic buffer after it), which
 * cp.async and ldmatrix programs compute for their inline PTX (refused; the address itself is fine) */
extern "C" {
int sim_space_of(const void *p);
size_t sim_cvta_to_shared(const void *p);
void *sim_cvta_from_shared(size_t s);
}
static inline unsigned __isGlobal(const void *p) { return sim_space_of(p) == 0; }
static inline unsigned __isShared(const void *p) { return sim_space_of(p) == 1; }
static inline unsigned __isLocal(const void *p) { return sim_space_of(p) == 2; }
static inline unsigned __isConstant(const void *p) { return sim_space_of(p) == 3; }
static inline size_t __cvta_generic_to_shared(const void *p) { return sim_cvta_to_shared(p); }
static inline void *__cvta_shared_to_generic(size_t a) { return sim_cvta_from_shared(a); }
static inline size_t __cvta_generic_to_global(const void *p) { return (size_t)p; }
static inline void *__cvta_global_to_generic(size_t a) { return (void *)a; }
/* The built-ins come from calls that return a vector register (sim/launch.c sim_*_v): an
 * aggregate-returning call stores its result through memory, and g++ then moved no shared
 * access out of a loop holding one (a grid-stride loop's `i += gridDim.x * blockDim.x` kept
 * `s[t] += g[i]` a shared load and store an iteration, where nvcc keeps s[t] in a register:
 * 8x the chip's wavefronts; docs/run.md) */
typedef unsigned simtlab_u3v __attribute__((vector_size(16)));
extern "C" {
simtlab_u3v sim_thread_idx_v(void) __attribute__((const));
simtlab_u3v sim_block_idx_v(void) __attribute__((const));
simtlab_u3v sim_block_dim_v(void) __attribute__((const));
simtlab_u3v sim_grid_dim_v(void) __attribute__((const));
}
static inline __attribute__((always_inline)) uint3 simtlab_u3(simtlab_u3v v)
{
    uint3 r;
    r.x = v[0], r.y = v[1], r.z = v[2];
    return r;
}
#define threadIdx (simtlab_u3(sim_thread_idx_v()))
#define blockIdx (simtlab_u3(sim_block_idx_v()))
#define blockDim (simtlab_u3(sim_block_dim_v()))
#define gridDim (simtlab_u3(sim_grid_dim_v()))
static constexpr int warpSize = 32; /* a variable, not a macro: prop.warpSize stays a field */

/* ---- barriers and warp intrinsics -------------------------------------- */
#define __syncthreads() sim_syncthreads(__FILE__, __LINE__)
#define __syncthreads_count(p) sim_syncthreads_op((p), 0, __FILE__, __LINE__)
#define __syncthreads_and(p) sim_syncthreads_op((p), 1, __FILE__, __LINE__)
#define __syncthreads_or(p) sim_syncthreads_op((p), 2, __FILE__, __LINE__)
extern "C" void sim_fence(void); /* marks the thread (sim/access.c): a volatile flag protocol's reads */
#define __threadfence() sim_fence()
#define __threadfence_block() sim_fence()
#define __threadfence_system() sim_fence()

namespace simtlab {
enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR };
enum { VOTE_BALLOT, VOTE_ANY, VOTE_ALL, VOTE_SYNC };
/* sim/kernel.h's SIM_COLL_* */
enum { COLL_ADD, COLL_MIN_U, COLL_MAX_U, COLL_MIN_I, COLL_MAX_I, COLL_AND, COLL_OR, COLL_XOR, COLL_MATCH_ANY,
       COLL_MATCH_ALL };
template <class _SimT>
static inline __attribute__((always_inline, no_sanitize_thread)) _SimT shfl(unsigned m, _SimT v, int kind, int arg, int w,
                                                                        const char *f, int l)
{
    /* a value wider than 8 bytes moves in 8-byte pieces, one shuffle each (the GPU too
     * shuffles a struct 32 bits at a time) */
    unsigned char buf[sizeof(_SimT)];
    std::memcpy(buf, &v, sizeof v);
    for (size_t o = 0; o < sizeof(_SimT); o += 8) {
        uint64_t in = 0, out;
        size_t k = sizeof(_SimT) - o < 8 ? sizeof(_SimT) - o : 8;
        std::memcpy(&in, buf + o, k);
        out = sim_warp_shfl(m, in, kind, arg, w, f, l);
        std::memcpy(buf + o, &out, k);
    }
    _SimT r;
    std::memcpy((void *)&r, buf, sizeof r);
    return r;
}
} // namespace simtlab
template <class _SimT>
static inline __attribute__((always_inline)) _SimT __shfl_sync(unsigned m, _SimT v, int lane, int w = 32, const char *f = __builtin_FILE(),
                                                           int l = __builtin_LINE())
{
    return simtlab::shfl(m, v, simtlab::SHFL_IDX, lane, w, f, l);
}
template <class _SimT>
static inline __attribute__((always_inline)) _SimT __shfl_up_sync(unsigned m, _SimT v, unsigned d, int w = 32, const char *f = __builtin_FILE(),
                                                              int l = __builtin_LINE())
{
    return simtlab::shfl(m, v, simtlab::SHFL_UP, (int)d, w, f, l);
}
template <class _SimT>
static inline __attribute__((always_inline)) _SimT __shfl_down_sync(unsigned m, _SimT v, unsigned d, int w = 32, const char *f = __builtin_FILE(),
                                                                int l = __builtin_LINE())
{
    return simtlab::shfl(m, v, simtlab::SHFL_DOWN, (int)d, w, f, l);
}
template <class _SimT>
static inline __attribute__((always_inline)) _SimT __shfl_xor_sync(unsigned m, _SimT v, int x, int w = 32, const char *f = __builtin_FILE(),
                                                               int l = __builtin_LINE())
{
    return simtlab::shfl(m, v, simtlab::SHFL_XOR, x, w, f, l);
}
/* The warp intrinsics without a mask that CUDA 9 replaced (`__shfl_xor(v, 16)`): nvcc refuses
 * them for sm_70 and later, and every preset here is newer. Declared so that only code that
 * really calls one fails, naming the replacement: a program's `#if CUDART_VERSION < 9000` branch,
 * or its own macro or function of that name, is not such code. */
/* on the types CUDA's own removed overloads took (arithmetic): a program's own overload for its
 * type, `float4 __shfl_down(float4 v, unsigned d)` (HeCBench's dpid), is the one its calls take */
#define SIMTLAB_LEGACY_WARP(name)                                                                             \
    template <class _SimT, class... _SimA, typename std::enable_if<std::is_arithmetic<_SimT>::value, int>::type = 0>     \
    static inline int name(_SimT, _SimA...)                                                                           \
    {                                                                                                         \
        static_assert(sizeof(_SimT) != sizeof(_SimT), "simtlab run: " #name "() without a mask was removed in "     \
                                                    "CUDA 9: nvcc "                                           \
                                                    "refuses it for sm_70 and later, and the simulator's "    \
                                                    "presets are sm_80 to sm_90; write " #name                \
                                                    "_sync(0xffffffff, ...) for a whole warp");               \
        return 0;                                                                                             \
    }
SIMTLAB_LEGACY_WARP(__shfl)
SIMTLAB_LEGACY_WARP(__shfl_up)
SIMTLAB_LEGACY_WARP(__shfl_down)
SIMTLAB_LEGACY_WARP(__shfl_xor)
SIMTLAB_LEGACY_WARP(__any)
SIMTLAB_LEGACY_WARP(__all)
SIMTLAB_LEGACY_WARP(__ballot)
#undef SIMTLAB_LEGACY_WARP
static inline __attribute__((always_inline)) unsigned __ballot_sync(unsigned m, int p, const char *f = __builtin_FILE(),
                                                                    int l = __builtin_LINE())
{
    return sim_warp_vote(m, p, simtlab::VOTE_BALLOT, f, l);
}
static inline __attribute__((always_inline)) int __any_sync(unsigned m, int p, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    return (int)sim_warp_vote(m, p, simtlab::VOTE_ANY, f, l);
}
static inline __attribute__((always_inline)) int __all_sync(unsigned m, int p, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    return (int)sim_warp_vote(m, p, simtlab::VOTE_ALL, f, l);
}
static inline __attribute__((always_inline)) void __syncwarp(unsigned m = 0xffffffffu, const char *f = __builtin_FILE(),
                                                             int l = __builtin_LINE())
{
    (void)sim_warp_vote(m, 1, simtlab::VOTE_SYNC, f, l);
}
/* sm_80's warp reductions (one REDUX a warp) and sm_70's matches, over the lanes of the mask */
#define SIMTLAB_REDUCE(name, _SimT, op)                                                                  \
    static inline __attribute__((always_inline)) _SimT name(unsigned m, _SimT v, const char *f = __builtin_FILE(), \
                                                        int l = __builtin_LINE())                    \
    {                                                                                                \
        return (_SimT)sim_warp_collective(m, (uint64_t)(int64_t)v, simtlab::op, f, l);                   \
    }
SIMTLAB_REDUCE(__reduce_add_sync, unsigned, COLL_ADD)
SIMTLAB_REDUCE(__reduce_add_sync, int, COLL_ADD)
SIMTLAB_REDUCE(__reduce_min_sync, unsigned, COLL_MIN_U)
SIMTLAB_REDUCE(__reduce_min_sync, int, COLL_MIN_I)
SIMTLAB_REDUCE(__reduce_max_sync, unsigned, COLL_MAX_U)
SIMTLAB_REDUCE(__reduce_max_sync, int, COLL_MAX_I)
SIMTLAB_REDUCE(__reduce_and_sync, unsigned, COLL_AND)
SIMTLAB_REDUCE(__reduce_or_sync, unsigned, COLL_OR)
SIMTLAB_REDUCE(__reduce_xor_sync, unsigned, COLL_XOR)
#undef SIMTLAB_REDUCE
template <class _SimT>
static inline __attribute__((always_inline)) unsigned __match_any_sync(unsigned m, _SimT v, const char *f = __builtin_FILE(),
                                                                       int l = __builtin_LINE())
{
    static_assert(sizeof(_SimT) == 4 || sizeof(_SimT) == 8 || (std::is_integral<_SimT>::value && sizeof(_SimT) < 4),
                  "__match_any_sync: a 32- or 64-bit value");
    uint64_t u = 0;
    if (sizeof(_SimT) < 4) /* bool, char, short: converted to int, as nvcc's overloads take them */
        u = (uint64_t)(uint32_t)(int)v;
    else
        std::memcpy(&u, &v, sizeof v);
    return (unsigned)sim_warp_collective(m, u, simtlab::COLL_MATCH_ANY, f, l);
}
template <class _SimT>
static inline __attribute__((always_inline)) unsigned __match_all_sync(unsigned m, _SimT v, int *pred,
                                                                       const char *f = __builtin_FILE(),
                                                                       int l = __builtin_LINE())
{
    static_assert(sizeof(_SimT) == 4 || sizeof(_SimT) == 8 || (std::is_integral<_SimT>::value && sizeof(_SimT) < 4),
                  "__match_all_sync: a 32- or 64-bit value");
    uint64_t u = 0;
    if (sizeof(_SimT) < 4) /* bool, char, short: converted to int, as nvcc's overloads take them */
        u = (uint64_t)(uint32_t)(int)v;
    else
        std::memcpy(&u, &v, sizeof v);
    unsigned r = (unsigned)sim_warp_collective(m, u, simtlab::COLL_MATCH_ALL, f, l);
    *pred = r != 0;
    return r;
}
#define __activemask() sim_activemask()
/* clock() and clock64() in a kernel count cycles of cudaDeviceProp.clockRate on the host's
 * monotonic clock (sim/run/cudart.c simtlab_clock64), and let the block's other threads run
 * meanwhile: a kernel that waits N cycles waits about N / rate seconds; times taken with them
 * are the simulator's. The rewriter renames clock() calls in device code to simtlab_clock();
 * host code's clock() stays the C library's (CPU time), as does a __host__ __device__
 * function's when the host calls it. */
extern "C" int sim_in_thread(void);
static inline long long clock64() { return simtlab_clock64(); }
static inline clock_t simtlab_clock() { return sim_in_thread() ? (clock_t)simtlab_clock64() : ::clock(); }
namespace std {
using ::simtlab_clock;
}
/* __nanosleep (sm_70+): a spin loop's back-off. The thread lets the block's others run, as
 * clock64() does; the time is not waited (a GPU promises only roughly 0 to 2 x ns). */
static inline void __nanosleep(unsigned ns)
{
    (void)ns;
    if (sim_in_thread())
        (void)simtlab_clock64();
}
/* malloc/free in device code become simtlab_device_malloc/free (the rewriter); std:: and ::
 * spell them too. A file with such calls ends with SIMTLAB_WANT_HEAP(__COUNTER__). */
namespace std {
using ::simtlab_device_free;
using ::simtlab_device_malloc;
}
#define SIMTLAB_WANT_HEAP_(n) \
    __attribute__((unused)) static const int simtlab_heap_wanted_##n = simtlab_want_device_heap();
#define SIMTLAB_WANT_HEAP(n) SIMTLAB_WANT_HEAP_(n)
/* new in device code allocates from the same heap (the rewriter: `new T` becomes
 * `new (simtlab_device_heap) T`); as on a GPU it gives nullptr when the heap is full (the
 * constructor does not run) and throws nothing; in host code (a __host__ __device__ function) it is
 * the C++ library's. delete is not rewritten: g++ does what it does (destructors, a virtual one's
 * whole object, an array's count, a class's own operator delete), and the program's global
 * operator delete, every form of it below, gives a block of the device heap back to the heap and
 * passes anything else on to the next definition (the C++ library's, or the sanitizer's). Weak:
 * one a program, whichever of its files; a program's own replacement wins. */
struct simtlab_device_heap_t {
};
static constexpr simtlab_device_heap_t simtlab_device_heap{};
inline void *operator new(std::size_t _SimN, simtlab_device_heap_t) noexcept
{
    return sim_in_thread() ? simtlab_device_malloc(_SimN) : ::operator new(_SimN, std::nothrow);
}
inline void *operator new[](std::size_t _SimN, simtlab_device_heap_t) noexcept
{
    return sim_in_thread() ? simtlab_device_malloc(_SimN) : ::operator new[](_SimN, std::nothrow);
}
inline void operator delete(void *_SimP, simtlab_device_heap_t) noexcept { ::operator delete(_SimP); } /* a throwing */
inline void operator delete[](void *_SimP, simtlab_device_heap_t) noexcept { ::operator delete[](_SimP); } /* constructor */
#define SIMTLAB_DELETE_(k, params, ...)                                                                           \
    __attribute__((weak)) void operator delete params noexcept                                                    \
    {                                                                                                             \
        if (simtlab_device_heap_owns(_SimP))                                                                      \
            simtlab_device_free(_SimP);                                                                           \
        else                                                                                                      \
            ((void(*) params)simtlab_next_delete(2 * (k)))(__VA_ARGS__);                                          \
    }                                                                                                             \
    __attribute__((weak)) void operator delete[] params noexcept                                                  \
    {                                                                                                             \
        if (simtlab_device_heap_owns(_SimP))                                                                      \
            simtlab_device_free(_SimP);                                                                           \
        else                                                                                                      \
            ((void(*) params)simtlab_next_delete(2 * (k) + 1))(__VA_ARGS__);                                      \
    }
SIMTLAB_DELETE_(0, (void *_SimP), _SimP)
SIMTLAB_DELETE_(1, (void *_SimP, std::size_t _SimN), _SimP, _SimN)
SIMTLAB_DELETE_(2, (void *_SimP, std::align_val_t _SimA), _SimP, _SimA)
SIMTLAB_DELETE_(3, (void *_SimP, std::size_t _SimN, std::align_val_t _SimA), _SimP, _SimN, _SimA)
SIMTLAB_DELETE_(4, (void *_SimP, const std::nothrow_t &_SimT), _SimP, _SimT)
SIMTLAB_DELETE_(5, (void *_SimP, std::align_val_t _SimA, const std::nothrow_t &_SimT), _SimP, _SimA, _SimT)
#undef SIMTLAB_DELETE_

/* ---- atomics: counted as their own requests (sim/access.c) ------------- */
enum { SIMTLAB_ATOM_ADD, SIMTLAB_ATOM_SUB, SIMTLAB_ATOM_MIN, SIMTLAB_ATOM_MAX, SIMTLAB_ATOM_EXCH, SIMTLAB_ATOM_CAS,
       SIMTLAB_ATOM_AND, SIMTLAB_ATOM_OR, SIMTLAB_ATOM_XOR, SIMTLAB_ATOM_INC, SIMTLAB_ATOM_DEC };
#define SIMTLAB_ATOMIC(name, op)                                                                                  \
    static inline __attribute__((always_inline)) int name(int *p, int v) { return sim_atomic_i(p, v, 0, op); }   \
    static inline __attribute__((always_inline)) unsigned name(unsigned *p, unsigned v) { return sim_atomic_u(p, v, 0, op); } \
    static inline __attribute__((always_inline)) unsigned long long name(unsigned long long *p, unsigned long long v) \
    {                                                                                                             \
        return sim_atomic_ull(p, v, 0, op);                                                                       \
    }
SIMTLAB_ATOMIC(atomicAdd, SIMTLAB_ATOM_ADD)
SIMTLAB_ATOMIC(atomicMin, SIMTLAB_ATOM_MIN)
SIMTLAB_ATOMIC(atomicMax, SIMTLAB_ATOM_MAX)
SIMTLAB_ATOMIC(atomicExch, SIMTLAB_ATOM_EXCH)
SIMTLAB_ATOMIC(atomicAnd, SIMTLAB_ATOM_AND)
SIMTLAB_ATOMIC(atomicOr, SIMTLAB_ATOM_OR)
SIMTLAB_ATOMIC(atomicXor, SIMTLAB_ATOM_XOR)
#undef SIMTLAB_ATOMIC
static inline __attribute__((always_inline)) int atomicSub(int *p, int v) { return sim_atomic_i(p, v, 0, SIMTLAB_ATOM_SUB); }
static inline __attribute__((always_inline)) unsigned atomicSub(unsigned *p, unsigned v) { return sim_atomic_u(p, v, 0, SIMTLAB_ATOM_SUB); }
static inline __attribute__((always_inline)) float atomicAdd(float *p, float v) { return sim_atomic_f(p, v, 0, SIMTLAB_ATOM_ADD); }
static inline __attribute__((always_inline)) double atomicAdd(double *p, double v) { return sim_atomic_d(p, v, 0, SIMTLAB_ATOM_ADD); }
static inline __attribute__((always_inline)) float atomicExch(float *p, float v) { return sim_atomic_f(p, v, 0, SIMTLAB_ATOM_EXCH); }
static inline __attribute__((always_inline)) int atomicCAS(int *p, int c, int v) { return sim_atomic_i(p, v, c, SIMTLAB_ATOM_CAS); }
static inline __attribute__((always_inline)) unsigned atomicCAS(unsigned *p, unsigned c, unsigned v)
{
    return sim_atomic_u(p, v, c, SIMTLAB_ATOM_CAS);
}
static inline __attribute__((always_inline)) unsigned short atomicCAS(unsigned short *p, unsigned short c, unsigned short v)
{
    return sim_atomic_us(p, v, c, SIMTLAB_ATOM_CAS); /* sm_70 on: half-precision code's own atomics */
}
static inline __attribute__((always_inline)) unsigned long long atomicCAS(unsigned long long *p, unsigned long long c,
                                                                          unsigned long long v)
{
    return sim_atomic_ull(p, v, c, SIMTLAB_ATOM_CAS);
}

static inline __attribute__((always_inline)) unsigned atomicInc(unsigned *p, unsigned v)
{
    return sim_atomic_u(p, v, 0, SIMTLAB_ATOM_INC);
}
static inline __attribute__((always_inline)) unsigned atomicDec(unsigned *p, unsigned v)
{
    return sim_atomic_u(p, v, 0, SIMTLAB_ATOM_DEC);
}
/* _system and _block scopes: one device and one process here, so the plain atomics */
#define SIMTLAB_SCOPED(op)                                                                                      \
    template <class _SimP, class... _SimV>                                                                             \
    static inline __attribute__((always_inline)) auto op##_system(_SimP p, _SimV... v) -> decltype(op(p, v...))        \
    {                                                                                                          \
        return op(p, v...);                                                                                    \
    }                                                                                                          \
    template <class _SimP, class... _SimV>                                                                             \
    static inline __attribute__((always_inline)) auto op##_block(_SimP p, _SimV... v) -> decltype(op(p, v...))         \
    {                                                                                                          \
        return op(p, v...);                                                                                    \
    }
SIMTLAB_SCOPED(atomicAdd)
SIMTLAB_SCOPED(atomicSub)
SIMTLAB_SCOPED(atomicMin)
SIMTLAB_SCOPED(atomicMax)
SIMTLAB_SCOPED(atomicExch)
SIMTLAB_SCOPED(atomicCAS)
SIMTLAB_SCOPED(atomicAnd)
SIMTLAB_SCOPED(atomicOr)
SIMTLAB_SCOPED(atomicXor)
SIMTLAB_SCOPED(atomicInc)
SIMTLAB_SCOPED(atomicDec)
#undef SIMTLAB_SCOPED

/* ---- device math ---------------------------------------------------------- */
/* CUDA's fast approximations, as the exact functions: glibc's math.h declares __expf & co. but
 * its libm does not export them (a link error before), so they are macros here, as sim/kernel.h
 * has them for the lessons */
#define __expf(x) expf(x)
#define __exp10f(x) exp10f(x)
#define __logf(x) logf(x)
#define __log2f(x) log2f(x)
#define __log10f(x) log10f(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __tanf(x) tanf(x)
#define __powf(x, y) powf(x, y)
#define __sincosf(x, s, c) sincosf(x, s, c)
static inline float __fdividef(float a, float b) { return a / b; } /* __fadd_rn & co.: simtlab_math.h */
static inline float __saturatef(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
template <class _SimT> static inline _SimT __ldg(const _SimT *p) { return *p; }
/* the rest of CUDA's device intrinsics (rounding modes, integer, conversions, cache hints):
 * simtlab_math.h */
#include "simtlab_math.h"
#include "simtlab_simd.h" /* __vadd4 & co. */
/* textures and surfaces: declared so that a use in a header fails in one line */
#include "simtlab_notex.h"
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline unsigned __brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
static inline int __float_as_int(float f) { int i; std::memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned i; std::memcpy(&i, &f, 4); return i; }
static inline float __uint_as_float(unsigned i) { float f; std::memcpy(&f, &i, 4); return f; }
static inline int __mul24(int a, int b) { return (int)((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
/* the mixed forms CUDA's math headers give (signed and unsigned meet as unsigned, float and
 * double as double), so that min(blockIdx.x * blockDim.x, n) is not ambiguous */
static inline unsigned min(unsigned a, int b) { return umin(a, (unsigned)b); }
static inline unsigned min(int a, unsigned b) { return umin((unsigned)a, b); }
static inline unsigned max(unsigned a, int b) { return umax(a, (unsigned)b); }
static inline unsigned max(int a, unsigned b) { return umax((unsigned)a, b); }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
static inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
static inline unsigned long min(long a, unsigned long b) { return min((unsigned long)a, b); }
static inline unsigned long min(unsigned long a, long b) { return min(a, (unsigned long)b); }
static inline unsigned long max(long a, unsigned long b) { return max((unsigned long)a, b); }
static inline unsigned long max(unsigned long a, long b) { return max(a, (unsigned long)b); }
static inline unsigned long long min(long long a, unsigned long long b) { return ullmin((unsigned long long)a, b); }
static inline unsigned long long min(unsigned long long a, long long b) { return ullmin(a, (unsigned long long)b); }
static inline unsigned long long max(long long a, unsigned long long b) { return ullmax((unsigned long long)a, b); }
static inline unsigned long long max(unsigned long long a, long long b) { return ullmax(a, (unsigned long long)b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }

/* ---- the runtime API's C++ forms ------------------------------------------ */
static inline cudaError_t cudaEventCreate(cudaEvent_t *e, unsigned flags) { return cudaEventCreateWithFlags(e, flags); }
template <class _SimT>
static inline cudaError_t cudaMalloc(_SimT **p, size_t n, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return simtlab_malloc((void **)p, n, "cudaMalloc", file, line);
}
template <class _SimT>
static inline cudaError_t cudaMallocManaged(_SimT **p, size_t n, unsigned flags = cudaMemAttachGlobal,
                                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    (void)flags;
    return simtlab_malloc_managed((void **)p, n, file, line);
}
/* stream-ordered allocation: streams run in order here, so it is cudaMalloc / cudaFree at once */
template <class _SimT>
static inline cudaError_t cudaMallocAsync(_SimT **p, size_t n, cudaStream_t s, const char *file = __builtin_FILE(),
                                          int line = __builtin_LINE())
{
    if (simtlab_capture_refuse(s, "cudaMallocAsync"))
        return cudaErrorStreamCaptureUnsupported;
    return simtlab_malloc((void **)p, n, "cudaMallocAsync", file, line);
}
template <class _SimT>
static inline cudaError_t cudaMallocAsync(_SimT **p, size_t n, cudaMemPool_t pool, cudaStream_t s,
                                          const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if (simtlab_capture_refuse(s, "cudaMallocAsync"))
        return cudaErrorStreamCaptureUnsupported;
    return pool ? simtlab_malloc((void **)p, n, "cudaMallocAsync", file, line) : simtlab_bad_pool("cudaMallocAsync");
}
template <class _SimT>
static inline cudaError_t cudaMallocFromPoolAsync(_SimT **p, size_t n, cudaMemPool_t pool, cudaStream_t s,
                                                  const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if (simtlab_capture_refuse(s, "cudaMallocFromPoolAsync"))
        return cudaErrorStreamCaptureUnsupported;
    return pool ? simtlab_malloc((void **)p, n, "cudaMallocFromPoolAsync", file, line)
                : simtlab_bad_pool("cudaMallocFromPoolAsync");
}
template <class _SimT>
static inline cudaError_t cudaMallocHost(_SimT **p, size_t n, unsigned flags = 0)
{
    return simtlab_malloc_host((void **)p, n, flags, "cudaMallocHost");
}
template <class _SimT>
static inline cudaError_t cudaHostAlloc(_SimT **p, size_t n, unsigned flags)
{
    return simtlab_malloc_host((void **)p, n, flags, "cudaHostAlloc");
}
template <class _SimT>
static inline cudaError_t cudaHostGetDevicePointer(_SimT **dev, void *host, unsigned flags)
{
    return cudaHostGetDevicePointer((void **)dev, host, flags);
}
template <class _SimT>
static inline cudaError_t cudaMemcpyToSymbol(_SimT &symbol, const void *src, size_t n, size_t offset = 0,
                                             cudaMemcpyKind k = cudaMemcpyHostToDevice)
{
    (void)k;
    return simtlab_memcpy_symbol((void *)&symbol, sizeof symbol, src, n, offset, 1);
}
template <class _SimT>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const _SimT &symbol, size_t n, size_t offset = 0,
                                               cudaMemcpyKind k = cudaMemcpyDeviceToHost)
{
    (void)k;
    return simtlab_memcpy_symbol((void *)&symbol, sizeof symbol, dst, n, offset, 0);
}
template <class _SimT>
static inline cudaError_t cudaGetSymbolAddress(void **p, const _SimT &symbol)
{
    return simtlab_symbol_address(p, (void *)&symbol, sizeof symbol);
}
template <class _SimF>
static inline cudaError_t cudaFuncSetAttribute(_SimF *, cudaFuncAttribute attr, int value)
{
    return simtlab_func_set_attribute((int)attr, value);
}
template <class _SimF>
static inline cudaError_t cudaFuncSetCacheConfig(_SimF *, cudaFuncCache)
{
    return cudaSuccess;
}
template <class _SimF>
static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, _SimF *)
{
    return simtlab_func_get_attributes(a);
}
template <class _SimF>
static inline cudaError_t cudaFuncSetSharedMemConfig(_SimF *, cudaSharedMemConfig c)
{
    return cudaDeviceSetSharedMemConfig(c);
}
template <class _SimT>
static inline cudaError_t cudaGetSymbolSize(size_t *n, const _SimT &symbol)
{
    *n = sizeof symbol;
    return cudaSuccess;
}
template <class _SimT>
static inline cudaError_t cudaMemcpyToSymbolAsync(_SimT &symbol, const void *src, size_t n, size_t offset = 0,
                                                  cudaMemcpyKind k = cudaMemcpyHostToDevice, cudaStream_t = 0)
{
    simtlab_async_call(1); /* no synchronizing point (sim/run/cudart.c, pending faults) */
    const cudaError_t e = cudaMemcpyToSymbol(symbol, src, n, offset, k);
    simtlab_async_call(0);
    return e;
}
template <class _SimT>
static inline cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const _SimT &symbol, size_t n, size_t offset = 0,
                                                    cudaMemcpyKind k = cudaMemcpyDeviceToHost, cudaStream_t = 0)
{
    simtlab_async_call(1);
    const cudaError_t e = cudaMemcpyFromSymbol(dst, symbol, n, offset, k);
    simtlab_async_call(0);
    return e;
}
static inline cudaError_t cudaStreamCreate(cudaStream_t *s, unsigned flags) { return cudaStreamCreateWithFlags(s, flags); }
static inline cudaError_t cudaEventRecord(cudaEvent_t e) { return cudaEventRecord(e, (cudaStream_t)0); }
static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k)
{
    return cudaMemcpyAsync(dst, src, n, k, (cudaStream_t)0);
}
static inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n) { return cudaMemsetAsync(p, v, n, (cudaStream_t)0); }
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device)
{
    return cudaMemPrefetchAsync(p, n, device, (cudaStream_t)0);
}
/* CUDA 13's forms (CUDA 12's _v2): a location, not a device number; the host is cudaCpuDeviceId,
 * and a location of no type is cudaInvalidDeviceId (the call fails with cudaErrorInvalidValue) */
static inline int simtlab_location_device(cudaMemLocation loc)
{
    return loc.type == cudaMemLocationTypeDevice ? loc.id
           : loc.type == cudaMemLocationTypeInvalid ? (int)cudaInvalidDeviceId
                                                   : (int)cudaCpuDeviceId;
}
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, cudaMemLocation loc, unsigned flags,
                                               cudaStream_t s = 0)
{
    (void)flags;
    return cudaMemPrefetchAsync(p, n, simtlab_location_device(loc), s);
}
static inline cudaError_t cudaMemPrefetchAsync_v2(const void *p, size_t n, cudaMemLocation loc, unsigned flags,
                                                  cudaStream_t s = 0)
{
    return cudaMemPrefetchAsync(p, n, loc, flags, s);
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, cudaMemoryAdvise a, cudaMemLocation loc)
{
    return cudaMemAdvise(p, n, a, simtlab_location_device(loc));
}
static inline cudaError_t cudaMemAdvise_v2(const void *p, size_t n, cudaMemoryAdvise a, cudaMemLocation loc)
{
    return cudaMemAdvise(p, n, a, loc);
}
template <class _SimT>
static inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, _SimT *p, size_t len = 0,
                                                   unsigned flags = cudaMemAttachSingle)
{
    return cudaStreamAttachMemAsync(s, (void *)p, len, flags);
}
static inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e) { return cudaStreamWaitEvent(s, e, 0); }
/* CUDA 12's cudaGraphInstantiate(exec, graph, flags) and CUDA 11's five-argument form */
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, unsigned long long flags = 0)
{
    return cudaGraphInstantiateWithFlags(e, g, flags);
}
static inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t *e, cudaGraph_t g, cudaGraphNode_t *err_node, char *log,
                                               size_t log_size)
{
    if (err_node)
        *err_node = NULL;
    if (log && log_size)
        log[0] = 0;
    return cudaGraphInstantiateWithFlags(e, g, 0);
}
/* CUDA 12's form; a capture's dependencies are not kept (an empty list) */
static inline cudaError_t cudaStreamGetCaptureInfo(cudaStream_t s, cudaStreamCaptureStatus *status,
                                                   unsigned long long *id = 0, cudaGraph_t *graph = 0,
                                                   const cudaGraphNode_t **deps = 0, size_t *n_deps = 0)
{
    if (deps)
        *deps = NULL;
    if (n_deps)
        *n_deps = 0;
    return simtlab_stream_capture_info(s, status, id, graph);
}
template <class _SimT>
static inline cudaError_t cudaMallocPitch(_SimT **p, size_t *pitch, size_t width, size_t height)
{
    return cudaMallocPitch((void **)p, pitch, width, height);
}
/* the block size (a multiple of 32) with the most resident threads per SM, and the grid that
 * fills the device with it, by the preset's residency rule (simtlab_occupancy); the dynamic shared
 * memory smem(block) bytes for a block size */
template <class _SimF, class _SimS>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *min_grid, int *block, _SimF *, _SimS smem,
                                                                         int limit = 0)
{
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, 0);
    if (e)
        return e;
    int best = 0, best_threads = -1, top = limit > 0 && limit < p.maxThreadsPerBlock ? limit : p.maxThreadsPerBlock;
    for (int b = 32; b <= top; b += 32) {
        int n = 0;
        if (simtlab_occupancy(&n, b, (size_t)smem(b)) == cudaSuccess && n * b >= best_threads)
            best = b, best_threads = n * b;
    }
    if (block)
        *block = best;
    if (min_grid)
        *min_grid = best ? best_threads / best * p.multiProcessorCount : 0;
    return cudaSuccess;
}
template <class _SimF, class _SimS>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int *min_grid, int *block, _SimF *f,
                                                                                  _SimS smem, int limit, unsigned)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMem(min_grid, block, f, smem, limit);
}
/* the same with a fixed dynamic shared memory */
template <class _SimF>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block, _SimF *f, size_t dyn_shared = 0,
                                                             int limit = 0)
{
    return cudaOccupancyMaxPotentialBlockSizeVariableSMem(min_grid, block, f, [dyn_shared](int) { return dyn_shared; },
                                                          limit);
}
template <class _SimF>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, _SimF *, int block_size, size_t dyn_shared)
{
    return simtlab_occupancy(blocks, block_size, dyn_shared);
}

/* ---- <<<>>> ----------------------------------------------------------------- */
namespace simtlab {
/* One kernel argument as a GPU passes it: the launch's copy of its value (taken once, on the
 * host, when the launch is made), and the object a reference parameter binds to: the caller's
 * own when it passed a non-const lvalue of the parameter's type (a managed object, as NVIDIA's
 * unified-memory samples pass them), else the copy. A by-value parameter converts through
 * operator D, a copy per thread (each GPU thread has its own); a reference parameter through the
 * template, which only a reference can use (where both fit, the non-template wins). */
/* X (as a forwarding reference deduced it): the caller passed a non-const lvalue of type D */
template <class _SimD, class _SimX>
using own_lvalue = std::integral_constant<bool, std::is_lvalue_reference<_SimX>::value &&
                                                    std::is_same<typename std::remove_reference<_SimX>::type, _SimD>::value>;
template <class _SimD, class _SimA>
static inline _SimD *ref_for(_SimD &, _SimA &a, std::true_type) { return __builtin_addressof(a); }
template <class _SimD, class _SimA>
static inline _SimD *ref_for(_SimD &copy, _SimA &, std::false_type) { return &copy; }
template <class _SimD>
struct karg {
    _SimD copy;
    _SimD *ref;
    /* made in place in the launch's block (launch::call), never copied: ref may point at copy */
    template <class _SimX, typename std::enable_if<!std::is_same<typename std::decay<_SimX>::type, karg>::value, int>::type = 0>
    explicit karg(_SimX &&x) : copy(std::forward<_SimX>(x)), ref(ref_for(copy, x, own_lvalue<_SimD, _SimX>()))
    {
    }
    karg(const karg &) = delete;
    karg &operator=(const karg &) = delete;
    operator _SimD() const { return copy; } /* reads the launch's argument block (sim_set_launch_params) */
    template <class _SimU, typename std::enable_if<std::is_same<_SimU, _SimD>::value, int>::type = 0>
    operator _SimU &() const { return *ref; }
    /* `k<<<g, b>>>(NULL)` or `(0)` for a pointer parameter: nvcc passes the null pointer constant
     * to the parameter; here it went through a template and was an integer. (Another integer
     * becomes that address, which the kernel's access reports.) */
    template <class _SimP, class _SimE = _SimD, typename std::enable_if<std::is_integral<_SimE>::value, int>::type = 0>
    operator _SimP *() const
    {
        return copy == 0 ? nullptr : reinterpret_cast<_SimP *>(static_cast<uintptr_t>(copy));
    }
};
/* Whether the kernel takes its arguments as kargs: it can be called with them, and no parameter
 * is deduced from its argument (a template kernel's `T f`, `T &v`, `Ts... a`: it would take the
 * karg itself, sizeof(T) and all, and win over an exact non-template overload). A parameter is
 * deduced when it would also take kpoison, which converts to nothing. The others (deduced
 * templates, a parameter built by a constructor from its argument: two conversions) get a copy of
 * each value, or the caller's object where a parameter needs an lvalue (needs_lvalue, below). */
struct kpoison {
    kpoison() = delete;
};
template <class _SimG, class _SimT, class = void>
struct callable_with : std::false_type {};
template <class _SimG, class... _SimX>
struct callable_with<_SimG, std::tuple<_SimX...>, decltype((void)std::declval<const _SimG &>()(std::declval<const _SimX &>()...))>
    : std::true_type {};
template <class _SimG, class _SimT, size_t _SimP, class _SimS>
struct poisoned;
template <class _SimG, class... _SimX, size_t _SimP, size_t... _SimI>
struct poisoned<_SimG, std::tuple<_SimX...>, _SimP, std::index_sequence<_SimI...>>
    : callable_with<_SimG, std::tuple<typename std::conditional<_SimI == _SimP, kpoison, _SimX>::type...>> {};
static constexpr bool any_of(std::initializer_list<bool> l)
{
    for (bool b : l)
        if (b)
            return true;
    return false;
}
template <class _SimG, class _SimT, class _SimS = std::make_index_sequence<std::tuple_size<_SimT>::value>>
struct takes_kargs;
template <class _SimG, class... _SimX, size_t... _SimP>
struct takes_kargs<_SimG, std::tuple<_SimX...>, std::index_sequence<_SimP...>>
    : std::integral_constant<bool, callable_with<_SimG, std::tuple<_SimX...>>::value &&
                                       !any_of({false, poisoned<_SimG, std::tuple<_SimX...>, _SimP,
                                                                std::index_sequence_for<_SimX...>>::value...})> {};
/* Which parameters of a kernel that does not take kargs need an lvalue (a reference parameter,
 * a template's `T &`): callable with every argument an lvalue, not with that one an rvalue. Those
 * get the caller's object (karg::ref), the others a copy of the value. */
template <class _SimG, class _SimT, class = void>
struct callable_exact : std::false_type {};
template <class _SimG, class... _SimY>
struct callable_exact<_SimG, std::tuple<_SimY...>, decltype((void)std::declval<const _SimG &>()(std::declval<_SimY>()...))>
    : std::true_type {};
template <class _SimG, class _SimT, size_t _SimP, class _SimS = std::make_index_sequence<std::tuple_size<_SimT>::value>>
struct needs_lvalue;
template <class _SimG, class... _SimD, size_t _SimP, size_t... _SimI>
struct needs_lvalue<_SimG, std::tuple<_SimD...>, _SimP, std::index_sequence<_SimI...>>
    : std::integral_constant<bool, callable_exact<_SimG, std::tuple<_SimD &...>>::value &&
                                       !callable_exact<_SimG, std::tuple<typename std::conditional<_SimI == _SimP, _SimD &&, _SimD &>::type...>>::value> {};
template <class _SimD>
static inline _SimD &pass(const karg<_SimD> &k, std::true_type) { return *k.ref; }
template <class _SimD>
static inline _SimD pass(const karg<_SimD> &k, std::false_type) { return k.copy; }


/* K<<<g, b, s, st>>>(args...) becomes
 *   ::simtlab::make_launch("K", file, line, SIMTLAB_KCALL_(K), g, b, s, st)(args...)
 * The arguments are evaluated on the host, once, as CUDA does (kargs); each simulated thread
 * then calls the kernel with them. */
template <class _SimF>
struct launch {
    const char *name, *file;
    int line;
    _SimF fn;
    dim3 grid, block;
    size_t shared;
    cudaStream_t stream;

    template <class... _SimD>
    struct call {
        typedef std::tuple<_SimD...> types;
        _SimF fn; /* the kernel call, its captures (a function pointer variable) by value: like the
               * arguments, read by the threads from this block, the launch's parameter space */
        std::tuple<karg<_SimD>...> args;
        /* each copy made once, in place, as nvcc's launch stub takes its parameters (a copy's
         * destructor runs once, after the launch) */
        template <class... _SimA>
        call(const _SimF &f, _SimA &&...a) : fn(f), args(std::forward<_SimA>(a)...)
        {
        }
    };
    template <class _SimC, size_t... _SimI>
    static inline __attribute__((always_inline, no_sanitize_thread)) void unpack(const _SimC *c, std::index_sequence<_SimI...>,
                                                                                 std::true_type)
    {
        c->fn(std::get<_SimI>(c->args)...);
    }
    template <class _SimC, size_t... _SimI>
    static inline __attribute__((always_inline, no_sanitize_thread)) void unpack(const _SimC *c, std::index_sequence<_SimI...>,
                                                                                 std::false_type)
    {
        c->fn(pass(std::get<_SimI>(c->args), needs_lvalue<_SimF, typename _SimC::types, _SimI>())...);
    }
    template <class _SimC, class _SimK>
    static __attribute__((flatten, no_sanitize_thread)) void thunk(const void *p)
    {
        const _SimC *c = (const _SimC *)p;
        unpack(c, std::make_index_sequence<std::tuple_size<decltype(c->args)>::value>(), _SimK());
    }
    template <class... _SimA>
    __attribute__((no_sanitize_thread)) cudaError_t run(_SimA &&...a) const
    {
        typedef call<typename std::decay<_SimA>::type...> _SimC;
        typedef typename takes_kargs<_SimF, std::tuple<karg<typename std::decay<_SimA>::type>...>>::type _SimK;
        _SimC c(fn, std::forward<_SimA>(a)...);
        /* a closure of one pointer: maybe a function pointer variable, named by its function */
        const char *nm = sizeof(_SimF) == sizeof(void *) && std::is_trivially_copyable<_SimF>::value
                             ? simtlab_launch_fname(name, &fn)
                             : name;
        return simtlab_launch(nm, file, line, simtlab_dim3{grid.x, grid.y, grid.z},
                              simtlab_dim3{block.x, block.y, block.z}, shared, stream, &thunk<_SimC, _SimK>, &c, sizeof c);
    }
    template <class... _SimA>
    __attribute__((no_sanitize_thread)) void operator()(_SimA &&...a) const
    {
        run(std::forward<_SimA>(a)...);
    }
};
template <class _SimF>
static inline launch<_SimF> make_launch(const char *name, const char *file, int line, _SimF fn, dim3 g, dim3 b, size_t s = 0,
                                    cudaStream_t st = 0)
{
    return launch<_SimF>{name, file, line, fn, g, b, s, st};
}
/* cudaLaunchKernel(kernel, grid, block, args, shared, stream): args[i] points at the kernel's
 * i-th argument, copied at the call as nvcc's stub does; the kernel's type says how to read each */
template <class... _SimP, size_t... _SimI>
static inline cudaError_t launch_kernel(const char *text, const char *file, int line, void (*k)(_SimP...), dim3 g,
                                        dim3 b, void **args, size_t s, cudaStream_t st, std::index_sequence<_SimI...>)
{
    if (!args && sizeof...(_SimP))
        return simtlab_api_fail(cudaErrorInvalidValue, "cudaLaunchKernel", "args is NULL, and the kernel has parameters");
    return launch<void (*)(_SimP...)>{simtlab_launch_name(text), file, line, k, g, b, s, st}.run(
        *static_cast<typename std::decay<_SimP>::type *>(args[_SimI])...);
}
} // namespace simtlab
template <class... _SimP>
static inline cudaError_t simtlab_launch_kernel(const char *text, const char *file, int line, void (*k)(_SimP...), dim3 g,
                                                dim3 b, void **args, size_t s = 0, cudaStream_t st = 0)
{
    return simtlab::launch_kernel(text, file, line, k, g, b, args, s, st, std::index_sequence_for<_SimP...>());
}
/* the C API's form, the kernel cast to a pointer: its parameters' types are gone, and the simulator
 * needs them to read args (a GPU's driver reads them from the kernel's metadata) */
static inline cudaError_t simtlab_launch_kernel(const char *text, const char *file, int line, const void *k, dim3, dim3,
                                                void **, size_t = 0, cudaStream_t = 0)
{
    (void)k;
    return simtlab_launch_untyped(simtlab_launch_name(text), file, line);
}
/* CUDA's C++ form as a function too, for what the macro below cannot take: `cudaLaunchKernel<T>(k,
 * ...)`, `(cudaLaunchKernel)(...)`, its address (the kernel's name is then not known) */
template <class _SimT>
static inline cudaError_t(cudaLaunchKernel)(const _SimT *k, dim3 g, dim3 b, void **args, size_t s = 0, cudaStream_t st = 0,
                                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return simtlab_launch_kernel("(cudaLaunchKernel)", file, line, k, g, b, args, s, st);
}
#define cudaLaunchKernel(...) simtlab_launch_kernel(#__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
/* The explicit graph API's kernel node (sim/run/cudart.c records it): func holds the kernel with its
 * type, where the program assigns the kernel itself (`params.func = kernel`; simtlab run's rewriter
 * drops the cast of `params.func = (void *)kernel;`), so that kernelParams is read as the kernel's
 * parameters, as cudaLaunchKernel reads args. A void * from elsewhere has no type: the node is
 * refused with the fix named. */
struct cudaKernelNodeParams;
namespace simtlab {
template <class... _SimP>
static inline cudaError_t kernel_node_add(void *k, const char *file, int line, const cudaKernelNodeParams *p);
}
struct simtlab_kfunc {
    void *p;
    cudaError_t (*add)(void *, const char *, int, const cudaKernelNodeParams *);
    simtlab_kfunc() = default;
    simtlab_kfunc(void *q) : p(q), add(nullptr) {}
    template <class... _SimP>
    simtlab_kfunc(void (*k)(_SimP...)) : p((void *)k), add(&simtlab::kernel_node_add<_SimP...>)
    {
    }
    operator void *() const { return p; }
};
struct cudaKernelNodeParams { /* gridDim and blockDim are macros here: the rewriter renames the members */
    simtlab_kfunc func;
    dim3 simtlab_host_gridDim, simtlab_host_blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams, **extra;
};
/* `params.func = (void *)name;` as the rewriter writes it in a file that names cudaKernelNodeParams:
 * a kernel keeps its type; any other pointer or number is the cast it was */
template <class... _SimP>
static inline simtlab_kfunc simtlab_node_func(void (*k)(_SimP...))
{
    return simtlab_kfunc(k);
}
template <class _SimT>
static inline void *simtlab_node_func(_SimT *x)
{
    return (void *)x;
}
template <class _SimT>
static inline typename std::enable_if<std::is_integral<_SimT>::value, void *>::type simtlab_node_func(_SimT x)
{
    return (void *)(uintptr_t)x;
}
/* a kernel node's func where CUDA takes the kernel as a pointer */
static inline cudaError_t cudaFuncSetAttribute(const simtlab_kfunc &, cudaFuncAttribute attr, int value)
{
    return simtlab_func_set_attribute((int)attr, value);
}
static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const simtlab_kfunc &)
{
    return simtlab_func_get_attributes(a);
}
static inline cudaError_t cudaFuncSetCacheConfig(const simtlab_kfunc &, cudaFuncCache) { return cudaSuccess; }
namespace simtlab {
template <class... _SimP>
static inline cudaError_t kernel_node_add(void *k, const char *file, int line, const cudaKernelNodeParams *p)
{
    if (!p->kernelParams && sizeof...(_SimP))
        return simtlab_api_fail(cudaErrorInvalidValue, "cudaGraphAddKernelNode",
                                "kernelParams is NULL, and the kernel has parameters");
    return launch_kernel(simtlab_launch_fname("(kernel node)", &k), file, line, (void (*)(_SimP...))k,
                         p->simtlab_host_gridDim, p->simtlab_host_blockDim, p->kernelParams, p->sharedMemBytes, 0,
                         std::index_sequence_for<_SimP...>());
}
} // namespace simtlab
static inline cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *deps,
                                                 size_t n, const cudaKernelNodeParams *p,
                                                 const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if (!p)
        return simtlab_api_fail(cudaErrorInvalidValue, "cudaGraphAddKernelNode", "pNodeParams is NULL");
    if (p->func.p && !p->func.add)
        return simtlab_graph_kernel_untyped(file, line);
    if (!p->kernelParams && p->extra)
        return simtlab_api_fail(cudaErrorInvalidValue, "cudaGraphAddKernelNode",
                                "the simulator reads a kernel node's arguments from kernelParams, not extra");
    cudaError_t e = simtlab_graph_record_begin(node, g, deps, n, p->func.p);
    if (e)
        return e;
    return simtlab_graph_record_end(p->func.add(p->func.p, file, line, p));
}
/* a kernel node's new parameters: of the graph's node, or of an exec's node made from it */
static inline cudaError_t simtlab_kernel_node_set(cudaGraphExec_t x, cudaGraphNode_t node, const cudaKernelNodeParams *p,
                                                  const char *call, const char *file, int line)
{
    if (!p)
        return simtlab_api_fail(cudaErrorInvalidValue, call, "pNodeParams is NULL");
    if (p->func.p && !p->func.add)
        return simtlab_graph_kernel_untyped(file, line);
    if (!p->kernelParams && p->extra)
        return simtlab_api_fail(cudaErrorInvalidValue, call,
                                "the simulator reads a kernel node's arguments from kernelParams, not extra");
    cudaError_t e = simtlab_graph_kernel_set_begin(x, node, p->func.p);
    if (e)
        return e;
    return simtlab_graph_record_end(p->func.add(p->func.p, file, line, p));
}
static inline cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p,
                                                       const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return simtlab_kernel_node_set(NULL, node, p, "cudaGraphKernelNodeSetParams", file, line);
}
static inline cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t x, cudaGraphNode_t node,
                                                           const cudaKernelNodeParams *p,
                                                           const char *file = __builtin_FILE(),
                                                           int line = __builtin_LINE())
{
    if (!x)
        return simtlab_api_fail(cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams", "the graph exec is NULL");
    return simtlab_kernel_node_set(x, node, p, "cudaGraphExecKernelNodeSetParams", file, line);
}
/* CUDA 12's four arguments and 12.3's with edge data (only the default edge: all 0) */
static inline cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                                   size_t n)
{
    return simtlab_graph_add_deps(g, from, to, n);
}
static inline cudaError_t cudaGraphAddDependencies(cudaGraph_t g, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                                   const cudaGraphEdgeData *ed, size_t n)
{
    for (size_t i = 0; ed && i < n; i++)
        if (ed[i].from_port || ed[i].to_port || ed[i].type)
            return simtlab_api_fail(cudaErrorNotSupported, "cudaGraphAddDependencies",
                                    "edge data other than the default (ports and type 0) is not simulated");
    return simtlab_graph_add_deps(g, from, to, n);
}
#define SIMTLAB_LAUNCH_(name, file, line, fn, ...) ::simtlab::make_launch(name, file, line, fn, __VA_ARGS__)
/* a launch's kernel name pasted in a macro (`fill_##tag##_kernel<<<...>>>`), as a string */
#define SIMTLAB_STR_(...) #__VA_ARGS__
/* the kernel call each simulated thread makes (the kernel's expression may hold commas); its return
 * type names the call, for the argument traits above to probe (SFINAE) */
#ifndef SIMTLAB_KCALL_VOID
#define SIMTLAB_KCALL_(...)                                                                                          \
    [=](auto &&...simtlab_a_) -> decltype(__VA_ARGS__(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...)) {          \
        return __VA_ARGS__(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...);                                       \
    }
/* a function-pointer template parameter (sim/run/rewrite.c template_fn_params): the closure holds its
 * value, one pointer, which names the launch by the kernel it points to */
#define SIMTLAB_KCALL_PTR_(...)                                                                                      \
    [simtlab_kp_ = __VA_ARGS__](auto &&...simtlab_a_)                                                                \
        -> decltype(__VA_ARGS__(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...)) {                               \
        return simtlab_kp_(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...);                                       \
    }
#else /* sim/run/run.c kcall_refused: a signature that names nothing of the program's; the traits then
       * find no karg parameter and pass copies of the values */
#define SIMTLAB_KCALL_(...)                                                                                          \
    [=](auto &&...simtlab_a_) -> void { __VA_ARGS__(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...); }
#define SIMTLAB_KCALL_PTR_(...)                                                                                      \
    [simtlab_kp_ = __VA_ARGS__](auto &&...simtlab_a_) -> void {                                                      \
        simtlab_kp_(static_cast<decltype(simtlab_a_) &&>(simtlab_a_)...);                                              \
    }
#endif


#endif /* SIMTLAB_CUDA_RUNTIME_H */
