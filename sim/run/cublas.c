/* sim/run/cublas.c - cuBLAS's classic API for `simtlab run` (sim/run/include/cublas_api.h): the
 * handles, the host-device helpers, and the float and double BLAS programs call most. Every
 * computing call checks its arguments as cuBLAS does (a bad one returns
 * CUBLAS_STATUS_INVALID_VALUE, and here a message naming it, its limit and the fix), then runs as
 * one launch of simtlab's own kernel (sim/run/cublas_kernels.cu) through simtlab_launch: counted,
 * checked and timed like the program's kernels, named after the call (cublasSgemm) at the
 * caller's file and line. A kernel fault inside it (a host pointer passed as A, a matrix smaller
 * than m, n, k and the leading dimensions say) is the launch's report; the call itself returns
 * CUBLAS_STATUS_SUCCESS, as cuBLAS's asynchronous launch does on a GPU, and the program sees the
 * fault at its next call that waits for the GPU (sim/run/cudart.c, pending_err); a launch refused
 * outright (its configuration) returns CUBLAS_STATUS_EXECUTION_FAILED. Scalars in device memory (CUBLAS_POINTER_MODE_DEVICE) are read
 * when the call is made: the simulator runs a stream's work in order, at once.
 *
 * Not here: complex and integer types (GemmEx refuses them by name), level 3 beyond
 * GEMM (trsm, symm, syrk, ...), cuBLASLt's multiplies (its handles are here, at the end),
 * cuBLASXt, the legacy API of cublas.h. */
#define _GNU_SOURCE
#include "simtlab_cudart.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cublasLt.h"
#include "cublas_api.h"
#include "cublas_kernels.h"
#include "memory.h"

/* the calls' names, without the macros in the way */
#undef cublasGetStatusName
#undef cublasGetStatusString

struct simtlab_cublas_context {
    cudaStream_t stream;
    cublasMath_t math;
    cublasPointerMode_t ptr_mode;
    cublasAtomicsMode_t atomics;
    void *result; /* device memory for a reduction's result, in host pointer mode */
    pthread_mutex_t lock; /* a reduction's launch and its copy back: one at a time a handle */
};

/* The live handles: a destroyed or made-up handle is refused by name, not followed. */
#define MAX_HANDLES 1024
static struct simtlab_cublas_context *handles[MAX_HANDLES];
static unsigned n_handles;
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;

size_t cublasGetCudartVersion(void) { return SIMTLAB_CUDART_VERSION; }

const char *cublasGetStatusName(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "an error was detected when checking the current licensing";
    }
    return "unknown error";
}

/* A refused call: its message (the value, the limit, the fix) and its status. */
static cublasStatus_t refuse(cublasStatus_t s, const char *fn, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static cublasStatus_t refuse(cublasStatus_t s, const char *fn, const char *file, int line, const char *fmt, ...)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "simtlab: %s at %s:%d returned %s: %s\n", fn, base, line, cublasGetStatusName(s), why);
    return s;
}

/* The handle, if it is one cublasCreate made and cublasDestroy has not ended; else NULL and the
 * message. */
static struct simtlab_cublas_context *handle_of(cublasHandle_t h, const char *fn, const char *file, int line)
{
    pthread_mutex_lock(&handles_lock);
    unsigned i = 0;
    while (i < n_handles && handles[i] != h)
        i++;
    const int found = h && i < n_handles;
    pthread_mutex_unlock(&handles_lock);
    if (found)
        return h;
    refuse(CUBLAS_STATUS_NOT_INITIALIZED, fn, file, line,
           h ? "the handle %p is not one cublasCreate made, or cublasDestroy has ended it; pass the handle "
               "cublasCreate(&handle) set"
             : "the handle %p is NULL; create one first with cublasCreate(&handle)",
           (void *)h);
    return NULL;
}
/* a call that computes on a capturing stream: the simulator records its kernels in the graph but
 * reads its scalars and returns its results now, so it is refused and the capture invalidated
 * (simtlab_capture_refuse); the handle's settings (cublasSet*, cublasGet*) are not work */
#define HANDLE(h, fn)                                                                                          \
    struct simtlab_cublas_context *ctx = handle_of(h, fn, file, line);                                          \
    if (!ctx)                                                                                                   \
        return CUBLAS_STATUS_NOT_INITIALIZED;                                                                   \
    if (strncmp(fn, "cublasSet", 9) && strncmp(fn, "cublasGet", 9) && simtlab_capture_refuse(ctx->stream, fn)) \
    return CUBLAS_STATUS_NOT_SUPPORTED

