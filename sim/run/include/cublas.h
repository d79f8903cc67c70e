/* sim/run/include/cublas.h - cuBLAS is not in the simulator. This stub declares nothing, so that a
 * program which includes the header without calling the library (SGEMM_CUDA's kernel headers
 * include <cublas_v2.h>; survey 12) builds, and the toolkit's own header, which would clash with
 * the shim's types, is never read. A use of the library's names fails to compile, and
 * simtlab-run prints g++'s "not declared" errors on them as one line: "FILE:LINE: simtlab run:
 * cuBLAS is not supported by the simulator ..." (sim/run/run.c, print_refusals; in the program's
 * .cu files the rewriter refuses such a name before compiling: sim/run/rewrite.c). */
#pragma once
