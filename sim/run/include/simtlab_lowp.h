/* sim/run/include/simtlab_lowp.h - half precision and bfloat16 for `simtlab run`: the 16-bit
 * formats of cuda_fp16.h (__half: 5 exponent bits, 10 fraction bits) and cuda_bf16.h
 * (__nv_bfloat16: 8 and 7), written once over the format.
 *
 *   simtlab::lowp::format<E, M, ...>    the bits: rounding a value (a double, an integer) to the
 *                                       format in one of CUDA's four modes, and back to float
 *   simtlab::lowp_types::scalar, pair   the types' members (the bits, constructors, conversions)
 *   simtlab::lowp::add, fma, ...        the arithmetic, on either type
 *   SIMTLAB_LOWP_API(...)               CUDA's names for one type (__hadd, __float2half, atomicAdd,
 *                                       ...), plain overloads as CUDA declares them, so that
 *                                       implicit conversions work as with nvcc; cuda_fp16.h and
 *                                       cuda_bf16.h each expand it once, and the operators'
 *                                       SIMTLAB_LOWP_OPERATORS(2)
 *
 * The results are an sm_90 GPU's where the GPU rounds correctly, and correctly rounded elsewhere:
 *   - conversions round once, from the exact value (a float, a double, a 64-bit integer), in the
 *     mode the name says (_rn, the default: to nearest even; _rz, _rd, _ru), with subnormals, and
 *     past the largest finite value to inf or to that value as the mode says; NaN becomes the
 *     canonical NaN 0x7fff; a half NaN widens to float's canonical NaN, a bfloat16 NaN keeps its
 *     payload (as CUDA's conversions do); to an integer: saturated, NaN gives 0 (1 << 63 for 64
 *     bits), as cvt does;
 *   - + - * / and sqrt are computed in float and rounded once to the format: float's 24 bits
 *     are at least 2p + 2 for both formats' p (11 and 8), so the double rounding gives the
 *     correctly rounded result (Figueroa); a bfloat16 result small enough to be a float
 *     subnormal is still right (the comment before simtlab::lowp::add; checked exhaustively for
 *     products and quotients);
 *   - fma is computed in double and rounded to odd (TwoSum gives the sum's error; an inexact
 *     sum's last bit is forced to 1), then rounded once to the format: rounding to odd in at least
 *     p + 2 bits and then to p bits is the correctly rounded result of the exact a b + c;
 *   - the math functions (hexp, hlog, hsin, htanh, ...) are the double ones, rounded once: the
 *     correctly rounded value, where the GPU's are approximations (ex2.approx, lg2.approx,
 *     sin.approx) that may differ from it in the last bit.
 * Not modelled: nvcc may contract __hmul and __hadd (or h * x + y) into one fma (their _rn forms
 * never), which here stay two roundings.
 *
 * Everything is plain inline code, callable from host code (a program fills its __half arrays
 * on the host) and kernels alike; in the device pass it is instrumented like the program's code:
 * a __half load or store is a 2-byte access (__tsan_read2), a __half2 one a 4-byte access.
 */
#ifndef SIMTLAB_LOWP_H
#define SIMTLAB_LOWP_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cuda_runtime.h"

namespace simtlab {
namespace lowp {
enum mode { RN, RZ, RD, RU };

/* 2^k, exact (as a float, a subnormal for bfloat16's smallest) */
static constexpr float pow2f(int k) { return k < 0 ? pow2f(k + 1) / 2 : k > 0 ? pow2f(k - 1) * 2 : 1.0f; }
static constexpr double pow2d(int k) { return k < 0 ? pow2d(k + 1) / 2 : k > 0 ? pow2d(k - 1) * 2 : 1.0; }

/* A 16-bit binary format: a sign bit, E exponent bits, M fraction bits. keeps_nan_payload: its NaN
 * widens to float with its payload (bfloat16, whose bits are float's upper half) or as float's
 * canonical NaN (half). */
template <int _SimE, int _SimM, bool keeps_nan_payload>
struct format {
    static constexpr int bias = (1 << (_SimE - 1)) - 1, emin = 1 - bias, emax = bias;
    static constexpr uint32_t inf = ((1u << _SimE) - 1) << _SimM, nan = 0x7fff, max_finite = inf - 1;

