/* sim/simt_cfg.h - what host code and kernel files share: the launch
 * configuration (plain C data, the same for gcc and nvcc) and the
 * DECLARE_LAUNCHER macro for kernel headers. Host drivers include this (via
 * a kernel file's header), never sim/kernel.h, which defines the CUDA names
 * themselves. */
#ifndef SIMTLAB_SIMT_CFG_H
#define SIMTLAB_SIMT_CFG_H

#include <stddef.h>
#include <stdint.h>

/* A launch configuration as plain C data, the same on both sides. */
typedef struct simt_dim {
    unsigned x, y, z;
} simt_dim;

typedef struct simt_cfg {
    simt_dim grid;
    simt_dim block;
    size_t shared_bytes; /* dynamic shared memory per block */
    void *stream;        /* cudaStream_t under CUDA; ignored by the simulator */
    /* __launch_bounds__(threads, B)'s B, set by the simulator's launchers
     * (sim/kernel.h LAUNCHER): the blocks an SM holds, registers permitting.
     * 0: not declared (the residency comes from threads and shared memory). */
    unsigned min_blocks_per_sm;
} simt_cfg;

/* ---- argument-list helpers for LAUNCHER (up to 16 parameters) ---------- */
#define SIMT_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) N
#define SIMT_NARG(...) SIMT_NARG_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define SIMT_CAT_(a, b) a##b
#define SIMT_CAT(a, b) SIMT_CAT_(a, b)
#define SIMT_MAP(m, sep, ...) SIMT_CAT(SIMT_MAP_, SIMT_NARG(__VA_ARGS__))(m, sep, __VA_ARGS__)
#define SIMT_MAP_1(m, s, a) m a
#define SIMT_MAP_2(m, s, a, ...) m a s() SIMT_MAP_1(m, s, __VA_ARGS__)
#define SIMT_MAP_3(m, s, a, ...) m a s() SIMT_MAP_2(m, s, __VA_ARGS__)
#define SIMT_MAP_4(m, s, a, ...) m a s() SIMT_MAP_3(m, s, __VA_ARGS__)
#define SIMT_MAP_5(m, s, a, ...) m a s() SIMT_MAP_4(m, s, __VA_ARGS__)
#define SIMT_MAP_6(m, s, a, ...) m a s() SIMT_MAP_5(m, s, __VA_ARGS__)
#define SIMT_MAP_7(m, s, a, ...) m a s() SIMT_MAP_6(m, s, __VA_ARGS__)
#define SIMT_MAP_8(m, s, a, ...) m a s() SIMT_MAP_7(m, s, __VA_ARGS__)
#define SIMT_MAP_9(m, s, a, ...) m a s() SIMT_MAP_8(m, s, __VA_ARGS__)
#define SIMT_MAP_10(m, s, a, ...) m a s() SIMT_MAP_9(m, s, __VA_ARGS__)
#define SIMT_MAP_11(m, s, a, ...) m a s() SIMT_MAP_10(m, s, __VA_ARGS__)
#define SIMT_MAP_12(m, s, a, ...) m a s() SIMT_MAP_11(m, s, __VA_ARGS__)
#define SIMT_MAP_13(m, s, a, ...) m a s() SIMT_MAP_12(m, s, __VA_ARGS__)
#define SIMT_MAP_14(m, s, a, ...) m a s() SIMT_MAP_13(m, s, __VA_ARGS__)
#define SIMT_MAP_15(m, s, a, ...) m a s() SIMT_MAP_14(m, s, __VA_ARGS__)
#define SIMT_MAP_16(m, s, a, ...) m a s() SIMT_MAP_15(m, s, __VA_ARGS__)
#define SIMT_COMMA() ,
#define SIMT_SEMI() ;
#define SIMT_NOTHING()
#define SIMT_PARAM(t, n) t n
#define SIMT_NAME(t, n) n
#define SIMT_FIELD(t, n) t n
#define SIMT_FROM(t, n) a_->n

#ifdef __cplusplus
#define SIMT_EXTERN_C extern "C"
#else
#define SIMT_EXTERN_C
#endif

#define DECLARE_LAUNCHER(k, ...)                                                        \
    SIMT_EXTERN_C int k##_launch_sim(const simt_cfg *cfg, SIMT_MAP(SIMT_PARAM, SIMT_COMMA, __VA_ARGS__)); \
    SIMT_EXTERN_C int k##_launch_cuda(const simt_cfg *cfg, SIMT_MAP(SIMT_PARAM, SIMT_COMMA, __VA_ARGS__))

#endif /* SIMTLAB_SIMT_CFG_H */
