/* sim/run/include/cublasLt.h - cuBLASLt on the simulator: its handles only (cublasLtCreate,
 * cublasLtDestroy, cublasLtGetVersion), so that a program which makes one at setup and multiplies
 * through cuBLAS's classic API (llm.c's dev/cuda programs: common.h's setup_main) runs. Its
 * matrix multiplies (cublasLtMatmul and its descriptors, layouts, preferences and heuristics)
 * are not declared: a use of one fails to compile, and simtlab-run prints it as one line naming
 * it (sim/run/run.c, print_library_refusals; the rewriter refuses them in a source file). */
#pragma once
#include "cublas_api.h"

typedef struct simtlab_cublaslt_context *cublasLtHandle_t;

#ifdef __cplusplus
extern "C" {
#endif
cublasStatus_t simtlab_cublasLtCreate(const char *file, int line, cublasLtHandle_t *handle);
cublasStatus_t simtlab_cublasLtDestroy(const char *file, int line, cublasLtHandle_t handle);
size_t cublasLtGetVersion(void);
#ifdef __cplusplus
}
#endif
#define cublasLtCreate(...) simtlab_cublasLtCreate(__FILE__, __LINE__, __VA_ARGS__)
#define cublasLtDestroy(...) simtlab_cublasLtDestroy(__FILE__, __LINE__, __VA_ARGS__)
