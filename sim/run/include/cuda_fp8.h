/* sim/run/include/cuda_fp8.h - the simulator has no fp8 arithmetic: including this header is
 * fine (it brings half and bfloat16, as CUDA's does), using its types fails to build with one
 * message (simtlab_nofp8.h). */
#pragma once
#include "cuda_bf16.h"
#ifdef __cplusplus
#include "simtlab_nofp8.h"
#endif
