/* sim/run/cublas_kernels.h - the arguments of simtlab run's cuBLAS kernels (cublas_kernels.cu),
 * filled by sim/run/cublas.c. Scalars travel as double: alpha and beta of a float call are floats
 * exactly representable as doubles, converted back by the kernel. */
#ifndef SIMTLAB_CUBLAS_KERNELS_H
#define SIMTLAB_CUBLAS_KERNELS_H

#define SIMTLAB_GEMM_TILE 64 /* rows and columns of C a block computes */
#define SIMTLAB_GEMM_K 16    /* the step over k: the shared slices are 64 x 16 */
#define SIMTLAB_GEMM_THREADS 256
#define SIMTLAB_GEMM_LDS (SIMTLAB_GEMM_TILE + 2) /* a shared slice's row, padded: a transposed
                                                  * operand's store (lanes 0-15 down a column,
                                                  * 16-31 the next) then hits 32 banks (no
                                                  * conflicts); 65 would leave them 2-way */

struct simtlab_gemm_args {
    int ta, tb;        /* op(A), op(B): 0 as they are, 1 transposed */
    int m, n, k;       /* C is m x n, op(A) m x k, op(B) k x n */
    int batch;         /* matrices (blockIdx.z, and every gridDim.z-th after it) */
    int lda, ldb, ldc;
    long long stride_a, stride_b, stride_c; /* elements between the batch's matrices */
    double alpha, beta;
    const void *A, *B;
    void *C;
    int arrays; /* A, B and C are device arrays of the batch's matrices (cublasSgemmBatched) */
    int lp_ab, lp_c; /* simtlab_lpgemm: A's and B's type, C's (SIMTLAB_LP_*) */
    int c_size;      /* bytes of an element of C */
};
enum { SIMTLAB_LP_F32, SIMTLAB_LP_F16, SIMTLAB_LP_BF16 };

struct simtlab_gemv_args {
    int trans, m, n, lda, incx, incy; /* A is m x n */
    double alpha, beta;
    const void *A, *x;
    void *y;
};

enum { SIMTLAB_VEC_AXPY, SIMTLAB_VEC_SCAL, SIMTLAB_VEC_COPY, SIMTLAB_VEC_SWAP, /* element-wise */
       SIMTLAB_VEC_DOT, SIMTLAB_VEC_NRM2, SIMTLAB_VEC_ASUM, SIMTLAB_VEC_IAMAX, SIMTLAB_VEC_IAMIN }; /* reductions */

struct simtlab_vec_args {
    int op, n, incx, incy;
    double alpha;
    void *x, *y;
    void *out; /* a reduction's result: one element (an int for iamax) */
};

enum { SIMTLAB_MAT_GEAM, SIMTLAB_MAT_GER };
struct simtlab_mat_args {
    int op, ta, tb, m, n, lda, ldb, ldc, incx, incy; /* ger: C is the updated A, ldc its lda */
    double alpha, beta;
    const void *A, *B, *x, *y;
    void *C;
};

#ifdef __cplusplus
extern "C" {
#endif
void simtlab_sgemm_thunk(const void *p);
void simtlab_dgemm_thunk(const void *p);
void simtlab_lpgemm_thunk(const void *p);
void simtlab_sgemv_thunk(const void *p);
void simtlab_dgemv_thunk(const void *p);
void simtlab_vec_s_thunk(const void *p);
void simtlab_vec_d_thunk(const void *p);
void simtlab_red_s_thunk(const void *p);
void simtlab_red_d_thunk(const void *p);
void simtlab_mat_s_thunk(const void *p);
void simtlab_mat_d_thunk(const void *p);
#ifdef __cplusplus
}
#endif
#endif
