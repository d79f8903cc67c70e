/* sim/run/include/simtlab_cuda_sync.h - what <cuda/barrier> and <cuda/pipeline> share for
 * `simtlab run`: cuda::thread_scope, cuda::aligned_size_t, and a block's cuda::barrier
 * (cuda::thread_scope_block, in shared memory: `__shared__ cuda::barrier<...> bar;`, then
 * `init(&bar, count)` by one thread and a __syncthreads()): arrive (a token), wait(token),
 * arrive_and_wait, arrive_and_drop, max(); and cuda::memcpy_async(..., barrier) of a thread or
 * of a cooperative group. Its 8 bytes are the simulator's own (sim/launch.c, sim_cbar_*), as the
 * chip's mbarrier: no traffic counted, no race checked on them. A thread waits for its phase
 * parked; threads waiting for a phase that cannot complete are a deadlock report, and misuse
 * (before init, more arrivals than a phase misses) a report. A copy with a barrier lands at once
 * and is not tracked as in flight (docs/run.md). Other scopes and completion functions are refused
 * at compile time with one line. */
#ifndef SIMTLAB_CUDA_SYNC_H
#define SIMTLAB_CUDA_SYNC_H
#include <cstddef>
#include <cstdint>
#include <utility>

#include "simtlab_async.h"

extern "C" {
int sim_cbar_init(uint64_t *b, long long expected, const char *file, int line);
uint64_t sim_cbar_arrive(uint64_t *b, long long n, int drop, const char *file, int line);
void sim_cbar_wait(const uint64_t *b, uint64_t token, const char *file, int line);
void sim_cbar_wait_parity(const uint64_t *b, int parity, const char *file, int line);
uint64_t sim_cbar_count(uint64_t *b, int op);
}

namespace cuda {
enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

template <size_t Align> struct aligned_size_t {
    static constexpr size_t align = Align;
    size_t value;
    constexpr explicit aligned_size_t(size_t s) : value(s) {}
    constexpr operator size_t() const { return value; }
};

namespace simtlab_detail {
template <class Size> struct align_of { static constexpr size_t value = 1; };
template <size_t _SimA> struct align_of<aligned_size_t<_SimA>> { static constexpr size_t value = _SimA; };
template <thread_scope _SimS> struct dependent_false { static constexpr bool value = false; };
struct empty_completion {
    void operator()() const {}
};
template <class _SimF> struct is_empty_completion { static constexpr bool value = false; };
template <> struct is_empty_completion<empty_completion> { static constexpr bool value = true; };
/* a copy's alignment: the larger of the type's and the size's promise, as libcu++ takes them */
template <class Tp, class Size> struct typed_align {
    static constexpr size_t value = alignof(Tp) > align_of<Size>::value ? alignof(Tp) : align_of<Size>::value;
};
} // namespace simtlab_detail

template <thread_scope Scope, class CompletionFunction = simtlab_detail::empty_completion> class barrier {
    static_assert(Scope == thread_scope_block,
                  "simtlab run: only a block's cuda::barrier (cuda::thread_scope_block) is supported by the "
                  "simulator; run the program on a GPU (simtlab run --mode cuda)");
    static_assert(simtlab_detail::is_empty_completion<CompletionFunction>::value,
                  "simtlab run: a cuda::barrier with a completion function is not supported by the simulator; run "
                  "the program on a GPU (simtlab run --mode cuda)");
    uint64_t state_; /* the simulator's (sim_cbar_*) */

  public:
    class arrival_token {
        uint64_t phase_ = 0;
        friend class barrier;

      public:
        arrival_token() = default;
    };
    barrier() = default;
    barrier(const barrier &) = delete;
    barrier &operator=(const barrier &) = delete;
    explicit barrier(std::ptrdiff_t expected, CompletionFunction = CompletionFunction(),
                     const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        sim_cbar_init(&state_, expected, file, line);
    }
    void simtlab_init(std::ptrdiff_t expected, const char *file, int line)
    {
        sim_cbar_init(&state_, expected, file, line);
    }
    arrival_token arrive(std::ptrdiff_t n = 1, const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        arrival_token t;
        t.phase_ = sim_cbar_arrive(&state_, n, 0, file, line);
        return t;
    }
    void wait(arrival_token &&t, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        sim_cbar_wait(&state_, t.phase_, file, line);
    }
    void arrive_and_wait(const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        sim_cbar_wait(&state_, sim_cbar_arrive(&state_, 1, 0, file, line), file, line);
    }
    void arrive_and_drop(const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        (void)sim_cbar_arrive(&state_, 1, 1, file, line);
    }
    /* libcu++'s extension: wait until the phase of that parity has completed */
    void wait_parity(bool parity, const char *file = __builtin_FILE(), int line = __builtin_LINE()) const
    {
        sim_cbar_wait_parity(&state_, parity, file, line);
    }
    static constexpr std::ptrdiff_t max() { return (1 << 20) - 1; }
    uint64_t *simtlab_state() { return &state_; } /* a block's pipeline's stages */
};

/* init(&bar, count): found by its argument, as libcu++'s, and as cuda::init too */
template <thread_scope Scope, class CF>
inline void init(barrier<Scope, CF> *b, std::ptrdiff_t expected, CF = CF(), const char *file = __builtin_FILE(),
                 int line = __builtin_LINE())
{
    b->simtlab_init(expected, file, line);
}

/* a copy the barrier's phase completes: it lands at once (cp.async pieces when global to shared
 * and aligned, as simtlab_async.h's), so nothing of it is left in flight for the phase to wait for */
template <class Size, thread_scope Scope, class CF>
inline void memcpy_async(void *dst, const void *src, Size size, barrier<Scope, CF> &)
{
    simtlab::async_copy_part<simtlab_detail::align_of<Size>::value>(dst, src, (size_t)size, 0, 1);
    sim_copy_async_wait();
}
template <class Tp, class Size, thread_scope Scope, class CF>
inline void memcpy_async(Tp *dst, const Tp *src, Size size, barrier<Scope, CF> &)
{
    simtlab::async_copy_part<simtlab_detail::typed_align<Tp, Size>::value>(dst, src, (size_t)size, 0, 1);
    sim_copy_async_wait();
}
template <class Group, class Size, thread_scope Scope, class CF,
          class = decltype(std::declval<const Group &>().thread_rank() + std::declval<const Group &>().size())>
inline void memcpy_async(const Group &g, void *dst, const void *src, Size size, barrier<Scope, CF> &)
{
    simtlab::async_copy_part<simtlab_detail::align_of<Size>::value>(dst, src, (size_t)size, g.thread_rank(), g.size());
    sim_copy_async_wait();
}
template <class Group, class Tp, class Size, thread_scope Scope, class CF,
          class = decltype(std::declval<const Group &>().thread_rank() + std::declval<const Group &>().size())>
inline void memcpy_async(const Group &g, Tp *dst, const Tp *src, Size size, barrier<Scope, CF> &)
{
    simtlab::async_copy_part<simtlab_detail::typed_align<Tp, Size>::value>(dst, src, (size_t)size, g.thread_rank(), g.size());
    sim_copy_async_wait();
}
} // namespace cuda
#endif
