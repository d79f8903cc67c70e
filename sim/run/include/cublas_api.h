/* sim/run/include/cublas_api.h - cuBLAS on the simulator: the classic (v2) API's handles, the
 * host-device helpers, and the float and double BLAS that programs call most (GEMM, batched and
 * strided GEMM, GemmEx and SgemmEx on float, double, half or bfloat16 data, Hgemm, geam, GEMV, ger, and level 1: axpy,
 * scal, copy, swap, dot, nrm2, asum, amax, amin). Each call is one launch of simtlab's own kernel (sim/run/cublas_kernels.cu),
 * counted and timed like the program's kernels and named after the call in the report (not
 * NVIDIA's kernels: docs/run.md, "cuBLAS"). Other cuBLAS functions are not declared: a program
 * calling one gets one line naming it (sim/run/run.c, print_library_refusals).
 *
 * The calls are macros over simtlab_cublas* functions (sim/run/cublas.c) that add the caller's
 * file and line, for the launch's report and for the message of a call refused; cublasX and
 * cublasX_v2 are the same call, as in the toolkit. Values and types are the toolkit's. */
#pragma once
#include <stddef.h>
#include <stdint.h>
#include "library_types.h"
#ifdef __cplusplus /* as the toolkit's header: a program may use half and complex types through it */
#include "cuComplex.h"
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#endif

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VER_BUILD 3
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

