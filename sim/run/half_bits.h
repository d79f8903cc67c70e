/* sim/run/half_bits.h - half and bfloat16 bit patterns as floats and back, for the runtime's
 * tensor-core work in C (wmma.c, ptx.c): exact widening, round-to-nearest-even narrowing, as
 * __half2float, __float2half_rn and __bfloat162float. */
#ifndef SIMTLAB_HALF_BITS_H
#define SIMTLAB_HALF_BITS_H
#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float f16_to_f32(uint16_t h)
{
    const uint32_t s = (uint32_t)(h >> 15) << 31, e = h >> 10 & 31, m = h & 1023;
    uint32_t u;
    if (e == 31)
        u = s | 0x7f800000u | m << 13;
    else if (e)
        u = s | (e + 112) << 23 | m << 13;
    else if (!m)
        u = s;
    else { /* subnormal: m 2^-24 */
        float f = (float)m * 0x1p-24f;
        return s ? -f : f;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* round to nearest even, as __float2half_rn */
static inline uint16_t f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint32_t s = u >> 16 & 0x8000u;
    const uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) /* Inf, NaN (quiet) */
        return (uint16_t)(s | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0));
    if (a >= 0x477ff000u) /* rounds past 65504 */
        return (uint16_t)(s | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a subnormal half (or 0), m = round(|f| 2^24) */
        float af;
        memcpy(&af, &a, 4);
        return (uint16_t)(s | (uint32_t)lrintf(af * 0x1p24f));
    }
    const uint32_t r = a + 0xfffu + (a >> 13 & 1); /* nearest even at bit 13 */
    return (uint16_t)(s | ((r - 0x38000000u) >> 13));
}

static inline float bf16_to_f32(uint16_t h)
{
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
#endif