cublasStatus_t simtlab_cublasCreate(const char *file, int line, cublasHandle_t *handle)
{
    if (!handle)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasCreate", file, line,
                      "handle is NULL; pass the address of a cublasHandle_t: cublasCreate(&handle)");
    struct simtlab_cublas_context *c = calloc(1, sizeof *c);
    if (!c)
        return refuse(CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate", file, line, "out of host memory");
    pthread_mutex_lock(&handles_lock);
    if (n_handles == MAX_HANDLES) {
        pthread_mutex_unlock(&handles_lock);
        free(c);
        return refuse(CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate", file, line,
                      "%d handles are alive at once, the most simtlab keeps; cublasDestroy the ones no longer used",
                      MAX_HANDLES);
    }
    pthread_mutex_init(&c->lock, NULL);
    handles[n_handles++] = c;
    pthread_mutex_unlock(&handles_lock);
    *handle = c;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasDestroy(const char *file, int line, cublasHandle_t h)
{
    /* found and removed in one step: two threads destroying one handle free it once */
    pthread_mutex_lock(&handles_lock);
    unsigned i = 0;
    while (i < n_handles && handles[i] != h)
        i++;
    const int found = h && i < n_handles;
    if (found)
        handles[i] = handles[--n_handles];
    pthread_mutex_unlock(&handles_lock);
    if (!found)
        return handle_of(h, "cublasDestroy", file, line) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
    if (h->result)
        sim_free(h->result);
    pthread_mutex_destroy(&h->lock);
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetVersion(const char *file, int line, cublasHandle_t h, int *version)
{
    HANDLE(h, "cublasGetVersion");
    if (!version)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetVersion", file, line, "version is NULL");
    *version = CUBLAS_VERSION;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetProperty(const char *file, int line, libraryPropertyType type, int *value)
{
    if (!value || (unsigned)type > PATCH_LEVEL)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetProperty", file, line,
                      value ? "type %d is not MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL" : "value is NULL",
                      (int)type);
    *value = type == MAJOR_VERSION ? CUBLAS_VER_MAJOR : type == MINOR_VERSION ? CUBLAS_VER_MINOR : CUBLAS_VER_PATCH;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasSetStream(const char *file, int line, cublasHandle_t h, simtlab_cublas_stream s)
{
    HANDLE(h, "cublasSetStream");
    ctx->stream = s;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetStream(const char *file, int line, cublasHandle_t h, simtlab_cublas_stream *s)
{
    HANDLE(h, "cublasGetStream");
    if (!s)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetStream", file, line, "streamId is NULL");
    *s = ctx->stream;
    return CUBLAS_STATUS_SUCCESS;
}

/* The math modes change how a GPU rounds (tensor cores, TF32); the simulator's kernels compute
 * in the data's own precision whatever the mode, as CUBLAS_PEDANTIC_MATH asks. */
cublasStatus_t simtlab_cublasSetMathMode(const char *file, int line, cublasHandle_t h, cublasMath_t mode)
{
    HANDLE(h, "cublasSetMathMode");
    if ((unsigned)mode & ~(unsigned)(CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION | 15) ||
        (((unsigned)mode & 15) > 4 && ((unsigned)mode & 15) != 8))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasSetMathMode", file, line,
                      "mode %d is not a cublasMath_t (CUBLAS_DEFAULT_MATH, CUBLAS_PEDANTIC_MATH, "
                      "CUBLAS_TF32_TENSOR_OP_MATH, ...)",
                      (int)mode);
    ctx->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetMathMode(const char *file, int line, cublasHandle_t h, cublasMath_t *mode)
{
    HANDLE(h, "cublasGetMathMode");
    if (!mode)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetMathMode", file, line, "mode is NULL");
    *mode = ctx->math;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasSetPointerMode(const char *file, int line, cublasHandle_t h, cublasPointerMode_t mode)
{
    HANDLE(h, "cublasSetPointerMode");
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasSetPointerMode", file, line,
                      "mode %d is neither CUBLAS_POINTER_MODE_HOST (0) nor CUBLAS_POINTER_MODE_DEVICE (1)", (int)mode);
    ctx->ptr_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetPointerMode(const char *file, int line, cublasHandle_t h, cublasPointerMode_t *mode)
{
    HANDLE(h, "cublasGetPointerMode");
    if (!mode)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetPointerMode", file, line, "mode is NULL");
    *mode = ctx->ptr_mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasSetAtomicsMode(const char *file, int line, cublasHandle_t h, cublasAtomicsMode_t mode)
{
    HANDLE(h, "cublasSetAtomicsMode");
    ctx->atomics = mode; /* the kernels here use no atomics either way */
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasGetAtomicsMode(const char *file, int line, cublasHandle_t h, cublasAtomicsMode_t *mode)
{
    HANDLE(h, "cublasGetAtomicsMode");
    if (!mode)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasGetAtomicsMode", file, line, "mode is NULL");
    *mode = ctx->atomics;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasSetWorkspace(const char *file, int line, cublasHandle_t h, void *workspace, size_t bytes)
{
    HANDLE(h, "cublasSetWorkspace");
    (void)workspace, (void)bytes; /* the kernels here need none */
    return CUBLAS_STATUS_SUCCESS;
}

/* ---- host <-> device helpers: copies, with cudaMemcpy's checks and simulated time ---- */
static cublasStatus_t copy_2d(const char *fn, const char *file, int line, void *dst, size_t dpitch, const void *src,
                              size_t spitch, size_t width, size_t height, cudaMemcpyKind kind)
{
    if (!width || !height)
        return CUBLAS_STATUS_SUCCESS;
    const cudaError_t before = cudaPeekAtLastError();
    if (cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind) != cudaSuccess) {
        if (before == cudaSuccess) /* cuBLAS's status says it: a library call leaves the runtime's error as it was */
            (void)cudaGetLastError();
        return refuse(CUBLAS_STATUS_MAPPING_ERROR, fn, file, line,
                      "the copy failed (the runtime's message above says why): %s must be device memory of at "
                      "least the size the arguments describe",
                      kind == cudaMemcpyHostToDevice ? "the destination" : "the source");
    }
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t vector_copy(const char *fn, const char *file, int line, int n, int elem, const void *x, int incx,
                                  void *y, int incy, cudaMemcpyKind kind)
{
    if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0 || !x || !y)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "n = %d, elemSize = %d, incx = %d, incy = %d%s%s: n must be at least 0, elemSize and the "
                      "increments at least 1, the pointers not NULL",
                      n, elem, incx, incy, x ? "" : ", x is NULL", y ? "" : ", y is NULL");
    return copy_2d(fn, file, line, y, (size_t)incy * (size_t)elem, x, (size_t)incx * (size_t)elem, (size_t)elem,
                   (size_t)n, kind);
}

static cublasStatus_t matrix_copy(const char *fn, const char *file, int line, int rows, int cols, int elem,
                                  const void *A, int lda, void *B, int ldb, cudaMemcpyKind kind)
{
    if (rows < 0 || cols < 0 || elem <= 0 || lda <= 0 || ldb <= 0 || lda < rows || ldb < rows || !A || !B)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "rows = %d, cols = %d, elemSize = %d, lda = %d, ldb = %d%s%s: rows and cols must be at least "
                      "0, elemSize at least 1, lda and ldb at least max(1, rows) (column-major: a column's "
                      "elements are consecutive), the pointers not NULL",
                      rows, cols, elem, lda, ldb, A ? "" : ", A is NULL", B ? "" : ", B is NULL");
    return copy_2d(fn, file, line, B, (size_t)ldb * (size_t)elem, A, (size_t)lda * (size_t)elem,
                   (size_t)rows * (size_t)elem, (size_t)cols, kind);
}

cublasStatus_t simtlab_cublasSetVector(const char *file, int line, int n, int elem, const void *x, int incx, void *y,
                                       int incy)
{
    return vector_copy("cublasSetVector", file, line, n, elem, x, incx, y, incy, cudaMemcpyHostToDevice);
}
cublasStatus_t simtlab_cublasGetVector(const char *file, int line, int n, int elem, const void *x, int incx, void *y,
                                       int incy)
{
    return vector_copy("cublasGetVector", file, line, n, elem, x, incx, y, incy, cudaMemcpyDeviceToHost);
}
cublasStatus_t simtlab_cublasSetMatrix(const char *file, int line, int rows, int cols, int elem, const void *A, int lda,
                                       void *B, int ldb)
{
    return matrix_copy("cublasSetMatrix", file, line, rows, cols, elem, A, lda, B, ldb, cudaMemcpyHostToDevice);
}
cublasStatus_t simtlab_cublasGetMatrix(const char *file, int line, int rows, int cols, int elem, const void *A, int lda,
                                       void *B, int ldb)
{
    return matrix_copy("cublasGetMatrix", file, line, rows, cols, elem, A, lda, B, ldb, cudaMemcpyDeviceToHost);
}
/* the Async forms: a stream's work runs at once here, in order */
cublasStatus_t simtlab_cublasSetVectorAsync(const char *file, int line, int n, int elem, const void *x, int incx,
                                            void *y, int incy, simtlab_cublas_stream s)
{
    (void)s;
    return vector_copy("cublasSetVectorAsync", file, line, n, elem, x, incx, y, incy, cudaMemcpyHostToDevice);
}
cublasStatus_t simtlab_cublasGetVectorAsync(const char *file, int line, int n, int elem, const void *x, int incx,
                                            void *y, int incy, simtlab_cublas_stream s)
{
    (void)s;
    return vector_copy("cublasGetVectorAsync", file, line, n, elem, x, incx, y, incy, cudaMemcpyDeviceToHost);
}
cublasStatus_t simtlab_cublasSetMatrixAsync(const char *file, int line, int rows, int cols, int elem, const void *A,
                                            int lda, void *B, int ldb, simtlab_cublas_stream s)
{
    (void)s;
    return matrix_copy("cublasSetMatrixAsync", file, line, rows, cols, elem, A, lda, B, ldb, cudaMemcpyHostToDevice);
}
cublasStatus_t simtlab_cublasGetMatrixAsync(const char *file, int line, int rows, int cols, int elem, const void *A,
                                            int lda, void *B, int ldb, simtlab_cublas_stream s)
{
    (void)s;
    return matrix_copy("cublasGetMatrixAsync", file, line, rows, cols, elem, A, lda, B, ldb, cudaMemcpyDeviceToHost);
}

/* ---- scalars and launches ---- */

/* A half's value (CUBLAS_COMPUTE_16F's alpha and beta are halves) */
static double half_value(uint16_t h)
{
    const int e = (h >> 10) & 0x1f, f = h & 0x3ff;
    const double m = e == 31 ? (f ? NAN : INFINITY) : e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    return h & 0x8000 ? -m : m;
}

/* *p, an alpha or beta of elem bytes: read where the pointer mode says it is. 0 and the message
 * when the pointer is NULL or, in device mode, not device memory. */
static int scalar(const struct simtlab_cublas_context *ctx, const void *p, size_t elem, double *v, const char *what,
                  const char *fn, const char *file, int line)
{
    if (!p) {
        refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line, "%s is NULL; pass the address of the scalar", what);
        return 0;
    }
    if (ctx->ptr_mode == CUBLAS_POINTER_MODE_HOST && simtlab_on_device(p)) {
        refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
               "%s = %p is device memory, and the handle's pointer mode is CUBLAS_POINTER_MODE_HOST (the "
               "default), where a GPU's cuBLAS reads it on the host and crashes; pass a host variable, or call "
               "cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) first",
               what, p);
        return 0;
    }
    if (ctx->ptr_mode == CUBLAS_POINTER_MODE_DEVICE) {
        sim_alloc_info info;
        if ((sim_alloc_query(p, &info) || info.freed ||
             (const char *)p + elem > (const char *)info.base + info.bytes) &&
            !sim_in_symbol(p, elem)) {
            refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                   "%s = %p is not device memory, and the handle's pointer mode is CUBLAS_POINTER_MODE_DEVICE; "
                   "pass a device pointer, or cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST) for a host one",
                   what, p);
            return 0;
        }
    }
    *v = elem == 2 ? half_value(*(const uint16_t *)p) : elem == 4 ? (double)*(const float *)p : *(const double *)p;
    return 1;
}

static unsigned blocks_for(long long n, unsigned per) { return (unsigned)((n + per - 1) / per); }

static cublasStatus_t launch(const struct simtlab_cublas_context *ctx, const char *fn, const char *file, int line,
                             simtlab_dim3 grid, simtlab_dim3 block, size_t shared, void (*thunk)(const void *),
                             const void *args, size_t size)
{
    simtlab_launch_is_library(); /* compare mode sets it beside NVIDIA's kernels (run_cuda.c) */
    if (simtlab_launch(fn, file, line, grid, block, shared, ctx->stream, thunk, args, size) != cudaSuccess)
        return CUBLAS_STATUS_EXECUTION_FAILED; /* the launch's report says why */
    return CUBLAS_STATUS_SUCCESS;
}

static const char *op_name(int op)
{
    return op == CUBLAS_OP_N ? "CUBLAS_OP_N" : op == CUBLAS_OP_T ? "CUBLAS_OP_T" : "CUBLAS_OP_C";
}

/* ---- GEMM ---- */
typedef struct gemm_call {
    const char *fn;
    int elem; /* the scalars' bytes: 4 or 8 (float, double data), or with lowp 2 or 4 (CUBLAS_COMPUTE_16F, 32F) */
    cublasOperation_t ta, tb;
    int m, n, k, lda, ldb, ldc, batch;
    long long sa, sb, sc;
    const void *alpha, *beta, *A, *B;
    void *C;
    int pointer_arrays; /* A, B and C are arrays of batch pointers, in device memory */
    int lowp, lp_ab, lp_c; /* half or bfloat16 A and B (SIMTLAB_LP_*), and C's type */
} gemm_call;

/* The caller has looked its handle up (HANDLE): ctx. */
static cublasStatus_t gemm(const char *file, int line, const struct simtlab_cublas_context *ctx, const gemm_call *g)
{
    const char *fn = g->fn;
    const int rows_a = g->ta == CUBLAS_OP_N ? g->m : g->k, rows_b = g->tb == CUBLAS_OP_N ? g->k : g->n;
    if ((unsigned)g->ta > CUBLAS_OP_C || (unsigned)g->tb > CUBLAS_OP_C)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "transa = %d, transb = %d: each must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C", (int)g->ta,
                      (int)g->tb);
    if (g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 0)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "m = %d, n = %d, k = %d, batchCount = %d: none may be negative", g->m, g->n, g->k, g->batch);
    if (g->lda < (rows_a > 1 ? rows_a : 1))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "lda = %d is less than max(1, %s) = %d (A as stored is %d x %d with transa = %s): lda is the "
                      "distance between A's columns, at least its rows",
                      g->lda, g->ta == CUBLAS_OP_N ? "m" : "k", rows_a > 1 ? rows_a : 1, rows_a,
                      g->ta == CUBLAS_OP_N ? g->k : g->m, op_name(g->ta));
    if (g->ldb < (rows_b > 1 ? rows_b : 1))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "ldb = %d is less than max(1, %s) = %d (B as stored is %d x %d with transb = %s): ldb is the "
                      "distance between B's columns, at least its rows",
                      g->ldb, g->tb == CUBLAS_OP_N ? "k" : "n", rows_b > 1 ? rows_b : 1, rows_b,
                      g->tb == CUBLAS_OP_N ? g->n : g->k, op_name(g->tb));
    if (g->ldc < (g->m > 1 ? g->m : 1))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "ldc = %d is less than max(1, m) = %d (C is m x n = %d x %d): ldc is the distance between C's "
                      "columns, at least its rows",
                      g->ldc, g->m > 1 ? g->m : 1, g->m, g->n);
    double alpha, beta;
    if (!scalar(ctx, g->alpha, (size_t)g->elem, &alpha, "alpha", fn, file, line) ||
        !scalar(ctx, g->beta, (size_t)g->elem, &beta, "beta", fn, file, line))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!g->m || !g->n || !g->batch)
        return CUBLAS_STATUS_SUCCESS; /* nothing to compute: cuBLAS returns at once */
    struct simtlab_gemm_args a = {.ta = g->ta != CUBLAS_OP_N,
                                  .tb = g->tb != CUBLAS_OP_N,
                                  .m = g->m,
                                  .n = g->n,
                                  .k = g->k,
                                  .batch = g->batch,
                                  .lda = g->lda,
                                  .ldb = g->ldb,
                                  .ldc = g->ldc,
                                  .stride_a = g->sa,
                                  .stride_b = g->sb,
                                  .stride_c = g->sc,
                                  .alpha = alpha,
                                  .beta = beta,
                                  .A = g->A,
                                  .B = g->B,
                                  .C = g->C,
                                  .arrays = g->pointer_arrays,
                                  .lp_ab = g->lp_ab,
                                  .lp_c = g->lp_c,
                                  .c_size = g->lowp ? (g->lp_c == SIMTLAB_LP_F32 ? 4 : 2) : g->elem};
    const unsigned tiles_y = blocks_for(g->n, SIMTLAB_GEMM_TILE); /* y and z at most 65535: blocks loop over more */
    const simtlab_dim3 grid = {blocks_for(g->m, SIMTLAB_GEMM_TILE), tiles_y < 65535 ? tiles_y : 65535,
                               g->batch < 65535 ? (unsigned)g->batch : 65535};
    const simtlab_dim3 block = {SIMTLAB_GEMM_THREADS, 1, 1};
    const size_t shared = 2u * SIMTLAB_GEMM_K * SIMTLAB_GEMM_LDS * (g->lowp ? 4u : (size_t)g->elem);
    return launch(ctx, fn, file, line, grid, block, shared,
                  g->lowp ? simtlab_lpgemm_thunk : g->elem == 4 ? simtlab_sgemm_thunk : simtlab_dgemm_thunk, &a, sizeof a);
}

