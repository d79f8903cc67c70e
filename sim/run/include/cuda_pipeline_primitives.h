/* sim/run/include/cuda_pipeline_primitives.h - the pipeline primitives for `simtlab run`:
 * __pipeline_memcpy_async(dst, src, size) (size 4, 8 or 16 bytes, both addresses aligned to it:
 * one cp.async; zfill bytes at the end zeroed instead of copied; another size traps, as CUDA's), __pipeline_commit() and
 * __pipeline_wait_prior(N) (simtlab_async.h: the copies land at once; in detailed mode they are pending
 * until the wait, and an access before it is reported). */
#ifndef SIMTLAB_CUDA_PIPELINE_PRIMITIVES_H
#define SIMTLAB_CUDA_PIPELINE_PRIMITIVES_H
#include "simtlab_async.h"

static inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size_and_align, size_t zfill = 0,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align) {
        /* CUDA's header traps (_CUDA_PIPELINE_ABORT) */
        char what[160];
        snprintf(what, sizeof what, "__pipeline_memcpy_async: size %zu (zero-fill %zu) is not 4, 8 or 16 bytes",
                 size_and_align, zfill);
        sim_kernel_trap(what, file, (unsigned)line);
        return;
    }
    if (zfill == 0 && size_and_align == 16)
        simtlab::async_copy_part<16>(dst, src, 16, 0, 1);
    else if (zfill == 0 && size_and_align == 8)
        simtlab::async_copy_part<8>(dst, src, 8, 0, 1);
    else if (zfill == 0)
        simtlab::async_copy_part<4>(dst, src, size_and_align, 0, 1);
    else { /* the source's first size - zfill bytes, then zeros */
        for (size_t i = 0; i < size_and_align; i++)
            ((unsigned char *)dst)[i] = i < size_and_align - zfill ? ((const unsigned char *)src)[i] : 0;
    }
}
static inline void __pipeline_commit() { sim_cp_async_commit(); }
static inline void __pipeline_wait_prior(size_t prior) { sim_cp_async_wait_prior((unsigned)prior); }
#endif
