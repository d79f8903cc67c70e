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

template <class _SimT>
struct plus {
    _SimT operator()(_SimT a, _SimT b) const { return a + b; }
};
template <class _SimT>
struct less {
    _SimT operator()(_SimT a, _SimT b) const { return b < a ? b : a; }
};
template <class _SimT>
struct greater {
    _SimT operator()(_SimT a, _SimT b) const { return a < b ? b : a; }
};
template <class _SimT>
struct bit_and {
    _SimT operator()(_SimT a, _SimT b) const { return a & b; }
};
template <class _SimT>
struct bit_or {
    _SimT operator()(_SimT a, _SimT b) const { return a | b; }
};
template <class _SimT>
struct bit_xor {
    _SimT operator()(_SimT a, _SimT b) const { return a ^ b; }
};

namespace detail {
template <class _SimT>
using value_t = std::remove_cv_t<std::remove_reference_t<_SimT>>;

/* the groups cg::reduce and the scans take, as CUDA's */
template <class _SimG>
struct lanes_group : std::false_type {};
template <unsigned _SimN, class _SimP>
struct lanes_group<thread_block_tile<_SimN, _SimP>> : std::true_type {};
template <>
struct lanes_group<coalesced_group> : std::true_type {};

/* rank r gets op over ranks 0..r (Hillis-Steele: log2 size shuffles up); a tile of at most 32 or
 * a coalesced group */
template <class _SimG, class _SimT, class Op>
static inline _SimT inclusive_in(const _SimG &g, _SimT v, Op &op, const char *f, int l)
{
    unsigned r = (unsigned)g.thread_rank(), n = (unsigned)g.size();
    for (unsigned d = 1; d < n; d *= 2) {
        _SimT o = g.shfl_up(v, d, f, l);
        if (r >= d)
            v = op(o, v);
    }
    return v;
}

template <unsigned _SimN, class _SimP, class _SimT, class Op>
static inline _SimT reduce_in(const thread_block_tile<_SimN, _SimP> &g, _SimT v, Op &op, const char *f, int l)
{
    if constexpr (_SimN > 32) {
        (void)g;
        return multi_warp_reduce<_SimN>(v, op, f, l);
    } else {
        for (int o = (int)_SimN / 2; o > 0; o /= 2)
            v = op(v, g.shfl_xor(v, o, f, l));
        return v;
    }
}
template <class _SimT, class Op>
static inline _SimT reduce_in(const coalesced_group &g, _SimT v, Op &op, const char *f, int l)
{
    return g.shfl(inclusive_in(g, v, op, f, l), g.size() - 1, f, l);
}
} // namespace detail

template <class _SimG, class _SimT, class Op>
static inline detail::value_t<_SimT> reduce(const _SimG &g, _SimT &&v, Op &&op, const char *f = __builtin_FILE(),
                                        int l = __builtin_LINE())
{
    static_assert(detail::lanes_group<_SimG>::value, "cg::reduce: the group is a thread_block_tile<N> or a coalesced_group");
    return detail::reduce_in(g, detail::value_t<_SimT>(v), op, f, l);
}

} // namespace cooperative_groups

#endif
