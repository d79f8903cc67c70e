/* lessons/05_torch_stack/stream_kernels.h - what lesson 5's driver calls in stream_kernels.cu. */
#ifndef LESSON05_STREAM_KERNELS_H
#define LESSON05_STREAM_KERNELS_H
#include "simt_cfg.h"

#define STREAM_FMA_A 0.999f
#define STREAM_FMA_B 0.001f

#ifdef __cplusplus
extern "C" {
#endif
double stream_fma_cpu(float x, int iters);
#ifdef __cplusplus
}
#endif
DECLARE_LAUNCHER(stream_fma_v1, (float *, y), (const float *, x), (int, n), (int, iters));
#endif