#define GEMM_FNS(T, P, E)                                                                                       \
    cublasStatus_t simtlab_cublas##P##gemm(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,  \
                                           cublasOperation_t tb, int m, int n, int k, const T *alpha, const T *A, \
                                           int lda, const T *B, int ldb, const T *beta, T *C, int ldc)           \
    {                                                                                                           \
        HANDLE(h, "cublas" #P "gemm");                                                                          \
        const gemm_call g = {"cublas" #P "gemm", E, ta, tb, m, n, k, lda, ldb, ldc, 1, 0, 0, 0, alpha, beta, A, B, C, 0, 0, 0, 0}; \
        return gemm(file, line, ctx, &g);                                                                       \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##gemmStridedBatched(                                                       \
        const char *file, int line, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, \
        int k, const T *alpha, const T *A, int lda, long long sa, const T *B, int ldb, long long sb,           \
        const T *beta, T *C, int ldc, long long sc, int batch)                                                  \
    {                                                                                                           \
        HANDLE(h, "cublas" #P "gemmStridedBatched");                                                            \
        const gemm_call g = {"cublas" #P "gemmStridedBatched", E, ta, tb, m, n, k, lda, ldb, ldc, batch, sa, sb, sc, \
                             alpha, beta, A, B, C, 0, 0, 0, 0};                                                 \
        return gemm(file, line, ctx, &g);                                                                       \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##gemmBatched(const char *file, int line, cublasHandle_t h,                 \
                                                  cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, \
                                                  const T *alpha, const T *const Aarray[], int lda,            \
                                                  const T *const Barray[], int ldb, const T *beta,             \
                                                  T *const Carray[], int ldc, int batch)                         \
    {                                                                                                           \
        HANDLE(h, "cublas" #P "gemmBatched");                                                                   \
        const gemm_call g = {"cublas" #P "gemmBatched", E, ta, tb, m, n, k, lda, ldb, ldc, batch, 0, 0, 0,     \
                             alpha, beta, Aarray, Barray, (void *)Carray, 1, 0, 0, 0};                          \
        return gemm(file, line, ctx, &g);                                                                       \
    }

GEMM_FNS(float, S, 4)
GEMM_FNS(double, D, 8)

/* GemmEx and its batched forms: float data (CUDA_R_32F, a CUBLAS_COMPUTE_32F* type), double data
 * (CUDA_R_64F, CUBLAS_COMPUTE_64F), and half or bfloat16 A and B (CUDA_R_16F, CUDA_R_16BF) with C
 * of the same type or float, computed in float (CUBLAS_COMPUTE_16F too: its alpha and beta are
 * halves, its products summed in float here, where a GPU may sum them in half). Integer and
 * complex data are refused by name. Fills g's type fields; 0 and the message if refused. */
static int ex_types(cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t ct, gemm_call *g,
                    const char *file, int line)
{
    const int ct32 = ct == CUBLAS_COMPUTE_32F || ct == CUBLAS_COMPUTE_32F_PEDANTIC || ct == CUBLAS_COMPUTE_32F_FAST_16F ||
                     ct == CUBLAS_COMPUTE_32F_FAST_16BF || ct == CUBLAS_COMPUTE_32F_FAST_TF32;
    const int ct16 = ct == CUBLAS_COMPUTE_16F || ct == CUBLAS_COMPUTE_16F_PEDANTIC;
    const int ct64 = ct == CUBLAS_COMPUTE_64F || ct == CUBLAS_COMPUTE_64F_PEDANTIC;
    g->lowp = 0;
    if (a == CUDA_R_32F && b == CUDA_R_32F && c == CUDA_R_32F && ct32)
        return g->elem = 4;
    if (a == CUDA_R_64F && b == CUDA_R_64F && c == CUDA_R_64F && ct64)
        return g->elem = 8;
    const int lp = a == CUDA_R_16F ? SIMTLAB_LP_F16 : a == CUDA_R_16BF ? SIMTLAB_LP_BF16 : -1;
    if (lp >= 0 && b == a && (c == a || c == CUDA_R_32F) && (ct32 || (ct16 && a == CUDA_R_16F && c == a))) {
        g->lowp = 1;
        g->lp_ab = lp;
        g->lp_c = c == CUDA_R_32F ? SIMTLAB_LP_F32 : lp;
        return g->elem = ct16 ? 2 : 4;
    }
    refuse(CUBLAS_STATUS_NOT_SUPPORTED, g->fn, file, line,
           "Atype = %d, Btype = %d, Ctype = %d, computeType = %d: simtlab's cuBLAS multiplies float (CUDA_R_32F "
           "with a CUBLAS_COMPUTE_32F* type), double (CUDA_R_64F, CUBLAS_COMPUTE_64F), and half or bfloat16 A and B "
           "(CUDA_R_16F, CUDA_R_16BF: the same type for both) into C of their type or float; convert the data, or run "
           "the program on a GPU (simtlab run --mode cuda)",
           (int)a, (int)b, (int)c, (int)ct);
    return 0;
}

cublasStatus_t simtlab_cublasGemmEx(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                    cublasOperation_t tb, int m, int n, int k, const void *alpha, const void *A,
                                    cudaDataType at, int lda, const void *B, cudaDataType bt, int ldb, const void *beta,
                                    void *C, cudaDataType ct, int ldc, cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
    (void)algo;
    HANDLE(h, "cublasGemmEx");
    gemm_call g = {"cublasGemmEx", 0, ta, tb, m, n, k, lda, ldb, ldc, 1, 0, 0, 0, alpha, beta, A, B, C, 0, 0, 0, 0};
    if (!ex_types(at, bt, ct, comp, &g, file, line))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return gemm(file, line, ctx, &g);
}

cublasStatus_t simtlab_cublasGemmStridedBatchedEx(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                                  cublasOperation_t tb, int m, int n, int k, const void *alpha,
                                                  const void *A, cudaDataType at, int lda, long long sa, const void *B,
                                                  cudaDataType bt, int ldb, long long sb, const void *beta, void *C,
                                                  cudaDataType ct, int ldc, long long sc, int batch,
                                                  cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
    (void)algo;
    HANDLE(h, "cublasGemmStridedBatchedEx");
    gemm_call g = {"cublasGemmStridedBatchedEx", 0, ta, tb, m, n, k, lda, ldb, ldc, batch, sa, sb, sc,
                   alpha, beta, A, B, C, 0, 0, 0, 0};
    if (!ex_types(at, bt, ct, comp, &g, file, line))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return gemm(file, line, ctx, &g);
}

cublasStatus_t simtlab_cublasGemmBatchedEx(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                           cublasOperation_t tb, int m, int n, int k, const void *alpha,
                                           const void *const Aarray[], cudaDataType at, int lda,
                                           const void *const Barray[], cudaDataType bt, int ldb, const void *beta,
                                           void *const Carray[], cudaDataType ct, int ldc, int batch,
                                           cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
    (void)algo;
    HANDLE(h, "cublasGemmBatchedEx");
    gemm_call g = {"cublasGemmBatchedEx", 0, ta, tb, m, n, k, lda, ldb, ldc, batch, 0, 0, 0,
                   alpha, beta, Aarray, Barray, (void *)Carray, 1, 0, 0, 0};
    if (!ex_types(at, bt, ct, comp, &g, file, line))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return gemm(file, line, ctx, &g);
}

/* cublasSgemmEx: A and B of CUDA_R_32F, 16F or 16BF (one type), C of theirs or float, float
 * scalars and sums; cublasHgemm and its strided batches: all half, half scalars. */
cublasStatus_t simtlab_cublasSgemmEx(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                     cublasOperation_t tb, int m, int n, int k, const float *alpha, const void *A,
                                     cudaDataType at, int lda, const void *B, cudaDataType bt, int ldb,
                                     const float *beta, void *C, cudaDataType ct, int ldc)
{
    HANDLE(h, "cublasSgemmEx");
    gemm_call g = {"cublasSgemmEx", 0, ta, tb, m, n, k, lda, ldb, ldc, 1, 0, 0, 0, alpha, beta, A, B, C, 0, 0, 0, 0};
    if (!ex_types(at, bt, ct, CUBLAS_COMPUTE_32F, &g, file, line))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    return gemm(file, line, ctx, &g);
}

cublasStatus_t simtlab_cublasHgemm(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                   cublasOperation_t tb, int m, int n, int k, const void *alpha, const void *A, int lda,
                                   const void *B, int ldb, const void *beta, void *C, int ldc)
{
    HANDLE(h, "cublasHgemm");
    gemm_call g = {"cublasHgemm", 0, ta, tb, m, n, k, lda, ldb, ldc, 1, 0, 0, 0, alpha, beta, A, B, C, 0, 0, 0, 0};
    ex_types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, &g, file, line);
    return gemm(file, line, ctx, &g);
}

cublasStatus_t simtlab_cublasHgemmStridedBatched(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,
                                                 cublasOperation_t tb, int m, int n, int k, const void *alpha,
                                                 const void *A, int lda, long long sa, const void *B, int ldb,
                                                 long long sb, const void *beta, void *C, int ldc, long long sc,
                                                 int batch)
{
    HANDLE(h, "cublasHgemmStridedBatched");
    gemm_call g = {"cublasHgemmStridedBatched", 0, ta, tb, m, n, k, lda, ldb, ldc, batch, sa, sb, sc,
                   alpha, beta, A, B, C, 0, 0, 0, 0};
    ex_types(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, &g, file, line);
    return gemm(file, line, ctx, &g);
}

/* ---- GEMV ---- */
static cublasStatus_t gemv(const char *fn, int elem, const char *file, int line, cublasHandle_t h,
                           cublasOperation_t trans, int m, int n, const void *alpha, const void *A, int lda,
                           const void *x, int incx, const void *beta, void *y, int incy)
{
    HANDLE(h, fn);
    if ((unsigned)trans > CUBLAS_OP_C)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "trans = %d: it must be CUBLAS_OP_N, CUBLAS_OP_T or CUBLAS_OP_C", (int)trans);
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || !incx || !incy)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "m = %d, n = %d, lda = %d, incx = %d, incy = %d: m and n must be at least 0, lda at least "
                      "max(1, m) (A is m x n, column-major), the increments not 0",
                      m, n, lda, incx, incy);
    double a, b;
    if (!scalar(ctx, alpha, (size_t)elem, &a, "alpha", fn, file, line) ||
        !scalar(ctx, beta, (size_t)elem, &b, "beta", fn, file, line))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!m || !n)
        return CUBLAS_STATUS_SUCCESS;
    struct simtlab_gemv_args g = {trans != CUBLAS_OP_N, m, n, lda, incx, incy, a, b, A, x, y};
    const int rows = trans != CUBLAS_OP_N ? n : m;
    const simtlab_dim3 grid = {trans != CUBLAS_OP_N ? blocks_for((long long)rows * 32, 256) : blocks_for(rows, 256), 1,
                               1};
    const simtlab_dim3 block = {256, 1, 1};
    return launch(ctx, fn, file, line, grid, block, 0, elem == 4 ? simtlab_sgemv_thunk : simtlab_dgemv_thunk, &g,
                  sizeof g);
}

