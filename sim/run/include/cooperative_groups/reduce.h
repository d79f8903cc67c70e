/* sim/run/include/cooperative_groups/reduce.h - for `simtlab run`: cg::reduce(group, value, op)
 * over a thread_block_tile<N> or a coalesced_group (cooperative_groups.h): every thread of the
 * group gets op over the group's values. op is one of the functors below (cg::plus<T>,
 * cg::less<T> (the least), cg::greater<T> (the greatest), cg::bit_and<T>, cg::bit_or<T>,
 * cg::bit_xor<T>) or the program's own lambda or functor, associative and commutative (CUDA's
 * condition). How, over the groups' own functions:
 *   a tile of N <= 32: N/2, N/4, ..., 1 apart by shfl_xor (log2 N shuffles, as CUDA's);
 *   a coalesced group: an inclusive scan by rank, then the last rank's value by shfl;
 *   a tile of 64 or more: each warp's by shfl_xor, then the tile's warps' values through a
 *   slot of shared memory each, between two of the block's barriers (cooperative_groups.h).
 * The asynchronous forms (reduce_update_async, reduce_store_async) are not here: the rewriter
 * names them as unsupported. */
#ifndef SIMTLAB_CG_REDUCE_H
#define SIMTLAB_CG_REDUCE_H
#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class T>
struct plus {
    T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
    T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
    T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
    T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
    T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
    T operator()(T a, T b) const { return a ^ b; }
};

namespace detail {
template <class T>
using value_t = std::remove_cv_t<std::remove_reference_t<T>>;

/* the groups cg::reduce and the scans take, as CUDA's */
template <class G>
struct lanes_group : std::false_type {};
template <unsigned N, class P>
struct lanes_group<thread_block_tile<N, P>> : std::true_type {};
template <>
struct lanes_group<coalesced_group> : std::true_type {};

/* rank r gets op over ranks 0..r (Hillis-Steele: log2 size shuffles up); a tile of at most 32 or
 * a coalesced group */
template <class G, class T, class Op>
static inline T inclusive_in(const G &g, T v, Op &op, const char *f, int l)
{
    unsigned r = (unsigned)g.thread_rank(), n = (unsigned)g.size();
    for (unsigned d = 1; d < n; d *= 2) {
        T o = g.shfl_up(v, d, f, l);
        if (r >= d)
            v = op(o, v);
    }
    return v;
}

template <unsigned N, class P, class T, class Op>
static inline T reduce_in(const thread_block_tile<N, P> &g, T v, Op &op, const char *f, int l)
{
    if constexpr (N > 32) {
        (void)g;
        return multi_warp_reduce<N>(v, op, f, l);
    } else {
        for (int o = (int)N / 2; o > 0; o /= 2)
            v = op(v, g.shfl_xor(v, o, f, l));
        return v;
    }
}
template <class T, class Op>
static inline T reduce_in(const coalesced_group &g, T v, Op &op, const char *f, int l)
{
    return g.shfl(inclusive_in(g, v, op, f, l), g.size() - 1, f, l);
}
} // namespace detail

template <class G, class T, class Op>
static inline detail::value_t<T> reduce(const G &g, T &&v, Op &&op, const char *f = __builtin_FILE(),
                                        int l = __builtin_LINE())
{
    static_assert(detail::lanes_group<G>::value, "cg::reduce: the group is a thread_block_tile<N> or a coalesced_group");
    return detail::reduce_in(g, detail::value_t<T>(v), op, f, l);
}

} // namespace cooperative_groups

#endif
