/* sim/run/rewrite.h - the source rewrite `simtlab run` applies to a .cu file
 * before g++ compiles it (sim/run/rewrite.c; why a rewrite: docs/NOTES.md).
 *
 *   K<<<grid, block[, shared[, stream]]>>>(args)
 *     -> ::simtlab::make_launch("K", __FILE__, __LINE__,
 *            [&](auto... a) { K(a...); }, grid, block[, shared[, stream]])(args)
 *   extern __shared__ T name[];            (in a function)
 *     -> T (&name)[] = *reinterpret_cast<T (*)[]>(sim_dynamic_shared());
 *   extern __shared__ T name[];            (at file scope)
 *     -> an accessor function returning T (*)[] and #define name (*accessor())
 *   (name is an array, as in CUDA: &name is the shared memory's address)
 *   static __shared__ T s[N];  ->  __shared__ T s[N];  (the shim's __shared__ is static already)
 *   blockDim, gridDim, blockIdx, threadIdx in host code, in a launch's
 *   configuration and as members (after . -> X::)
 *     -> simtlab_host_blockDim & co.: the program's own variables (host code
 *        cannot read the built-ins, which are the shim's macros)
 *
 * Line numbers are kept (a #line 1 "path" first, no line added or removed
 * where the compiler could see it), so compiler errors and simulator reports
 * name the student's file and line.
 *
 *   a host function definition  T f(params) { ... }
 *     -> T f SIMTLAB_HOST_FN (params) { ... }
 *   an external kernel or __device__ function definition (not static, inline or a template)
 *     -> __global__ void k SIMTLAB_DEV_FN (params) { ... }
 * The marks are macros the build defines (sim/run/run.c): the host pass
 * (no instrumentation) makes SIMTLAB_DEV_FN [[gnu::weak]], so that the device
 * pass's instrumented kernels win the link; the single-pass fallback makes
 * SIMTLAB_HOST_FN [[gnu::no_sanitize_thread]].
 *
 * Features the simulator does not have (cooperative groups, dynamic
 * parallelism, textures, cuBLAS & co., half precision, inline PTX) are found
 * here and reported as "file:line: ... not supported", one line each,
 * instead of a wall of compiler errors.
 */
#ifndef SIMTLAB_RUN_REWRITE_H
#define SIMTLAB_RUN_REWRITE_H
#include <stddef.h>

typedef struct rewrite_result {
    char *text;      /* malloc'd rewritten source (NUL-terminated), NULL on error */
    size_t len;
    int launches;    /* <<<>>> launches rewritten */
    int host_marks;  /* host function definitions marked SIMTLAB_HOST_FN */
    int dev_marks;   /* external kernel and __device__ function definitions marked SIMTLAB_DEV_FN */
    int heap_calls;  /* malloc/free calls in device code, now simtlab_device_malloc/free (the device heap) */
    int local_dev_vars; /* `static __device__` / `static __constant__` variables outside functions: internal
                          linkage, so the two passes would each keep a copy (run.c builds such a file in one pass) */
    int uniform_atomics; /* atomics in kernels on a warp-uniform address, marked (rewrite_atomics.c) */
    char err[2048];  /* on error: one "path:line: why" line per problem */
} rewrite_result;

/* Rewrites src (n bytes) read from path (used for #line and messages).
 * Returns 0, or -1 with r->err set (r->text NULL). */
int cu_rewrite(const char *src, size_t n, const char *path, rewrite_result *r);
/* The same, knowing the names the command line defines (defines: the values of -D, NAME or
 * NAME=VALUE): a feature named only in a branch the preprocessor surely drops (`#ifdef
 * ENABLE_CUDNN` with ENABLE_CUDNN defined nowhere) is not reported (rewrite.c, cond_line). */
int cu_rewrite_defs(const char *src, size_t n, const char *path, const char *const *defines, int n_defines,
                    rewrite_result *r);
/* The same for a header the program includes: a name of an unsupported feature is not an error
 * there (helper_cuda.h names cuBLAS's types inside #ifdef CUBLAS_API_H_, which the preprocessor
 * drops unless the program includes cuBLAS; if the program does use it, g++ says so). */
int cu_rewrite_header(const char *src, size_t n, const char *path, rewrite_result *r);
/* The first step of the three: the atomics nvcc aggregates marked (sim/run/rewrite_atomics.c).
 * Returns the new text (malloc'd, *out_n bytes, NUL-terminated; *marks calls marked), NULL if out
 * of memory. */
char *rewrite_uniform_atomics(const char *src, size_t n, size_t *out_n, int *marks);
#endif
