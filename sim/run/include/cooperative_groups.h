/* sim/run/include/cooperative_groups.h - for `simtlab run`: the part of CUDA's
 * cooperative groups that lives inside one block, over the simulator's
 * barriers and warp intrinsics:
 *   cg::this_thread_block() (also with a block_tile_memory, which is not
 *   needed here), thread_block: sync(), thread_rank(), size() / num_threads(),
 *   group_index(), thread_index(), group_dim(), dim_threads();
 *   thread_group: the type-erased group a thread_block, a tile of at most 32
 *   threads or a coalesced_group converts to: sync(), thread_rank(), size() /
 *   num_threads(), get_type();
 *   cg::tiled_partition<N>(block or tile) (N = 1, 2, 4, ..., 1024):
 *   thread_block_tile<N> with sync(), thread_rank(), size(), meta_group_rank(),
 *   meta_group_size(); for N <= 32 shfl(), shfl_up(), shfl_down(), shfl_xor(),
 *   any(), all(), ballot(); for N >= 64 shfl(), any(), all();
 *   cg::tiled_partition(parent, n) (n a power of two from 1 to 32 at run time,
 *   parent a thread_block, a thread_group or a coalesced_group): a
 *   thread_group (a coalesced_group for a coalesced parent); another n is the
 *   simulator's report and cudaErrorLaunchFailure (a GPU traps);
 *   cg::coalesced_threads(): coalesced_group, the lanes of the warp that reach
 *   it together (__activemask()), with the tiles' warp functions, whose
 *   source lanes are ranks among the group's lanes;
 *   cg::sync(g), cg::thread_rank(g), cg::group_size(g), cg::this_thread();
 *   cg::reduce and the scans: cooperative_groups/reduce.h, scan.h.
 * A tile of 64 or more threads synchronizes with the block's barrier (a GPU
 * synchronizes only the tile's warps): every thread of the block must reach
 * a multi-warp tile's sync(), shfl(), any(), all(), reduce or scan, or the
 * simulator reports a barrier only some threads reach.
 *   cg::labeled_partition(g, label), cg::binary_partition(g, pred) of a warp-level group;
 *   cg::this_grid(): grid_group's members (thread_rank, size, num_blocks, block_rank, ...)
 *   for grid-stride loops; its sync() is the simulator's report and a launch failure (a
 *   grid-wide barrier needs all blocks resident; blocks run one after another here).
 * cg::memcpy_async and cg::wait are in cooperative_groups/memcpy_async.h.
 * cudaLaunchCooperativeKernel, multi-grid and cluster groups and cg's asynchronous reductions are
 * not here: the rewriter names them as unsupported (sim/run/rewrite.c).
 * Barriers and warp intrinsics carry the caller's file and line, as
 * __syncthreads() does, so reports name the student's line. */
#ifndef SIMTLAB_COOPERATIVE_GROUPS_H
#define SIMTLAB_COOPERATIVE_GROUPS_H
#include "cuda_runtime.h"

#include <type_traits>

/* a failed check in a kernel: the simulator's report and the block's end (sim/launch.h) */
extern "C" int sim_kernel_trap(const char *what, const char *file, unsigned line);

