/* lessons/02_scale/scale.h - what the lesson 2 driver calls in scale.cu. */
#ifndef LESSON02_SCALE_H
#define LESSON02_SCALE_H
#include "simt_cfg.h"

#ifdef __cplusplus
extern "C" {
#endif
void scale_cpu(double *y, const float *x, int n);
#ifdef __cplusplus
}
#endif
DECLARE_LAUNCHER(scale_v1, (float *, y), (const float *, x), (int, n));
DECLARE_LAUNCHER(scale_unguarded, (float *, y), (const float *, x), (int, n));
DECLARE_LAUNCHER(scale_v1_f64, (double *, y), (const double *, x), (int, n));
#endif
