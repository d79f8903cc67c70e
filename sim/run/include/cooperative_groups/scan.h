/* sim/run/include/cooperative_groups/scan.h - for `simtlab run`: cg::inclusive_scan(group,
 * value[, op]) and cg::exclusive_scan(group, value[, op]) over a thread_block_tile<N> or a
 * coalesced_group (cooperative_groups.h); op defaults to cg::plus (reduce.h has the functors).
 * Rank r gets op over the values of ranks 0..r (inclusive) or 0..r-1 (exclusive: rank 0 gets
 * T{}, as CUDA's). Within a warp by shfl_up (log2 size steps); a tile of 64 or more: each warp's
 * scan, then the sums of the tile's earlier warps through shared memory between two of the
 * block's barriers. The update forms (inclusive_scan_update, exclusive_scan_update) are not
 * here: the rewriter names them as unsupported. */
#ifndef SIMTLAB_CG_SCAN_H
#define SIMTLAB_CG_SCAN_H
#include "reduce.h"

namespace cooperative_groups {
namespace detail {
/* a tile of 64 or more: every thread of the block calls it */
template <unsigned _SimN, class _SimT, class Op>
static inline _SimT multi_warp_scan(_SimT v, Op &op, bool exclusive, const char *f, int l)
{
    const unsigned all = 0xffffffffu, ln = lane();
    for (unsigned d = 1; d < 32; d *= 2) {
        _SimT o = __shfl_up_sync(all, v, d, 32, f, l);
        if (ln >= d)
            v = op(o, v);
    }
    _SimT *slot = scratch<_SimT>();
    unsigned warp = block_rank() / 32, first = warp / (_SimN / 32) * (_SimN / 32);
    if (ln == 31)
        slot[warp] = v;
    _SimT x = exclusive ? __shfl_up_sync(all, v, 1, 32, f, l) : v;
    sim_syncthreads(f, l);
    if (warp > first) {
        _SimT before = slot[first];
        for (unsigned w = first + 1; w < warp; w++)
            before = op(before, slot[w]);
        x = exclusive && ln == 0 ? before : op(before, x);
    } else if (exclusive && ln == 0) {
        x = _SimT{};
    }
    sim_syncthreads(f, l); /* the slots are free again */
    return x;
}

/* a tile of at most 32 or a coalesced group */
template <class _SimG, class _SimT, class Op>
static inline _SimT lanes_scan(const _SimG &g, _SimT v, Op &op, bool exclusive, const char *f, int l)
{
    _SimT x = inclusive_in(g, v, op, f, l);
    if (!exclusive)
        return x;
    x = g.shfl_up(x, 1, f, l);
    return g.thread_rank() == 0 ? _SimT{} : x;
}
template <class _SimT, class Op>
static inline _SimT scan_in(const coalesced_group &g, _SimT v, Op &op, bool exclusive, const char *f, int l)
{
    return lanes_scan(g, v, op, exclusive, f, l);
}
template <unsigned _SimN, class _SimP, class _SimT, class Op>
static inline _SimT scan_in(const thread_block_tile<_SimN, _SimP> &g, _SimT v, Op &op, bool exclusive, const char *f, int l)
{
    if constexpr (_SimN > 32) {
        (void)g;
        return multi_warp_scan<_SimN>(v, op, exclusive, f, l);
    } else {
        return lanes_scan(g, v, op, exclusive, f, l);
    }
}
} // namespace detail

template <class _SimG, class _SimT, class Op>
static inline detail::value_t<_SimT> inclusive_scan(const _SimG &g, _SimT &&v, Op &&op, const char *f = __builtin_FILE(),
                                                int l = __builtin_LINE())
{
    static_assert(detail::lanes_group<_SimG>::value, "cg::inclusive_scan: the group is a thread_block_tile<N> or a coalesced_group");
    return detail::scan_in(g, detail::value_t<_SimT>(v), op, false, f, l);
}
template <class _SimG, class _SimT>
static inline detail::value_t<_SimT> inclusive_scan(const _SimG &g, _SimT &&v, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    plus<detail::value_t<_SimT>> op;
    return inclusive_scan(g, v, op, f, l);
}
template <class _SimG, class _SimT, class Op>
static inline detail::value_t<_SimT> exclusive_scan(const _SimG &g, _SimT &&v, Op &&op, const char *f = __builtin_FILE(),
                                                int l = __builtin_LINE())
{
    static_assert(detail::lanes_group<_SimG>::value, "cg::exclusive_scan: the group is a thread_block_tile<N> or a coalesced_group");
    return detail::scan_in(g, detail::value_t<_SimT>(v), op, true, f, l);
}
template <class _SimG, class _SimT>
static inline detail::value_t<_SimT> exclusive_scan(const _SimG &g, _SimT &&v, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    plus<detail::value_t<_SimT>> op;
    return exclusive_scan(g, v, op, f, l);
}

} // namespace cooperative_groups

#endif
