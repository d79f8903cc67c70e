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
#define SIMTLAB_CUCOMPLEX(C, T, S, MAKE, ABS, SQRT, BIG)                                          \
    static inline T cuCreal##S(C x) { return x.x; }                                             \
    static inline T cuCimag##S(C x) { return x.y; }                                             \
    static inline C MAKE(T r, T i)                                                               \
    {                                                                                            \
        C z;                                                                                     \
        z.x = r;                                                                                 \
        z.y = i;                                                                                 \
        return z;                                                                                \
    }                                                                                            \
    static inline C cuConj##S(C x) { return MAKE(x.x, -x.y); }                                   \
    static inline C cuCadd##S(C a, C b) { return MAKE(a.x + b.x, a.y + b.y); }                  \
    static inline C cuCsub##S(C a, C b) { return MAKE(a.x - b.x, a.y - b.y); }                  \
    static inline C cuCmul##S(C a, C b) { return MAKE(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); } \
    static inline C cuCdiv##S(C a, C b)                                                          \
    {                                                                                            \
        const T s = ABS(b.x) + ABS(b.y), inv = (T)1 / s;                                         \
        const T ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;                  \
        const T d = (T)1 / (br * br + bi * bi);                                                  \
        return MAKE((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);                           \
    }                                                                                            \
    static inline T cuCabs##S(C x)                                                               \
    {                                                                                            \
        T a = ABS(x.x), b = ABS(x.y);                                                            \
        if (a < b) {                                                                             \
            const T t = a;                                                                       \
            a = b;                                                                               \
            b = t;                                                                               \
        }                                                                                        \
        if (a == (T)0 || a > BIG || b > BIG)                                                     \
            return a + b; /* 0, or inf / nan */                                                  \
        const T q = b / a;                                                                       \
        return a * SQRT((T)1 + q * q);                                                           \
    }                                                                                            \
    /* summed as the toolkit does: (x.x y.x + d.x) - x.y y.y, (x.x y.y + d.y) + x.y y.x */     \
    static inline C cuCfma##S(C x, C y, C d)                                                     \
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
