/* tests/test_report.c - the per-launch report fields every lesson and `simtlab run` share
 * (lessons/common/kernel_json.c), on hand-made counters:
 *  - L2's hit rate as the chip counts it: of the sectors L1 sends, those L2 held, every
 *    write a hit (the chip's write lookups never miss; an atomic's may, as a read's), for
 *    the model and for the GPU (lts__t_sectors_srcunit_tex_lookup_miss over L1's reads,
 *    writes and atomics; no rate without the atomic metrics);
 *  - the JSON: l2.hit_rate of both sides, null where the GPU's was not measured;
 *    dram.background_read_bytes and dram.background_write_bytes of a simulated launch.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_json.h"

Test(report, model_hit_rate_counts_writes_as_hits)
{
    sim_counters c = {0};
    cr_assert_eq(lesson_l2_hit_rate(&c), -1.0, "nothing reached L2: no rate");
    c.l2_read_sectors = 300, c.l2_read_hits = 200; /* 100 read misses */
    c.l2_write_sectors = 100, c.l2_write_hits = 0;  /* writes of sectors L2 did not hold */
    cr_assert_float_eq(lesson_l2_hit_rate(&c), 0.75, 1e-12, "100 read misses of 400 sectors: %g",
                       lesson_l2_hit_rate(&c));
    c.l2_atom_misses = 20; /* of the 100 "writes", 20 atomics whose sector L2 did not hold */
    cr_assert_float_eq(lesson_l2_hit_rate(&c), 0.70, 1e-12, "100 read and 20 atomic misses of 400: %g",
                       lesson_l2_hit_rate(&c));
    c.l2_read_sectors = 0, c.l2_read_hits = 0, c.l2_atom_misses = 0;
    cr_assert_float_eq(lesson_l2_hit_rate(&c), 1.0, 1e-12, "writes alone never miss: %g", lesson_l2_hit_rate(&c));
}

Test(report, gpu_hit_rate_from_lookup_misses)
{
    hw_counters h = {0};
    h.valid = 1;
    h.l2_read_sectors = 600, h.l2_write_sectors = 200;
    h.atom_valid = 1;
    cr_assert_eq(lesson_hw_l2_hit_rate(&h), -1.0, "the lookup misses were not measured: no rate");
    h.l2_miss_valid = 1, h.l2_miss_sectors = 200;
    cr_assert_float_eq(lesson_hw_l2_hit_rate(&h), 0.75, 1e-12, "200 misses of 800: %g", lesson_hw_l2_hit_rate(&h));
    h.atom_valid = 0;
    cr_assert_eq(lesson_hw_l2_hit_rate(&h), -1.0, "without the atomic metrics the sectors are not all known");
    h.atom_valid = 1, h.atom_sectors = 100, h.red_sectors = 100; /* atomics reach L2 too */
    cr_assert_float_eq(lesson_hw_l2_hit_rate(&h), 0.8, 1e-12, "200 misses of 1000: %g", lesson_hw_l2_hit_rate(&h));
    h.l2_miss_sectors = 5000;
    cr_assert_eq(lesson_hw_l2_hit_rate(&h), -1.0, "more misses than sectors is not a rate");
    h.l2_miss_sectors = 0, h.valid = 0;
    cr_assert_eq(lesson_hw_l2_hit_rate(&h), -1.0, "no counters: no rate");
}

Test(report, hit_rate_text)
{
    char b[16];
    cr_assert_str_eq(lesson_hit_text(0.975, b, sizeof b), "97.5%");
    cr_assert_str_eq(lesson_hit_text(-1, b, sizeof b), "-", "no rate: a dash");
}

/* The launch as JSON text, in a malloc'd string. */
static char *as_json(const be_kernel *k)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    json j;
    json_open(&j, f);
    lesson_json_kernel_fields(&j, k, 0);
    json_close(&j);
    fclose(f);
    return buf;
}

static be_kernel launch(const char *name)
{
    be_kernel k;
    memset(&k, 0, sizeof k);
    snprintf(k.name, sizeof k.name, "%s", name);
    k.cfg.grid = (simt_dim){1, 1, 1};
    k.cfg.block = (simt_dim){32, 1, 1};
    return k;
}

Test(report, json_hit_rates_and_background_traffic)
{
    be_kernel s = launch("sim_launch");
    s.sim.l2_read_sectors = 300, s.sim.l2_read_hits = 200, s.sim.l2_write_sectors = 100;
    s.sim.dram_read_bytes = 4096, s.sim.dram_background_read_bytes = 1024;
    s.sim.dram_write_bytes = 2048, s.sim.dram_background_write_bytes = 512;
    char *t = as_json(&s);
    cr_assert(strstr(t, "\"hit_rate\": 0.75") || strstr(t, "\"hit_rate\":0.75"), "the model's rate: %s", t);
    cr_assert(strstr(t, "\"background_read_bytes\": 1024") || strstr(t, "\"background_read_bytes\":1024"), "%s", t);
    cr_assert(strstr(t, "\"background_write_bytes\": 512") || strstr(t, "\"background_write_bytes\":512"), "%s", t);
    free(t);

    be_kernel g = launch("gpu_launch");
    g.on_gpu = 1;
    g.hw.valid = 1, g.hw.atom_valid = 1, g.hw.l2_read_sectors = 600, g.hw.l2_write_sectors = 200;
    t = as_json(&g);
    cr_assert(strstr(t, "\"hit_rate\": null") || strstr(t, "\"hit_rate\":null"), "not measured: %s", t);
    cr_assert(strstr(t, "\"background_write_bytes\": null") || strstr(t, "\"background_write_bytes\":null"),
              "the GPU has no background share: %s", t);
    free(t);
    g.hw.l2_miss_valid = 1, g.hw.l2_miss_sectors = 200;
    t = as_json(&g);
    cr_assert(strstr(t, "\"hit_rate\": 0.75") || strstr(t, "\"hit_rate\":0.75"), "the GPU's rate: %s", t);
    free(t);
}
