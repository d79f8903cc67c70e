/* sim/run/include/mma.h - nvcuda::wmma, the tensor cores' warp matrix multiply-accumulate, for
 * `simtlab run`: fragments, fill_fragment, load_matrix_sync, store_matrix_sync, mma_sync and
 * __float_to_tf32, over sim/run/wmma.c (C; simtlab_wmma.h is what the two share).
 *
 * Shapes and types are CUDA's (sm_80 and later): m16n16k16, m32n8k16 and m8n32k16 with half or
 * __nv_bfloat16 multiplicands (half or float accumulators for half; float for bfloat16), signed
 * or unsigned char (int accumulators); m16n16k8 with precision::tf32 (float accumulators);
 * m8n8k4 with double. The sub-byte types (experimental::precision::u4, s4, b1) are refused at
 * compile time with one line. A fragment holds num_elements values x[i]; which element of the
 * tile each is, is the chip's (sim/run/wmma.c, measured on the H200). */
#ifndef SIMTLAB_MMA_H
#define SIMTLAB_MMA_H
#define __CUDA_MMA_H__

#include <type_traits>

#include "cuda_bf16.h" /* and cuda_fp16.h: CUDA's mma.h brings both */
#include "simtlab_wmma.h"

namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
} // namespace precision
namespace experimental {
namespace precision {
struct u4 {};
struct s4 {};
struct b1 {};
} // namespace precision
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
} // namespace experimental

namespace simtlab_detail {
template <class _SimT> struct type_of {
    static constexpr int value = -1; /* not a wmma element type */
    typedef _SimT storage;
};
#define SIMTLAB_WMMA_TYPE_OF(_SimT, code, _SimS)                                                                               \
    template <> struct type_of<_SimT> {                                                                                    \
        static constexpr int value = code;                                                                             \
        typedef _SimS storage;                                                                                             \
    };
SIMTLAB_WMMA_TYPE_OF(__half, SIMTLAB_WMMA_F16, __half)
SIMTLAB_WMMA_TYPE_OF(__nv_bfloat16, SIMTLAB_WMMA_BF16, __nv_bfloat16)
SIMTLAB_WMMA_TYPE_OF(precision::tf32, SIMTLAB_WMMA_TF32, float)
SIMTLAB_WMMA_TYPE_OF(double, SIMTLAB_WMMA_F64, double)
SIMTLAB_WMMA_TYPE_OF(signed char, SIMTLAB_WMMA_S8, signed char)
SIMTLAB_WMMA_TYPE_OF(unsigned char, SIMTLAB_WMMA_U8, unsigned char)
SIMTLAB_WMMA_TYPE_OF(float, SIMTLAB_WMMA_F32, float)
SIMTLAB_WMMA_TYPE_OF(int, SIMTLAB_WMMA_S32, int)
#undef SIMTLAB_WMMA_TYPE_OF
template <class _SimT> struct sub_byte {
    static constexpr bool value = false;
};
template <> struct sub_byte<experimental::precision::u4> {
    static constexpr bool value = true;
};
template <> struct sub_byte<experimental::precision::s4> {
    static constexpr bool value = true;
};
template <> struct sub_byte<experimental::precision::b1> {
    static constexpr bool value = true;
};

constexpr int shape_of(int m, int n, int k)
{
    return m == 16 && n == 16 && k == 16 ? SIMTLAB_WMMA_M16N16K16
           : m == 32 && n == 8 && k == 16 ? SIMTLAB_WMMA_M32N8K16
           : m == 8 && n == 32 && k == 16 ? SIMTLAB_WMMA_M8N32K16
           : m == 16 && n == 16 && k == 8 ? SIMTLAB_WMMA_M16N16K8
           : m == 8 && n == 8 && k == 4   ? SIMTLAB_WMMA_M8N8K4
                                          : -1;
}
template <class _SimU> constexpr int use_of() { return std::is_same<_SimU, matrix_a>::value ? SIMTLAB_WMMA_A : std::is_same<_SimU, matrix_b>::value ? SIMTLAB_WMMA_B : SIMTLAB_WMMA_C; }
/* the multiplicand types a shape takes (CUDA's table), and the accumulators of each */
constexpr bool input_ok(int shape, int t)
{
    return shape == SIMTLAB_WMMA_M16N16K8 ? t == SIMTLAB_WMMA_TF32
           : shape == SIMTLAB_WMMA_M8N8K4 ? t == SIMTLAB_WMMA_F64
           : shape >= 0                   ? t == SIMTLAB_WMMA_F16 || t == SIMTLAB_WMMA_BF16 || t == SIMTLAB_WMMA_S8 ||
                                  t == SIMTLAB_WMMA_U8
                                          : false;
}
constexpr bool acc_ok(int shape, int t)
{
    return shape == SIMTLAB_WMMA_M8N8K4 ? t == SIMTLAB_WMMA_F64
           : shape == SIMTLAB_WMMA_M16N16K8 ? t == SIMTLAB_WMMA_F32
           : shape >= 0 ? t == SIMTLAB_WMMA_F16 || t == SIMTLAB_WMMA_F32 || t == SIMTLAB_WMMA_S32
                        : false;
}
} // namespace simtlab_detail

