/* sim/run/include/cooperative_groups/memcpy_async.h - for `simtlab run`: cg::memcpy_async(group,
 * dst, src, size) (size a byte count, whose alignment is found at run time, or cuda::aligned_size_t)
 * and cg::memcpy_async(group, dst, dst_count, src, src_count) of T elements, each thread of the
 * group copying its share of the pieces (simtlab_async.h: at once, cp.async when global to shared and aligned), and
 * cg::wait(group) and cg::wait_prior<N>(group) (all calls' copies but the N latest), which
 * synchronize the group. */
#ifndef SIMTLAB_CG_MEMCPY_ASYNC_H
#define SIMTLAB_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include "../cuda/pipeline"

namespace cooperative_groups {
namespace simtlab_detail { /* a byte count: no promise (the alignment is found at run time) */
template <class Size> struct promise { static constexpr size_t value = 0; };
template <size_t _SimA> struct promise<cuda::aligned_size_t<_SimA>> { static constexpr size_t value = _SimA; };
} // namespace simtlab_detail
template <class Group, class Size>
inline void memcpy_async(const Group &g, void *dst, const void *src, Size size)
{
    simtlab::async_copy_part<simtlab_detail::promise<Size>::value>(dst, src, (size_t)size, g.thread_rank(), g.size());
    sim_cp_async_commit(); /* each call its own group, as CUDA's (wait_prior counts calls) */
}
/* element counts: min(dst_count, src_count) elements of T, as CUDA's (the rest of dst is left as
 * it was: nothing zeroed) */
template <class Group, class _SimT>
inline void memcpy_async(const Group &g, _SimT *dst, size_t dst_count, const _SimT *src, size_t src_count)
{
    const size_t n = src_count < dst_count ? src_count : dst_count;
    simtlab::async_copy_part<alignof(_SimT) >= 16 ? 16 : alignof(_SimT) >= 8 ? 8 : alignof(_SimT) >= 4 ? 4 : 0>(
        dst, src, n * sizeof(_SimT), g.thread_rank(), g.size());
    sim_cp_async_commit();
}
template <class Group> inline void wait(const Group &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    sim_cp_async_wait_prior(0);
    g.sync(f, l);
}
template <unsigned _SimN, class Group>
inline void wait_prior(const Group &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    sim_cp_async_wait_prior(_SimN);
    g.sync(f, l);
}
} // namespace cooperative_groups
#endif
