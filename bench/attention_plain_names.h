/* bench/attention_plain_names.h - force-included (-include) into the
 * uninstrumented twin of lessons/04_attention/attention.cu (bench/CMakeLists.txt,
 * bench_attention_plain), so that its external symbols do not collide with the
 * instrumented build's in lesson_kernels_sim.
 *
 * The list is `nm --defined-only -g` of lesson_kernels_sim's attention object:
 * every kernel gets a _plain suffix, every launcher X_launch_sim becomes
 * X_launch_sim_plain, and so do the two host functions (the CPU reference).
 * A kernel named through a macro argument that is expanded before LAUNCHER
 * pastes it (V2_LAUNCHER) reaches LAUNCHER already renamed, so LAUNCHER pastes
 * X_plain_launch_sim: that token is mapped to X_launch_sim_plain as well. The
 * POST_BUILD check in bench/CMakeLists.txt fails the build if the twin defines
 * any external symbol without _plain (a kernel added to attention.cu later).
 *
 * Asynchronous copies: in the simulator build copy_async_float4 calls
 * sim_copy_async, which checks and counts the copy (sim/access.c); that is
 * instrumentation too, so the twin copies the 16 bytes with no checks or
 * counters, as a GPU's cp.async does. */
#ifndef BENCH_ATTENTION_PLAIN_NAMES_H
#define BENCH_ATTENTION_PLAIN_NAMES_H
#include <string.h>

/* host code of attention.cu */
#define attention_cpu attention_cpu_plain
#define attention_cpu_rows attention_cpu_rows_plain

/* kernels */
#define attn_std_scores attn_std_scores_plain
#define attn_std_softmax attn_std_softmax_plain
#define attn_std_pv attn_std_pv_plain
#define attn_flash_v1_init attn_flash_v1_init_plain
#define attn_flash_v1 attn_flash_v1_plain
#define attn_flash_v2_d16 attn_flash_v2_d16_plain
#define attn_flash_v2_d32 attn_flash_v2_d32_plain
#define attn_flash_v2_d64 attn_flash_v2_d64_plain
#define attn_flash_v2_d128 attn_flash_v2_d128_plain
#define attn_flash_v2_merge attn_flash_v2_merge_plain

/* launchers pasted from the original name (LAUNCHER(attn_flash_v1, ...)) */
#define attn_std_scores_launch_sim attn_std_scores_launch_sim_plain
#define attn_std_softmax_launch_sim attn_std_softmax_launch_sim_plain
#define attn_std_pv_launch_sim attn_std_pv_launch_sim_plain
#define attn_flash_v1_init_launch_sim attn_flash_v1_init_launch_sim_plain
#define attn_flash_v1_launch_sim attn_flash_v1_launch_sim_plain
#define attn_flash_v2_d16_launch_sim attn_flash_v2_d16_launch_sim_plain
#define attn_flash_v2_d32_launch_sim attn_flash_v2_d32_launch_sim_plain
#define attn_flash_v2_d64_launch_sim attn_flash_v2_d64_launch_sim_plain
#define attn_flash_v2_d128_launch_sim attn_flash_v2_d128_launch_sim_plain
#define attn_flash_v2_merge_launch_sim attn_flash_v2_merge_launch_sim_plain
/* ... and from the renamed one (V2_LAUNCHER(k) expands k first) */
#define attn_flash_v2_d16_plain_launch_sim attn_flash_v2_d16_launch_sim_plain
#define attn_flash_v2_d32_plain_launch_sim attn_flash_v2_d32_launch_sim_plain
#define attn_flash_v2_d64_plain_launch_sim attn_flash_v2_d64_launch_sim_plain
#define attn_flash_v2_d128_plain_launch_sim attn_flash_v2_d128_launch_sim_plain

/* asynchronous copies without the simulator's checks and counters; the
 * later declarations in sim/kernel.h name these static functions */
#define sim_copy_async bench_plain_copy_async
#define sim_copy_async_wait bench_plain_copy_async_wait
static inline __attribute__((unused, always_inline)) void bench_plain_copy_async(void *dst, const void *src,
                                                                                 unsigned size)
{
    memcpy(dst, src, size);
}
static inline __attribute__((unused, always_inline)) void bench_plain_copy_async_wait(void) {}
#endif
