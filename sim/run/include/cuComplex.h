/* sim/run/include/cuComplex.h - for `simtlab run`: the toolkit's single- and double-precision
 * complex numbers (Mandelbrot and FFT teaching code), on the shim's float2 and double2. The
 * toolkit's own header includes its vector_types.h, which clashes with the shim's (survey 7's
 * D5). Plain inline functions: they touch no memory, so they serve host and kernel code alike.
 * Division and magnitude scale their operands first, so that no intermediate overflows or
 * underflows where the quotient or the magnitude itself fits. */
#ifndef SIMTLAB_CUCOMPLEX_H
#define SIMTLAB_CUCOMPLEX_H
#include <math.h>

#include "cuda_runtime.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

/* One family a type: C the complex type, T its part, S the names' suffix (f or none), MAKE its
 * constructor, ABS and SQRT the part's fabs and sqrt, BIG the part's largest finite value. */
#define SIMTLAB_CUCOMPLEX(_SimC, _SimT, _SimS, MAKE, ABS, SQRT, BIG)                                          \
    static inline _SimT cuCreal##_SimS(_SimC x) { return x.x; }                                             \
    static inline _SimT cuCimag##_SimS(_SimC x) { return x.y; }                                             \
    static inline _SimC MAKE(_SimT r, _SimT i)                                                               \
    {                                                                                            \
        _SimC z;                                                                                     \
        z.x = r;                                                                                 \
        z.y = i;                                                                                 \
        return z;                                                                                \
    }                                                                                            \
    static inline _SimC cuConj##_SimS(_SimC x) { return MAKE(x.x, -x.y); }                                   \
    static inline _SimC cuCadd##_SimS(_SimC a, _SimC b) { return MAKE(a.x + b.x, a.y + b.y); }                  \
    static inline _SimC cuCsub##_SimS(_SimC a, _SimC b) { return MAKE(a.x - b.x, a.y - b.y); }                  \
    static inline _SimC cuCmul##_SimS(_SimC a, _SimC b) { return MAKE(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
    static inline _SimC cuCdiv##_SimS(_SimC a, _SimC b)                                                          \
    {                                                                                            \
        const _SimT s = ABS(b.x) + ABS(b.y), inv = (_SimT)1 / s;                                         \
        const _SimT ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;                  \
        const _SimT d = (_SimT)1 / (br * br + bi * bi);                                                  \
        return MAKE((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);                           \
    }                                                                                            \
    static inline _SimT cuCabs##_SimS(_SimC x)                                                               \
    {                                                                                            \
        _SimT a = ABS(x.x), b = ABS(x.y);                                                            \
        if (a < b) {                                                                             \
            const _SimT t = a;                                                                       \
            a = b;                                                                               \
            b = t;                                                                               \
        }                                                                                        \
        if (a == (_SimT)0 || a > BIG || b > BIG)                                                     \
            return a + b; /* 0, or inf / nan */                                                  \
        const _SimT q = b / a;                                                                       \
        return a * SQRT((_SimT)1 + q * q);                                                           \
    }                                                                                            \
    /* summed as the toolkit does: (x.x y.x + d.x) - x.y y.y, (x.x y.y + d.y) + x.y y.x */     \
    static inline _SimC cuCfma##_SimS(_SimC x, _SimC y, _SimC d)                                                     \
    {                                                                                            \
        return MAKE((x.x * y.x + d.x) - x.y * y.y, (x.x * y.y + d.y) + x.y * y.x);               \
    }
SIMTLAB_CUCOMPLEX(cuFloatComplex, float, f, make_cuFloatComplex, fabsf, sqrtf, 3.402823466e38f)
SIMTLAB_CUCOMPLEX(cuDoubleComplex, double, , make_cuDoubleComplex, fabs, sqrt, 1.7976931348623157e308)
#undef SIMTLAB_CUCOMPLEX

static inline cuComplex make_cuComplex(float x, float y) { return make_cuFloatComplex(x, y); }
static inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c)
{
    return make_cuDoubleComplex((double)c.x, (double)c.y);
}
static inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c)
{
    return make_cuFloatComplex((float)c.x, (float)c.y);
}
#endif
