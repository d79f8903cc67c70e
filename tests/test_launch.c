/* tests/test_launch.c - launch configuration, limits and device presets (sim/launch.c).
 *
 * Covers: every limit CUDA enforces on a launch (threads per block, block and
 * grid dimensions, zero dimensions, dynamic shared memory with and without
 * opt-in) returns the status CUDA returns, under CUDA's name, with a message
 * that names the numbers; configurations exactly at a limit run; the four
 * device presets carry the documented values; 1-, 2- and 3-D grids and blocks
 * give every thread the right blockIdx/threadIdx/blockDim/gridDim.
 * Not covered here: what kernels do (the other test files).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>

#include "launch_kernels.h"
#include "test_util.h"

/* ---- status names ---------------------------------------------------------------- */
Test(launch, status_names_are_cuda_names)
{
    static const struct { sim_status s; const char *name; } t[] = {
        {SIM_OK, "cudaSuccess"},
        {SIM_ERR_INVALID_VALUE, "cudaErrorInvalidValue"},
        {SIM_ERR_INVALID_CONFIGURATION, "cudaErrorInvalidConfiguration"},
        {SIM_ERR_MEMORY_ALLOCATION, "cudaErrorMemoryAllocation"},
        {SIM_ERR_INVALID_DEVICE_POINTER, "cudaErrorInvalidDevicePointer"},
        {SIM_ERR_ILLEGAL_ADDRESS, "cudaErrorIllegalAddress"},
        {SIM_ERR_MISALIGNED_ADDRESS, "cudaErrorMisalignedAddress"},
        {SIM_ERR_STACK_OVERFLOW, "cudaErrorLaunchFailure"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        cr_assert(strstr(sim_status_name(t[i].s), t[i].name) == sim_status_name(t[i].s),
                  "case status %d: name should start with %s, is %s", (int)t[i].s, t[i].name,
                  sim_status_name(t[i].s));
    /* the simulator's own statuses have names too, and out-of-range values do not crash */
    for (int s = 0; s < SIM_ERR_COUNT; s++)
        cr_assert(sim_status_name((sim_status)s)[0] != 0 && strcmp(sim_status_name((sim_status)s), "unknown status"),
                  "case status %d: has no name", s);
    cr_assert_str_eq(sim_status_name(SIM_ERR_COUNT), "unknown status", "case SIM_ERR_COUNT: name");
    cr_assert_str_eq(sim_status_name((sim_status)-1), "unknown status", "case -1: name");
}

/* ---- launch limits ------------------------------------------------------------------- */
/* Parameters live in arrays of plain data: Criterion may run each case in a
 * freshly exec'd process, where pointers into this one would dangle. */
typedef struct limit_case {
    char name[32];
    simt_dim grid, block;
    size_t shared;
    sim_status want;
    char needle[4][48]; /* substrings the message must contain ("" ends the list) */
} limit_case;

/* The default device is sm_90: 1024 threads per block, block (1024,1024,64),
 * grid (2^31-1, 65535, 65535), 48 KB of dynamic shared memory without opt-in,
 * 227 KB (232448 bytes) with it. */
static limit_case limit_cases[] = {
    {"1025 threads", {1, 1, 1}, {1025, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"1025 threads", "at most 1024 threads", "(1025,1,1)"}},
    {"32x33 threads", {1, 1, 1}, {32, 33, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"1056 threads", "1024", "(32,33,1)"}},
    {"8x8x32 threads", {1, 1, 1}, {8, 8, 32}, 0, SIM_ERR_INVALID_CONFIGURATION, {"2048 threads", "1024"}},
    {"block.y 1025", {1, 1, 1}, {1, 1025, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(1,1025,1)", "(1024,1024,64)"}},
    {"block.z 65", {1, 1, 1}, {1, 1, 65}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(1,1,65)", "65 threads", "(1024,1024,64)"}},
    {"block.z 65 wide", {1, 1, 1}, {2, 2, 65}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(2,2,65)", "(1024,1024,64)"}},
    {"grid.x 0", {0, 1, 1}, {32, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"grid (0,1,1)", "at least 1"}},
    {"grid.y 0", {1, 0, 1}, {32, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"grid (1,0,1)", "at least 1"}},
    {"grid.z 0", {1, 1, 0}, {32, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"grid (1,1,0)", "at least 1"}},
    {"block.x 0", {1, 1, 1}, {0, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"block (0,1,1)", "at least 1"}},
    {"block.y 0", {1, 1, 1}, {1, 0, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"block (1,0,1)", "at least 1"}},
    {"block.z 0", {1, 1, 1}, {1, 1, 0}, 0, SIM_ERR_INVALID_CONFIGURATION, {"block (1,1,0)", "at least 1"}},
    {"grid.y 65536", {1, 65536, 1}, {1, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(1,65536,1)", "65535"}},
    {"grid.z 65536", {1, 1, 65536}, {1, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(1,1,65536)", "65535"}},
    {"grid.x 2^31", {2147483648u, 1, 1}, {1, 1, 1}, 0, SIM_ERR_INVALID_CONFIGURATION, {"(2147483648,1,1)", "2147483647"}},
    {"shared 48K+1", {1, 1, 1}, {32, 1, 1}, (48 << 10) + 1, SIM_ERR_INVALID_VALUE, {"49153 bytes", "49152-byte limit", "opt in", "232448"}},
    {"shared 100K", {1, 1, 1}, {32, 1, 1}, 100 << 10, SIM_ERR_INVALID_VALUE, {"102400 bytes", "49152", "opt in"}},
    {"shared 227K+4", {1, 1, 1}, {32, 1, 1}, (227 << 10) + 4, SIM_ERR_INVALID_VALUE, {"232452 bytes", "232448 bytes", "227 KB", "sm_90"}},
};

ParameterizedTestParameters(launch, limits)
{
    return cr_make_param_array(limit_case, limit_cases, sizeof limit_cases / sizeof limit_cases[0]);
}

ParameterizedTest(limit_case *c, launch, limits)
{
    int *d_out = dev_buf("out", sizeof(int), NULL);
    simt_cfg cfg = {c->grid, c->block, c->shared, NULL, 0};
    int st = nothing_launch_sim(&cfg, d_out);
    cr_assert_eq(st, c->want, "case %s: status %s, want %s (%s)", c->name, sim_status_name((sim_status)st),
                 sim_status_name(c->want), sim_last_error());
    cr_assert_eq(sim_get_last_status(), c->want, "case %s: sim_get_last_status", c->name);
    cr_assert_eq(sim_get_last_status(), SIM_OK, "case %s: sim_get_last_status resets", c->name);
    ASSERT_ERROR_HAS(sim_status_name(c->want), "%s (status name first)", c->name);
    ASSERT_ERROR_HAS("nothing", "%s (kernel name)", c->name);
    for (int k = 0; k < 4 && c->needle[k][0]; k++)
        ASSERT_ERROR_HAS(c->needle[k], "%s", c->name);
    /* nothing ran */
    const sim_launch_info *li = sim_last_launch();
    cr_assert_eq(li->status, c->want, "case %s: sim_last_launch()->status", c->name);
    cr_assert_eq(li->c.threads, 0, "case %s: %llu threads ran", c->name, (unsigned long long)li->c.threads);
    int v = -1;
    to_host(&v, d_out, sizeof v);
    cr_assert_eq(v, 0, "case %s: the kernel ran (out = %d)", c->name, v);
    /* and the next valid launch works */
    simt_cfg ok = cfg1(1, 32, 0);
    SIM_CHECK(nothing_launch_sim(&ok, d_out));
    to_host(&v, d_out, sizeof v);
    cr_assert_eq(v, 1, "case %s: a valid launch afterwards did not run", c->name);
}

/* Configurations exactly at a limit are legal and run every thread. */
typedef struct edge_case {
    char name[32];
    simt_dim grid, block;
    size_t shared;
} edge_case;

static edge_case edge_cases[] = {
    {"1024x1x1", {1, 1, 1}, {1024, 1, 1}, 0},
    {"1x1024x1", {1, 1, 1}, {1, 1024, 1}, 0},
    {"16x1x64", {1, 1, 1}, {16, 1, 64}, 0},
    {"32x32x1", {1, 1, 1}, {32, 32, 1}, 0},
    {"grid.y 65535", {1, 65535, 1}, {1, 1, 1}, 0},
    {"grid.z 65535", {1, 1, 65535}, {1, 1, 1}, 0},
    {"shared 48K", {2, 1, 1}, {32, 1, 1}, 48 << 10},
};

ParameterizedTestParameters(launch, at_limit)
{
    return cr_make_param_array(edge_case, edge_cases, sizeof edge_cases / sizeof edge_cases[0]);
}

ParameterizedTest(edge_case *c, launch, at_limit)
{
    simt_cfg cfg = {c->grid, c->block, c->shared, NULL, 0};
    uint64_t blocks = (uint64_t)c->grid.x * c->grid.y * c->grid.z;
    uint64_t threads = blocks * c->block.x * c->block.y * c->block.z;
    int *d_out = dev_buf("out", 2 * blocks * sizeof(int), NULL);
    int st = c->shared ? touch_dyn_shared_launch_sim(&cfg, d_out, (int)(c->shared / 4)) : nothing_launch_sim(&cfg, d_out);
    cr_assert_eq(st, SIM_OK, "case %s: %s", c->name, sim_last_error());
    cr_assert_eq(sim_last_launch()->c.threads, threads, "case %s: threads run %llu, want %llu", c->name,
                 (unsigned long long)sim_last_launch()->c.threads, (unsigned long long)threads);
    if (c->shared) {
        int v[4];
        to_host(v, d_out, sizeof v);
        for (int b = 0; b < 2; b++)
            cr_assert(v[2 * b] == 11 && v[2 * b + 1] == 22, "case %s: block %d read back %d, %d (want 11, 22)",
                      c->name, b, v[2 * b], v[2 * b + 1]);
    }
}

/* ---- dynamic shared memory opt-in, per preset ---------------------------------------- */
typedef struct preset_case {
    char name[16];
    char card_has[16]; /* substring of the card name */
    int cc_major, cc_minor;
    int sms;
    unsigned optin_kb, l2_mb;
    double hbm_tb_s, fp32_tflops;
} preset_case;

/* DESIGN.md: opt-in 163/99/227/227 KB, L2 40/72/50/60 MB, SMs 108/128/132/132,
 * HBM 1.56/1.01/3.35/4.8 TB/s, fp32 19.5/82.6/67/67 TFLOP/s. */
static preset_case preset_cases[] = {
    {"sm_80", "A100", 8, 0, 108, 163, 40, 1.56, 19.5},
    {"sm_89", "4090", 8, 9, 128, 99, 72, 1.01, 82.6},
    {"sm_90", "H100", 9, 0, 132, 227, 50, 3.35, 67.0},
    {"h200", "H200", 9, 0, 132, 227, 60, 4.8, 67.0},
};

ParameterizedTestParameters(launch, presets)
{
    return cr_make_param_array(preset_case, preset_cases, sizeof preset_cases / sizeof preset_cases[0]);
}

ParameterizedTest(preset_case *c, launch, presets)
{
    const sim_device *d = sim_device_find(c->name);
    cr_assert(d != NULL, "case %s: sim_device_find returned NULL", c->name);
    cr_assert_str_eq(d->name, c->name, "case %s: name", c->name);
    cr_assert(strstr(d->card, c->card_has), "case %s: card '%s' should mention %s", c->name, d->card, c->card_has);
    cr_assert(d->cc_major == c->cc_major && d->cc_minor == c->cc_minor, "case %s: compute capability %d.%d", c->name,
              d->cc_major, d->cc_minor);
    cr_assert_eq(d->sm_count, c->sms, "case %s: %d SMs, want %d", c->name, d->sm_count, c->sms);
    cr_assert_eq(d->shared_per_block, 48u << 10, "case %s: default shared per block %zu", c->name, d->shared_per_block);
    cr_assert_eq(d->shared_per_block_optin, (size_t)c->optin_kb << 10, "case %s: opt-in max %zu, want %u KB", c->name,
                 d->shared_per_block_optin, c->optin_kb);
    cr_assert_eq(d->l2_bytes, (size_t)c->l2_mb << 20, "case %s: L2 %zu, want %u MB", c->name, d->l2_bytes, c->l2_mb);
    cr_assert(fabs(d->hbm_bytes_per_s / 1e12 - c->hbm_tb_s) < 0.006, "case %s: HBM %.3f TB/s, want %.2f", c->name,
              d->hbm_bytes_per_s / 1e12, c->hbm_tb_s);
    cr_assert(fabs(d->fp32_flops_per_s / 1e12 - c->fp32_tflops) < 0.05, "case %s: fp32 %.2f TFLOP/s, want %.1f", c->name,
              d->fp32_flops_per_s / 1e12, c->fp32_tflops);
    cr_assert(d->max_threads_per_block == 1024 && d->max_block[0] == 1024 && d->max_block[1] == 1024 &&
                  d->max_block[2] == 64,
              "case %s: block limits", c->name);
    cr_assert(d->max_grid[0] == 2147483647u && d->max_grid[1] == 65535 && d->max_grid[2] == 65535,
              "case %s: grid limits", c->name);

    /* opt-in above the preset's maximum is refused and names both numbers */
    sim_set_device(d);
    cr_assert_eq(sim_get_device(), d, "case %s: sim_set_device", c->name);
    size_t max = (size_t)c->optin_kb << 10;
    char num[64];
    int st = sim_set_max_dynamic_shared(max + 1);
    cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "case %s: opt-in to %zu bytes returned %s", c->name, max + 1,
                 sim_status_name((sim_status)st));
    snprintf(num, sizeof num, "%zu", max + 1);
    ASSERT_ERROR_HAS(num, "%s opt-in too large (value given)", c->name);
    snprintf(num, sizeof num, "%zu bytes (%u KB)", max, c->optin_kb);
    ASSERT_ERROR_HAS(num, "%s opt-in too large (limit)", c->name);
    ASSERT_ERROR_HAS(c->name, "%s opt-in too large (device)", c->name);

    /* without opt-in, 48 KB + 4 is refused; with it, the maximum runs */
    int *d_out = dev_buf("out", 2 * sizeof(int), NULL);
    simt_cfg over48 = cfg1(1, 32, (48 << 10) + 4);
    st = touch_dyn_shared_launch_sim(&over48, d_out, (int)(over48.shared_bytes / 4));
    cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "case %s: 48 KB + 4 without opt-in returned %s", c->name,
                 sim_status_name((sim_status)st));
    SIM_CHECK(sim_set_max_dynamic_shared(max));
    simt_cfg at_max = cfg1(1, 32, max);
    SIM_CHECK(touch_dyn_shared_launch_sim(&at_max, d_out, (int)(max / 4)));
    int v[2];
    to_host(v, d_out, sizeof v);
    cr_assert(v[0] == 11 && v[1] == 22, "case %s: %zu bytes of dynamic shared: read back %d, %d", c->name, max, v[0],
              v[1]);
    simt_cfg past_max = cfg1(1, 32, max + 4);
    st = touch_dyn_shared_launch_sim(&past_max, d_out, (int)(max / 4) + 1);
    cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "case %s: %zu bytes (opt-in max + 4) returned %s", c->name, max + 4,
                 sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS(num, "%s launch above the opt-in max (limit)", c->name);
}

Test(launch, device_lookup)
{
    static const struct { const char *alias, *name; } t[] = {
        {"80", "sm_80"}, {"a100", "sm_80"}, {"A100", "sm_80"}, {"89", "sm_89"}, {"4090", "sm_89"},
        {"90", "sm_90"}, {"h100", "sm_90"}, {"H200", "h200"}, {"sm_90", "sm_90"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const sim_device *d = sim_device_find(t[i].alias);
        cr_assert(d && !strcmp(d->name, t[i].name), "case alias %s: found %s, want %s", t[i].alias,
                  d ? d->name : "NULL", t[i].name);
    }
    cr_assert_null(sim_device_find("sm_70"), "case sm_70: unknown presets give NULL");
    cr_assert_null(sim_device_find(NULL), "case NULL name");
    const sim_device *const *l = sim_device_list();
    int n = 0;
    while (l[n])
        n++;
    cr_assert_eq(n, 4, "case sim_device_list: %d presets, want 4", n);
    cr_assert_str_eq(sim_get_device()->name, "sm_90", "case default device");
}

/* Switching to a device with a smaller opt-in maximum lowers the opt-in. */
Test(launch, device_switch_clamps_optin)
{
    SIM_CHECK(sim_set_max_dynamic_shared(227 << 10));
    sim_set_device(sim_device_find("sm_89"));
    int *d_out = dev_buf("out", 2 * sizeof(int), NULL);
    simt_cfg c = cfg1(1, 32, 100 << 10);
    int st = touch_dyn_shared_launch_sim(&c, d_out, 100 << 8);
    cr_assert_eq(st, SIM_ERR_INVALID_VALUE, "case 227 KB opt-in on sm_90, then sm_89, 100 KB launch: %s",
                 sim_status_name((sim_status)st));
    ASSERT_ERROR_HAS("101376 bytes (99 KB)", "sm_89 limit named");
    c.shared_bytes = 99 << 10;
    SIM_CHECK(touch_dyn_shared_launch_sim(&c, d_out, 99 << 8));
    /* opt-in below 48 KB keeps the 48 KB default */
    SIM_CHECK(sim_set_max_dynamic_shared(1024));
    c.shared_bytes = 48 << 10;
    SIM_CHECK(touch_dyn_shared_launch_sim(&c, d_out, 48 << 8));
}

/* ---- geometry: what every thread sees ---------------------------------------------------- */
typedef struct geom_case {
    simt_dim grid, block;
} geom_case;

static geom_case geom_cases[] = {
    {{1, 1, 1}, {1, 1, 1}},   {{5, 1, 1}, {7, 1, 1}},   {{3, 2, 2}, {4, 3, 2}},  {{2, 3, 4}, {32, 2, 2}},
    {{1, 1, 2}, {1, 1, 64}},  {{2, 2, 1}, {16, 4, 1}},  {{1, 7, 1}, {1, 1, 3}},  {{4, 1, 3}, {48, 1, 1}},
    {{1, 1, 1}, {1024, 1, 1}}, {{2, 1, 1}, {8, 8, 16}},
};

ParameterizedTestParameters(launch, geometry)
{
    return cr_make_param_array(geom_case, geom_cases, sizeof geom_cases / sizeof geom_cases[0]);
}

ParameterizedTest(geom_case *c, launch, geometry)
{
    const simt_dim g = c->grid, b = c->block;
    size_t nt = (size_t)b.x * b.y * b.z, nb = (size_t)g.x * g.y * g.z, n = nt * nb;
    unsigned *d_rec = dev_buf("rec", n * IDS_FIELDS * sizeof(unsigned), NULL);
    SIM_CHECK(sim_memset(d_rec, 0xff, n * IDS_FIELDS * sizeof(unsigned)));
    simt_cfg cfg = {g, b, 0, NULL, 0};
    SIM_CHECK(ids_launch_sim(&cfg, d_rec));
    unsigned *rec = malloc(n * IDS_FIELDS * sizeof(unsigned));
    to_host(rec, d_rec, n * IDS_FIELDS * sizeof(unsigned));
    size_t k = 0;
    for (unsigned bz = 0; bz < g.z; bz++)
        for (unsigned by = 0; by < g.y; by++)
            for (unsigned bx = 0; bx < g.x; bx++)
                for (unsigned tz = 0; tz < b.z; tz++)
                    for (unsigned ty = 0; ty < b.y; ty++)
                        for (unsigned tx = 0; tx < b.x; tx++, k++) {
                            const unsigned want[IDS_FIELDS] = {bx, by, bz, tx, ty, tz, b.x, b.y, b.z, g.x, g.y, g.z};
                            for (int f = 0; f < IDS_FIELDS; f++)
                                cr_assert_eq(rec[k * IDS_FIELDS + f], want[f],
                                             "case grid (%u,%u,%u) block (%u,%u,%u): thread (%u,%u,%u) of block "
                                             "(%u,%u,%u): field %d is %u, want %u",
                                             g.x, g.y, g.z, b.x, b.y, b.z, tx, ty, tz, bx, by, bz, f,
                                             rec[k * IDS_FIELDS + f], want[f]);
                        }
    const sim_launch_info *li = sim_last_launch();
    cr_assert_str_eq(li->kernel, "ids", "case grid (%u,%u,%u): kernel name", g.x, g.y, g.z);
    cr_assert_eq(li->c.threads, n, "case grid (%u,%u,%u) block (%u,%u,%u): %llu threads", g.x, g.y, g.z, b.x, b.y,
                 b.z, (unsigned long long)li->c.threads);
    cr_assert(li->cfg.grid.z == g.z && li->cfg.block.x == b.x, "case: sim_last_launch()->cfg");
    /* 12 stores of 4 bytes per thread, nothing read */
    cr_assert_eq(li->c.hbm_write_bytes, n * IDS_FIELDS * 4, "case grid (%u,%u,%u): hbm writes", g.x, g.y, g.z);
    cr_assert_eq(li->c.hbm_read_bytes, 0, "case grid (%u,%u,%u): hbm reads", g.x, g.y, g.z);
    free(rec);
}