cublasStatus_t simtlab_cublasSgemv(const char *file, int line, cublasHandle_t h, cublasOperation_t trans, int m, int n,
                                   const float *alpha, const float *A, int lda, const float *x, int incx,
                                   const float *beta, float *y, int incy)
{
    return gemv("cublasSgemv", 4, file, line, h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
cublasStatus_t simtlab_cublasDgemv(const char *file, int line, cublasHandle_t h, cublasOperation_t trans, int m, int n,
                                   const double *alpha, const double *A, int lda, const double *x, int incx,
                                   const double *beta, double *y, int incy)
{
    return gemv("cublasDgemv", 8, file, line, h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

/* ---- level 1 ---- */
static cublasStatus_t vec(const char *fn, int elem, int op, const char *file, int line, cublasHandle_t h, int n,
                          const void *alpha, const void *x, int incx, const void *y, int incy)
{
    HANDLE(h, fn);
    double a = 0;
    if ((op == SIMTLAB_VEC_AXPY || op == SIMTLAB_VEC_SCAL) && !scalar(ctx, alpha, (size_t)elem, &a, "alpha", fn, file, line))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (n <= 0 || (op == SIMTLAB_VEC_SCAL && incx <= 0))
        return CUBLAS_STATUS_SUCCESS; /* cuBLAS does nothing then */
    struct simtlab_vec_args g = {op, n, incx, incy, a, (void *)x, (void *)y, NULL};
    return launch(ctx, fn, file, line, (simtlab_dim3){blocks_for(n, 256), 1, 1}, (simtlab_dim3){256, 1, 1}, 0,
                  elem == 4 ? simtlab_vec_s_thunk : simtlab_vec_d_thunk, &g, sizeof g);
}

/* A reduction's result: into the handle's device word, then to *result (host pointer mode), or
 * straight to *result (device pointer mode). */
static cublasStatus_t reduce(const char *fn, int elem, int op, const char *file, int line, cublasHandle_t h, int n,
                             const void *x, int incx, const void *y, int incy, void *result)
{
    HANDLE(h, fn);
    if (!result)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line, "result is NULL; pass where the result goes");
    const size_t rsize = op >= SIMTLAB_VEC_IAMAX ? sizeof(int) : (size_t)elem;
    const int device = ctx->ptr_mode == CUBLAS_POINTER_MODE_DEVICE;
    if (!device && simtlab_on_device(result))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "result = %p is device memory, and the handle's pointer mode is CUBLAS_POINTER_MODE_HOST (the "
                      "default), where a GPU's cuBLAS writes it on the host and crashes; pass a host variable, or call "
                      "cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE) first",
                      result);
    if (n <= 0 || (op != SIMTLAB_VEC_DOT && incx <= 0)) { /* cuBLAS's result then: 0 */
        if (device)
            return cudaMemset(result, 0, rsize) == cudaSuccess
                       ? CUBLAS_STATUS_SUCCESS
                       : refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                                "result = %p is not device memory, and the pointer mode is "
                                "CUBLAS_POINTER_MODE_DEVICE",
                                result);
        memset(result, 0, rsize);
        return CUBLAS_STATUS_SUCCESS;
    }
    pthread_mutex_lock(&ctx->lock); /* the handle's result word: one reduction at a time */
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    if (!device && !ctx->result && sim_malloc(&ctx->result, 16, "cuBLAS result") != SIM_OK)
        s = refuse(CUBLAS_STATUS_ALLOC_FAILED, fn, file, line, "no device memory for the result's 16 bytes");
    if (!s) {
        struct simtlab_vec_args g = {op, n, incx, incy, 0, (void *)x, (void *)y, device ? result : ctx->result};
        s = launch(ctx, fn, file, line, (simtlab_dim3){1, 1, 1}, (simtlab_dim3){256, 1, 1},
                   256 * (2 * elem + 4), /* the kernel's sums, scales and indices */
                   elem == 4 ? simtlab_red_s_thunk : simtlab_red_d_thunk, &g, sizeof g);
    }
    /* host pointer mode: the call waits for its result, as a GPU's does, so a fault of this reduction or
     * of an earlier kernel is seen here (sim/run/cudart.c, pending_err), not a stale result */
    if (!s && !device && cudaDeviceSynchronize() != cudaSuccess)
        s = CUBLAS_STATUS_EXECUTION_FAILED; /* the fault's report says why */
    if (!s && !device && sim_memcpy(result, ctx->result, rsize, SIM_COPY_D2H) != SIM_OK)
        s = refuse(CUBLAS_STATUS_MAPPING_ERROR, fn, file, line, "the result could not be copied to %p", result);
    pthread_mutex_unlock(&ctx->lock);
    return s;
}

/* geam and ger: one thread an element of the m x n result (a grid of m/256 x n blocks) */
static cublasStatus_t mat(const char *fn, int elem, int op, const char *file, int line, cublasHandle_t h,
                          cublasOperation_t ta, cublasOperation_t tb, int m, int n, const void *alpha, const void *A,
                          int lda, const void *beta, const void *B, int ldb, void *C, int ldc, const void *x, int incx,
                          const void *y, int incy)
{
    HANDLE(h, fn);
    const int rows_a = ta == CUBLAS_OP_N ? m : n, rows_b = tb == CUBLAS_OP_N ? m : n;
    if (op == SIMTLAB_MAT_GER && (m < 0 || n < 0 || ldc < (m > 1 ? m : 1) || !incx || !incy))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "m = %d, n = %d, lda = %d, incx = %d, incy = %d: m and n must be at least 0, lda at least "
                      "max(1, m), the increments not 0",
                      m, n, ldc, incx, incy);
    if (op == SIMTLAB_MAT_GEAM && ((unsigned)ta > CUBLAS_OP_C || (unsigned)tb > CUBLAS_OP_C || m < 0 || n < 0 ||
                                   ldc < (m > 1 ? m : 1) || lda < (rows_a > 1 ? rows_a : 1) ||
                                   ldb < (rows_b > 1 ? rows_b : 1)))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "m = %d, n = %d, ldc = %d, lda = %d, ldb = %d, transa = %d, transb = %d: m and n must be at "
                      "least 0, ldc at least max(1, m), lda and ldb at least the rows of A and B as stored (m, or n "
                      "when transposed), the operations CUBLAS_OP_N, _T or _C",
                      m, n, ldc, lda, ldb, (int)ta, (int)tb);
    if (op == SIMTLAB_MAT_GEAM && ((C == A && (ta != CUBLAS_OP_N || lda != ldc)) || (C == B && (tb != CUBLAS_OP_N || ldb != ldc))))
        return refuse(CUBLAS_STATUS_INVALID_VALUE, fn, file, line,
                      "C is %s, in place, but %s: in place the operand must be untransposed (CUBLAS_OP_N) with its "
                      "leading dimension equal to ldc = %d, or its elements are overwritten before they are read; "
                      "write the result to another matrix",
                      C == A ? "A" : "B",
                      C == A ? (ta != CUBLAS_OP_N ? "transa is not CUBLAS_OP_N" : "lda differs from ldc")
                             : (tb != CUBLAS_OP_N ? "transb is not CUBLAS_OP_N" : "ldb differs from ldc"),
                      ldc);
    double a, b = 0;
    if (!scalar(ctx, alpha, (size_t)elem, &a, "alpha", fn, file, line) ||
        (op == SIMTLAB_MAT_GEAM && !scalar(ctx, beta, (size_t)elem, &b, "beta", fn, file, line)))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!m || !n)
        return CUBLAS_STATUS_SUCCESS;
    struct simtlab_mat_args g = {op, ta != CUBLAS_OP_N, tb != CUBLAS_OP_N, m, n, lda, ldb, ldc, incx, incy, a, b,
                                 A, B, x, y, C};
    return launch(ctx, fn, file, line, (simtlab_dim3){blocks_for(m, 256), n < 65535 ? (unsigned)n : 65535, 1},
                  (simtlab_dim3){256, 1, 1}, 0,
                  elem == 4 ? simtlab_mat_s_thunk : simtlab_mat_d_thunk, &g, sizeof g);
}

