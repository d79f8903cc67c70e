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

static inline float cuCrealf(cuFloatComplex x) { return x.x; }
static inline float cuCimagf(cuFloatComplex x) { return x.y; }
static inline cuFloatComplex make_cuFloatComplex(float r, float i)
{
    cuFloatComplex z;
    z.x = r;
    z.y = i;
    return z;
}
static inline cuFloatComplex cuConjf(cuFloatComplex x) { return make_cuFloatComplex(x.x, -x.y); }
static inline cuFloatComplex cuCaddf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x + b.x, a.y + b.y); }
static inline cuFloatComplex cuCsubf(cuFloatComplex a, cuFloatComplex b) { return make_cuFloatComplex(a.x - b.x, a.y - b.y); }
static inline cuFloatComplex cuCmulf(cuFloatComplex a, cuFloatComplex b)
{
    return make_cuFloatComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline cuFloatComplex cuCdivf(cuFloatComplex a, cuFloatComplex b)
{
    const float s = fabsf(b.x) + fabsf(b.y), inv = 1.0f / s;
    const float ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;
    const float d = 1.0f / (br * br + bi * bi);
    return make_cuFloatComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
static inline float cuCabsf(cuFloatComplex x)
{
    float a = fabsf(x.x), b = fabsf(x.y);
    if (a < b) {
        const float t = a;
        a = b;
        b = t;
    }
    if (a == 0.0f || a > 3.402823466e38f || b > 3.402823466e38f)
        return a + b; /* 0, or inf / nan */
    const float q = b / a;
    return a * sqrtf(1.0f + q * q);
}
static inline cuFloatComplex cuCfmaf(cuFloatComplex x, cuFloatComplex y, cuFloatComplex d)
{
    return make_cuFloatComplex((x.x * y.x + d.x) - x.y * y.y, (x.x * y.y + d.y) + x.y * y.x);
}

static inline double cuCreal(cuDoubleComplex x) { return x.x; }
static inline double cuCimag(cuDoubleComplex x) { return x.y; }
static inline cuDoubleComplex make_cuDoubleComplex(double r, double i)
{
    cuDoubleComplex z;
    z.x = r;
    z.y = i;
    return z;
}
static inline cuDoubleComplex cuConj(cuDoubleComplex x) { return make_cuDoubleComplex(x.x, -x.y); }
static inline cuDoubleComplex cuCadd(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x + b.x, a.y + b.y); }
static inline cuDoubleComplex cuCsub(cuDoubleComplex a, cuDoubleComplex b) { return make_cuDoubleComplex(a.x - b.x, a.y - b.y); }
static inline cuDoubleComplex cuCmul(cuDoubleComplex a, cuDoubleComplex b)
{
    return make_cuDoubleComplex(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline cuDoubleComplex cuCdiv(cuDoubleComplex a, cuDoubleComplex b)
{
    const double s = fabs(b.x) + fabs(b.y), inv = 1.0 / s;
    const double ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;
    const double d = 1.0 / (br * br + bi * bi);
    return make_cuDoubleComplex((ar * br + ai * bi) * d, (ai * br - ar * bi) * d);
}
static inline double cuCabs(cuDoubleComplex x)
{
    double a = fabs(x.x), b = fabs(x.y);
    if (a < b) {
        const double t = a;
        a = b;
        b = t;
    }
    if (a == 0.0 || a > 1.7976931348623157e308 || b > 1.7976931348623157e308)
        return a + b;
    const double q = b / a;
    return a * sqrt(1.0 + q * q);
}
static inline cuDoubleComplex cuCfma(cuDoubleComplex x, cuDoubleComplex y, cuDoubleComplex d)
{
    return make_cuDoubleComplex((x.x * y.x + d.x) - x.y * y.y, (x.x * y.y + d.y) + x.y * y.x);
}

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