namespace cooperative_groups {

namespace detail {
enum : unsigned { coalesced_group_id = 1, thread_block_id = 4, multi_tile_group_id = 5 }; /* get_type(): CUDA's numbers */

static inline unsigned block_rank() { return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x; }
static inline unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
static inline unsigned lane() { return block_rank() % 32; }
static inline unsigned lanes_below() { return (1u << lane()) - 1u; }
static inline unsigned low_bits(unsigned n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1u; }
/* the lane of the k-th (from 0) member of a warp's mask; 32 when there is none */
static inline unsigned nth_lane(unsigned mask, unsigned k)
{
    for (unsigned l = 0; l < 32; l++)
        if ((mask >> l & 1u) && k-- == 0)
            return l;
    return 32;
}
/* per block (the worker's thread-local storage is the block's shared memory): one slot per warp,
 * where the warps of a multi-warp tile meet */
template <class _SimT>
static inline _SimT *scratch()
{
    alignas(alignof(_SimT) > 16 ? alignof(_SimT) : 16) static thread_local unsigned char slots[32 * sizeof(_SimT)];
    return reinterpret_cast<_SimT *>(slots);
}
/* a dynamic tile size that is not a power of two from 1 to 32: the simulator's report, and the
 * launch fails (a GPU traps); returns true only in host code, where nothing is simulated */
static inline bool bad_tile_size(unsigned n, const char *f, int l)
{
    if (n >= 1 && n <= 32 && (n & (n - 1)) == 0)
        return false;
    char what[128];
    snprintf(what, sizeof what, "cg::tiled_partition(parent, %u): the size must be a power of two from 1 to 32", n);
    sim_kernel_trap(what, f, (unsigned)l);
    return true;
}
struct access;
} // namespace detail

/* Any group of threads: a whole block, or lanes of one warp (a tile of at most 32, a coalesced
 * group). The derived groups convert to it by copy. */
class thread_group {
  protected:
    unsigned type_;
    unsigned mask_ = 0, size_ = 0;            /* lanes of one warp: which, how many */
    unsigned meta_rank_ = 0, meta_size_ = 1; /* which of how many groups its parent was cut into */
    explicit thread_group(unsigned type) : type_(type) {}
    thread_group(unsigned mask, unsigned meta_rank, unsigned meta_size)
        : type_(detail::coalesced_group_id), mask_(mask), size_((unsigned)__popc(mask)), meta_rank_(meta_rank),
          meta_size_(meta_size)
    {
    }
    friend struct detail::access;

  public:
    unsigned long long size() const { return type_ == detail::thread_block_id ? detail::block_threads() : size_; }
    unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const
    {
        return type_ == detail::thread_block_id ? detail::block_rank() : (unsigned)__popc(mask_ & detail::lanes_below());
    }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        if (type_ == detail::thread_block_id)
            sim_syncthreads(f, l);
        else
            __syncwarp(mask_, f, l);
    }
    unsigned get_type() const { return type_; }
};

/* CUDA's scratch for multi-warp tiles before sm_80; not needed here */
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {
    unsigned char unused;
};

class thread_block : public thread_group {
  public:
    thread_block() : thread_group(detail::thread_block_id) {}
    static void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) { sim_syncthreads(f, l); }
    static unsigned thread_rank() { return detail::block_rank(); }
    static unsigned size() { return detail::block_threads(); }
    static unsigned num_threads() { return size(); }
    static dim3 group_index() { return dim3(blockIdx); }
    static dim3 thread_index() { return dim3(threadIdx); }
    static dim3 group_dim() { return dim3(blockDim); }
    static dim3 dim_threads() { return dim3(blockDim); }
    /* CUDA 12.2's split barrier: barrier_arrive(), work that needs nothing of the others, then
     * barrier_wait(std::move(token)), which returns once every thread has arrived. Here the
     * barrier is the wait (the block's __syncthreads() at its line) and the arrival does nothing:
     * a thread's accesses before its wait are ordered with the others' after theirs, and an access
     * between the arrival and the wait that conflicts with another thread's access before its own
     * arrival (one of the two a write) is in the same barrier epoch, a race named as one (the split
     * barrier's usual bug: consuming before the wait). Not seen: a write between the arrival and
     * the wait that another thread reads after its wait (the barrier here orders them; a GPU does
     * not). */
    struct arrival_token {
    };
    static arrival_token barrier_arrive() { return arrival_token(); }
    static void barrier_wait(arrival_token &&, const char *f = __builtin_FILE(), int l = __builtin_LINE())
    {
        sim_syncthreads(f, l);
    }
};

static inline thread_block this_thread_block() { return thread_block(); }
template <unsigned MaxBlockSize>
static inline thread_block this_thread_block(block_tile_memory<MaxBlockSize> &) { return thread_block(); }

/* The lanes of a warp that reach coalesced_threads() together, or a tile of them. Functions
 * name lanes by rank in the group: rank k is the k-th lane of the mask. */
class coalesced_group : public thread_group {
    friend struct detail::access;
    friend coalesced_group coalesced_threads();
    explicit coalesced_group(unsigned mask, unsigned meta_rank = 0, unsigned meta_size = 1)
        : thread_group(mask, meta_rank, meta_size)
    {
    }
    /* the lanes of the ballot, by rank */
    unsigned pack(unsigned ballot) const
    {
        unsigned r = 0, k = 0;
        for (unsigned l = 0; l < 32; l++)
            if (mask_ >> l & 1u)
                r |= (ballot >> l & 1u) << k++;
        return r;
    }

