/* sim/run/cublas_kernels.cu - the kernels behind simtlab run's cuBLAS (sim/run/cublas.c), a
 * kernel unit like the lessons' (C11 through sim/kernel.h, every access instrumented): a cuBLAS
 * call is one launch of one of these, counted and timed like the program's own kernels. They are
 * plain textbook kernels, not NVIDIA's: what they move through HBM is what a simple tiled GEMM
 * moves, not what cuBLAS's own kernels do (docs/run.md, "cuBLAS").
 *
 * Matrices are column-major, as cuBLAS's: element (i, j) of an m x n matrix X with leading
 * dimension ldx is X[i + j * ldx]. The float and double forms are one macro each. Each kernel
 * has a thunk (the function a simulated thread calls with the launch's arguments) that
 * cublas.c passes to simtlab_launch; the thunk is not instrumented, and it passes the arguments'
 * struct by value, so that the kernel reads its copy (registers on a GPU), not the host's. */
#include "kernel.h"
#include "cublas_kernels.h"

/* ---- GEMM: C = alpha op(A) op(B) + beta C, a batch's matrices over blockIdx.z ----
 * One block of 256 threads a 64 x 64 tile of C, each thread 4 x 4 of it (rows tx + 16 p,
 * columns ty + 16 q). K goes in steps of 16: a 64 x 16 slice of op(A) and a 16 x 64 slice of
 * op(B) to shared memory (rows padded to 66), loaded so that consecutive threads read
 * consecutive addresses of A or B whichever way each is transposed. Each of A and B is read once
 * for every tile of C that needs it: A n/64 times, B m/64 times (rounded up). C is read only when
 * beta is not 0 (cuBLAS does not read C then: it may hold anything), and written once; with alpha
 * 0 neither A nor B is read. Past 65535 tile columns or matrices a block takes every gridDim-th. */