typedef enum {
    CUBLAS_STATUS_SUCCESS = 0,
    CUBLAS_STATUS_NOT_INITIALIZED = 1,
    CUBLAS_STATUS_ALLOC_FAILED = 3,
    CUBLAS_STATUS_INVALID_VALUE = 7,
    CUBLAS_STATUS_ARCH_MISMATCH = 8,
    CUBLAS_STATUS_MAPPING_ERROR = 11,
    CUBLAS_STATUS_EXECUTION_FAILED = 13,
    CUBLAS_STATUS_INTERNAL_ERROR = 14,
    CUBLAS_STATUS_NOT_SUPPORTED = 15,
    CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;
typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
    CUBLAS_OP_N = 0,
    CUBLAS_OP_T = 1,
    CUBLAS_OP_C = 2,
    CUBLAS_OP_HERMITAN = 2,
    CUBLAS_OP_CONJG = 3
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;
typedef enum {
    CUBLAS_DEFAULT_MATH = 0,
    CUBLAS_TENSOR_OP_MATH = 1,
    CUBLAS_PEDANTIC_MATH = 2,
    CUBLAS_TF32_TENSOR_OP_MATH = 3,
    CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
    CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
    CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;
typedef enum {
    CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DFALT = -1, CUBLAS_GEMM_AUTOTUNE = 999,
    CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1, CUBLAS_GEMM_ALGO2 = 2, CUBLAS_GEMM_ALGO3 = 3,
    CUBLAS_GEMM_ALGO4 = 4, CUBLAS_GEMM_ALGO5 = 5, CUBLAS_GEMM_ALGO6 = 6, CUBLAS_GEMM_ALGO7 = 7,
    CUBLAS_GEMM_ALGO8 = 8, CUBLAS_GEMM_ALGO9 = 9, CUBLAS_GEMM_ALGO10 = 10, CUBLAS_GEMM_ALGO11 = 11,
    CUBLAS_GEMM_ALGO12 = 12, CUBLAS_GEMM_ALGO13 = 13, CUBLAS_GEMM_ALGO14 = 14, CUBLAS_GEMM_ALGO15 = 15,
    CUBLAS_GEMM_ALGO16 = 16, CUBLAS_GEMM_ALGO17 = 17, CUBLAS_GEMM_ALGO18 = 18, CUBLAS_GEMM_ALGO19 = 19,
    CUBLAS_GEMM_ALGO20 = 20, CUBLAS_GEMM_ALGO21 = 21, CUBLAS_GEMM_ALGO22 = 22, CUBLAS_GEMM_ALGO23 = 23,
    CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99, CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
    CUBLAS_GEMM_ALGO0_TENSOR_OP = 100, CUBLAS_GEMM_ALGO1_TENSOR_OP = 101, CUBLAS_GEMM_ALGO2_TENSOR_OP = 102,
    CUBLAS_GEMM_ALGO3_TENSOR_OP = 103, CUBLAS_GEMM_ALGO4_TENSOR_OP = 104, CUBLAS_GEMM_ALGO5_TENSOR_OP = 105,
    CUBLAS_GEMM_ALGO6_TENSOR_OP = 106, CUBLAS_GEMM_ALGO7_TENSOR_OP = 107, CUBLAS_GEMM_ALGO8_TENSOR_OP = 108,
    CUBLAS_GEMM_ALGO9_TENSOR_OP = 109, CUBLAS_GEMM_ALGO10_TENSOR_OP = 110, CUBLAS_GEMM_ALGO11_TENSOR_OP = 111,
    CUBLAS_GEMM_ALGO12_TENSOR_OP = 112, CUBLAS_GEMM_ALGO13_TENSOR_OP = 113, CUBLAS_GEMM_ALGO14_TENSOR_OP = 114,
    CUBLAS_GEMM_ALGO15_TENSOR_OP = 115
} cublasGemmAlgo_t;
typedef enum {
    CUBLAS_COMPUTE_16F = 64,
    CUBLAS_COMPUTE_16F_PEDANTIC = 65,
    CUBLAS_COMPUTE_32F = 68,
    CUBLAS_COMPUTE_32F_PEDANTIC = 69,
    CUBLAS_COMPUTE_32F_FAST_16F = 74,
    CUBLAS_COMPUTE_32F_FAST_16BF = 75,
    CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
    CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
    CUBLAS_COMPUTE_64F = 70,
    CUBLAS_COMPUTE_64F_PEDANTIC = 71,
    CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT = 79,
    CUBLAS_COMPUTE_32I = 72,
    CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

typedef struct simtlab_cublas_context *cublasHandle_t;
typedef struct simtlab_stream *simtlab_cublas_stream; /* cudaStream_t, without the runtime's header */

#ifdef __cplusplus
extern "C" {
#endif
#define SIMTLAB_CUBLAS_AT const char *file, int line
cublasStatus_t simtlab_cublasCreate(SIMTLAB_CUBLAS_AT, cublasHandle_t *handle);
cublasStatus_t simtlab_cublasDestroy(SIMTLAB_CUBLAS_AT, cublasHandle_t handle);
cublasStatus_t simtlab_cublasGetVersion(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int *version);
cublasStatus_t simtlab_cublasGetProperty(SIMTLAB_CUBLAS_AT, libraryPropertyType type, int *value);
cublasStatus_t simtlab_cublasSetStream(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, simtlab_cublas_stream stream);
cublasStatus_t simtlab_cublasGetStream(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, simtlab_cublas_stream *stream);
cublasStatus_t simtlab_cublasSetMathMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasMath_t mode);
cublasStatus_t simtlab_cublasGetMathMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasMath_t *mode);
cublasStatus_t simtlab_cublasSetPointerMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasPointerMode_t mode);
cublasStatus_t simtlab_cublasGetPointerMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasPointerMode_t *mode);
cublasStatus_t simtlab_cublasSetAtomicsMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasAtomicsMode_t mode);
cublasStatus_t simtlab_cublasGetAtomicsMode(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasAtomicsMode_t *mode);
cublasStatus_t simtlab_cublasSetWorkspace(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, void *workspace, size_t bytes);
cublasStatus_t simtlab_cublasSetVector(SIMTLAB_CUBLAS_AT, int n, int elem_size, const void *x, int incx, void *y, int incy);
cublasStatus_t simtlab_cublasGetVector(SIMTLAB_CUBLAS_AT, int n, int elem_size, const void *x, int incx, void *y, int incy);
cublasStatus_t simtlab_cublasSetMatrix(SIMTLAB_CUBLAS_AT, int rows, int cols, int elem_size, const void *_SimA, int lda, void *_SimB, int ldb);
cublasStatus_t simtlab_cublasGetMatrix(SIMTLAB_CUBLAS_AT, int rows, int cols, int elem_size, const void *_SimA, int lda, void *_SimB, int ldb);
cublasStatus_t simtlab_cublasSetVectorAsync(SIMTLAB_CUBLAS_AT, int n, int elem_size, const void *x, int incx, void *y, int incy, simtlab_cublas_stream stream);
cublasStatus_t simtlab_cublasGetVectorAsync(SIMTLAB_CUBLAS_AT, int n, int elem_size, const void *x, int incx, void *y, int incy, simtlab_cublas_stream stream);
cublasStatus_t simtlab_cublasSetMatrixAsync(SIMTLAB_CUBLAS_AT, int rows, int cols, int elem_size, const void *_SimA, int lda, void *_SimB, int ldb, simtlab_cublas_stream stream);
cublasStatus_t simtlab_cublasGetMatrixAsync(SIMTLAB_CUBLAS_AT, int rows, int cols, int elem_size, const void *_SimA, int lda, void *_SimB, int ldb, simtlab_cublas_stream stream);
cublasStatus_t simtlab_cublasSaxpy(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *alpha, const float *x, int incx, float *y, int incy);
cublasStatus_t simtlab_cublasSscal(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *alpha, float *x, int incx);
cublasStatus_t simtlab_cublasScopy(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, float *y, int incy);
cublasStatus_t simtlab_cublasSswap(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, float *x, int incx, float *y, int incy);
cublasStatus_t simtlab_cublasSdot(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, const float *y, int incy, float *result);
cublasStatus_t simtlab_cublasSnrm2(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, float *result);
cublasStatus_t simtlab_cublasSasum(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, float *result);
cublasStatus_t simtlab_cublasIsamax(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t simtlab_cublasIsamin(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const float *x, int incx, int *result);
cublasStatus_t simtlab_cublasSgeam(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const float *alpha, const float *_SimA, int lda, const float *beta, const float *_SimB, int ldb, float *_SimC, int ldc);
cublasStatus_t simtlab_cublasSger(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int m, int n, const float *alpha, const float *x, int incx, const float *y, int incy, float *_SimA, int lda);
cublasStatus_t simtlab_cublasSgemv(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t trans, int m, int n, const float *alpha, const float *_SimA, int lda, const float *x, int incx, const float *beta, float *y, int incy);
cublasStatus_t simtlab_cublasSgemm(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float *alpha, const float *_SimA, int lda, const float *_SimB, int ldb, const float *beta, float *_SimC, int ldc);
cublasStatus_t simtlab_cublasSgemmStridedBatched(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float *alpha, const float *_SimA, int lda, long long strideA, const float *_SimB, int ldb, long long strideB, const float *beta, float *_SimC, int ldc, long long strideC, int batchCount);
cublasStatus_t simtlab_cublasSgemmBatched(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float *alpha, const float *const Aarray[], int lda, const float *const Barray[], int ldb, const float *beta, float *const Carray[], int ldc, int batchCount);
cublasStatus_t simtlab_cublasDaxpy(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *alpha, const double *x, int incx, double *y, int incy);
cublasStatus_t simtlab_cublasDscal(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *alpha, double *x, int incx);
cublasStatus_t simtlab_cublasDcopy(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, double *y, int incy);
cublasStatus_t simtlab_cublasDswap(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, double *x, int incx, double *y, int incy);
cublasStatus_t simtlab_cublasDdot(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, const double *y, int incy, double *result);
cublasStatus_t simtlab_cublasDnrm2(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, double *result);
cublasStatus_t simtlab_cublasDasum(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, double *result);
cublasStatus_t simtlab_cublasIdamax(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, int *result);
cublasStatus_t simtlab_cublasIdamin(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int n, const double *x, int incx, int *result);
cublasStatus_t simtlab_cublasDgeam(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const double *alpha, const double *_SimA, int lda, const double *beta, const double *_SimB, int ldb, double *_SimC, int ldc);
cublasStatus_t simtlab_cublasDger(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, int m, int n, const double *alpha, const double *x, int incx, const double *y, int incy, double *_SimA, int lda);
cublasStatus_t simtlab_cublasDgemv(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t trans, int m, int n, const double *alpha, const double *_SimA, int lda, const double *x, int incx, const double *beta, double *y, int incy);
cublasStatus_t simtlab_cublasDgemm(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double *alpha, const double *_SimA, int lda, const double *_SimB, int ldb, const double *beta, double *_SimC, int ldc);
cublasStatus_t simtlab_cublasDgemmStridedBatched(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double *alpha, const double *_SimA, int lda, long long strideA, const double *_SimB, int ldb, long long strideB, const double *beta, double *_SimC, int ldc, long long strideC, int batchCount);
cublasStatus_t simtlab_cublasDgemmBatched(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double *alpha, const double *const Aarray[], int lda, const double *const Barray[], int ldb, const double *beta, double *const Carray[], int ldc, int batchCount);
cublasStatus_t simtlab_cublasGemmEx(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *_SimA, cudaDataType Atype, int lda, const void *_SimB, cudaDataType Btype, int ldb, const void *beta, void *_SimC, cudaDataType Ctype, int ldc, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t simtlab_cublasGemmStridedBatchedEx(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *_SimA, cudaDataType Atype, int lda, long long strideA, const void *_SimB, cudaDataType Btype, int ldb, long long strideB, const void *beta, void *_SimC, cudaDataType Ctype, int ldc, long long strideC, int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t simtlab_cublasGemmBatchedEx(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *const Aarray[], cudaDataType Atype, int lda, const void *const Barray[], cudaDataType Btype, int ldb, const void *beta, void *const Carray[], cudaDataType Ctype, int ldc, int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);
cublasStatus_t simtlab_cublasSgemmEx(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float *alpha, const void *_SimA, cudaDataType Atype, int lda, const void *_SimB, cudaDataType Btype, int ldb, const float *beta, void *_SimC, cudaDataType Ctype, int ldc);
/* half: __half in C++ (cuda_fp16.h), any pointer here */
cublasStatus_t simtlab_cublasHgemm(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *_SimA, int lda, const void *_SimB, int ldb, const void *beta, void *_SimC, int ldc);
cublasStatus_t simtlab_cublasHgemmStridedBatched(SIMTLAB_CUBLAS_AT, cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void *alpha, const void *_SimA, int lda, long long strideA, const void *_SimB, int ldb, long long strideB, const void *beta, void *_SimC, int ldc, long long strideC, int batchCount);
const char *cublasGetStatusName(cublasStatus_t status);
const char *cublasGetStatusString(cublasStatus_t status);
size_t cublasGetCudartVersion(void); /* the CUDA runtime's version cuBLAS was built with: CUDART_VERSION */
#ifdef __cplusplus
}

/* Older code passes a cudaDataType as GemmEx's compute type; the toolkit's C++ overloads map it
 * (cublasMigrateComputeType), and so do these (the pedantic forms compute alike here). */
static inline cublasComputeType_t simtlab_cublas_compute_of(cudaDataType t)
{
    return t == CUDA_R_32F || t == CUDA_C_32F   ? CUBLAS_COMPUTE_32F
           : t == CUDA_R_64F || t == CUDA_C_64F ? CUBLAS_COMPUTE_64F
           : t == CUDA_R_16F                    ? CUBLAS_COMPUTE_16F
           : t == CUDA_R_32I                    ? CUBLAS_COMPUTE_32I
                                                : (cublasComputeType_t)-1; /* refused by name */
}
static inline cublasStatus_t simtlab_cublasGemmEx(SIMTLAB_CUBLAS_AT, cublasHandle_t h, cublasOperation_t ta,
                                                  cublasOperation_t tb, int m, int n, int k, const void *alpha,
                                                  const void *_SimA, cudaDataType at, int lda, const void *_SimB,
                                                  cudaDataType bt, int ldb, const void *beta, void *_SimC, cudaDataType ct,
                                                  int ldc, cudaDataType comp, cublasGemmAlgo_t algo)
{
    return simtlab_cublasGemmEx(file, line, h, ta, tb, m, n, k, alpha, _SimA, at, lda, _SimB, bt, ldb, beta, _SimC, ct, ldc,
                                simtlab_cublas_compute_of(comp), algo);
}
static inline cublasStatus_t simtlab_cublasGemmStridedBatchedEx(
    SIMTLAB_CUBLAS_AT, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
    const void *alpha, const void *_SimA, cudaDataType at, int lda, long long sa, const void *_SimB, cudaDataType bt, int ldb,
    long long sb, const void *beta, void *_SimC, cudaDataType ct, int ldc, long long sc, int batch, cudaDataType comp,
    cublasGemmAlgo_t algo)
{
    return simtlab_cublasGemmStridedBatchedEx(file, line, h, ta, tb, m, n, k, alpha, _SimA, at, lda, sa, _SimB, bt, ldb, sb,
                                              beta, _SimC, ct, ldc, sc, batch, simtlab_cublas_compute_of(comp), algo);
}
static inline cublasStatus_t simtlab_cublasGemmBatchedEx(SIMTLAB_CUBLAS_AT, cublasHandle_t h, cublasOperation_t ta,
                                                         cublasOperation_t tb, int m, int n, int k, const void *alpha,
                                                         const void *const Aarray[], cudaDataType at, int lda,
                                                         const void *const Barray[], cudaDataType bt, int ldb,
                                                         const void *beta, void *const Carray[], cudaDataType ct,
                                                         int ldc, int batch, cudaDataType comp, cublasGemmAlgo_t algo)
{
    return simtlab_cublasGemmBatchedEx(file, line, h, ta, tb, m, n, k, alpha, Aarray, at, lda, Barray, bt, ldb, beta,
                                       Carray, ct, ldc, batch, simtlab_cublas_compute_of(comp), algo);
}
#endif

#define cublasCreate(...) simtlab_cublasCreate(__FILE__, __LINE__, __VA_ARGS__)
#define cublasCreate_v2(...) simtlab_cublasCreate(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDestroy(...) simtlab_cublasDestroy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDestroy_v2(...) simtlab_cublasDestroy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetVersion(...) simtlab_cublasGetVersion(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetVersion_v2(...) simtlab_cublasGetVersion(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetProperty(...) simtlab_cublasGetProperty(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetStream(...) simtlab_cublasSetStream(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetStream_v2(...) simtlab_cublasSetStream(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetStream(...) simtlab_cublasGetStream(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetStream_v2(...) simtlab_cublasGetStream(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetMathMode(...) simtlab_cublasSetMathMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetMathMode(...) simtlab_cublasGetMathMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetPointerMode(...) simtlab_cublasSetPointerMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetPointerMode_v2(...) simtlab_cublasSetPointerMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetPointerMode(...) simtlab_cublasGetPointerMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetPointerMode_v2(...) simtlab_cublasGetPointerMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetAtomicsMode(...) simtlab_cublasSetAtomicsMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetAtomicsMode(...) simtlab_cublasGetAtomicsMode(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetWorkspace(...) simtlab_cublasSetWorkspace(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetWorkspace_v2(...) simtlab_cublasSetWorkspace(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetVector(...) simtlab_cublasSetVector(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetVector(...) simtlab_cublasGetVector(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetMatrix(...) simtlab_cublasSetMatrix(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetMatrix(...) simtlab_cublasGetMatrix(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetVectorAsync(...) simtlab_cublasSetVectorAsync(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetVectorAsync(...) simtlab_cublasGetVectorAsync(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSetMatrixAsync(...) simtlab_cublasSetMatrixAsync(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGetMatrixAsync(...) simtlab_cublasGetMatrixAsync(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSaxpy(...) simtlab_cublasSaxpy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSaxpy_v2(...) simtlab_cublasSaxpy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSscal(...) simtlab_cublasSscal(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSscal_v2(...) simtlab_cublasSscal(__FILE__, __LINE__, __VA_ARGS__)
#define cublasScopy(...) simtlab_cublasScopy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasScopy_v2(...) simtlab_cublasScopy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSswap(...) simtlab_cublasSswap(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSswap_v2(...) simtlab_cublasSswap(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSdot(...) simtlab_cublasSdot(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSdot_v2(...) simtlab_cublasSdot(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSnrm2(...) simtlab_cublasSnrm2(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSnrm2_v2(...) simtlab_cublasSnrm2(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSasum(...) simtlab_cublasSasum(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSasum_v2(...) simtlab_cublasSasum(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIsamax(...) simtlab_cublasIsamax(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIsamax_v2(...) simtlab_cublasIsamax(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIsamin(...) simtlab_cublasIsamin(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIsamin_v2(...) simtlab_cublasIsamin(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgeam(...) simtlab_cublasSgeam(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSger(...) simtlab_cublasSger(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSger_v2(...) simtlab_cublasSger(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemv(...) simtlab_cublasSgemv(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemv_v2(...) simtlab_cublasSgemv(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemm(...) simtlab_cublasSgemm(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemm_v2(...) simtlab_cublasSgemm(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemmStridedBatched(...) simtlab_cublasSgemmStridedBatched(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemmBatched(...) simtlab_cublasSgemmBatched(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDaxpy(...) simtlab_cublasDaxpy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDaxpy_v2(...) simtlab_cublasDaxpy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDscal(...) simtlab_cublasDscal(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDscal_v2(...) simtlab_cublasDscal(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDcopy(...) simtlab_cublasDcopy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDcopy_v2(...) simtlab_cublasDcopy(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDswap(...) simtlab_cublasDswap(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDswap_v2(...) simtlab_cublasDswap(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDdot(...) simtlab_cublasDdot(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDdot_v2(...) simtlab_cublasDdot(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDnrm2(...) simtlab_cublasDnrm2(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDnrm2_v2(...) simtlab_cublasDnrm2(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDasum(...) simtlab_cublasDasum(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDasum_v2(...) simtlab_cublasDasum(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIdamax(...) simtlab_cublasIdamax(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIdamax_v2(...) simtlab_cublasIdamax(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIdamin(...) simtlab_cublasIdamin(__FILE__, __LINE__, __VA_ARGS__)
#define cublasIdamin_v2(...) simtlab_cublasIdamin(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgeam(...) simtlab_cublasDgeam(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDger(...) simtlab_cublasDger(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDger_v2(...) simtlab_cublasDger(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemv(...) simtlab_cublasDgemv(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemv_v2(...) simtlab_cublasDgemv(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemm(...) simtlab_cublasDgemm(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemm_v2(...) simtlab_cublasDgemm(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemmStridedBatched(...) simtlab_cublasDgemmStridedBatched(__FILE__, __LINE__, __VA_ARGS__)
#define cublasDgemmBatched(...) simtlab_cublasDgemmBatched(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGemmEx(...) simtlab_cublasGemmEx(__FILE__, __LINE__, __VA_ARGS__)
#define cublasSgemmEx(...) simtlab_cublasSgemmEx(__FILE__, __LINE__, __VA_ARGS__)
#define cublasHgemm(...) simtlab_cublasHgemm(__FILE__, __LINE__, __VA_ARGS__)
#define cublasHgemmStridedBatched(...) simtlab_cublasHgemmStridedBatched(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGemmStridedBatchedEx(...) simtlab_cublasGemmStridedBatchedEx(__FILE__, __LINE__, __VA_ARGS__)
#define cublasGemmBatchedEx(...) simtlab_cublasGemmBatchedEx(__FILE__, __LINE__, __VA_ARGS__)

#ifdef __cplusplus
/* Each call's name also names a function, for a program that uses it without calling it at once
 * (`std::bind(cublasSgemm, handle, ...)`, a table of function pointers): a reference to a function
 * of the same parameters, which the call macro above does not reach (no `(` follows the name).
 * Such a call has no file and line of its own: its launch is named "(through a pointer)". Not
 * the three *Ex GEMMs, whose C++ overloads (the older cudaDataType compute type) leave the name
 * ambiguous. */
namespace simtlab {
template <class _SimF, _SimF *fn>
struct cublas_by_name;
template <class _SimR, class... _SimA, _SimR (*fn)(const char *, int, _SimA...)>
struct cublas_by_name<_SimR(const char *, int, _SimA...), fn> {
    static _SimR call(_SimA... a) { return fn("(through a pointer)", 0, a...); }
};
} // namespace simtlab
#define SIMTLAB_CUBLAS_NAME(name, impl) \
    static constexpr auto &name = ::simtlab::cublas_by_name<decltype(impl), &impl>::call;
SIMTLAB_CUBLAS_NAME(cublasCreate, simtlab_cublasCreate)
SIMTLAB_CUBLAS_NAME(cublasCreate_v2, simtlab_cublasCreate)
SIMTLAB_CUBLAS_NAME(cublasDestroy, simtlab_cublasDestroy)
SIMTLAB_CUBLAS_NAME(cublasDestroy_v2, simtlab_cublasDestroy)
SIMTLAB_CUBLAS_NAME(cublasGetVersion, simtlab_cublasGetVersion)
SIMTLAB_CUBLAS_NAME(cublasGetVersion_v2, simtlab_cublasGetVersion)
SIMTLAB_CUBLAS_NAME(cublasGetProperty, simtlab_cublasGetProperty)
SIMTLAB_CUBLAS_NAME(cublasSetStream, simtlab_cublasSetStream)
SIMTLAB_CUBLAS_NAME(cublasSetStream_v2, simtlab_cublasSetStream)
SIMTLAB_CUBLAS_NAME(cublasGetStream, simtlab_cublasGetStream)
SIMTLAB_CUBLAS_NAME(cublasGetStream_v2, simtlab_cublasGetStream)
SIMTLAB_CUBLAS_NAME(cublasSetMathMode, simtlab_cublasSetMathMode)
SIMTLAB_CUBLAS_NAME(cublasGetMathMode, simtlab_cublasGetMathMode)
SIMTLAB_CUBLAS_NAME(cublasSetPointerMode, simtlab_cublasSetPointerMode)
SIMTLAB_CUBLAS_NAME(cublasSetPointerMode_v2, simtlab_cublasSetPointerMode)
SIMTLAB_CUBLAS_NAME(cublasGetPointerMode, simtlab_cublasGetPointerMode)
SIMTLAB_CUBLAS_NAME(cublasGetPointerMode_v2, simtlab_cublasGetPointerMode)
SIMTLAB_CUBLAS_NAME(cublasSetAtomicsMode, simtlab_cublasSetAtomicsMode)
SIMTLAB_CUBLAS_NAME(cublasGetAtomicsMode, simtlab_cublasGetAtomicsMode)
SIMTLAB_CUBLAS_NAME(cublasSetWorkspace, simtlab_cublasSetWorkspace)
SIMTLAB_CUBLAS_NAME(cublasSetWorkspace_v2, simtlab_cublasSetWorkspace)
SIMTLAB_CUBLAS_NAME(cublasSetVector, simtlab_cublasSetVector)
SIMTLAB_CUBLAS_NAME(cublasGetVector, simtlab_cublasGetVector)
SIMTLAB_CUBLAS_NAME(cublasSetMatrix, simtlab_cublasSetMatrix)
SIMTLAB_CUBLAS_NAME(cublasGetMatrix, simtlab_cublasGetMatrix)
SIMTLAB_CUBLAS_NAME(cublasSetVectorAsync, simtlab_cublasSetVectorAsync)
SIMTLAB_CUBLAS_NAME(cublasGetVectorAsync, simtlab_cublasGetVectorAsync)
SIMTLAB_CUBLAS_NAME(cublasSetMatrixAsync, simtlab_cublasSetMatrixAsync)
SIMTLAB_CUBLAS_NAME(cublasGetMatrixAsync, simtlab_cublasGetMatrixAsync)
SIMTLAB_CUBLAS_NAME(cublasSaxpy, simtlab_cublasSaxpy)
SIMTLAB_CUBLAS_NAME(cublasSaxpy_v2, simtlab_cublasSaxpy)
SIMTLAB_CUBLAS_NAME(cublasSscal, simtlab_cublasSscal)
SIMTLAB_CUBLAS_NAME(cublasSscal_v2, simtlab_cublasSscal)
SIMTLAB_CUBLAS_NAME(cublasScopy, simtlab_cublasScopy)
SIMTLAB_CUBLAS_NAME(cublasScopy_v2, simtlab_cublasScopy)
SIMTLAB_CUBLAS_NAME(cublasSswap, simtlab_cublasSswap)
SIMTLAB_CUBLAS_NAME(cublasSswap_v2, simtlab_cublasSswap)
SIMTLAB_CUBLAS_NAME(cublasSdot, simtlab_cublasSdot)
SIMTLAB_CUBLAS_NAME(cublasSdot_v2, simtlab_cublasSdot)
SIMTLAB_CUBLAS_NAME(cublasSnrm2, simtlab_cublasSnrm2)
SIMTLAB_CUBLAS_NAME(cublasSnrm2_v2, simtlab_cublasSnrm2)
SIMTLAB_CUBLAS_NAME(cublasSasum, simtlab_cublasSasum)
SIMTLAB_CUBLAS_NAME(cublasSasum_v2, simtlab_cublasSasum)
SIMTLAB_CUBLAS_NAME(cublasIsamax, simtlab_cublasIsamax)
SIMTLAB_CUBLAS_NAME(cublasIsamax_v2, simtlab_cublasIsamax)
SIMTLAB_CUBLAS_NAME(cublasIsamin, simtlab_cublasIsamin)
SIMTLAB_CUBLAS_NAME(cublasIsamin_v2, simtlab_cublasIsamin)
SIMTLAB_CUBLAS_NAME(cublasSgeam, simtlab_cublasSgeam)
SIMTLAB_CUBLAS_NAME(cublasSger, simtlab_cublasSger)
SIMTLAB_CUBLAS_NAME(cublasSger_v2, simtlab_cublasSger)
SIMTLAB_CUBLAS_NAME(cublasSgemv, simtlab_cublasSgemv)
SIMTLAB_CUBLAS_NAME(cublasSgemv_v2, simtlab_cublasSgemv)
SIMTLAB_CUBLAS_NAME(cublasSgemm, simtlab_cublasSgemm)
SIMTLAB_CUBLAS_NAME(cublasSgemm_v2, simtlab_cublasSgemm)
SIMTLAB_CUBLAS_NAME(cublasSgemmStridedBatched, simtlab_cublasSgemmStridedBatched)
SIMTLAB_CUBLAS_NAME(cublasSgemmBatched, simtlab_cublasSgemmBatched)
SIMTLAB_CUBLAS_NAME(cublasDaxpy, simtlab_cublasDaxpy)
SIMTLAB_CUBLAS_NAME(cublasDaxpy_v2, simtlab_cublasDaxpy)
SIMTLAB_CUBLAS_NAME(cublasDscal, simtlab_cublasDscal)
SIMTLAB_CUBLAS_NAME(cublasDscal_v2, simtlab_cublasDscal)
SIMTLAB_CUBLAS_NAME(cublasDcopy, simtlab_cublasDcopy)
SIMTLAB_CUBLAS_NAME(cublasDcopy_v2, simtlab_cublasDcopy)
SIMTLAB_CUBLAS_NAME(cublasDswap, simtlab_cublasDswap)
SIMTLAB_CUBLAS_NAME(cublasDswap_v2, simtlab_cublasDswap)
SIMTLAB_CUBLAS_NAME(cublasDdot, simtlab_cublasDdot)
SIMTLAB_CUBLAS_NAME(cublasDdot_v2, simtlab_cublasDdot)
SIMTLAB_CUBLAS_NAME(cublasDnrm2, simtlab_cublasDnrm2)
SIMTLAB_CUBLAS_NAME(cublasDnrm2_v2, simtlab_cublasDnrm2)
SIMTLAB_CUBLAS_NAME(cublasDasum, simtlab_cublasDasum)
SIMTLAB_CUBLAS_NAME(cublasDasum_v2, simtlab_cublasDasum)
SIMTLAB_CUBLAS_NAME(cublasIdamax, simtlab_cublasIdamax)
SIMTLAB_CUBLAS_NAME(cublasIdamax_v2, simtlab_cublasIdamax)
SIMTLAB_CUBLAS_NAME(cublasIdamin, simtlab_cublasIdamin)
SIMTLAB_CUBLAS_NAME(cublasIdamin_v2, simtlab_cublasIdamin)
SIMTLAB_CUBLAS_NAME(cublasDgeam, simtlab_cublasDgeam)
SIMTLAB_CUBLAS_NAME(cublasDger, simtlab_cublasDger)
SIMTLAB_CUBLAS_NAME(cublasDger_v2, simtlab_cublasDger)
SIMTLAB_CUBLAS_NAME(cublasDgemv, simtlab_cublasDgemv)
SIMTLAB_CUBLAS_NAME(cublasDgemv_v2, simtlab_cublasDgemv)
SIMTLAB_CUBLAS_NAME(cublasDgemm, simtlab_cublasDgemm)
SIMTLAB_CUBLAS_NAME(cublasDgemm_v2, simtlab_cublasDgemm)
SIMTLAB_CUBLAS_NAME(cublasDgemmStridedBatched, simtlab_cublasDgemmStridedBatched)
SIMTLAB_CUBLAS_NAME(cublasDgemmBatched, simtlab_cublasDgemmBatched)
SIMTLAB_CUBLAS_NAME(cublasSgemmEx, simtlab_cublasSgemmEx)
SIMTLAB_CUBLAS_NAME(cublasHgemm, simtlab_cublasHgemm)
SIMTLAB_CUBLAS_NAME(cublasHgemmStridedBatched, simtlab_cublasHgemmStridedBatched)
#undef SIMTLAB_CUBLAS_NAME
#endif
