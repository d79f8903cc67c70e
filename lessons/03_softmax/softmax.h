/* lessons/03_softmax/softmax.h - what the lesson 3 driver calls in softmax.cu. */
#ifndef LESSON03_SOFTMAX_H
#define LESSON03_SOFTMAX_H
#include "simt_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
/* x and y are (R, C), row-major; y is the softmax of each row. */
void softmax_cpu(double *y, const float *x, int R, int C);
#ifdef __cplusplus
}
#endif
/* One block per row: grid (R), block (T) with T a multiple of 32, T <= 1024. */
DECLARE_LAUNCHER(softmax_naive, (float *, y), (const float *, x), (int, R), (int, C));
DECLARE_LAUNCHER(softmax_safe, (float *, y), (const float *, x), (int, R), (int, C));
DECLARE_LAUNCHER(softmax_online, (float *, y), (const float *, x), (int, R), (int, C));
#endif