#define L1_FNS(T, P, E, I)                                                                                      \
    cublasStatus_t simtlab_cublas##P##axpy(const char *file, int line, cublasHandle_t h, int n, const T *alpha, \
                                           const T *x, int incx, T *y, int incy)                                \
    {                                                                                                           \
        return vec("cublas" #P "axpy", E, SIMTLAB_VEC_AXPY, file, line, h, n, alpha, x, incx, y, incy);         \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##scal(const char *file, int line, cublasHandle_t h, int n, const T *alpha, \
                                           T *x, int incx)                                                      \
    {                                                                                                           \
        return vec("cublas" #P "scal", E, SIMTLAB_VEC_SCAL, file, line, h, n, alpha, x, incx, NULL, 1);         \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##copy(const char *file, int line, cublasHandle_t h, int n, const T *x,     \
                                           int incx, T *y, int incy)                                            \
    {                                                                                                           \
        return vec("cublas" #P "copy", E, SIMTLAB_VEC_COPY, file, line, h, n, NULL, x, incx, y, incy);          \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##swap(const char *file, int line, cublasHandle_t h, int n, T *x, int incx, \
                                           T *y, int incy)                                                      \
    {                                                                                                           \
        return vec("cublas" #P "swap", E, SIMTLAB_VEC_SWAP, file, line, h, n, NULL, x, incx, y, incy);          \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##dot(const char *file, int line, cublasHandle_t h, int n, const T *x,      \
                                          int incx, const T *y, int incy, T *result)                            \
    {                                                                                                           \
        return reduce("cublas" #P "dot", E, SIMTLAB_VEC_DOT, file, line, h, n, x, incx, y, incy, result);       \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##nrm2(const char *file, int line, cublasHandle_t h, int n, const T *x,     \
                                           int incx, T *result)                                                 \
    {                                                                                                           \
        return reduce("cublas" #P "nrm2", E, SIMTLAB_VEC_NRM2, file, line, h, n, x, incx, NULL, 1, result);     \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##asum(const char *file, int line, cublasHandle_t h, int n, const T *x,     \
                                           int incx, T *result)                                                 \
    {                                                                                                           \
        return reduce("cublas" #P "asum", E, SIMTLAB_VEC_ASUM, file, line, h, n, x, incx, NULL, 1, result);     \
    }                                                                                                           \
    cublasStatus_t simtlab_cublasI##I##amax(const char *file, int line, cublasHandle_t h, int n, const T *x,    \
                                            int incx, int *result)                                              \
    {                                                                                                           \
        return reduce("cublasI" #I "amax", E, SIMTLAB_VEC_IAMAX, file, line, h, n, x, incx, NULL, 1, result);   \
    }                                                                                                           \
    cublasStatus_t simtlab_cublasI##I##amin(const char *file, int line, cublasHandle_t h, int n, const T *x,    \
                                            int incx, int *result)                                              \
    {                                                                                                           \
        return reduce("cublasI" #I "amin", E, SIMTLAB_VEC_IAMIN, file, line, h, n, x, incx, NULL, 1, result);   \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##geam(const char *file, int line, cublasHandle_t h, cublasOperation_t ta,  \
                                           cublasOperation_t tb, int m, int n, const T *alpha, const T *A,      \
                                           int lda, const T *beta, const T *B, int ldb, T *C, int ldc)          \
    {                                                                                                           \
        return mat("cublas" #P "geam", E, SIMTLAB_MAT_GEAM, file, line, h, ta, tb, m, n, alpha, A, lda, beta, B, \
                   ldb, C, ldc, NULL, 1, NULL, 1);                                                              \
    }                                                                                                           \
    cublasStatus_t simtlab_cublas##P##ger(const char *file, int line, cublasHandle_t h, int m, int n,           \
                                          const T *alpha, const T *x, int incx, const T *y, int incy, T *A,     \
                                          int lda)                                                              \
    {                                                                                                           \
        return mat("cublas" #P "ger", E, SIMTLAB_MAT_GER, file, line, h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, alpha, \
                   NULL, 1, NULL, NULL, 1, A, lda, x, incx, y, incy);                                           \
    }

L1_FNS(float, S, 4, s)
L1_FNS(double, D, 8, d)

/* ---- cuBLASLt: its handles only (sim/run/include/cublasLt.h) ---- */
struct simtlab_cublaslt_context {
    struct simtlab_cublaslt_context *next; /* the live ones, for cublasLtDestroy's check */
};
static struct simtlab_cublaslt_context *lt_live;

cublasStatus_t simtlab_cublasLtCreate(const char *file, int line, cublasLtHandle_t *handle)
{
    if (!handle)
        return refuse(CUBLAS_STATUS_INVALID_VALUE, "cublasLtCreate", file, line,
                      "handle is NULL; pass the address of a cublasLtHandle_t: cublasLtCreate(&handle)");
    struct simtlab_cublaslt_context *c = calloc(1, sizeof *c);
    if (!c)
        return refuse(CUBLAS_STATUS_ALLOC_FAILED, "cublasLtCreate", file, line, "out of host memory");
    pthread_mutex_lock(&handles_lock);
    c->next = lt_live;
    lt_live = c;
    pthread_mutex_unlock(&handles_lock);
    *handle = c;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t simtlab_cublasLtDestroy(const char *file, int line, cublasLtHandle_t handle)
{
    pthread_mutex_lock(&handles_lock);
    struct simtlab_cublaslt_context **p = &lt_live;
    while (*p && *p != handle)
        p = &(*p)->next;
    const int found = handle && *p;
    if (found)
        *p = handle->next;
    pthread_mutex_unlock(&handles_lock);
    if (!found)
        return refuse(CUBLAS_STATUS_NOT_INITIALIZED, "cublasLtDestroy", file, line,
                      "the handle %p is not one cublasLtCreate made, or cublasLtDestroy has ended it already",
                      (void *)handle);
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
