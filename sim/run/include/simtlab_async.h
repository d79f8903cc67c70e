/* sim/run/include/simtlab_async.h - the asynchronous copies of cuda::memcpy_async (cuda/pipeline),
 * cg::memcpy_async (cooperative_groups/memcpy_async.h) and __pipeline_memcpy_async
 * (cuda_pipeline.h) over the simulator's cp.async (sim_copy_async, sim/access.c).
 *
 * A copy from global to shared memory whose size and addresses are aligned to 4, 8 or 16 bytes
 * goes in pieces of that many bytes (16 at most), each one cp.async (LDGSTS on the chip: counted
 * as a global read and a shared write, in detailed mode as its own kind of request, as the lesson
 * kernels' copy_async_float4). Anything else (another space, less alignment) is copied with plain
 * loads and stores, which is what libcu++ falls back to. The simulator completes every copy at
 * once, but in detailed mode (--detail) a cp.async piece stays pending in its thread's open group
 * until a wait completes it, as on the chip: sim_cp_async_commit (__pipeline_commit,
 * producer_commit, each cg::memcpy_async) closes the group, sim_cp_async_wait_prior(n)
 * (__pipeline_wait_prior, consumer_wait, cg::wait_prior, cg::wait with n 0) completes all
 * committed groups but the n latest, and sim_copy_async_wait (cp.async.wait_all; a copy with a
 * block's barrier or pipeline) all of them; an access to a pending destination is a race report
 * (sim/access.c, cp_track). */
#ifndef SIMTLAB_ASYNC_H
#define SIMTLAB_ASYNC_H
#include "cuda_runtime.h"

extern "C" void sim_copy_async_wait(void); /* all the thread's copies have landed */
extern "C" int sim_kernel_trap(const char *what, const char *file, unsigned line);

namespace simtlab {
template <size_t _SimP> struct async_word; /* a piece's type: one access of P bytes */
template <> struct async_word<1> { typedef unsigned char type; };
template <> struct async_word<4> { typedef unsigned type; };
template <> struct async_word<8> { typedef unsigned long long type; };
template <> struct async_word<16> { typedef unsigned type __attribute__((vector_size(16))); };

/* One thread's part of a copy of n bytes that the caller promises `Align`-aligned: pieces first,
 * first + step, ... (a group's thread rank and size; 0 and 1 for a thread's own copy). Align 0:
 * no promise; the largest of 16, 8 and 4 that the addresses and n allow (cg::memcpy_async of a
 * byte count, as CUDA's picks at run time). */
template <size_t Align>
static inline __attribute__((always_inline)) void async_copy_part(void *dst, const void *src, size_t n, size_t first,
                                                                  size_t step);
template <>
inline __attribute__((always_inline)) void async_copy_part<0>(void *dst, const void *src, size_t n, size_t first,
                                                              size_t step)
{
    const uintptr_t a = (uintptr_t)dst | (uintptr_t)src | n;
    if (a % 16 == 0)
        async_copy_part<16>(dst, src, n, first, step);
    else if (a % 8 == 0)
        async_copy_part<8>(dst, src, n, first, step);
    else if (a % 4 == 0)
        async_copy_part<4>(dst, src, n, first, step);
    else
        async_copy_part<1>(dst, src, n, first, step);
}
template <size_t Align>
static inline __attribute__((always_inline)) void async_copy_part(void *dst, const void *src, size_t n, size_t first,
                                                                  size_t step)
{
    constexpr size_t _SimP = Align >= 16 ? 16 : Align >= 8 ? 8 : Align >= 4 ? 4 : 1;
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (_SimP >= 4 && n % _SimP == 0 && d % _SimP == 0 && s % _SimP == 0 && __isGlobal(src) && __isShared(dst)) {
        for (size_t i = first; i < n / _SimP; i += step)
            sim_cp_async((char *)dst + i * _SimP, (const char *)src + i * _SimP, (unsigned)_SimP);
        return;
    }
    typedef typename async_word<_SimP>::type _SimW;
    for (size_t i = first; i < n / _SimP; i += step)
        ((_SimW *)dst)[i] = ((const _SimW *)src)[i];
    for (size_t i = n / _SimP * _SimP + first; i < n; i += step) /* a tail that is not a whole piece */
        ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
}
} // namespace simtlab
#endif