  public:
    unsigned size() const { return size_; }
    unsigned num_threads() const { return size_; }
    unsigned thread_rank() const { return (unsigned)__popc(mask_ & detail::lanes_below()); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { __syncwarp(mask_, f, l); }
    template <class _SimT>
    _SimT shfl(_SimT v, unsigned src_rank, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_sync(mask_, v, (int)detail::nth_lane(mask_, src_rank % size_), 32, f, l);
    }
    template <class _SimT>
    _SimT shfl_down(_SimT v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        unsigned r = thread_rank() + d; /* past the last rank: its own value, as a tile's shfl_down */
        return __shfl_sync(mask_, v, (int)(r < size_ ? detail::nth_lane(mask_, r) : detail::lane()), 32, f, l);
    }
    template <class _SimT>
    _SimT shfl_up(_SimT v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        unsigned r = thread_rank();
        return __shfl_sync(mask_, v, (int)(r >= d ? detail::nth_lane(mask_, r - d) : detail::lane()), 32, f, l);
    }
    int any(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { return __ballot_sync(mask_, p, f, l) != 0; }
    int all(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __ballot_sync(mask_, p, f, l) == mask_;
    }
    unsigned ballot(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return pack(__ballot_sync(mask_, p, f, l));
    }
};

/* On a GPU the lanes executing together; here the lanes that reach it together (__activemask:
 * each waits until the warp's other live lanes have reached it or wait elsewhere). */
inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

namespace detail {
struct access {
    static coalesced_group coalesced(unsigned mask, unsigned meta_rank, unsigned meta_size)
    {
        return coalesced_group(mask, meta_rank, meta_size);
    }
    static thread_group lanes(unsigned mask, unsigned meta_rank, unsigned meta_size)
    {
        return thread_group(mask, meta_rank, meta_size);
    }
    static unsigned mask(const thread_group &g) { return g.mask_; }
    static unsigned meta_rank(const thread_group &g) { return g.meta_rank_; }
    static unsigned meta_size(const thread_group &g) { return g.meta_size_; }
};

/* tiles of n lanes (n a power of two <= 32) of a block: the calling thread's, cut at the block's end */
static inline thread_group block_tile(unsigned n)
{
    unsigned r = block_rank(), threads = block_threads(), first = r & ~(n - 1);
    unsigned len = threads - first < n ? threads - first : n;
    return access::lanes(low_bits(len) << (lane() & ~(n - 1)), r / n, (threads + n - 1) / n);
}
/* tiles of n of a group of lanes: ranks k n to k n + n - 1 */
static inline coalesced_group lanes_tile(const thread_group &g, unsigned n)
{
    unsigned size = (unsigned)g.size(), rank = (unsigned)g.thread_rank();
    if (size <= n)
        return access::coalesced(access::mask(g), access::meta_rank(g), access::meta_size(g));
    unsigned mask = 0, first = rank / n * n;
    for (unsigned k = first; k < first + n && k < size; k++)
        mask |= 1u << nth_lane(access::mask(g), k);
    return access::coalesced(mask, rank / n, (size + n - 1) / n);
}

/* A tile of N threads (a power of two): within a warp, a group of its lanes ... */
template <unsigned _SimN, bool MultiWarp = (_SimN > 32)>
class tile_base : public thread_group {
    static_assert(_SimN >= 1 && (_SimN & (_SimN - 1)) == 0, "thread_block_tile<N>: N a power of two, 1 to 1024");

  protected:
    tile_base(unsigned meta_rank, unsigned meta_size)
        : thread_group(low_bits(_SimN) << (lane() & ~(_SimN - 1)), meta_rank, meta_size)
    {
    }

  public:
    static constexpr unsigned size() { return _SimN; }
    static constexpr unsigned num_threads() { return _SimN; }
    static unsigned thread_rank() { return block_rank() & (_SimN - 1); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { __syncwarp(mask_, f, l); }
    template <class _SimT>
    _SimT shfl(_SimT v, int src, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_sync(mask_, v, src, (int)_SimN, f, l);
    }
    template <class _SimT>
    _SimT shfl_down(_SimT v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_down_sync(mask_, v, d, (int)_SimN, f, l);
    }
    template <class _SimT>
    _SimT shfl_up(_SimT v, unsigned d, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_up_sync(mask_, v, d, (int)_SimN, f, l);
    }
    template <class _SimT>
    _SimT shfl_xor(_SimT v, int x, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __shfl_xor_sync(mask_, v, x, (int)_SimN, f, l);
    }
    int any(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { return __any_sync(mask_, p, f, l); }
    int all(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { return __all_sync(mask_, p, f, l); }
    unsigned ballot(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        return __ballot_sync(mask_, p, f, l) >> (lane() & ~(_SimN - 1));
    }
};

/* The reduction of a multi-warp tile of N threads, the same in every thread: each warp's by
 * shuffles, then the tile's warps' through a slot each. Every thread of the block calls it. */
template <unsigned _SimN, class _SimT, class Op>
static inline _SimT multi_warp_reduce(_SimT v, Op &op, const char *f, int l)
{
    for (int o = 16; o > 0; o /= 2)
        v = op(v, __shfl_xor_sync(0xffffffffu, v, o, 32, f, l));
    _SimT *slot = scratch<_SimT>();
    unsigned warp = block_rank() / 32, first = warp / (_SimN / 32) * (_SimN / 32), warps = (block_threads() + 31) / 32;
    if (lane() == 0)
        slot[warp] = v;
    sim_syncthreads(f, l);
    _SimT r = slot[first];
    for (unsigned w = first + 1; w < first + _SimN / 32 && w < warps; w++)
        r = op(r, slot[w]);
    sim_syncthreads(f, l); /* the slots are free again */
    return r;
}

/* ... or whole warps (64 to 1024 threads), whose sync is the block's barrier here */
template <unsigned _SimN>
class tile_base<_SimN, true> {
    static_assert(_SimN <= 1024 && (_SimN & (_SimN - 1)) == 0, "thread_block_tile<N>: N a power of two, 1 to 1024");

  protected:
    unsigned meta_rank_, meta_size_;
    tile_base(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}

  public:
    static constexpr unsigned size() { return _SimN; }
    static constexpr unsigned num_threads() { return _SimN; }
    static unsigned thread_rank() { return block_rank() & (_SimN - 1); }
    unsigned meta_group_rank() const { return meta_rank_; }
    unsigned meta_group_size() const { return meta_size_; }
    unsigned get_type() const { return multi_tile_group_id; }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const { sim_syncthreads(f, l); }
    template <class _SimT>
    _SimT shfl(_SimT v, unsigned src, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        _SimT *slot = scratch<_SimT>() + block_rank() / _SimN; /* one a tile */
        if (thread_rank() == src % _SimN)
            *slot = v;
        sim_syncthreads(f, l);
        _SimT r = *slot;
        sim_syncthreads(f, l);
        return r;
    }
    int any(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        auto op = [](int a, int b) { return a | b; };
        return multi_warp_reduce<_SimN>((int)(p != 0), op, f, l);
    }
    int all(int p, const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        auto op = [](int a, int b) { return a & b; };
        return multi_warp_reduce<_SimN>((int)(p != 0), op, f, l);
    }
};
struct partition_tag {};
} // namespace detail

/* tiled_partition<N>(parent) makes one; thread_block_tile<N, Parent> and <N> are the same here */
template <unsigned _SimN, class ParentT = void>
class thread_block_tile : public detail::tile_base<_SimN> {
  public:
    thread_block_tile(detail::partition_tag, unsigned meta_rank, unsigned meta_size)
        : detail::tile_base<_SimN>(meta_rank, meta_size)
    {
    }
    template <class _SimP>
    thread_block_tile(const thread_block_tile<_SimN, _SimP> &t) : detail::tile_base<_SimN>(t.meta_group_rank(), t.meta_group_size())
    {
    }
};

template <unsigned _SimN>
static inline thread_block_tile<_SimN> tiled_partition(const thread_block &)
{
    return thread_block_tile<_SimN>(detail::partition_tag(), detail::block_rank() / _SimN, (detail::block_threads() + _SimN - 1) / _SimN);
}
template <unsigned _SimN, unsigned _SimM, class _SimP>
static inline thread_block_tile<_SimN> tiled_partition(const thread_block_tile<_SimM, _SimP> &parent)
{
    static_assert(_SimN <= _SimM, "tiled_partition<N>(tile of M): N at most M");
    return thread_block_tile<_SimN>(detail::partition_tag(), parent.thread_rank() / _SimN, _SimM / _SimN);
}
static inline thread_block_tile<1> this_thread() { return thread_block_tile<1>(detail::partition_tag(), 0, 1); }

/* tiled_partition(parent, n): n at run time, a power of two from 1 to 32 */
static inline thread_group tiled_partition(const thread_block &, unsigned n, const char *f = __builtin_FILE(),
                                           int l = __builtin_LINE())
{
    if (detail::bad_tile_size(n, f, l))
        return thread_block();
    return detail::block_tile(n);
}
static inline coalesced_group tiled_partition(const coalesced_group &parent, unsigned n, const char *f = __builtin_FILE(),
                                              int l = __builtin_LINE())
{
    if (detail::bad_tile_size(n, f, l))
        return parent;
    return detail::lanes_tile(parent, n);
}
static inline thread_group tiled_partition(const thread_group &parent, unsigned n, const char *f = __builtin_FILE(),
                                           int l = __builtin_LINE())
{
    if (detail::bad_tile_size(n, f, l))
        return parent;
    if (parent.get_type() == detail::thread_block_id)
        return detail::block_tile(n);
    return detail::lanes_tile(parent, n);
}

/* The lanes of a warp-level group (a tile of at most 32, a coalesced group) with the same
 * label: a coalesced group of them (sm_70's match.any). binary_partition: label pred. */
template <class _SimG>
static inline coalesced_group labeled_partition(const _SimG &g, unsigned label, const char *f = __builtin_FILE(),
                                                int l = __builtin_LINE())
{
    static_assert(std::is_base_of<thread_group, _SimG>::value, "labeled_partition: a tile of at most 32 or a coalesced_group");
    const unsigned in = detail::access::mask(g);
    return detail::access::coalesced(__match_any_sync(in, label, f, l), 0, 1);
}
template <class _SimG>
static inline coalesced_group binary_partition(const _SimG &g, bool pred, const char *f = __builtin_FILE(),
                                               int l = __builtin_LINE())
{
    return labeled_partition(g, pred ? 1u : 0u, f, l);
}

/* The whole grid: its members work in any launch (a grid-stride loop over thread_rank() and
 * size()); grid.sync() needs a cooperative launch whose blocks are all resident at once, and the
 * simulator runs a grid's blocks one after another: sync() is the simulator's report and a
 * launch failure. */
class grid_group {
  public:
    unsigned long long thread_rank() const
    {
        return (unsigned long long)block_rank() * detail::block_threads() + detail::block_rank();
    }
    unsigned long long size() const { return (unsigned long long)num_blocks() * detail::block_threads(); }
    unsigned long long num_threads() const { return size(); }
    unsigned long long block_rank() const
    {
        return ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    }
    unsigned long long num_blocks() const { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    dim3 block_index() const { return dim3(blockIdx); }
    dim3 group_dim() const { return dim3(gridDim); }
    dim3 dim_blocks() const { return dim3(gridDim); }
    dim3 dim_threads() const { return dim3(blockDim); }
    bool is_valid() const { return true; }
    void sync(const char *f = __builtin_FILE(), int l = __builtin_LINE()) const
    {
        sim_kernel_trap("grid.sync(): a grid-wide barrier needs a cooperative launch, all blocks resident at once; "
                        "the simulator runs a grid's blocks one after another (run it on a GPU: simtlab run --mode cuda)",
                        f, (unsigned)l);
    }
};
static inline grid_group this_grid() { return grid_group(); }

template <class _SimG>
static inline void sync(const _SimG &g, const char *f = __builtin_FILE(), int l = __builtin_LINE())
{
    g.sync(f, l);
}
template <class _SimG>
static inline auto thread_rank(const _SimG &g) -> decltype(g.thread_rank())
{
    return g.thread_rank();
}
template <class _SimG>
static inline auto group_size(const _SimG &g) -> decltype(g.num_threads())
{
    return g.num_threads();
}

} // namespace cooperative_groups

#endif