    /* (-1)^neg sig 2^exp2 (sig != 0), rounded in mode */
    static inline uint16_t round(bool neg, uint64_t sig, int exp2, int md)
    {
        const uint32_t s = neg ? 0x8000u : 0;
        const int lz = __builtin_clzll(sig);
        sig <<= lz; /* its leading bit at bit 63 */
        exp2 -= lz;
        const int e = 63 + exp2; /* 2^e <= |value| < 2^(e + 1) */
        const bool away = md == RU ? !neg : md == RD ? neg : false; /* a directed mode away from 0 */
        if (e > emax)
            return (uint16_t)(s | (md == RN || away ? inf : max_finite));
        const int q = (e > emin ? e : emin) - _SimM; /* the exponent of the result's last bit */
        const int shift = q - exp2;              /* 63 - M for a normal result, more for a subnormal */
        uint64_t n, rem;
        if (shift < 64) {
            n = sig >> shift;
            rem = sig << (64 - shift); /* the dropped bits, at the top: 1 << 63 is half the last bit */
        } else {
            n = 0;
            rem = shift == 64 ? sig : 1; /* far below: less than half, not zero */
        }
        const bool inc = md == RN ? rem > (1ull << 63) || (rem == (1ull << 63) && (n & 1)) : rem != 0 && away;
        /* the exponent field and the fraction add up: a carry out of the fraction is the next
         * exponent (or the smallest normal, from a subnormal) */
        const uint32_t mag = ((uint32_t)(q + _SimM - emin) << _SimM) + (uint32_t)n + inc;
        if (mag >= inf)
            return (uint16_t)(s | (md == RN || away ? inf : max_finite));
        return (uint16_t)(s | mag);
    }
    /* x to nearest, ties to even: the fast path of from_double (bit operations on x's bits) */
    static inline uint16_t from_double_rn(double x)
    {
        uint64_t u;
        std::memcpy(&u, &x, 8);
        const uint32_t s = (uint32_t)(u >> 48) & 0x8000u;
        const uint64_t a = u & 0x7fffffffffffffffull;
        if (a >= (uint64_t)(1024 + emax) << 52) /* 2^(emax + 1) or more, inf, NaN */
            return (uint16_t)(a > 0x7ff0000000000000ull ? nan : s | inf);
        if (a < (uint64_t)(1023 + emin) << 52) { /* below the smallest normal: the sum with 2^(emin - M
                                                   * + 52) is |x| rounded to a multiple of 2^(emin - M),
                                                   * ties to even, in its last bits */
            const double magic = pow2d(emin - _SimM + 52), t = std::fabs(x) + magic;
            uint64_t tu, mu;
            std::memcpy(&tu, &t, 8);
            std::memcpy(&mu, &magic, 8);
            return (uint16_t)(s | (uint32_t)(tu - mu));
        }
        /* half the last kept bit, less one unless that bit is odd (ties to even), then truncated; a
         * carry out of the fraction is the next exponent (inf past the largest finite value) */
        const uint64_t r = (a + ((1ull << (51 - _SimM)) - 1) + ((a >> (52 - _SimM)) & 1)) >> (52 - _SimM);
        return (uint16_t)(s | (uint32_t)(r - ((uint64_t)(1023 - bias) << _SimM)));
    }
    static inline uint16_t from_double(double x, int md)
    {
        if (md == RN)
            return from_double_rn(x);
        uint64_t u;
        std::memcpy(&u, &x, 8);
        const bool neg = u >> 63;
        const int ex = (int)(u >> 52 & 0x7ff);
        const uint64_t frac = u & ((1ull << 52) - 1);
        if (ex == 0x7ff)
            return (uint16_t)(frac ? nan : (neg ? 0x8000u : 0) | inf);
        if (ex == 0 && frac == 0)
            return neg ? 0x8000 : 0;
        return ex ? round(neg, frac | 1ull << 52, ex - 1075, md) : round(neg, frac, -1074, md);
    }
    static inline uint16_t from_float(float x, int md) { return from_double((double)x, md); }
    static inline uint16_t from_uint(unsigned long long v, int md) { return v ? round(false, v, 0, md) : 0; }
    static inline uint16_t from_int(long long v, int md)
    {
        const unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        return v ? round(v < 0, m, 0, md) : 0;
    }
    static inline float to_float(uint16_t b)
    {
        const uint32_t s = (uint32_t)(b & 0x8000u) << 16, mag = b & 0x7fffu, frac = b & ((1u << _SimM) - 1);
        uint32_t u;
        if (mag >= inf) /* inf, NaN */
            u = mag == inf ? s | 0x7f800000u : keeps_nan_payload ? s | 0x7f800000u | frac << (23 - _SimM) : 0x7fffffffu;
        else if (mag < (1u << _SimM)) { /* zero, subnormal: exact in float */
            const float f = (float)frac * pow2f(emin - _SimM);
            return s ? -f : f;
        } else
            u = s | (mag + ((uint32_t)(127 - bias) << _SimM)) << (23 - _SimM);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    static bool is_nan(uint16_t b) { return (b & 0x7fffu) > inf; }
};
typedef format<5, 10, false> f16;
typedef format<8, 7, true> bf16;

/* A float or double rounded to an integer in mode, then saturated to I; NaN gives 0, or 1 << 63
 * for 64 bits (cvt's results: simtlab_math.h's saturate) */
template <class _SimI>
static inline _SimI to_int(float f, int md)
{
    typedef std::numeric_limits<_SimI> _SimL;
    if (f != f)
        return sizeof(_SimI) == 8 ? (_SimI)(1ull << 63) : 0;
    const float r = md == RN   ? __builtin_roundevenf(f)
                    : md == RZ ? std::trunc(f)
                    : md == RD ? std::floor(f)
                               : std::ceil(f);
    if (r <= (float)_SimL::min())
        return _SimL::min();
    if (r >= 2.0f * (float)(_SimL::max() / 2 + 1)) /* 2^bits of I's largest: exact in float */
        return _SimL::max();
    return (_SimI)r;
}

} // namespace lowp

/* The types' bases stand in a namespace of their own, with no functions: a namespace of a base
 * class is searched for every call with a __half argument (argument-dependent lookup), and a
 * program's own relu(x) or max(a, b) would meet simtlab::lowp's as an ambiguity. */
namespace lowp_types {
/* The members of __half and __nv_bfloat16: the bits (__x, public here), CUDA's constructors and
 * conversions (from float, double and the integers, to float, the integers and bool). Self is
 * the type, F its format, Raw its __half_raw. */
template <class Self, class _SimF, class Raw>
struct scalar {
    typedef _SimF fmt;
    unsigned short __x;

