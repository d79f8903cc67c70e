/* sim/run/include/cooperative_groups/memcpy_async.h - for `simtlab run`: cg::memcpy_async(group,
 * dst, src, size) (size a byte count or cuda::aligned_size_t), each thread of the group copying its
 * share of the pieces (simtlab_async.h: at once, cp.async when global to shared and aligned), and
 * cg::wait(group) and cg::wait_prior<N>(group), which synchronize the group. */
#ifndef SIMTLAB_CG_MEMCPY_ASYNC_H
#define SIMTLAB_CG_MEMCPY_ASYNC_H
#include "../cooperative_groups.h"
#include "../cuda/pipeline"

namespace cooperative_groups {
template <class Group, class Size>
inline void memcpy_async(const Group &g, void *dst, const void *src, Size size)
{
    simtlab::async_copy_part<cuda::simtlab_detail::align_of<Size>::value>(dst, src, (size_t)size, g.thread_rank(),
                                                                           g.size());
}
template <class Group> inline void wait(const Group &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    sim_copy_async_wait();
    g.sync(f, l);
}
template <unsigned N, class Group>
inline void wait_prior(const Group &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    wait(g, f, l);
}
} // namespace cooperative_groups
#endif