#define SIMTLAB_GEMM(T, E, CE, NAME, LD, LDC, STC)                                                               \
    /* one 64 x 64 tile of C: its columns from j0, of the batch's matrix z */                                  \
    __device__ __forceinline__ void NAME##_tile(const struct simtlab_gemm_args *g, long long z, int j0)         \
    {                                                                                                           \
        EXTERN_SHARED(T, sm);                                                                                   \
        T *As = sm, *Bs = sm + SIMTLAB_GEMM_K * SIMTLAB_GEMM_LDS; /* As[kk][i], Bs[kk][j] */                 \
        const int tid = (int)threadIdx.x, tx = tid % 16, ty = tid / 16;                                         \
        const int i0 = (int)blockIdx.x * SIMTLAB_GEMM_TILE;                                                     \
        const int m = g->m, n = g->n, k = g->k, lda = g->lda, ldb = g->ldb, ldc = g->ldc;                       \
        const E *A, *B; /* E: A's and B's elements, CE: C's; T: the arithmetic */                              \
        CE *C;                                                                                                  \
        if (g->arrays) { /* the batch's pointers, read from device memory as cuBLAS reads them */               \
            A = ((const E *const *)g->A)[z];                                                           \
            B = ((const E *const *)g->B)[z];                                                           \
            C = ((CE *const *)g->C)[z];                                                                \
        } else {                                                                                                \
            A = (const E *)g->A + z * g->stride_a;                                          \
            B = (const E *)g->B + z * g->stride_b;                                          \
            C = (CE *)((char *)g->C + z * g->stride_c * g->c_size);                         \
        }                                                                                                       \
        const T alpha = (T)g->alpha, beta = (T)g->beta;                                                         \
        T acc[4][4];                                                                                            \
        UNROLL                                                                                                  \
        for (int p = 0; p < 4; p++)                                                                             \
            UNROLL                                                                                              \
            for (int q = 0; q < 4; q++)                                                                         \
                acc[p][q] = 0;                                                                                  \
        for (int k0 = 0; k0 < (alpha != 0 ? k : 0); k0 += SIMTLAB_GEMM_K) { /* alpha 0: A, B unread */        \
            for (int r = 0; r < 4; r++) {                                                                       \
                const int e = tid + 256 * r;                                                                    \
                /* op(A)(i, kk): A[i + kk lda] (N) or A[kk + i lda] (T); the fast index first */                \
                const int ai = g->ta ? e / 16 : e % 64, ak = g->ta ? e % 16 : e / 64;                           \
                T a = 0;                                                                                        \
                if (i0 + ai < m && k0 + ak < k)                                                                 \
                    a = LD(A, g->ta ? (k0 + ak) + (long long)(i0 + ai) * lda : (i0 + ai) + (long long)(k0 + ak) * lda); \
                As[ak * SIMTLAB_GEMM_LDS + ai] = a;                                                             \
                /* op(B)(kk, j): B[kk + j ldb] (N) or B[j + kk ldb] (T) */                                      \
                const int bj = g->tb ? e % 64 : e / 16, bk = g->tb ? e / 64 : e % 16;                           \
                T b = 0;                                                                                        \
                if (j0 + bj < n && k0 + bk < k)                                                                 \
                    b = LD(B, g->tb ? (j0 + bj) + (long long)(k0 + bk) * ldb : (k0 + bk) + (long long)(j0 + bj) * ldb); \
                Bs[bk * SIMTLAB_GEMM_LDS + bj] = b;                                                             \
            }                                                                                                   \
            __syncthreads();                                                                                    \
            for (int kk = 0; kk < SIMTLAB_GEMM_K; kk++) {                                                       \
                T a[4], b[4];                                                                                   \
                UNROLL                                                                                          \
                for (int p = 0; p < 4; p++) {                                                                   \
                    a[p] = As[kk * SIMTLAB_GEMM_LDS + tx + 16 * p];                                             \
                    b[p] = Bs[kk * SIMTLAB_GEMM_LDS + ty + 16 * p];                                             \
                }                                                                                               \
                UNROLL                                                                                          \
                for (int p = 0; p < 4; p++)                                                                     \
                    UNROLL                                                                                      \
                    for (int q = 0; q < 4; q++)                                                                 \
                        acc[p][q] += a[p] * b[q];                                                               \
            }                                                                                                   \
            __syncthreads();                                                                                    \
        }                                                                                                       \
        for (int q = 0; q < 4; q++)                                                                             \
            for (int p = 0; p < 4; p++) {                                                                       \
                const int i = i0 + tx + 16 * p, j = j0 + ty + 16 * q;                                           \
                if (i < m && j < n) {                                                                           \
                    T v = alpha * acc[p][q];                                                                    \
                    if (beta != 0)                                                                              \
                        v += beta * LDC(C, i + (long long)j * ldc);                                             \
                    STC(C, i + (long long)j * ldc, v);                                                          \
                }                                                                                               \
            }                                                                                                   \
    }                                                                                                           \
    /* a grid of at most 65535 in y and z: a block takes every gridDim-th tile column and matrix */         \
    __global__ void NAME(struct simtlab_gemm_args g_)                                                           \
    {                                                                                                           \
        const struct simtlab_gemm_args *g = &g_; /* a copy on the thread's stack: its own registers */        \
        for (long long z = blockIdx.z; z < g->batch; z += gridDim.z)                                            \
            for (int j0 = (int)blockIdx.y * SIMTLAB_GEMM_TILE; j0 < g->n; j0 += (int)gridDim.y * SIMTLAB_GEMM_TILE) \
                NAME##_tile(g, z, j0);                                                                          \
    }                                                                                                           \
    __attribute__((no_sanitize_thread)) void NAME##_thunk(const void *p) { NAME(*(const struct simtlab_gemm_args *)p); }

#define SIMTLAB_PLAIN_LD(X, i) ((X)[i])
#define SIMTLAB_PLAIN_ST(X, i, v) ((X)[i] = (v))
SIMTLAB_GEMM(float, float, float, simtlab_sgemm, SIMTLAB_PLAIN_LD, SIMTLAB_PLAIN_LD, SIMTLAB_PLAIN_ST)
SIMTLAB_GEMM(double, double, double, simtlab_dgemm, SIMTLAB_PLAIN_LD, SIMTLAB_PLAIN_LD, SIMTLAB_PLAIN_ST)

