/* sim/run/include/sm_32_atomic_functions.h - for `simtlab run`: a header a CUDA program may include
 * whose contents the shim's cuda_runtime.h provides (the toolkit's own would
 * clash with it). */
#include "cuda_runtime.h"
