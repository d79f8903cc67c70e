/* sim/run/include/simtlab_simd.h - CUDA's SIMD video intrinsics: two 16-bit or four 8-bit lanes
 * of a 32-bit word, each lane on its own (no carries between them). __vadd2 / __vadd4 and the
 * rest of the family, with CUDA's names and results:
 *   add, sub          modulo the lane (__vadd4), saturated signed (ss) or unsigned (us)
 *   avg               rounded average: signed (__vavgs) halves away from zero, unsigned (__vavgu)
 *                     up; __vhaddu truncated
 *   abs, neg          of signed lanes, modulo or saturated (__vabsss, __vnegss)
 *   absdiff           |a - b| of signed or unsigned lanes (the result an unsigned lane)
 *   max, min          signed (s) or unsigned (u)
 *   cmp<op>           each lane all ones where the comparison holds, else 0
 *   set<op>           each lane 1 where it holds, else 0
 *   sad               the sum over the lanes of |a - b|, signed or unsigned (one number)
 * tests/run/simd_video.cu checks them against lane-by-lane references and prints a digest to set
 * beside a GPU's (scripts/gpu/s24.sh). */
#ifndef SIMTLAB_SIMD_H
#define SIMTLAB_SIMD_H

namespace simtlab {
/* a W-bit lane as a signed or unsigned number, and back (truncated to W bits) */
template <int _SimW> static inline int lane_s(unsigned v) { return (int)(v << (32 - _SimW)) >> (32 - _SimW); }
template <int _SimW> static inline int lane_u(unsigned v) { return (int)(v & ((1u << _SimW) - 1)); }
template <int _SimW> static inline int sat_s(int v) { return v < -(1 << (_SimW - 1)) ? -(1 << (_SimW - 1)) : v > (1 << (_SimW - 1)) - 1 ? (1 << (_SimW - 1)) - 1 : v; }
template <int _SimW> static inline int sat_u(int v) { return v < 0 ? 0 : v > (1 << _SimW) - 1 ? (1 << _SimW) - 1 : v; }
/* f(signed a, signed b, unsigned a, unsigned b) on every lane pair */
template <int _SimW, class _SimF> static inline unsigned lanes(unsigned x, unsigned y, _SimF f)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i += _SimW)
        r |= ((unsigned)f(lane_s<_SimW>(x >> i), lane_s<_SimW>(y >> i), lane_u<_SimW>(x >> i), lane_u<_SimW>(y >> i)) &
              ((1u << _SimW) - 1))
             << i;
    return r;
}
template <int _SimW, class _SimF> static inline unsigned lanes_sum(unsigned x, unsigned y, _SimF f)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i += _SimW)
        r += (unsigned)f(lane_s<_SimW>(x >> i), lane_s<_SimW>(y >> i), lane_u<_SimW>(x >> i), lane_u<_SimW>(y >> i));
    return r;
}
static inline int iabs(int v) { return v < 0 ? -v : v; }
} // namespace simtlab

/* __name2 on 16-bit lanes and __name4 on 8-bit lanes, each lane (sa, sb signed; a, b unsigned) -> expr */
#define SIMTLAB_SIMD(name, expr)                                                                               \
    namespace simtlab {                                                                                      \
    template <int _SimW> static inline unsigned v_##name(unsigned x, unsigned y)                                  \
    {                                                                                                        \
        return lanes<_SimW>(x, y, [](int sa, int sb, int a, int b) {                                             \
            (void)sa, (void)sb, (void)a, (void)b;                                                            \
            return (expr);                                                                                   \
        });                                                                                                  \
    }                                                                                                        \
    }                                                                                                        \
    static inline unsigned __v##name##2(unsigned x, unsigned y) { return simtlab::v_##name<16>(x, y); }      \
    static inline unsigned __v##name##4(unsigned x, unsigned y) { return simtlab::v_##name<8>(x, y); }