template <class Use, int m, int n, int k, class _SimT, class Layout = void> class fragment {
    static_assert(!simtlab_detail::sub_byte<_SimT>::value,
                  "simtlab run: wmma's sub-byte types (experimental::precision::u4, s4, b1) are not supported by the "
                  "simulator; run the program on a GPU (simtlab run --mode cuda)");
    static_assert(simtlab_detail::shape_of(m, n, k) >= 0,
                  "wmma: the shape must be 16x16x16, 32x8x16, 8x32x16, 16x16x8 (tf32) or 8x8x4 (double)");
    static_assert(std::is_same<Use, accumulator>::value
                      ? simtlab_detail::acc_ok(simtlab_detail::shape_of(m, n, k), simtlab_detail::type_of<_SimT>::value)
                      : simtlab_detail::input_ok(simtlab_detail::shape_of(m, n, k), simtlab_detail::type_of<_SimT>::value),
                  "wmma: this element type does not go with this shape and use (CUDA's table: half, "
                  "__nv_bfloat16, signed or unsigned char at 16x16x16, 32x8x16 and 8x32x16, precision::tf32 at 16x16x8, "
                  "double at 8x8x4; accumulators half, float or int, float for tf32, double for double)");
    static_assert(std::is_same<Use, accumulator>::value || std::is_same<Layout, row_major>::value ||
                      std::is_same<Layout, col_major>::value,
                  "wmma: a matrix_a or matrix_b fragment needs its layout, row_major or col_major");

  public:
    typedef _SimT element_type;
    typedef typename simtlab_detail::type_of<_SimT>::storage storage_element_type;
    static constexpr int simtlab_use = simtlab_detail::use_of<Use>(), simtlab_shape = simtlab_detail::shape_of(m, n, k),
                         simtlab_type = simtlab_detail::type_of<_SimT>::value;
    static constexpr bool simtlab_col = std::is_same<Layout, col_major>::value;
    static constexpr unsigned simtlab_desc = SIMTLAB_WMMA_DESC(simtlab_use, simtlab_shape, simtlab_type, simtlab_col);
    enum { num_elements = SIMTLAB_WMMA_NE(simtlab_use, simtlab_shape, simtlab_type) };
    storage_element_type x[num_elements];
};

template <class Use, int m, int n, int k, class _SimT, class _SimL>
inline void fill_fragment(fragment<Use, m, n, k, _SimT, _SimL> &a,
                          const typename fragment<Use, m, n, k, _SimT, _SimL>::storage_element_type &v)
{
    for (int i = 0; i < fragment<Use, m, n, k, _SimT, _SimL>::num_elements; i++)
        a.x[i] = v;
}

/* the memory a fragment's elements come from: T's, float's for tf32 */
template <class Use, int m, int n, int k, class _SimT, class _SimL>
inline void load_matrix_sync(fragment<Use, m, n, k, _SimT, _SimL> &a,
                             const typename fragment<Use, m, n, k, _SimT, _SimL>::storage_element_type *p, unsigned ldm,
                             const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    static_assert(!std::is_same<Use, accumulator>::value,
                  "wmma: an accumulator's load_matrix_sync takes the memory layout: mem_row_major or mem_col_major");
    sim_wmma_load(a.x, a.simtlab_desc, p, ldm, 0, file, line);
}
template <int m, int n, int k, class _SimT>
inline void load_matrix_sync(fragment<accumulator, m, n, k, _SimT> &a, const _SimT *p, unsigned ldm, layout_t layout,
                             const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    sim_wmma_load(a.x, a.simtlab_desc, p, ldm, layout == mem_col_major, file, line);
}
/* the pointer's type is the fragment's, not deduced from the pointer: NVIDIA's overloads take
 * float *, half *, ..., so `store_matrix_sync(nullptr, c, 16, mem_row_major)` compiles (a dead store
 * that keeps a benchmark's loop: ashvardanian/less_slow.cpp) */
template <class _SimT> struct simtlab_ptr_of {
    typedef _SimT *type;
};
template <int m, int n, int k, class _SimT>
inline void store_matrix_sync(typename simtlab_ptr_of<_SimT>::type p, const fragment<accumulator, m, n, k, _SimT> &a,
                              unsigned ldm, layout_t layout, const char *file = __builtin_FILE(),
                              int line = __builtin_LINE())
{
    sim_wmma_store(p, a.simtlab_desc, a.x, ldm, layout == mem_col_major, file, line);
}

template <int m, int n, int k, class Tab, class La, class Lb, class Tc, class Td>
inline void mma_sync(fragment<accumulator, m, n, k, Td> &d, const fragment<matrix_a, m, n, k, Tab, La> &a,
                     const fragment<matrix_b, m, n, k, Tab, Lb> &b, const fragment<accumulator, m, n, k, Tc> &c,
                     bool satf = false, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    constexpr int ti = simtlab_detail::type_of<Tab>::value, tc = simtlab_detail::type_of<Tc>::value,
                  td = simtlab_detail::type_of<Td>::value;
    static_assert((ti == SIMTLAB_WMMA_S8 || ti == SIMTLAB_WMMA_U8) == (tc == SIMTLAB_WMMA_S32 && td == SIMTLAB_WMMA_S32),
                  "wmma::mma_sync: signed or unsigned char multiplicands take int accumulators, and only they do");
    static_assert(ti != SIMTLAB_WMMA_BF16 || (tc == SIMTLAB_WMMA_F32 && td == SIMTLAB_WMMA_F32),
                  "wmma::mma_sync: __nv_bfloat16 multiplicands take float accumulators");
    sim_wmma_mma(d.x, d.simtlab_desc, a.x, a.simtlab_desc, b.x, b.simtlab_desc, c.x, c.simtlab_desc, satf, file,
                 line);
}

/* TF32's rounding of a float (cvt.rna.tf32.f32): to 10 significant bits, ties away from zero */
inline float __float_to_tf32(float f)
{
    unsigned u;
    __builtin_memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & 0xffffe000u;
    __builtin_memcpy(&f, &u, 4);
    return f;
}
} // namespace wmma
} // namespace nvcuda
#endif /* SIMTLAB_MMA_H */
