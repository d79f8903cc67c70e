/* sim/run/include/cublas.h - cuBLAS's legacy API (cublasInit, cublasAlloc, cublasSgemm with char
 * transposes) is not in the simulator; its v2 API is (cublas_v2.h, cublas_api.h). This stub
 * declares nothing, so that a program which includes the header without calling the library
 * builds, and the toolkit's own header, which would clash with the shim's types, is never read.
 * A use of the legacy names fails to compile, and simtlab-run prints g++'s "not declared" errors
 * on them as one line naming the function (sim/run/run.c, print_library_refusals). */
#pragma once