    scalar() = default;
    constexpr scalar(const Raw &r) : __x(r.x) {}
    scalar(float f) : __x(_SimF::from_float(f, lowp::RN)) {}
    scalar(double d) : __x(_SimF::from_double(d, lowp::RN)) {}
    scalar(short v) : __x(_SimF::from_int(v, lowp::RN)) {}
    scalar(unsigned short v) : __x(_SimF::from_uint(v, lowp::RN)) {}
    scalar(int v) : __x(_SimF::from_int(v, lowp::RN)) {}
    scalar(unsigned v) : __x(_SimF::from_uint(v, lowp::RN)) {}
    scalar(long v) : __x(_SimF::from_int(v, lowp::RN)) {}
    scalar(unsigned long v) : __x(_SimF::from_uint(v, lowp::RN)) {}
    scalar(long long v) : __x(_SimF::from_int(v, lowp::RN)) {}
    scalar(unsigned long long v) : __x(_SimF::from_uint(v, lowp::RN)) {}
    /* the other 16-bit type (explicit, as CUDA's): through float, exact, then rounded once */
    template <class _SimO,
              typename std::enable_if<!std::is_same<_SimO, Self>::value && sizeof(typename _SimO::fmt) != 0, int>::type = 0>
    explicit scalar(const _SimO &o) : __x(_SimF::from_float((float)o, lowp::RN))
    {
    }
    static Self bits(uint16_t b)
    {
        Self r;
        r.__x = b;
        return r;
    }
    operator Raw() const { return Raw{__x}; }
    operator float() const { return _SimF::to_float(__x); }
    /* CUDA's conversions to the integers: rounded toward zero, saturated */
    operator signed char() const { return lowp::to_int<signed char>(_SimF::to_float(__x), lowp::RZ); }
    operator unsigned char() const { return lowp::to_int<unsigned char>(_SimF::to_float(__x), lowp::RZ); }
    operator char() const { return lowp::to_int<char>(_SimF::to_float(__x), lowp::RZ); }
    operator short() const { return lowp::to_int<short>(_SimF::to_float(__x), lowp::RZ); }
    operator unsigned short() const { return lowp::to_int<unsigned short>(_SimF::to_float(__x), lowp::RZ); }
    operator int() const { return lowp::to_int<int>(_SimF::to_float(__x), lowp::RZ); }
    operator unsigned() const { return lowp::to_int<unsigned>(_SimF::to_float(__x), lowp::RZ); }
    operator long() const { return lowp::to_int<long>(_SimF::to_float(__x), lowp::RZ); }
    operator unsigned long() const { return lowp::to_int<unsigned long>(_SimF::to_float(__x), lowp::RZ); }
    operator long long() const { return lowp::to_int<long long>(_SimF::to_float(__x), lowp::RZ); }
    operator unsigned long long() const { return lowp::to_int<unsigned long long>(_SimF::to_float(__x), lowp::RZ); }
    constexpr operator bool() const { return (__x & 0x7fffu) != 0; }
};

/* The members of __half2 and __nv_bfloat162: two lanes x (low 16 bits) and y. A copy is one
 * 4-byte access, as a GPU's (CUDA's pairs have a user-provided copy too): GCC copies a plain
 * struct of two 2-byte members member by member, two 2-byte accesses, two requests where a GPU
 * makes one. */
typedef uint32_t __attribute__((may_alias)) word32;
template <class Self, class _SimS, class Raw2>
struct pair {
    typedef _SimS lane;
    _SimS x, y;
    pair() = default;
    constexpr pair(const _SimS &a, const _SimS &b) : x(a), y(b) {}
    pair(const Raw2 &r) : x(_SimS::bits(r.x)), y(_SimS::bits(r.y)) {}
    pair(const pair &o) { *(word32 *)this = *(const word32 *)&o; }
    pair &operator=(const pair &o)
    {
        *(word32 *)this = *(const word32 *)&o;
        return *this;
    }
    operator Raw2() const { return Raw2{x.__x, y.__x}; }
};

} // namespace lowp_types

namespace lowp {
/* ---- the arithmetic, on a scalar type T (its format T::fmt) ---- */
template <class _SimT> static inline float f(_SimT a) { return _SimT::fmt::to_float(a.__x); }
template <class _SimT> static inline _SimT rn(float v) { return _SimT::bits(_SimT::fmt::from_float(v, RN)); }
template <class _SimT> static inline _SimT rn_double(double v) { return _SimT::bits(_SimT::fmt::from_double(v, RN)); }
template <class _SimT> static inline bool nan(_SimT a) { return _SimT::fmt::is_nan(a.__x); }
template <class _SimT> static inline _SimT canonical_nan() { return _SimT::bits((uint16_t)_SimT::fmt::nan); }

/* + - * / in float, rounded once (the header's comment). Where float's result is a subnormal
 * (bfloat16 only) it has fewer than 24 bits, and the argument needs more: a product (16 bits) with
 * its leading bit at 2^-134 or above is exact there (its last bit is at 2^-149 or above); one below
 * is under half of bfloat16's smallest subnormal, 2^-133, and float's rounding cannot lift it past
 * 2^-134, a float: it rounds to 0 either way. A sum of two bfloat16 values is a multiple of
 * 2^-133, exact in float. A quotient's distance from a tie of bfloat16 (an odd multiple of 2^-134)
 * is at least about 2^-143, far above float's rounding error there (2^-150). */
template <class _SimT> static inline _SimT add(_SimT a, _SimT b) { return lowp::rn<_SimT>(lowp::f(a) + lowp::f(b)); }
template <class _SimT> static inline _SimT sub(_SimT a, _SimT b) { return lowp::rn<_SimT>(lowp::f(a) - lowp::f(b)); }
template <class _SimT> static inline _SimT mul(_SimT a, _SimT b) { return lowp::rn<_SimT>(lowp::f(a) * lowp::f(b)); }
template <class _SimT> static inline _SimT div(_SimT a, _SimT b) { return lowp::rn<_SimT>(lowp::f(a) / lowp::f(b)); }
template <class _SimT> static inline _SimT sqrt(_SimT a) { return lowp::rn<_SimT>(std::sqrt(lowp::f(a))); }
/* a b + c: the product is exact in double, the sum rounded to odd (the header's comment) */
template <class _SimT>
static inline _SimT fma(_SimT a, _SimT b, _SimT c)
{
    const double p = (double)lowp::f(a) * (double)lowp::f(b), q = (double)lowp::f(c), s = p + q;
    if (std::isfinite(s)) {
        const double pv = s - q, qv = s - pv, err = (p - pv) + (q - qv); /* TwoSum: s + err = p + q exactly */
        uint64_t u;
        std::memcpy(&u, &s, 8);
        if (err != 0 && !(u & 1)) { /* inexact, even: one ulp toward the exact value, which is odd */
            u += (err > 0) == (s > 0) ? 1 : (uint64_t)-1;
            double odd;
            std::memcpy(&odd, &u, 8);
            return lowp::rn_double<_SimT>(odd);
        }
    }
    return lowp::rn_double<_SimT>(s);
}
/* _sat: clamped to [0, 1], NaN to +0 */
template <class _SimT>
static inline _SimT sat(_SimT a)
{
    const float v = lowp::f(a);
    return _SimT::bits(v > 0 ? (v < 1 ? a.__x : _SimT::fmt::from_float(1.0f, RN)) : 0);
}
/* _relu: negative to +0, NaN stays (canonical) */
template <class _SimT>
static inline _SimT relu(_SimT a)
{
    return lowp::nan(a) ? lowp::canonical_nan<_SimT>() : lowp::f(a) > 0 ? a : _SimT::bits(0);
}
template <class _SimT> static inline _SimT neg(_SimT a) { return lowp::nan(a) ? lowp::canonical_nan<_SimT>() : _SimT::bits(a.__x ^ 0x8000u); }
template <class _SimT> static inline _SimT abs(_SimT a) { return lowp::nan(a) ? lowp::canonical_nan<_SimT>() : _SimT::bits(a.__x & 0x7fffu); }
/* __hmax/__hmin: NaN only when both are; +0 is the larger zero. The _nan forms: NaN if either is. */
template <class _SimT>
static inline _SimT max(_SimT a, _SimT b, bool nan_wins)
{
    if (lowp::nan(a) || lowp::nan(b))
        return nan_wins || (lowp::nan(a) && lowp::nan(b)) ? lowp::canonical_nan<_SimT>() : lowp::nan(a) ? b : a;
    const float x = lowp::f(a), y = lowp::f(b);
    return x > y ? a : y > x ? b : _SimT::bits(a.__x & b.__x); /* equal: +0 over -0 */
}
template <class _SimT>
static inline _SimT min(_SimT a, _SimT b, bool nan_wins)
{
    if (lowp::nan(a) || lowp::nan(b))
        return nan_wins || (lowp::nan(a) && lowp::nan(b)) ? lowp::canonical_nan<_SimT>() : lowp::nan(a) ? b : a;
    const float x = lowp::f(a), y = lowp::f(b);
    return x < y ? a : y < x ? b : _SimT::bits(a.__x | b.__x); /* equal: -0 under +0 */
}
/* a math function of double, rounded once */
template <class _SimT, class Fn>
static inline _SimT math(_SimT a, Fn fn)
{
    return lowp::rn_double<_SimT>(fn((double)lowp::f(a)));
}
/* the comparisons: ordered (false if either is NaN) and unordered (true if either is) */
enum cmp { EQ, NE, LT, LE, GT, GE, EQU, NEU, LTU, LEU, GTU, GEU };
template <class _SimT>
static inline bool compare(_SimT a, _SimT b, int c)
{
    const float x = lowp::f(a), y = lowp::f(b);
    switch (c) {
    case EQ: return x == y;
    case NE: return x < y || x > y;
    case LT: return x < y;
    case LE: return x <= y;
    case GT: return x > y;
    case GE: return x >= y;
    case EQU: return !(x < y || x > y);
    case NEU: return x != y;
    case LTU: return !(x >= y);
    case LEU: return !(x > y);
    case GTU: return !(x <= y);
    default: return !(x < y);
    }
}

/* ---- the pair forms: the scalar operation on each lane (inlined: a pair, with its own copy
 * constructor, passes through memory to a function that is not) ---- */
template <class T2, class Op>
static inline __attribute__((always_inline)) T2 lanes(T2 a, Op op)
{
    return T2(op(a.x), op(a.y));
}
template <class T2, class Op>
static inline __attribute__((always_inline)) T2 lanes(T2 a, T2 b, Op op)
{
    return T2(op(a.x, b.x), op(a.y, b.y));
}
template <class T2, class Op>
static inline __attribute__((always_inline)) T2 lanes(T2 a, T2 b, T2 c, Op op)
{
    return T2(op(a.x, b.x, c.x), op(a.y, b.y, c.y));
}

/* ---- atomicAdd: one atomic access of the value's size, the sum computed by the shim ---- */
template <class _SimT>
static uint32_t add_bits(uint32_t old, uint32_t v)
{
    return lowp::add(_SimT::bits((uint16_t)old), _SimT::bits((uint16_t)v)).__x;
}
template <class T2>
static uint32_t add_bits2(uint32_t old, uint32_t v)
{
    typedef typename T2::lane _SimS;
    return (uint32_t)add_bits<_SimS>(old & 0xffff, v & 0xffff) | add_bits<_SimS>(old >> 16, v >> 16) << 16;
}
template <class _SimT>
static inline __attribute__((always_inline)) _SimT atomic_add(_SimT *p, _SimT v)
{
    return _SimT::bits((uint16_t)sim_atomic_update(p, 2, v.__x, &add_bits<_SimT>));
}
template <class T2>
static inline __attribute__((always_inline)) T2 atomic_add2(T2 *p, T2 v)
{
    typedef typename T2::lane _SimS;
    const uint32_t old = sim_atomic_update(p, 4, (uint32_t)v.x.__x | (uint32_t)v.y.__x << 16, &add_bits2<T2>);
    return T2(_SimS::bits((uint16_t)old), _SimS::bits((uint16_t)(old >> 16)));
}
} // namespace lowp
} // namespace simtlab

/* CUDA's names for one type T (its pair T2; N and N2 the names' spelling: half and half2,
 * bfloat16 and bfloat162). The operators come apart, in SIMTLAB_LOWP_OPERATORS and
 * SIMTLAB_LOWP_OPERATORS2, which a program may turn off as with nvcc (__CUDA_NO_HALF_OPERATORS__
 * & co.: cuda_fp16.h, cuda_bf16.h). */
/* the API's functions: inlined always, so that no __half argument passes through the stack (a
 * local access each) */
#define SIMTLAB_LOWP_FN static inline __attribute__((always_inline))
#define SIMTLAB_LOWP_MODES(name, _SimT, _SimP, conv)                                                                        \
    SIMTLAB_LOWP_FN _SimT name##_rn(_SimP v) { return _SimT::bits(_SimT::fmt::conv(v, simtlab::lowp::RN)); }                        \
    SIMTLAB_LOWP_FN _SimT name##_rz(_SimP v) { return _SimT::bits(_SimT::fmt::conv(v, simtlab::lowp::RZ)); }                        \
    SIMTLAB_LOWP_FN _SimT name##_rd(_SimP v) { return _SimT::bits(_SimT::fmt::conv(v, simtlab::lowp::RD)); }                        \
    SIMTLAB_LOWP_FN _SimT name##_ru(_SimP v) { return _SimT::bits(_SimT::fmt::conv(v, simtlab::lowp::RU)); }
#define SIMTLAB_LOWP_TO_INT(name, _SimT, _SimI)                                                                             \
    SIMTLAB_LOWP_FN _SimI name##_rn(_SimT a) { return simtlab::lowp::to_int<_SimI>(simtlab::lowp::f(a), simtlab::lowp::RN); }   \
    SIMTLAB_LOWP_FN _SimI name##_rz(_SimT a) { return simtlab::lowp::to_int<_SimI>(simtlab::lowp::f(a), simtlab::lowp::RZ); }   \
    SIMTLAB_LOWP_FN _SimI name##_rd(_SimT a) { return simtlab::lowp::to_int<_SimI>(simtlab::lowp::f(a), simtlab::lowp::RD); }   \
    SIMTLAB_LOWP_FN _SimI name##_ru(_SimT a) { return simtlab::lowp::to_int<_SimI>(simtlab::lowp::f(a), simtlab::lowp::RU); }
/* name(a, b) and its pair form name2(a, b), from the expression `expr` of a and b */
#define SIMTLAB_LOWP_BINARY(name, name2, _SimT, T2, expr)                                                               \
    SIMTLAB_LOWP_FN _SimT name(_SimT a, _SimT b) { return expr; }                                                               \
    SIMTLAB_LOWP_FN T2 name2(T2 a, T2 b) { return simtlab::lowp::lanes(a, b, [](_SimT a, _SimT b) { return expr; }); }
#define SIMTLAB_LOWP_TERNARY(name, name2, _SimT, T2, expr)                                                              \
    SIMTLAB_LOWP_FN _SimT name(_SimT a, _SimT b, _SimT c) { return expr; }                                                          \
    SIMTLAB_LOWP_FN T2 name2(T2 a, T2 b, T2 c)                                                                      \
    {                                                                                                               \
        return simtlab::lowp::lanes(a, b, c, [](_SimT a, _SimT b, _SimT c) { return expr; });                                   \
    }
#define SIMTLAB_LOWP_UNARY(name, name2, _SimT, T2, expr)                                                                \
    SIMTLAB_LOWP_FN _SimT name(_SimT a) { return expr; }                                                                    \
    SIMTLAB_LOWP_FN T2 name2(T2 a) { return simtlab::lowp::lanes(a, [](_SimT a) { return expr; }); }
#define SIMTLAB_LOWP_MATH(name, _SimT, T2, fn)                                                                          \
    SIMTLAB_LOWP_UNARY(h##name, h2##name, _SimT, T2, simtlab::lowp::math(a, [](double x) { return fn; }))
/* __heq (bool), __heq2 (1.0 or 0.0 a lane), __hbeq2 (both lanes), __heq2_mask (0xffff a lane) */
#define SIMTLAB_LOWP_CMP(name, _SimT, T2, c)                                                                            \
    SIMTLAB_LOWP_FN bool __h##name(_SimT a, _SimT b) { return simtlab::lowp::compare(a, b, simtlab::lowp::c); }             \
    SIMTLAB_LOWP_FN T2 __h##name##2(T2 a, T2 b)                                                                     \
    {                                                                                                               \
        return simtlab::lowp::lanes(a, b, [](_SimT a, _SimT b) { return _SimT(__h##name(a, b) ? 1.0f : 0.0f); });               \
    }                                                                                                               \
    SIMTLAB_LOWP_FN bool __hb##name##2(T2 a, T2 b) { return __h##name(a.x, b.x) && __h##name(a.y, b.y); }           \
    SIMTLAB_LOWP_FN unsigned __h##name##2_mask(T2 a, T2 b)                                                          \
    {                                                                                                               \
        return (__h##name(a.x, b.x) ? 0xffffu : 0u) | (__h##name(a.y, b.y) ? 0xffff0000u : 0u);                     \
    }

#define SIMTLAB_LOWP_API(_SimT, T2, _SimN, N2)                                                                              \
    /* conversions */                                                                                               \
    SIMTLAB_LOWP_FN _SimT __float2##_SimN(float f) { return _SimT(f); }                                                         \
    SIMTLAB_LOWP_MODES(__float2##_SimN, _SimT, float, from_float)                                                           \
    SIMTLAB_LOWP_FN _SimT __double2##_SimN(double d) { return _SimT(d); }                                                       \
    SIMTLAB_LOWP_FN float __##_SimN##2float(_SimT a) { return simtlab::lowp::f(a); }                                        \
    SIMTLAB_LOWP_FN float __low2float(T2 a) { return simtlab::lowp::f(a.x); }                                       \
    SIMTLAB_LOWP_FN float __high2float(T2 a) { return simtlab::lowp::f(a.y); }                                      \
    SIMTLAB_LOWP_FN T2 __float2##N2##_rn(float f) { return T2(_SimT(f), _SimT(f)); }                                        \
    SIMTLAB_LOWP_FN T2 __floats2##N2##_rn(float a, float b) { return T2(_SimT(a), _SimT(b)); }                              \
    SIMTLAB_LOWP_FN T2 __float22##N2##_rn(float2 v) { return T2(_SimT(v.x), _SimT(v.y)); }                                  \
    SIMTLAB_LOWP_FN float2 __##N2##2float2(T2 a)                                                                    \
    {                                                                                                               \
        return make_float2(simtlab::lowp::f(a.x), simtlab::lowp::f(a.y));                                           \
    }                                                                                                               \
    SIMTLAB_LOWP_FN T2 make_##N2(_SimT a, _SimT b) { return T2(a, b); }                                                     \
    SIMTLAB_LOWP_FN T2 __halves2##N2(_SimT a, _SimT b) { return T2(a, b); }                                                 \
    SIMTLAB_LOWP_FN T2 __##_SimN##2##N2(_SimT a) { return T2(a, a); }                                                       \
    SIMTLAB_LOWP_FN _SimT __low2##_SimN(T2 a) { return a.x; }                                                               \
    SIMTLAB_LOWP_FN _SimT __high2##_SimN(T2 a) { return a.y; }                                                              \
    SIMTLAB_LOWP_FN T2 __low2##N2(T2 a) { return T2(a.x, a.x); }                                                    \
    SIMTLAB_LOWP_FN T2 __high2##N2(T2 a) { return T2(a.y, a.y); }                                                   \
    SIMTLAB_LOWP_FN T2 __lows2##N2(T2 a, T2 b) { return T2(a.x, b.x); }                                             \
    SIMTLAB_LOWP_FN T2 __highs2##N2(T2 a, T2 b) { return T2(a.y, b.y); }                                            \
    SIMTLAB_LOWP_FN T2 __lowhigh2highlow(T2 a) { return T2(a.y, a.x); }                                             \
    SIMTLAB_LOWP_MODES(__int2##_SimN, _SimT, int, from_int)                                                                 \
    SIMTLAB_LOWP_MODES(__uint2##_SimN, _SimT, unsigned, from_uint)                                                          \
    SIMTLAB_LOWP_MODES(__short2##_SimN, _SimT, short, from_int)                                                             \
    SIMTLAB_LOWP_MODES(__ushort2##_SimN, _SimT, unsigned short, from_uint)                                                  \
    SIMTLAB_LOWP_MODES(__ll2##_SimN, _SimT, long long, from_int)                                                            \
    SIMTLAB_LOWP_MODES(__ull2##_SimN, _SimT, unsigned long long, from_uint)                                                 \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2int, _SimT, int)                                                                        \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2uint, _SimT, unsigned)                                                                  \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2short, _SimT, short)                                                                    \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2ushort, _SimT, unsigned short)                                                          \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2ll, _SimT, long long)                                                                   \
    SIMTLAB_LOWP_TO_INT(__##_SimN##2ull, _SimT, unsigned long long)                                                         \
    SIMTLAB_LOWP_FN signed char __##_SimN##2char_rz(_SimT a)                                                                \
    {                                                                                                               \
        return simtlab::lowp::to_int<signed char>(simtlab::lowp::f(a), simtlab::lowp::RZ);                          \
    }                                                                                                               \
    SIMTLAB_LOWP_FN unsigned char __##_SimN##2uchar_rz(_SimT a)                                                             \
    {                                                                                                               \
        return simtlab::lowp::to_int<unsigned char>(simtlab::lowp::f(a), simtlab::lowp::RZ);                        \
    }                                                                                                               \
    SIMTLAB_LOWP_FN short __##_SimN##_as_short(_SimT a) { return (short)a.__x; }                                            \
    SIMTLAB_LOWP_FN unsigned short __##_SimN##_as_ushort(_SimT a) { return a.__x; }                                         \
    SIMTLAB_LOWP_FN _SimT __short_as_##_SimN(short v) { return _SimT::bits((uint16_t)v); }                                      \
    SIMTLAB_LOWP_FN _SimT __ushort_as_##_SimN(unsigned short v) { return _SimT::bits(v); }                                      \
    /* arithmetic: __hadd and __hadd2 & co. (the _rn forms: the same here, never contracted) */                     \
    SIMTLAB_LOWP_BINARY(__hadd, __hadd2, _SimT, T2, simtlab::lowp::add(a, b))                                           \
    SIMTLAB_LOWP_BINARY(__hsub, __hsub2, _SimT, T2, simtlab::lowp::sub(a, b))                                           \
    SIMTLAB_LOWP_BINARY(__hmul, __hmul2, _SimT, T2, simtlab::lowp::mul(a, b))                                           \
    SIMTLAB_LOWP_BINARY(__hdiv, __h2div, _SimT, T2, simtlab::lowp::div(a, b))                                           \
    SIMTLAB_LOWP_BINARY(__hadd_rn, __hadd2_rn, _SimT, T2, simtlab::lowp::add(a, b))                                     \
    SIMTLAB_LOWP_BINARY(__hsub_rn, __hsub2_rn, _SimT, T2, simtlab::lowp::sub(a, b))                                     \
    SIMTLAB_LOWP_BINARY(__hmul_rn, __hmul2_rn, _SimT, T2, simtlab::lowp::mul(a, b))                                     \
    SIMTLAB_LOWP_BINARY(__hadd_sat, __hadd2_sat, _SimT, T2, simtlab::lowp::sat(simtlab::lowp::add(a, b)))               \
    SIMTLAB_LOWP_BINARY(__hsub_sat, __hsub2_sat, _SimT, T2, simtlab::lowp::sat(simtlab::lowp::sub(a, b)))               \
    SIMTLAB_LOWP_BINARY(__hmul_sat, __hmul2_sat, _SimT, T2, simtlab::lowp::sat(simtlab::lowp::mul(a, b)))               \
    SIMTLAB_LOWP_BINARY(__hmax, __hmax2, _SimT, T2, simtlab::lowp::max(a, b, false))                                    \
    SIMTLAB_LOWP_BINARY(__hmin, __hmin2, _SimT, T2, simtlab::lowp::min(a, b, false))                                    \
    SIMTLAB_LOWP_BINARY(__hmax_nan, __hmax2_nan, _SimT, T2, simtlab::lowp::max(a, b, true))                             \
    SIMTLAB_LOWP_BINARY(__hmin_nan, __hmin2_nan, _SimT, T2, simtlab::lowp::min(a, b, true))                             \
    SIMTLAB_LOWP_UNARY(__hneg, __hneg2, _SimT, T2, simtlab::lowp::neg(a))                                               \
    SIMTLAB_LOWP_UNARY(__habs, __habs2, _SimT, T2, simtlab::lowp::abs(a))                                               \
    SIMTLAB_LOWP_TERNARY(__hfma, __hfma2, _SimT, T2, simtlab::lowp::fma(a, b, c))                                       \
    SIMTLAB_LOWP_TERNARY(__hfma_sat, __hfma2_sat, _SimT, T2, simtlab::lowp::sat(simtlab::lowp::fma(a, b, c)))           \
    SIMTLAB_LOWP_TERNARY(__hfma_relu, __hfma2_relu, _SimT, T2, simtlab::lowp::relu(simtlab::lowp::fma(a, b, c)))        \
    /* (a.x + i a.y)(b.x + i b.y) + (c.x + i c.y) in four fmas, as CUDA's */                                        \
    SIMTLAB_LOWP_FN T2 __hcmadd(T2 a, T2 b, T2 c)                                                                   \
    {                                                                                                               \
        return T2(__hfma(__hneg(a.y), b.y, __hfma(a.x, b.x, c.x)), __hfma(a.y, b.x, __hfma(a.x, b.y, c.y)));        \
    }                                                                                                               \
    /* comparisons */                                                                                               \
    SIMTLAB_LOWP_CMP(eq, _SimT, T2, EQ)                                                                                 \
    SIMTLAB_LOWP_CMP(ne, _SimT, T2, NE)                                                                                 \
    SIMTLAB_LOWP_CMP(lt, _SimT, T2, LT)                                                                                 \
    SIMTLAB_LOWP_CMP(le, _SimT, T2, LE)                                                                                 \
    SIMTLAB_LOWP_CMP(gt, _SimT, T2, GT)                                                                                 \
    SIMTLAB_LOWP_CMP(ge, _SimT, T2, GE)                                                                                 \
    SIMTLAB_LOWP_CMP(equ, _SimT, T2, EQU)                                                                               \
    SIMTLAB_LOWP_CMP(neu, _SimT, T2, NEU)                                                                               \
    SIMTLAB_LOWP_CMP(ltu, _SimT, T2, LTU)                                                                               \
    SIMTLAB_LOWP_CMP(leu, _SimT, T2, LEU)                                                                               \
    SIMTLAB_LOWP_CMP(gtu, _SimT, T2, GTU)                                                                               \
    SIMTLAB_LOWP_CMP(geu, _SimT, T2, GEU)                                                                               \
    SIMTLAB_LOWP_FN bool __hisnan(_SimT a) { return simtlab::lowp::nan(a); }                                            \
    SIMTLAB_LOWP_FN T2 __hisnan2(T2 a)                                                                              \
    {                                                                                                               \
        return simtlab::lowp::lanes(a, [](_SimT a) { return _SimT(__hisnan(a) ? 1.0f : 0.0f); });                           \
    }                                                                                                               \
    SIMTLAB_LOWP_FN int __hisinf(_SimT a) { return (a.__x & 0x7fffu) != _SimT::fmt::inf ? 0 : a.__x >> 15 ? -1 : 1; }       \
    /* math: sqrt and 1/x in float (correctly rounded), the rest in double, rounded once */                         \
    SIMTLAB_LOWP_UNARY(hsqrt, h2sqrt, _SimT, T2, simtlab::lowp::sqrt(a))                                                \
    SIMTLAB_LOWP_UNARY(hrcp, h2rcp, _SimT, T2, simtlab::lowp::div(_SimT(1.0f), a))                                          \
    SIMTLAB_LOWP_MATH(rsqrt, _SimT, T2, 1.0 / std::sqrt(x))                                                             \
    SIMTLAB_LOWP_MATH(exp, _SimT, T2, std::exp(x))                                                                      \
    SIMTLAB_LOWP_MATH(exp2, _SimT, T2, std::exp2(x))                                                                    \
    SIMTLAB_LOWP_MATH(exp10, _SimT, T2, std::pow(10.0, x))                                                              \
    SIMTLAB_LOWP_MATH(log, _SimT, T2, std::log(x))                                                                      \
    SIMTLAB_LOWP_MATH(log2, _SimT, T2, std::log2(x))                                                                    \
    SIMTLAB_LOWP_MATH(log10, _SimT, T2, std::log10(x))                                                                  \
    SIMTLAB_LOWP_MATH(sin, _SimT, T2, std::sin(x))                                                                      \
    SIMTLAB_LOWP_MATH(cos, _SimT, T2, std::cos(x))                                                                      \
    SIMTLAB_LOWP_MATH(tanh, _SimT, T2, std::tanh(x))                                                                    \
    SIMTLAB_LOWP_MATH(tanh_approx, _SimT, T2, std::tanh(x))                                                             \
    SIMTLAB_LOWP_MATH(ceil, _SimT, T2, std::ceil(x))                                                                    \
    SIMTLAB_LOWP_MATH(floor, _SimT, T2, std::floor(x))                                                                  \
    SIMTLAB_LOWP_MATH(trunc, _SimT, T2, std::trunc(x))                                                                  \
    SIMTLAB_LOWP_MATH(rint, _SimT, T2, __builtin_roundeven(x))                                                          \
    /* atomics (sm_70 on for T, sm_60 for T2 with half; sm_80 for bfloat16) */                                      \
    SIMTLAB_LOWP_FN _SimT atomicAdd(_SimT *p, _SimT v) { return simtlab::lowp::atomic_add(p, v); }                              \
    SIMTLAB_LOWP_FN T2 atomicAdd(T2 *p, T2 v) { return simtlab::lowp::atomic_add2(p, v); }

/* CUDA's operators on T (ADD & co. its functions, ONE its 1.0), comparisons aside */
#define SIMTLAB_LOWP_ARITH(_SimT, ADD, SUB, MUL, DIV, NEG, ONE)                                                         \
    SIMTLAB_LOWP_FN _SimT operator+(const _SimT &a, const _SimT &b) { return ADD(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT operator-(const _SimT &a, const _SimT &b) { return SUB(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT operator*(const _SimT &a, const _SimT &b) { return MUL(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT operator/(const _SimT &a, const _SimT &b) { return DIV(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT &operator+=(_SimT &a, const _SimT &b) { return a = ADD(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT &operator-=(_SimT &a, const _SimT &b) { return a = SUB(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT &operator*=(_SimT &a, const _SimT &b) { return a = MUL(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT &operator/=(_SimT &a, const _SimT &b) { return a = DIV(a, b); }                                       \
    SIMTLAB_LOWP_FN _SimT &operator++(_SimT &a) { return a = ADD(a, ONE); }                                                 \
    SIMTLAB_LOWP_FN _SimT &operator--(_SimT &a) { return a = SUB(a, ONE); }                                                 \
    SIMTLAB_LOWP_FN _SimT operator++(_SimT &a, int)                                                                         \
    {                                                                                                               \
        const _SimT old = a;                                                                                            \
        a = ADD(a, ONE);                                                                                            \
        return old;                                                                                                 \
    }                                                                                                               \
    SIMTLAB_LOWP_FN _SimT operator--(_SimT &a, int)                                                                         \
    {                                                                                                               \
        const _SimT old = a;                                                                                            \
        a = SUB(a, ONE);                                                                                            \
        return old;                                                                                                 \
    }                                                                                                               \
    SIMTLAB_LOWP_FN _SimT operator+(const _SimT &a) { return a; }                                                           \
    SIMTLAB_LOWP_FN _SimT operator-(const _SimT &a) { return NEG(a); }
/* the comparisons (CUDA's: != is unordered, true with a NaN, the others ordered; on a pair, true
 * when both lanes are): EQ & co. the functions' names */
#define SIMTLAB_LOWP_COMPARE(_SimT, EQ, NEU, LT, LE, GT, GE)                                                            \
    SIMTLAB_LOWP_FN bool operator==(const _SimT &a, const _SimT &b) { return EQ(a, b); }                                    \
    SIMTLAB_LOWP_FN bool operator!=(const _SimT &a, const _SimT &b) { return NEU(a, b); }                                   \
    SIMTLAB_LOWP_FN bool operator<(const _SimT &a, const _SimT &b) { return LT(a, b); }                                     \
    SIMTLAB_LOWP_FN bool operator<=(const _SimT &a, const _SimT &b) { return LE(a, b); }                                    \
    SIMTLAB_LOWP_FN bool operator>(const _SimT &a, const _SimT &b) { return GT(a, b); }                                     \
    SIMTLAB_LOWP_FN bool operator>=(const _SimT &a, const _SimT &b) { return GE(a, b); }
#define SIMTLAB_LOWP_OPERATORS(_SimT)                                                                                   \
    SIMTLAB_LOWP_ARITH(_SimT, __hadd, __hsub, __hmul, __hdiv, __hneg, _SimT(1.0f))                                          \
    SIMTLAB_LOWP_COMPARE(_SimT, __heq, __hneu, __hlt, __hle, __hgt, __hge)
#define SIMTLAB_LOWP_OPERATORS2(T2)                                                                                 \
    SIMTLAB_LOWP_ARITH(T2, __hadd2, __hsub2, __hmul2, __h2div, __hneg2, T2(1.0f, 1.0f))                             \
    SIMTLAB_LOWP_COMPARE(T2, __hbeq2, __hbneu2, __hblt2, __hble2, __hbgt2, __hbge2)

#endif /* SIMTLAB_LOWP_H */