#define SIMTLAB_SIMD_ALL (_SimW == 16 ? 0xffff : 0xff)
SIMTLAB_SIMD(add, a + b)
SIMTLAB_SIMD(addss, sat_s<_SimW>(sa + sb))
SIMTLAB_SIMD(addus, sat_u<_SimW>(a + b))
SIMTLAB_SIMD(sub, a - b)
SIMTLAB_SIMD(subss, sat_s<_SimW>(sa - sb))
SIMTLAB_SIMD(subus, sat_u<_SimW>(a - b))
SIMTLAB_SIMD(avgs, sa + sb < 0 ? (sa + sb) >> 1 : (sa + sb + 1) >> 1) /* halves rounded away from 0 */
SIMTLAB_SIMD(avgu, (a + b + 1) >> 1)
SIMTLAB_SIMD(haddu, (a + b) >> 1)
SIMTLAB_SIMD(absdiffs, iabs(sa - sb))
SIMTLAB_SIMD(absdiffu, iabs(a - b))
SIMTLAB_SIMD(maxs, sa > sb ? sa : sb)
SIMTLAB_SIMD(maxu, a > b ? a : b)
SIMTLAB_SIMD(mins, sa < sb ? sa : sb)
SIMTLAB_SIMD(minu, a < b ? a : b)
SIMTLAB_SIMD(cmpeq, a == b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpne, a != b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpges, sa >= sb ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpgeu, a >= b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpgts, sa > sb ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpgtu, a > b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmples, sa <= sb ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpleu, a <= b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmplts, sa < sb ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(cmpltu, a < b ? SIMTLAB_SIMD_ALL : 0)
SIMTLAB_SIMD(seteq, a == b)
SIMTLAB_SIMD(setne, a != b)
SIMTLAB_SIMD(setges, sa >= sb)
SIMTLAB_SIMD(setgeu, a >= b)
SIMTLAB_SIMD(setgts, sa > sb)
SIMTLAB_SIMD(setgtu, a > b)
SIMTLAB_SIMD(setles, sa <= sb)
SIMTLAB_SIMD(setleu, a <= b)
SIMTLAB_SIMD(setlts, sa < sb)
SIMTLAB_SIMD(setltu, a < b)
#undef SIMTLAB_SIMD_ALL
#undef SIMTLAB_SIMD
/* one operand: __vabs2 ... on 16-bit lanes, __vabs4 ... on 8-bit lanes */
#define SIMTLAB_SIMD1(name, expr)                                                                              \
    namespace simtlab {                                                                                      \
    template <int _SimW> static inline unsigned v_##name(unsigned x)                                              \
    {                                                                                                        \
        return lanes<_SimW>(x, 0u, [](int sa, int, int, int) { return (expr); });                              \
    }                                                                                                        \
    }                                                                                                        \
    static inline unsigned __v##name##2(unsigned x) { return simtlab::v_##name<16>(x); }                     \
    static inline unsigned __v##name##4(unsigned x) { return simtlab::v_##name<8>(x); }
SIMTLAB_SIMD1(abs, iabs(sa))
SIMTLAB_SIMD1(absss, sat_s<_SimW>(iabs(sa)))
SIMTLAB_SIMD1(neg, -sa)
SIMTLAB_SIMD1(negss, sat_s<_SimW>(-sa))
#undef SIMTLAB_SIMD1
/* sums of absolute differences */
static inline unsigned __vsads2(unsigned x, unsigned y)
{
    return simtlab::lanes_sum<16>(x, y, [](int sa, int sb, int, int) { return simtlab::iabs(sa - sb); });
}
static inline unsigned __vsads4(unsigned x, unsigned y)
{
    return simtlab::lanes_sum<8>(x, y, [](int sa, int sb, int, int) { return simtlab::iabs(sa - sb); });
}
static inline unsigned __vsadu2(unsigned x, unsigned y)
{
    return simtlab::lanes_sum<16>(x, y, [](int, int, int a, int b) { return simtlab::iabs(a - b); });
}
static inline unsigned __vsadu4(unsigned x, unsigned y)
{
    return simtlab::lanes_sum<8>(x, y, [](int, int, int a, int b) { return simtlab::iabs(a - b); });
}

/* ---- sm_90's DPX functions: max and min of 2 or 3, after an add, with a relu, or with which one
 * won; on a 32-bit value or on two 16-bit lanes (sums wrap within the lane). __vibmax's flag is
 * a >= b (ties: a), __vibmin's a <= b. */
namespace simtlab {
template <bool _SimS, int _SimW> static inline int dpx_lane(unsigned v, int i) { return _SimS ? lane_s<_SimW>(v >> i) : lane_u<_SimW>(v >> i); }
/* op(a, b, c) on each lane (one lane of 32 bits when W is 32: as int or unsigned) */
template <bool _SimS, int _SimW, class _SimF> static inline unsigned dpx3(unsigned a, unsigned b, unsigned c, _SimF op)
{
    if (_SimW == 32)
        return _SimS ? (unsigned)op((long long)(int)a, (long long)(int)b, (long long)(int)c)
                 : (unsigned)op((long long)a, (long long)b, (long long)c);
    unsigned r = 0;
    for (int i = 0; i < 32; i += 16)
        r |= ((unsigned)op(dpx_lane<_SimS, 16>(a, i), dpx_lane<_SimS, 16>(b, i), dpx_lane<_SimS, 16>(c, i)) & 0xffffu) << i;
    return r;
}
static inline long long mx(long long a, long long b) { return a > b ? a : b; }
static inline long long mn(long long a, long long b) { return a < b ? a : b; }
/* a + b wrapped to the lane: 32 bits, or 16 */
template <bool _SimS, int _SimW> static inline long long wrap(long long v)
{
    if (_SimW == 32)
        return _SimS ? (long long)(int)(unsigned)v : (long long)(unsigned)v;
    return _SimS ? (long long)lane_s<16>((unsigned)v) : (long long)lane_u<16>((unsigned)v);
}
} // namespace simtlab
#define SIMTLAB_DPX(name, _SimS, _SimW, expr)                                                                          \
    static inline unsigned name(unsigned a_, unsigned b_, unsigned c_)                                         \
    {                                                                                                        \
        return simtlab::dpx3<_SimS, _SimW>(a_, b_, c_, [](long long a, long long b, long long c) {                    \
            using namespace simtlab;                                                                         \
            (void)c;                                                                                         \
            return (expr);                                                                                   \
        });                                                                                                  \
    }
#define SIMTLAB_DPX2(name, _SimS, _SimW, expr)                                                                         \
    static inline unsigned name(unsigned a_, unsigned b_)                                                      \
    {                                                                                                        \
        return simtlab::dpx3<_SimS, _SimW>(a_, b_, 0u, [](long long a, long long b, long long) {                      \
            using namespace simtlab;                                                                         \
            return (expr);                                                                                   \
        });                                                                                                  \
    }
SIMTLAB_DPX2(simtlab_vimax_s32_relu, true, 32, mx(mx(a, b), 0))
SIMTLAB_DPX2(simtlab_vimin_s32_relu, true, 32, mx(mn(a, b), 0))
SIMTLAB_DPX2(__vimax_s16x2_relu, true, 16, mx(mx(a, b), 0))
SIMTLAB_DPX2(__vimin_s16x2_relu, true, 16, mx(mn(a, b), 0))
SIMTLAB_DPX(simtlab_vimax3_s32, true, 32, mx(mx(a, b), c))
SIMTLAB_DPX(__vimax3_u32, false, 32, mx(mx(a, b), c))
SIMTLAB_DPX(simtlab_vimin3_s32, true, 32, mn(mn(a, b), c))
SIMTLAB_DPX(__vimin3_u32, false, 32, mn(mn(a, b), c))
SIMTLAB_DPX(simtlab_vimax3_s32_relu, true, 32, mx(mx(mx(a, b), c), 0))
SIMTLAB_DPX(simtlab_vimin3_s32_relu, true, 32, mx(mn(mn(a, b), c), 0))
SIMTLAB_DPX(__vimax3_s16x2, true, 16, mx(mx(a, b), c))
SIMTLAB_DPX(__vimax3_u16x2, false, 16, mx(mx(a, b), c))
SIMTLAB_DPX(__vimin3_s16x2, true, 16, mn(mn(a, b), c))
SIMTLAB_DPX(__vimin3_u16x2, false, 16, mn(mn(a, b), c))
SIMTLAB_DPX(__vimax3_s16x2_relu, true, 16, mx(mx(mx(a, b), c), 0))
SIMTLAB_DPX(__vimin3_s16x2_relu, true, 16, mx(mn(mn(a, b), c), 0))
SIMTLAB_DPX(simtlab_viaddmax_s32, true, 32, mx(wrap<true, 32>(a + b), c))
SIMTLAB_DPX(__viaddmax_u32, false, 32, mx(wrap<false, 32>(a + b), c))
SIMTLAB_DPX(simtlab_viaddmin_s32, true, 32, mn(wrap<true, 32>(a + b), c))
SIMTLAB_DPX(__viaddmin_u32, false, 32, mn(wrap<false, 32>(a + b), c))
SIMTLAB_DPX(simtlab_viaddmax_s32_relu, true, 32, mx(mx(wrap<true, 32>(a + b), c), 0))
SIMTLAB_DPX(simtlab_viaddmin_s32_relu, true, 32, mx(mn(wrap<true, 32>(a + b), c), 0))
SIMTLAB_DPX(__viaddmax_s16x2, true, 16, mx(wrap<true, 16>(a + b), c))
SIMTLAB_DPX(__viaddmax_u16x2, false, 16, mx(wrap<false, 16>(a + b), c))
SIMTLAB_DPX(__viaddmin_s16x2, true, 16, mn(wrap<true, 16>(a + b), c))
SIMTLAB_DPX(__viaddmin_u16x2, false, 16, mn(wrap<false, 16>(a + b), c))
SIMTLAB_DPX(__viaddmax_s16x2_relu, true, 16, mx(mx(wrap<true, 16>(a + b), c), 0))
SIMTLAB_DPX(__viaddmin_s16x2_relu, true, 16, mx(mn(wrap<true, 16>(a + b), c), 0))
#undef SIMTLAB_DPX
#undef SIMTLAB_DPX2
/* the s32 forms take and return int */
static inline int __vimax_s32_relu(int a, int b) { return (int)simtlab_vimax_s32_relu((unsigned)a, (unsigned)b); }
static inline int __vimin_s32_relu(int a, int b) { return (int)simtlab_vimin_s32_relu((unsigned)a, (unsigned)b); }
static inline int __vimax3_s32(int a, int b, int c) { return (int)simtlab_vimax3_s32((unsigned)a, (unsigned)b, (unsigned)c); }
static inline int __vimin3_s32(int a, int b, int c) { return (int)simtlab_vimin3_s32((unsigned)a, (unsigned)b, (unsigned)c); }
static inline int __vimax3_s32_relu(int a, int b, int c)
{
    return (int)simtlab_vimax3_s32_relu((unsigned)a, (unsigned)b, (unsigned)c);
}
static inline int __vimin3_s32_relu(int a, int b, int c)
{
    return (int)simtlab_vimin3_s32_relu((unsigned)a, (unsigned)b, (unsigned)c);
}
static inline int __viaddmax_s32(int a, int b, int c) { return (int)simtlab_viaddmax_s32((unsigned)a, (unsigned)b, (unsigned)c); }
static inline int __viaddmin_s32(int a, int b, int c) { return (int)simtlab_viaddmin_s32((unsigned)a, (unsigned)b, (unsigned)c); }
static inline int __viaddmax_s32_relu(int a, int b, int c)
{
    return (int)simtlab_viaddmax_s32_relu((unsigned)a, (unsigned)b, (unsigned)c);
}
static inline int __viaddmin_s32_relu(int a, int b, int c)
{
    return (int)simtlab_viaddmin_s32_relu((unsigned)a, (unsigned)b, (unsigned)c);
}
/* which one won: a >= b for max, a <= b for min (each lane's flag) */
static inline int __vibmax_s32(int a, int b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
static inline unsigned __vibmax_u32(unsigned a, unsigned b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
static inline int __vibmin_s32(int a, int b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
static inline unsigned __vibmin_u32(unsigned a, unsigned b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
namespace simtlab {
template <bool _SimS, bool MAX> static inline unsigned vib16(unsigned a, unsigned b, bool *hi, bool *lo)
{
    unsigned r = 0;
    bool *flag[2] = {lo, hi};
    for (int i = 0; i < 2; i++) {
        const int x = dpx_lane<_SimS, 16>(a, 16 * i), y = dpx_lane<_SimS, 16>(b, 16 * i);
        const bool first = MAX ? x >= y : x <= y;
        *flag[i] = first;
        r |= ((unsigned)(first ? x : y) & 0xffffu) << 16 * i;
    }
    return r;
}
} // namespace simtlab
static inline unsigned __vibmax_s16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simtlab::vib16<true, true>(a, b, hi, lo); }
static inline unsigned __vibmax_u16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simtlab::vib16<false, true>(a, b, hi, lo); }
static inline unsigned __vibmin_s16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simtlab::vib16<true, false>(a, b, hi, lo); }
static inline unsigned __vibmin_u16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simtlab::vib16<false, false>(a, b, hi, lo); }
#endif /* SIMTLAB_SIMD_H */
