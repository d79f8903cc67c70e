/* sim/run/include/cuda.h - for `simtlab run`: a header a CUDA program may include
 * whose contents the shim's cuda_runtime.h provides (the toolkit's own would
 * clash with it). CUDA_VERSION, the driver API's version, is the runtime
 * API's level the shim offers (CUDART_VERSION): programs test it to choose
 * between the CUDA 9 `_sync` intrinsics and their old forms. */
#include "cuda_runtime.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
