/* lessons/common/kernel_json.h - one kernel launch as JSON (see kernel_json.c). */
#ifndef LESSON_KERNEL_JSON_H
#define LESSON_KERNEL_JSON_H
#include "backend.h"
#include "json.h"

/* One object per launch: name, grid, block, shared_bytes, hbm.*, sram.*,
 * l2.* (read_sectors, write_sectors, hit_rate), dram.* (read_bytes,
 * write_bytes, dirty_after_bytes, background_read_bytes, background_write_bytes,
 * complete: the GPU's counters, or the simulator's L2 model), flops, time_ms,
 * status. detailed: the warp-level fields (sectors, wavefronts, conflicts) were
 * counted; else they are null. */
void lesson_json_kernel(json *j, const be_kernel *k, int detailed);
/* The same fields without the enclosing object, for callers adding their own. */
void lesson_json_kernel_fields(json *j, const be_kernel *k, int detailed);
/* The simulator's L2 sector hit rate of a launch (sim/l2.c); -1 when nothing reached L2. */
double lesson_l2_hit_rate(const sim_counters *c);
/* The GPU's, from lts__t_sectors_srcunit_tex_lookup_miss over L1's sectors; -1 if not measured
 * (or the atomic metrics are missing: the sectors are not all known). */
double lesson_hw_l2_hit_rate(const hw_counters *h);
/* A hit rate for a table: "97.5%", or "-" for -1 (none); returns buf. */
const char *lesson_hit_text(double h, char *buf, size_t n);
#endif
