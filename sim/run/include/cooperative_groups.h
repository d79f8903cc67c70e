/* sim/run/include/cooperative_groups.h - for `simtlab run`: the part of CUDA's
 * cooperative groups that lives inside one block, over the simulator's
 * barriers and warp intrinsics:
 *   cg::this_thread_block(), thread_block::sync() / cg::sync(g), thread_rank(),
 *   size() / num_threads(), group_index(), thread_index(), group_dim();
 *   cg::tiled_partition<N>(block) (N = 1, 2, 4, ..., 32): thread_block_tile<N>
 *   with sync(), thread_rank(), size(), meta_group_rank(), meta_group_size(),
 *   shfl(), shfl_up(), shfl_down(), shfl_xor(), any(), all(), ballot().
 * Grid-wide groups (this_grid(), grid.sync(), cudaLaunchCooperativeKernel),
 * multi-grid groups, cg::reduce and cg::memcpy_async are not here: the
 * rewriter names them as unsupported (sim/run/rewrite.c).
 * Barriers and warp intrinsics carry the caller's file and line, as
 * __syncthreads() does, so reports name the student's line. */
#ifndef SIMTLAB_COOPERATIVE_GROUPS_H
#define SIMTLAB_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"

namespace cooperative_groups {

class thread_block {
  public:
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { sim_syncthreads(f, l); }
    unsigned thread_rank() const
    {
        return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
    unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
    unsigned num_threads() const { return size(); }
    dim3 group_index() const { return dim3(blockIdx); }
    dim3 thread_index() const { return dim3(threadIdx); }
    dim3 group_dim() const { return dim3(blockDim); }
    dim3 dim_threads() const { return dim3(blockDim); }
};

static inline thread_block this_thread_block() { return thread_block(); }

template <unsigned N>
class thread_block_tile {
    static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "thread_block_tile<N>: N a power of two, 1 to 32");

  public:
    /* the lanes of this tile within the warp */
    unsigned mask() const
    {
        unsigned lane = thread_rank_in_block() % 32;
        unsigned base = lane / N * N;
        return N == 32 ? 0xffffffffu : ((1u << N) - 1u) << base;
    }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { __syncwarp(mask(), f, l); }
    unsigned thread_rank() const { return thread_rank_in_block() % N; }
    unsigned size() const { return N; }
    unsigned num_threads() const { return N; }
    unsigned meta_group_rank() const { return thread_rank_in_block() / N; }
    unsigned meta_group_size() const
    {
        unsigned threads = blockDim.x * blockDim.y * blockDim.z;
        return (threads + N - 1) / N;
    }
    template <class T>
    T shfl(T v, int src, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_sync(mask(), v, src, (int)N, f, l);
    }
    template <class T>
    T shfl_down(T v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_down_sync(mask(), v, d, (int)N, f, l);
    }
    template <class T>
    T shfl_up(T v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_up_sync(mask(), v, d, (int)N, f, l);
    }
    template <class T>
    T shfl_xor(T v, int x, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_xor_sync(mask(), v, x, (int)N, f, l);
    }
    int any(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { return __any_sync(mask(), p, f, l); }
    int all(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { return __all_sync(mask(), p, f, l); }
    unsigned ballot(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        unsigned lane = thread_rank_in_block() % 32;
        return (__ballot_sync(mask(), p, f, l) >> (lane / N * N)) & (N == 32 ? 0xffffffffu : (1u << N) - 1u);
    }

  private:
    static unsigned thread_rank_in_block()
    {
        return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    }
};

template <unsigned N>
static inline thread_block_tile<N> tiled_partition(const thread_block &)
{
    return thread_block_tile<N>();
}

static inline void sync(const thread_block &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    sim_syncthreads(f, l);
    (void)g;
}
template <unsigned N>
static inline void sync(const thread_block_tile<N> &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    g.sync(f, l);
}

} // namespace cooperative_groups

#endif