/* Half and bfloat16 data (cublasGemmEx & co. with CUDA_R_16F or CUDA_R_16BF A and B, C of the
 * same type or float): 2-byte loads, the arithmetic in float, C rounded to nearest even when it
 * is 16-bit. g->lp_ab and g->lp_c say the types (SIMTLAB_LP_*). */
__device__ float simtlab_half_to_float(uint16_t h)
{
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, f = h & 0x3ffu;
    union { uint32_t u; float f; } r;
    if (e == 31)
        r.u = sign | 0x7f800000u | f << 13; /* Inf, NaN */
    else if (e)
        r.u = sign | (e + 112) << 23 | f << 13;
    else { /* zero and subnormals: f * 2^-24, exact in float */
        r.f = (float)f * 0x1p-24f;
        r.u |= sign;
    }
    return r.f;
}
__device__ uint16_t simtlab_float_to_half(float x)
{
    union { float f; uint32_t u; } v = {x};
    const uint32_t sign = (v.u >> 16) & 0x8000u, a = v.u & 0x7fffffffu;
    if (a >= 0x7f800000u) /* Inf, NaN (kept quiet) */
        return (uint16_t)(sign | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0));
    if (a >= 0x477ff000u) /* rounds past 65504: Inf */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a subnormal half, x / 2^-24 rounded to nearest even */
        union { float f; uint32_t u; } m = {.u = a};
        const float q = m.f * 0x1p24f, fl = (float)(uint32_t)q;
        uint32_t r = (uint32_t)q;
        if (q - fl > 0.5f || (q - fl == 0.5f && (r & 1)))
            r++;
        return (uint16_t)(sign | r);
    }
    const uint32_t mant = a + 0xfffu + ((a >> 13) & 1u) - (112u << 23); /* round to nearest even */
    return (uint16_t)(sign | mant >> 13);
}
__device__ float simtlab_bf16_to_float(uint16_t h)
{
    union { uint32_t u; float f; } r = {(uint32_t)h << 16};
    return r.f;
}
__device__ uint16_t simtlab_float_to_bf16(float x)
{
    union { float f; uint32_t u; } v = {x};
    if ((v.u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((v.u >> 16) | 0x40u); /* NaN, quiet */
    return (uint16_t)((v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16);
}
#define SIMTLAB_LP_LD(X, i) (g->lp_ab == SIMTLAB_LP_BF16 ? simtlab_bf16_to_float((X)[i]) : simtlab_half_to_float((X)[i]))
#define SIMTLAB_LP_LDC(X, i)                                                                                    \
    (g->lp_c == SIMTLAB_LP_F32    ? ((const float *)(X))[i]                                                    \
     : g->lp_c == SIMTLAB_LP_BF16 ? simtlab_bf16_to_float(((const uint16_t *)(X))[i])                          \
                                  : simtlab_half_to_float(((const uint16_t *)(X))[i]))
#define SIMTLAB_LP_STC(X, i, v)                                                                                 \
    (g->lp_c == SIMTLAB_LP_F32    ? (void)(((float *)(X))[i] = (v))                                            \
     : g->lp_c == SIMTLAB_LP_BF16 ? (void)(((uint16_t *)(X))[i] = simtlab_float_to_bf16(v))                    \
                                  : (void)(((uint16_t *)(X))[i] = simtlab_float_to_half(v)))
SIMTLAB_GEMM(float, uint16_t, void, simtlab_lpgemm, SIMTLAB_LP_LD, SIMTLAB_LP_LDC, SIMTLAB_LP_STC)

/* ---- GEMV: y = alpha op(A) x + beta y ----
 * op = N: one thread an element of y, looping over the columns (a warp reads 32 consecutive
 * elements of a column). op = T: one warp an element of y (a column of A), its lanes 32
 * consecutive elements of it at a time, summed with shuffles. */
#define SIMTLAB_GEMV(T, NAME)                                                                                   \
    __global__ void NAME(struct simtlab_gemv_args g_)                                                           \
    {                                                                                                           \
        const struct simtlab_gemv_args *g = &g_;                                                                \
        const T *A = (const T *)g->A, *x = (const T *)g->x;                                                     \
        T *y = (T *)g->y;                                                                                       \
        const T alpha = (T)g->alpha, beta = (T)g->beta;                                                         \
        const int rows = g->trans ? g->n : g->m; /* of the result */                                            \
        const int len = g->trans ? g->m : g->n;  /* of each dot product */                                      \
        const long long ix = g->incx, iy = g->incy;                                                             \
        const long long x0 = ix < 0 ? -(long long)(len - 1) * ix : 0, y0 = iy < 0 ? -(long long)(rows - 1) * iy : 0; \
        if (!g->trans) {                                                                                        \
            const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);                                         \
            if (i >= rows)                                                                                      \
                return;                                                                                         \
            T s = 0;                                                                                            \
            for (int j = 0; j < (alpha != 0 ? len : 0); j++) /* alpha 0: A and x unread, as cuBLAS */           \
                s += A[i + (long long)j * g->lda] * x[x0 + j * ix];                                             \
            T v = alpha * s;                                                                                    \
            if (beta != 0)                                                                                      \
                v += beta * y[y0 + i * iy];                                                                     \
            y[y0 + i * iy] = v;                                                                                 \
            return;                                                                                             \
        }                                                                                                       \
        const int j = (int)(((long long)blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = (int)(threadIdx.x % 32); \
        if (j >= rows) /* warp-uniform: blockDim.x is a multiple of 32 */                                       \
            return;                                                                                             \
        T s = 0;                                                                                                \
        for (int i = lane; i < (alpha != 0 ? len : 0); i += 32)                                                 \
            s += A[i + (long long)j * g->lda] * x[x0 + i * ix];                                                 \
        for (int off = 16; off > 0; off /= 2)                                                                   \
            s += __shfl_xor_sync(0xffffffffu, s, off);                                                          \
        if (lane == 0) {                                                                                        \
            T v = alpha * s;                                                                                    \
            if (beta != 0)                                                                                      \
                v += beta * y[y0 + j * iy];                                                                     \
            y[y0 + j * iy] = v;                                                                                 \
        }                                                                                                       \
    }                                                                                                           \
    __attribute__((no_sanitize_thread)) void NAME##_thunk(const void *p) { NAME(*(const struct simtlab_gemv_args *)p); }

SIMTLAB_GEMV(float, simtlab_sgemv)
SIMTLAB_GEMV(double, simtlab_dgemv)

/* ---- level 1 ----
 * Element-wise (axpy, scal, copy, swap): one thread an element. Reductions (dot, nrm2, asum,
 * iamax): one block of 256 threads, each a strided share, then a tree in shared memory; the
 * result is one value (or index) in out[0], which cublas.c copies where the caller asked. nrm2
 * sums squares scaled by the largest magnitude, as the reference BLAS does, so that neither
 * overflows nor underflows; iamax and iamin give the first index of the largest or smallest
 * |x[i]|, 1-based. */
#define SIMTLAB_VEC(T, SUFFIX)                                                                                  \
    __global__ void simtlab_vec_##SUFFIX(struct simtlab_vec_args g_)                                            \
    {                                                                                                           \
        const struct simtlab_vec_args *g = &g_;                                                                 \
        const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);                                             \
        if (i >= g->n)                                                                                          \
            return;                                                                                             \
        const long long ix = g->incx, iy = g->incy;                                                             \
        T *x = (T *)g->x, *y = (T *)g->y;                                                                       \
        const long long xi = (ix < 0 ? -(long long)(g->n - 1) * ix : 0) + i * ix;                               \
        const long long yi = (iy < 0 ? -(long long)(g->n - 1) * iy : 0) + i * iy;                               \
        const T alpha = (T)g->alpha;                                                                            \
        switch (g->op) {                                                                                        \
        case SIMTLAB_VEC_AXPY: y[yi] += alpha * x[xi]; break;                                                   \
        case SIMTLAB_VEC_SCAL: x[xi] = alpha * x[xi]; break;                                                    \
        case SIMTLAB_VEC_COPY: y[yi] = x[xi]; break;                                                            \
        default: {                                                                                              \
            const T t = x[xi];                                                                                  \
            x[xi] = y[yi];                                                                                      \
            y[yi] = t;                                                                                          \
        }                                                                                                       \
        }                                                                                                       \
    }                                                                                                           \
    __attribute__((no_sanitize_thread)) void simtlab_vec_##SUFFIX##_thunk(const void *p)                       \
    {                                                                                                           \
        simtlab_vec_##SUFFIX(*(const struct simtlab_vec_args *)p);                                               \
    }                                                                                                           \
    __global__ void simtlab_red_##SUFFIX(struct simtlab_vec_args g_)                                            \
    {                                                                                                           \
        const struct simtlab_vec_args *g = &g_;                                                                 \
        /* dynamic shared memory (cublas.c: 256 x (2 sizeof(T) + 4) bytes): a `simtlab run` program's static \
         * window ends at its own last __shared__ array (sim/tls_dev_end.c), which this library's would follow */ \
        EXTERN_SHARED(T, sv);                                                                                   \
        T *ss = sv + 256;                                                                                       \
        int *si = (int *)(ss + 256);                                                                            \
        const int t = (int)threadIdx.x, n = g->n, op = g->op;                                                   \
        const long long ix = g->incx, iy = g->incy;                                                             \
        const T *x = (const T *)g->x, *y = (const T *)g->y;                                                     \
        const long long x0 = ix < 0 ? -(long long)(n - 1) * ix : 0, y0 = iy < 0 ? -(long long)(n - 1) * iy : 0; \
        T v = 0, s = 1; /* sum, or (nrm2) scale and sum of squares over scale^2, or (iamax) best */            \
        int best = -1;                                                                                          \
        if (op == SIMTLAB_VEC_NRM2)                                                                             \
            s = 0, v = 1;                                                                                       \
        for (int i = t; i < n; i += 256) {                                                                      \
            const T a = x[x0 + i * ix];                                                                         \
            const T m = a < 0 ? -a : a;                                                                         \
            if (op == SIMTLAB_VEC_DOT)                                                                          \
                v += a * y[y0 + i * iy];                                                                        \
            else if (op == SIMTLAB_VEC_ASUM)                                                                    \
                v += m;                                                                                         \
            else if (op == SIMTLAB_VEC_IAMAX || op == SIMTLAB_VEC_IAMIN) {                                      \
                if (best < 0 || (op == SIMTLAB_VEC_IAMAX ? m > v : m < v))                                      \
                    v = m, best = i;                                                                            \
            } else if (m == (T)INFINITY) { /* nrm2 of an infinity: infinity (best marks it) */                  \
                best = 1;                                                                                       \
            } else if (m != 0) { /* nrm2: s the largest magnitude so far, v the sum of (x/s)^2 */               \
                if (m > s)                                                                                      \
                    v = 1 + v * (s / m) * (s / m), s = m;                                                       \
                else                                                                                            \
                    v += (m / s) * (m / s);                                                                     \
            }                                                                                                   \
        }                                                                                                       \
        sv[t] = v, ss[t] = s, si[t] = best;                                                                     \
        __syncthreads();                                                                                        \
        for (int h = 128; h > 0; h /= 2) {                                                                      \
            if (t < h) {                                                                                        \
                const T v2 = sv[t + h], s2 = ss[t + h];                                                         \
                const int b2 = si[t + h];                                                                       \
                if (op == SIMTLAB_VEC_IAMAX || op == SIMTLAB_VEC_IAMIN) { /* ties: the first index */           \
                    if (b2 >= 0 && (si[t] < 0 || (op == SIMTLAB_VEC_IAMAX ? v2 > sv[t] : v2 < sv[t]) ||        \
                                    (v2 == sv[t] && b2 < si[t])))                                               \
                        sv[t] = v2, si[t] = b2;                                                                 \
                } else if (op == SIMTLAB_VEC_NRM2) {                                                            \
                    si[t] = si[t] > b2 ? si[t] : b2; /* an infinity in either half */                           \
                    const T s1 = ss[t];                                                                         \
                    if (s2 > s1)                                                                                \
                        sv[t] = v2 + sv[t] * (s1 / s2) * (s1 / s2), ss[t] = s2;                                 \
                    else if (s2 != 0)                                                                           \
                        sv[t] += v2 * (s2 / s1) * (s2 / s1);                                                    \
                } else                                                                                          \
                    sv[t] += v2;                                                                                \
            }                                                                                                   \
            __syncthreads();                                                                                    \
        }                                                                                                       \
        if (t == 0) {                                                                                           \
            T *out = (T *)g->out;                                                                               \
            if (op == SIMTLAB_VEC_IAMAX || op == SIMTLAB_VEC_IAMIN)                                             \
                *(int *)g->out = si[0] + 1;                                                                     \
            else if (op == SIMTLAB_VEC_NRM2)                                                                    \
                out[0] = si[0] > 0 ? (T)INFINITY : ss[0] * SIMTLAB_SQRT_##SUFFIX(sv[0]);                         \
            else                                                                                                \
                out[0] = sv[0];                                                                                 \
        }                                                                                                       \
    }                                                                                                           \
    __attribute__((no_sanitize_thread)) void simtlab_red_##SUFFIX##_thunk(const void *p)                       \
    {                                                                                                           \
        simtlab_red_##SUFFIX(*(const struct simtlab_vec_args *)p);                                               \
    }

#define SIMTLAB_SQRT_s sqrtf
#define SIMTLAB_SQRT_d sqrt
SIMTLAB_VEC(float, s)
SIMTLAB_VEC(double, d)

/* ---- matrix updates: geam (C = alpha op(A) + beta op(B)) and ger (A += alpha x y^T) ----
 * One thread an element of the m x n result, consecutive threads down a column (consecutive
 * addresses of C, or of A for ger). geam reads A only when alpha is not 0 and B only when beta is
 * not 0, as cuBLAS (either may then be anything); C may be A or B, untransposed, in place. */
#define SIMTLAB_MAT(T, SUFFIX)                                                                                  \
    __global__ void simtlab_mat_##SUFFIX(struct simtlab_mat_args g_)                                            \
    {                                                                                                           \
        const struct simtlab_mat_args *g = &g_;                                                                 \
        const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);                                             \
        if (i >= g->m)                                                                                          \
            return;                                                                                             \
        const T alpha = (T)g->alpha, beta = (T)g->beta;                                                        \
        for (int j = (int)blockIdx.y; j < g->n; j += (int)gridDim.y) { /* a grid of at most 65535 in y */    \
            if (g->op == SIMTLAB_MAT_GER) { /* alpha 0: nothing read or written, as cuBLAS */                   \
                if (alpha == 0)                                                                                 \
                    return;                                                                                     \
                const T *x = (const T *)g->x, *y = (const T *)g->y;                                             \
                T *A = (T *)g->C;                                                                               \
                const long long ix = g->incx, iy = g->incy;                                                     \
                const long long x0 = ix < 0 ? -(long long)(g->m - 1) * ix : 0;                                  \
                const long long y0 = iy < 0 ? -(long long)(g->n - 1) * iy : 0;                                  \
                A[i + (long long)j * g->ldc] += alpha * x[x0 + i * ix] * y[y0 + j * iy];                        \
                continue;                                                                                       \
            }                                                                                                   \
            const T *A = (const T *)g->A, *B = (const T *)g->B;                                                 \
            T *C = (T *)g->C;                                                                                   \
            T v = 0;                                                                                            \
            if (alpha != 0)                                                                                     \
                v = alpha * (g->ta ? A[j + (long long)i * g->lda] : A[i + (long long)j * g->lda]);              \
            if (beta != 0)                                                                                      \
                v += beta * (g->tb ? B[j + (long long)i * g->ldb] : B[i + (long long)j * g->ldb]);              \
            C[i + (long long)j * g->ldc] = v;                                                                   \
        }                                                                                                       \
    }                                                                                                           \
    __attribute__((no_sanitize_thread)) void simtlab_mat_##SUFFIX##_thunk(const void *p)                       \
    {                                                                                                           \
        simtlab_mat_##SUFFIX(*(const struct simtlab_mat_args *)p);                                              \
    }

SIMTLAB_MAT(float, s)
SIMTLAB_MAT(double, d)
