/* sim/run/include/simtlab_math.h - CUDA device intrinsics beyond those cuda_runtime.h
 * defines (being written, session 17). */
#ifndef SIMTLAB_MATH_H
#define SIMTLAB_MATH_H
#endif
