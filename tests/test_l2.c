/* tests/test_l2.c - the L2 model (sim/l2.c) against closed forms.
 *
 * Preset sm_80 (A100, a 40 MiB L2). The model keeps 70 % of it for data a
 * kernel re-reads (docs/l2-model.md): C = 28 MiB of 128-byte lines in 16
 * ways, 14336 sets. Allocations start on 64 KiB boundaries, so a buffer
 * starts a line; lines go to sets in order, 1 KB runs permuted inside each
 * aligned 512 KB group (sim/l2.c set_of): a buffer of k x C puts 16 k lines in
 * nearly every set (exactly, where it covers whole groups; the partial groups
 * at its two ends move a line between some sets: a 2 C buffer at offset 192 KiB
 * puts 31 lines in 1536 sets and 33 in 1536, 32 in the rest; the writes' closed
 * forms below do not see it). Every launch starts on an empty
 * L2. The kernels (tests/kernels/l2_kernels.cu) read or write each float of a
 * range once per pass; 8 floats make a 32-byte sector.
 * Closed forms:
 *  - every launch on an empty L2 reads F = 7.5 KB more from DRAM: its code;
 *  - a read of B bytes: DRAM reads B, L2 read sectors B / 32, of which half
 *    hit (the other sector of a pair, fetched with the first); a second
 *    launch starts empty again; a second pass in the same launch reads
 *    nothing more from DRAM while B fits (B <= C);
 *  - a sweep of 2 C by one wave of blocks (one block an SM, 100 KiB of shared
 *    memory: 108 blocks a wave), then again by the next wave: LRU keeps the last 16 lines of each set,
 *    so the second sweep misses (nearly: the waves overlap) everywhere (DRAM
 *    reads 4 C, less at most 0.5 % of 2 C);
 *  - DRAM is read in aligned 64-byte pairs of sectors: one float of every 64
 *    bytes reads the whole range, one of every 128 bytes half of it;
 *  - writes of B bytes: no DRAM reads (no fetch for a full sector), no DRAM
 *    writes while B fits, B dirty bytes left; a set holds at most 10 or 11 dirty
 *    lines (D, about 10.67/16 C in all), so 2 C written write back 2 C - D during the
 *    launch and leave D dirty; one line fewer a set beside a clean line read again;
 *  - 264 blocks each reading the same 64 KiB: DRAM reads 64 KiB, the other
 *    263 blocks hit;
 *  - atomics on one word: its sector pair is fetched once, the sector left dirty;
 *  - background writes: 18.7 MB/s x the launch's predicted time (the larger of the
 *    roofline's and the time model's), at most one write-back per rewritten sector
 *    (the atomics: one sector);
 *  - the figures do not depend on the number of OpenMP workers;
 *  - without cold starts (sim_l2_set_cold(0)), what one launch or memset
 *    leaves in L2 the next finds, and write-backs outside launches count;
 *  - the time model's roofline on hand-made counters;
 *  - threads take turns every 1024 global accesses, a thread not started yet
 *    first, also when the warp's lanes were just released by a shuffle.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <omp.h>

#include "l2_kernels.h"
#include "test_util.h"

#define U(x) ((unsigned long long)(x))
#define MIB (1ull << 20)
#define C (28 * MIB)
/* dirty lines the sets may hold: 10 of 16 ways, 11 in sets whose index is not a multiple of 3 */
#define NSETS (C / 128 / 16)
#define D ((NSETS * 10 + NSETS - (NSETS + 2) / 3) * 128)
/* what a launch on an empty L2 reads besides its data: its code (sim/launch.h) and the chip's
 * own reads while it runs (the background, a function of the predicted time: its own test,
 * background_reads_follow_the_predicted_time) */
#define F (SIM_L2_LAUNCH_FETCH_BYTES + last()->dram_background_read_bytes)

static float *sink;

static void setup(void)
{
    sim_set_device(sim_device_find("sm_80"));
    sim_l2_set_cold(1);
    SIM_CHECK(sim_malloc((void **)&sink, 4096, "sink"));
}
TestSuite(l2, .init = setup);

static const sim_counters *last(void) { return &sim_last_launch()->c; }

static float *dev_buffer(size_t bytes, const char *name)
{
    float *d;
    SIM_CHECK(sim_malloc((void **)&d, bytes, name));
    SIM_CHECK(sim_memset(d, 0, bytes));
    return d;
}

static void read_all(const float *x, size_t bytes, int passes, int stride)
{
    simt_cfg cfg = cfg1(256, 256, 0);
    SIM_CHECK(l2_read_launch_sim(&cfg, sink, x, (long long)(bytes / 4), passes, stride));
}

#define EXPECT(field, want, what)                                                                         \
    cr_assert_eq(last()->field, (uint64_t)(want), "%s: " #field " = %llu, want %llu", what, U(last()->field), \
                 U(want))

Test(l2, every_launch_starts_empty)
{
    const size_t B = 1 * MIB;
    float *x = dev_buffer(B, "x");
    for (int k = 0; k < 2; k++) {
        read_all(x, B, 1, 1);
        EXPECT(dram_read_bytes, B + F, "a read");
        EXPECT(dram_write_bytes, 0, "a read");
        EXPECT(l2_read_sectors, B / 32, "a read");
        /* the second sector of each pair comes with the first, but the chip looks both up
         * in one request and counts both as misses (lts__..._lookup_miss: scale 50 %) */
        EXPECT(l2_read_hits, 0, "a read: every sector of a line L2 lacked misses");
        EXPECT(l2_dirty_bytes, 0, "a read");
    }
    read_all(x, B, 2, 1);
    EXPECT(dram_read_bytes, B + F, "two passes in one launch: the second reads nothing more");
    SIM_CHECK(sim_free(x));
}

Test(l2, sweep_twice_the_capacity_misses_twice)
{
    const size_t B = 2 * C;
    const int wave = 108; /* one block an SM (its shared memory): no block of an SM runs ahead of another */
    float *x = dev_buffer(B, "x");
    simt_cfg cfg = cfg1(2 * wave, 256, 100 << 10);
    SIM_CHECK(sim_set_max_dynamic_shared(100 << 10));
    SIM_CHECK(l2_read_chunks_launch_sim(&cfg, sink, x, (long long)(B / 4), wave));
    SIM_CHECK(sim_set_max_dynamic_shared(48 << 10));
    /* Block b + wave reads block b's chunk again as soon as block b ends (the window,
     * staggered: sim/l2.c stagger_window); between a sector's two reads the other blocks
     * read about 2 C - one chunk, so LRU keeps next to nothing: at least 99.5 % of the
     * second sweep misses. (Waves in step would miss it all. The set hash's partial groups
     * at the buffer's ends leave some sets a line short, where a line survives: 0.27 % of
     * the second sweep hits, 0.002 % with the plain modulo.) */
    const sim_counters *c = last();
    cr_assert(c->dram_read_bytes <= 2 * B + F && c->dram_read_bytes >= 2 * B + F - B / 200,
              "two sweeps over 2 C: DRAM read %llu, want %llu less at most 0.5 %% of one sweep",
              U(c->dram_read_bytes), U(2 * B + F));
    cr_assert(c->l2_read_hits <= B / 32 / 200,
              "two sweeps over 2 C: %llu hits, want at most 0.5 %% of one sweep's sectors (%llu: every sector of "
              "a line L2 lacked is a miss, both halves of a pair)",
              U(c->l2_read_hits), U(B / 32 / 200));
    SIM_CHECK(sim_free(x));
}

/* __launch_bounds__(256, 1) holds one block an SM as 100 KiB of shared memory
 * does (nvcc sizes the registers for it; sim/kernel.h passes the 1 to the
 * launch): the same sweep of 2 C in two waves of 108 blocks, without shared
 * memory, gives exactly the same DRAM reads and L2 hits. Without the bound
 * the 216 blocks are one wave (8 of 256 threads an SM), whose DRAM reads
 * differ (4.6 % fewer). The time model sees the bound's warps: 2 blocks of 8
 * warps an SM with (256, 2), where threads alone would allow 8. */
Test(l2, launch_bounds_set_the_blocks_an_sm)
{
    const size_t B = 2 * C;
    const int wave = 108;
    float *x = dev_buffer(B, "x");
    simt_cfg cfg = cfg1(2 * wave, 256, 100 << 10);
    SIM_CHECK(sim_set_max_dynamic_shared(100 << 10));
    SIM_CHECK(l2_read_chunks_launch_sim(&cfg, sink, x, (long long)(B / 4), wave));
    SIM_CHECK(sim_set_max_dynamic_shared(48 << 10));
    const sim_counters by_shared = *last();
    cr_assert_eq(sim_last_launch()->cfg.min_blocks_per_sm, 0, "no __launch_bounds__: %u",
                 sim_last_launch()->cfg.min_blocks_per_sm);
    cfg = cfg1(2 * wave, 256, 0);
    SIM_CHECK(l2_read_chunks_lb1_launch_sim(&cfg, sink, x, (long long)(B / 4), wave));
    const sim_counters *c = last();
    cr_assert_eq(sim_last_launch()->cfg.min_blocks_per_sm, 1, "__launch_bounds__(256, 1): %u",
                 sim_last_launch()->cfg.min_blocks_per_sm);
    cr_assert_eq(c->dram_read_bytes, by_shared.dram_read_bytes, "one block an SM by its bounds: DRAM read %llu, by shared memory %llu",
                 U(c->dram_read_bytes), U(by_shared.dram_read_bytes));
    cr_assert_eq(c->l2_read_hits, by_shared.l2_read_hits, "one block an SM by its bounds: %llu hits, by shared memory %llu",
                 U(c->l2_read_hits), U(by_shared.l2_read_hits));
    SIM_CHECK(l2_read_chunks_launch_sim(&cfg, sink, x, (long long)(B / 4), wave));
    c = last();
    cr_assert_neq(c->dram_read_bytes, by_shared.dram_read_bytes,
                  "one wave of 216 blocks (no bound): DRAM read %llu, the same as two waves'", U(c->dram_read_bytes));
    const sim_device *h = sim_device_find("h200");
    cfg = cfg1(2 * 132 * 8, 256, 0); /* 8 blocks an SM to place */
    SIM_CHECK(l2_read_chunks_lb2_launch_sim(&cfg, sink, x, 1 << 16, 2 * 132 * 8));
    cr_assert_eq(sim_last_launch()->cfg.min_blocks_per_sm, 2);
    cr_assert_float_eq(sim_time_model(h, &sim_last_launch()->cfg, last(), 0).warps, 16, 0, "(256, 2): 2 blocks of 8 warps");
    cr_assert_float_eq(sim_time_model(h, &cfg, last(), 0).warps, 64, 0, "unbounded: 8 blocks of 8 warps");
    SIM_CHECK(sim_free(x));
}

/* One wave, two blocks an SM (1024 threads each), each block reading its own
 * chunk of 4 C in all and then writing its chunk of C / 4: the older block of
 * each SM is fed about 5 times the younger's share (SIM_L2_AGE 20: 27 and 5
 * sectors a round), so it ends when the younger has read a fifth of its
 * chunk; the younger then reads about 1.6 C more, which pushes the older's
 * dirty lines (C / 8) out of L2: all of them (the chunks end on line
 * boundaries), and none of the younger's. Fed in step, every block would write
 * at the launch's end and nothing would be written back. */
Test(l2, a_first_wave_block_ends_in_age_order)
{
    const size_t B = 4 * C, W = C / 4;
    float *x = dev_buffer(B, "x"), *y = dev_buffer(W, "y");
    simt_cfg cfg = cfg1(2 * 108, 1024, 0);
    SIM_CHECK(l2_read_then_write_launch_sim(&cfg, y, x, (long long)(B / 4), (long long)(W / 4)));
    const sim_counters *c = last();
    const uint64_t written = c->l2_write_sectors * 32;
    cr_assert(written > W - W / 50 && written <= W, "the blocks wrote %llu bytes, want about %llu", U(written), U(W));
    cr_assert(c->dram_write_bytes >= written / 4 && c->dram_write_bytes <= written / 2,
              "the older blocks' writes (half of %llu bytes) were followed by 1.6 C of reads: DRAM write %llu, want "
              "at least half of those and at most all",
              U(written), U(c->dram_write_bytes));
    cr_assert_eq(c->dram_write_bytes + c->l2_dirty_bytes, written, "written back %llu + dirty %llu, want %llu",
                 U(c->dram_write_bytes), U(c->l2_dirty_bytes), U(written));
    SIM_CHECK(sim_free(x));
    SIM_CHECK(sim_free(y));
}

Test(l2, dram_is_read_in_64_byte_pairs)
{
    const size_t B = 4 * MIB;
    float *x = dev_buffer(B, "x");
    read_all(x, B, 1, 8);
    EXPECT(dram_read_bytes, B + F, "one float of every 32 bytes");
    EXPECT(l2_read_sectors, B / 32, "one float of every 32 bytes");
    read_all(x, B, 1, 16);
    EXPECT(dram_read_bytes, B + F, "one float of every 64 bytes: its pair comes along");
    EXPECT(l2_read_sectors, B / 64, "one float of every 64 bytes");
    read_all(x, B, 1, 32);
    EXPECT(dram_read_bytes, B / 2 + F, "one float of every 128 bytes");
    SIM_CHECK(sim_free(x));
}

Test(l2, writes_stay_dirty_while_they_fit)
{
    float *y = dev_buffer(2 * C, "y");
    simt_cfg cfg = cfg1(256, 256, 0);
    SIM_CHECK(l2_write_launch_sim(&cfg, y, (long long)(MIB / 4), 1.0f));
    EXPECT(dram_read_bytes, F, "1 MiB written");
    EXPECT(dram_write_bytes, 0, "1 MiB written");
    EXPECT(l2_write_sectors, MIB / 32, "1 MiB written");
    EXPECT(l2_dirty_bytes, MIB, "1 MiB written");
    SIM_CHECK(l2_write_launch_sim(&cfg, y, (long long)(2 * C / 4), 2.0f));
    EXPECT(dram_write_bytes, 2 * C - D, "2 C written: all but D written back during the launch");
    EXPECT(l2_dirty_bytes, D, "2 C written: D left dirty");
    EXPECT(dram_read_bytes, F, "2 C written");
    SIM_CHECK(sim_free(y));
}

/* One word of each sector (stride 8) over 2 C: every sector is dirty and partial, and is either
 * written back during the launch, read from DRAM first to merge (the H100: docs/gpu/s29b-h100-scatter),
 * or left dirty: DRAM reads = F + the bytes written back, written back + dirty = 2 C. A sector its
 * block writes whole (stride 1, 8 threads a sector) is never fetched (the test above). */
Test(l2, partial_sectors_are_fetched_when_written_back)
{
    float *y = dev_buffer(2 * C, "y");
    simt_cfg cfg = cfg1(256, 256, 0);
    SIM_CHECK(l2_write_strided_launch_sim(&cfg, y, (long long)(2 * C / 32), 8, 1.0f));
    const uint64_t back = last()->dram_write_bytes - last()->dram_background_write_bytes;
    EXPECT(l2_write_sectors, 2 * C / 32, "2 C of partial sectors");
    cr_assert(back >= C, "2 C of partial sectors: %llu bytes written back, want at least C", U(back));
    EXPECT(l2_dirty_bytes, 2 * C - back, "2 C of partial sectors: what is not written back stays dirty");
    cr_assert(last()->l2_dirty_bytes <= D, "2 C of partial sectors: %llu bytes dirty, more than the sets hold (%llu)",
              U(last()->l2_dirty_bytes), U(D));
    /* each written back is fetched first, but for the few whose block's write table (2 ways of 2^15
     * slots, sim_l2_wmask) lost them to other sectors of the block: those count whole (1.4 %) */
    const uint64_t fetched = last()->dram_read_bytes - F;
    cr_assert(fetched <= back && fetched >= back - back / 50,
              "2 C of partial sectors: %llu bytes fetched, want the %llu written back (at most 2 %% fewer)", U(fetched),
              U(back));
    SIM_CHECK(sim_free(y));
}

/* Writes of 2 C beside reads of a buffer of C / 8 (2 lines in every set here;
 * the rule needs one) read again and again: every set holds a hot clean line,
 * so one dirty line fewer (sim/l2.c dirty_cap): D less one line a set is left
 * dirty. Without the rule D is. */
Test(l2, hot_reads_leave_one_dirty_line_fewer_a_set)
{
    float *y = dev_buffer(2 * C, "y"), *x = dev_buffer(C / 8, "x");
    simt_cfg cfg = cfg1(108, 256, 0); /* one block an SM: all fed alike, so every x line is read again every 3.5 MiB */
    SIM_CHECK(l2_write_reading_launch_sim(&cfg, y, (long long)(2 * C / 4), x, (long long)(C / 8 / 4)));
    EXPECT(dram_read_bytes, C / 8 + F, "x read once from DRAM");
    EXPECT(l2_dirty_bytes, D - NSETS * 128, "2 C written beside hot reads: D less a line a set left dirty");
    EXPECT(dram_write_bytes, 2 * C - (D - NSETS * 128), "2 C written beside hot reads: the rest written back");
    SIM_CHECK(sim_free(x));
    SIM_CHECK(sim_free(y));
}

/* 264 blocks on sm_80's 108 SMs (2 or 3 an SM, one wave) read one 8 KB buffer:
 * the first block of an SM brings it into the SM's L1 (96 KB in the model: the
 * buffer's 64 lines fit its 4-way sets), the SM's other blocks find it there. So
 * each SM's L1 passes each sector to L2 once, and the L2 reads it from DRAM once. */
Test(l2, blocks_reading_one_buffer_share_it)
{
    const size_t B = 8 << 10;
    float *x = dev_buffer(B, "kv");
    simt_cfg cfg = cfg1(264, 256, 0);
    SIM_CHECK(l2_read_all_blocks_launch_sim(&cfg, sink, x, (int)(B / 4)));
    EXPECT(dram_read_bytes, B + F, "264 blocks");
    EXPECT(l2_read_sectors, 108 * (B / 32), "264 blocks on 108 SMs (each SM's L1 passes each sector once)");
    EXPECT(l2_read_hits, 107 * (B / 32), "264 blocks on 108 SMs (the first SM's all miss)");
    SIM_CHECK(sim_free(x));
}

Test(l2, atomics_fetch_once_and_dirty)
{
    int *c;
    SIM_CHECK(sim_malloc((void **)&c, 4, "counter"));
    SIM_CHECK(sim_memset(c, 0, 4));
    simt_cfg cfg = cfg1(4, 256, 0);
    SIM_CHECK(l2_atomic_one_launch_sim(&cfg, c));
    EXPECT(dram_read_bytes, 64 + F, "atomics on one word: its pair of sectors");
    EXPECT(l2_dirty_bytes, 32, "atomics on one word");
    EXPECT(l2_atom_misses, 1, "atomics on one word: the first misses L2, the rest hit");
    /* background writes: 18.7 MB/s x the predicted time, whole sectors: the rewritten sector
     * written back twice (background_writes_follow_the_rate). The time is the launch's 3 us and
     * the 1024 integer atomics on one word, 0.741 ns each (session 32: a C kernel's atomics are
     * not marked uniform, as simtlab run's rewriter marks a .cu's, so all 1024 are counted, where
     * nvcc's code issues 32); one write-back, 32 bytes, before that term */
    EXPECT(dram_write_bytes, 64, "atomics on one word: cleaned twice while the kernel ran");
    EXPECT(dram_background_write_bytes, 64, "atomics on one word: all of its writes are the background's");
    int h = 0;
    SIM_CHECK(sim_memcpy(&h, c, 4, SIM_COPY_D2H));
    cr_assert_eq(h, 1024);
    SIM_CHECK(sim_free(c));
}

/* several waves (108 SMs x 16 blocks of 128 threads) sweeping 32 MiB 4 times:
 * some of each sweep is still in L2 when the next comes */
Test(l2, figures_do_not_depend_on_workers)
{
    const size_t B = 32 * MIB;
    float *x = dev_buffer(B, "x");
    sim_counters ref = {0};
    int max = omp_get_max_threads();
    for (int workers = 1; workers <= 3; workers++) {
        omp_set_num_threads(workers);
        simt_cfg cfg = cfg1(4000, 128, 0);
        SIM_CHECK(l2_read_chunks_launch_sim(&cfg, sink, x, (long long)(B / 4), 1000));
        sim_counters c = *last();
        if (workers == 1) {
            ref = c;
            cr_assert(c.dram_read_bytes > B && c.l2_read_hits > c.l2_read_sectors / 2,
                      "the case needs misses and hits beyond the pairs' (DRAM read %llu, hits %llu of %llu)",
                      U(c.dram_read_bytes), U(c.l2_read_hits), U(c.l2_read_sectors));
            continue;
        }
        cr_assert(c.dram_read_bytes == ref.dram_read_bytes && c.dram_write_bytes == ref.dram_write_bytes &&
                      c.l2_read_hits == ref.l2_read_hits && c.l2_read_sectors == ref.l2_read_sectors &&
                      c.l2_dirty_bytes == ref.l2_dirty_bytes,
                  "%d workers: DRAM read %llu write %llu, hits %llu of %llu, dirty %llu; 1 worker: %llu %llu %llu %llu "
                  "%llu",
                  workers, U(c.dram_read_bytes), U(c.dram_write_bytes), U(c.l2_read_hits), U(c.l2_read_sectors),
                  U(c.l2_dirty_bytes), U(ref.dram_read_bytes), U(ref.dram_write_bytes), U(ref.l2_read_hits),
                  U(ref.l2_read_sectors), U(ref.l2_dirty_bytes));
    }
    omp_set_num_threads(max);
    SIM_CHECK(sim_free(x));
}

/* Without cold starts the L2 lives through the program, as on the chip: a
 * launch finds what the last launches, memsets and copies to the device left
 * there (docs/gpu/l2-run2: lesson 4's first kernels found their inputs in
 * the H200's L2 after its copies). */
Test(l2, persistent_l2_carries_over)
{
    sim_l2_set_cold(0);
    const size_t B = 1 * MIB;
    float *x, *h = calloc(B / 4, 4);
    cr_assert(h);
    SIM_CHECK(sim_malloc((void **)&x, B, "x"));
    uint64_t r0, w0, r1, w1;
    sim_l2_host_totals(&r0, &w0);
    SIM_CHECK(sim_memcpy(x, h, B, SIM_COPY_H2D));
    read_all(x, B, 1, 1);
    EXPECT(dram_read_bytes, 0, "a read of what a host-to-device copy wrote (through L2, as from pageable memory)");
    read_all(x, B, 1, 1);
    EXPECT(dram_read_bytes, 0, "a read of what the last launch read");
    simt_cfg cfg = cfg1(256, 256, 0);
    SIM_CHECK(l2_write_launch_sim(&cfg, x, (long long)(B / 4), 5.0f));
    read_all(x, B, 1, 1);
    EXPECT(dram_read_bytes, 0, "a read of what the last launch wrote");
    EXPECT(l2_dirty_bytes, B, "still dirty: nothing has evicted it");
    /* 2 C of another buffer pushes it out: its dirty sectors are written back then */
    float *y = dev_buffer(2 * C, "y");
    sim_l2_host_totals(&r1, &w1);
    cr_assert_eq(w1 - w0, B + 2 * C - D,
                 "the memset of 2 C wrote back the dirty MiB and all of its own writes but D: %llu bytes written "
                 "back outside launches, want %llu",
                 U(w1 - w0), U(B + 2 * C - D));
    read_all(x, B, 1, 1);
    EXPECT(dram_read_bytes, B, "x was evicted");
    free(h);
    SIM_CHECK(sim_free(x));
    SIM_CHECK(sim_free(y));
    sim_l2_set_cold(1);
}

/* The chip's background writes (sim/l2.c sim_l2_background_writes): 256 KiB units at 18.7
 * MB/s, one every 14.0 ms; the model gives their expected value, rate x t in whole sectors,
 * capped at one write-back (32 bytes) per rewritten sector. */
Test(l2, background_writes_follow_the_rate)
{
    const sim_device *dev = sim_get_device();
    const double period = 256.0 * 1024 / dev->ceil.l2_clean_bytes_per_s;
    const uint64_t many = 1ull << 40;
    cr_assert_float_eq(period, 14.0e-3, 0.1e-3, "a 256 KiB unit's period: %.4g s", period);
    const struct {
        double t;
        uint64_t rewrites, want;
    } cases[] = {
        {0, many, 0},
        {3e-6, many, 32},         /* 56.1 bytes: one whole sector */
        {10e-3, many, 186976},    /* 187000 bytes: 0.71 of a unit */
        {42e-3, many, 785376},    /* flash v1 at N = 1024: 0.79 MB measured */
        {672e-3, many, 12566400}, /* flash v1 at N = 4096: 12.6 MB measured */
        {40e-3, 100, 3200},       /* fewer rewrites than the rate would clean */
        {40e-3, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const uint64_t got = sim_l2_background_writes(dev, cases[i].t, cases[i].rewrites);
        cr_assert_eq(got, cases[i].want, "t = %.4g ms, %llu rewrites: %llu bytes, want %llu", 1e3 * cases[i].t,
                     U(cases[i].rewrites), U(got), U(cases[i].want));
    }
}

/* The chip's own reads (sim/l2.c): bg_read_bytes (1 - e^(-t / bg_read_s)) in whole
 * sectors, t the time the L2 model gives the launch (the larger of the roofline and the
 * time model without FLOPs, on the counters before the code and the background are
 * added); none without cold starts (the persistent test's exact zeros). */
Test(l2, background_reads_follow_the_predicted_time)
{
    const size_t B = 2 * C;
    float *x = dev_buffer(B, "x");
    read_all(x, B, 1, 1);
    const sim_launch_info *li = sim_last_launch();
    const sim_device *dev = sim_get_device();
    sim_counters c = li->c;
    const uint64_t bg = c.dram_background_read_bytes;
    c.dram_read_bytes -= SIM_L2_LAUNCH_FETCH_BYTES + bg;
    double t = sim_time_roofline(dev, &li->cfg, &c), tm = sim_time_model(dev, &li->cfg, &c, 0).seconds;
    t = tm > t ? tm : t;
    const uint64_t want = (uint64_t)(dev->ceil.bg_read_bytes * -expm1(-t / dev->ceil.bg_read_s)) / 32 * 32;
    cr_assert_eq(bg, want, "reading 2 C (predicted %.3g us): background %llu bytes, want %llu", 1e6 * t, U(bg),
                 U(want));
    cr_assert(bg > 0 && bg < dev->ceil.bg_read_bytes, "reading 2 C: background %llu bytes, want more than 0 and "
              "less than %.0f", U(bg), dev->ceil.bg_read_bytes);
    EXPECT(dram_read_bytes, B + SIM_L2_LAUNCH_FETCH_BYTES + bg, "2 C read once, its code and the background");
    /* a launch of a 32nd of the time: a 32nd of the background, to the sector */
    read_all(x, B / 32, 1, 1);
    cr_assert(last()->dram_background_read_bytes <= bg / 32 + 32, "a 32nd of the work: background %llu, want at most %llu",
              U(last()->dram_background_read_bytes), U(bg / 32 + 32));
    SIM_CHECK(sim_free(x));
}

/* The time model (sim/timemodel.c) on counters made by hand, preset h200
 * (clock: the shared ceiling over 128 B a cycle an SM, 1.969 GHz):
 *   t = launch + (largest + SIM_TM_BETA x (sum of the others)) / clock,
 * the others including K cycles to start each block of the SM that started
 * the most (the busiest SM's, unless placed blocks say otherwise).
 * 3.951 GB of DRAM traffic is 1 ms at the measured 3.951 TB/s. */
Test(l2, time_model_terms)
{
    const sim_device *h = sim_device_find("h200");
    const double clock = h->ceil.smem_bytes_per_s / (128.0 * h->sm_count), B = SIM_TM_BETA;
    const double starts = 2 * SIM_TM_K / clock; /* 2 blocks an SM to start */
    sim_counters c = {0};
    c.dram_read_bytes = 3951000000ull;
    /* 264 blocks of 256 threads, none placed (sched_work 0): even, 2 an SM */
    simt_cfg cfg = cfg1(264, 256, 0);
    sim_time_pred p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.seconds, 2e-6 + 1e-3 + B * starts, 1e-9, "DRAM-bound: %.9g s", p.seconds);
    cr_assert_str_eq(p.bound, "DRAM");
    /* shared bytes worth 2 ms of wavefronts on the busiest SM (2 of the 264
     * blocks): they bound. Their instructions (4 bytes each, 32 a warp
     * instruction) issue at min(P, 16 warps / CPI) a cycle: a part of it adds */
    double share = 2.0 / 264, sram = 2e-3 * clock * 128 / share;
    c.sram_read_bytes = (uint64_t)sram;
    p = sim_time_model(h, &cfg, &c, 0);
    double rate = 16 / SIM_TM_CPI < SIM_TM_P ? 16 / SIM_TM_CPI : SIM_TM_P;
    double issue = share * (sram / 4 / 32) / rate / clock;
    cr_assert_float_eq(p.seconds, 2e-6 + 2e-3 + B * (1e-3 + issue + starts), 1e-8, "shared-bound: %.9g s", p.seconds);
    cr_assert_str_eq(p.bound, "shared memory");
    /* detailed mode's wavefronts replace bytes / 128: 4x the wavefronts, 4x the time */
    c.shared_ld_wavefronts = (uint64_t)(4 * sram / 128);
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.t_smem, 8e-3, 1e-8, "bank conflicts: %.9g s", p.t_smem);
    /* 2 blocks of 8 warps, FLOPs only: one block an SM, half the work each;
     * 8 warps issue at min(P, 8 / CPI) */
    memset(&c, 0, sizeof c);
    cfg = cfg1(2, 256, 0);
    double flops = 1e12, instr = flops / 2 / 32;
    rate = 8 / SIM_TM_CPI < SIM_TM_P ? 8 / SIM_TM_CPI : SIM_TM_P;
    p = sim_time_model(h, &cfg, &c, flops);
    cr_assert_float_eq(p.t_issue, 0.5 * instr / rate / clock, 1e-9, "2 blocks: %.9g s", p.t_issue);
    cr_assert_str_eq(p.bound, "issue");
    cr_assert_float_eq(p.warps, 8, 0);
    /* the same two blocks as placed by a launch, one with 3/4 of the work
     * (a causal grid): the busiest SM has that block */
    c.sched_work = 400, c.sched_sm_work = 300, c.sched_sm_blocks = 1, c.sched_block_work = 300;
    p = sim_time_model(h, &cfg, &c, flops);
    cr_assert_float_eq(p.t_issue, 0.75 * instr / rate / clock, 1e-9, "uneven blocks: %.9g s", p.t_issue);
    /* warp shuffles take SIM_TM_SHFL issue slots each (the shuffle unit serves
     * a quarter of what the FMA pipes do): as many shuffles as FMA warp
     * instructions add SIM_TM_SHFL times those */
    c.warp_shuffles = (uint64_t)instr;
    p = sim_time_model(h, &cfg, &c, flops);
    cr_assert_float_eq(p.t_issue, 0.75 * (instr + SIM_TM_SHFL * (double)(uint64_t)instr) / rate / clock, 1e-9,
                       "shuffles: %.9g s", p.t_issue);
    c.warp_shuffles = 0;
    /* global memory latency: 1 GB read by 264 blocks of 8 warps, 2 an SM, one barrier each;
     * without barriers SIM_TM_C_FREE bytes in flight a thread, not SIM_TM_C (session 30) */
    memset(&c, 0, sizeof c);
    cfg = cfg1(264, 256, 0);
    c.hbm_read_bytes = 1000000000ull;
    c.barriers = 264;
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.t_latency, share * 1e9 * SIM_TM_L / (16 * 32 * SIM_TM_C) / clock, 1e-9, "latency: %.9g s",
                       p.t_latency);
    c.barriers = 0;
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.t_latency, share * 1e9 * SIM_TM_L / (16 * 32 * SIM_TM_C_FREE) / clock, 1e-9,
                       "latency without barriers: %.9g s", p.t_latency);
    /* the L2's requests (session 30): 10^9 stores of one whole sector in a line each, counted
     * (detailed mode), at the H200's costs, 0.85 of the H100's; they bound: "L2" */
    memset(&c, 0, sizeof c);
    c.global_st_requests = 1000000000ull / 32;
    c.global_st_lines = c.global_st_sectors = c.global_wavefronts = 1000000000ull;
    c.barriers = 264;
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(h->ceil.l2_req_scale, 0.85, 1e-12);
    cr_assert_float_eq(p.l2_requests, 1e9, 1e-3, "%.1f L2 requests", p.l2_requests);
    cr_assert_float_eq(p.t_l2, 0.85 * 1e9 * (SIM_TM_L2_REQ + SIM_TM_L2_WSEC), 1e-12, "L2 requests: %.9g s", p.t_l2);
    cr_assert_str_eq(p.bound, "L2");
    /* nothing to do: the launch, and K cycles to start each of the busiest SM's 2 blocks */
    memset(&c, 0, sizeof c);
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.seconds, 2e-6 + starts, 1e-12, "%.9g s", p.seconds);
    cr_assert_str_eq(p.bound, "launch");
    /* 65535 blocks that do nothing: their starts bound (the H200: 55 us) */
    cfg = cfg1(65535, 256, 0);
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.t_blocks, 497 * SIM_TM_K / clock, 1e-12, "%.9g s", p.t_blocks);
    cr_assert_str_eq(p.bound, "block starts");
    /* placed: one heavy block alone on the busiest SM, 500 empty ones on another
     * (sched_max_blocks): the starts are counted where the blocks were started */
    memset(&c, 0, sizeof c);
    c.sched_work = 1000, c.sched_sm_work = 1000, c.sched_sm_blocks = 1, c.sched_block_work = 1000;
    c.sched_max_blocks = 500;
    p = sim_time_model(h, &cfg, &c, 0);
    cr_assert_float_eq(p.t_blocks, 500 * SIM_TM_K / clock, 1e-12, "the SM of 500 starts: %.9g s", p.t_blocks);
}

/* Where a launch places its blocks (sim/launch.c): 2 x SMs blocks of 32
 * threads, the first SMs of them 4 loads a thread, the others 1 (and a store
 * each). In order, each to the SM with the least work so far: the heavy ones
 * one an SM, then the light ones round again. The busiest SM: one of each.
 * Work: shared bytes + 4 x global accesses. */
Test(l2, blocks_placed_on_the_least_busy_sm)
{
    const unsigned sms = (unsigned)sim_get_device()->sm_count;
    float *in = dev_buffer(256 * sizeof(float), "in"), *out = dev_buffer(2 * sms * 32 * sizeof(float), "out");
    simt_cfg cfg = cfg1(2 * sms, 32, 0);
    SIM_CHECK(l2_uneven_launch_sim(&cfg, out, in, (int)sms));
    const uint64_t heavy = 4 * 32 * 5, light = 4 * 32 * 2;
    EXPECT(sched_block_work, heavy, "the largest block");
    EXPECT(sched_work, sms * (heavy + light), "every block");
    EXPECT(sched_sm_blocks, 2, "the busiest SM");
    EXPECT(sched_max_blocks, 2, "every SM");
    EXPECT(sched_sm_work, heavy + light, "the busiest SM");
    SIM_CHECK(sim_free(in));
    SIM_CHECK(sim_free(out));
}

/* One block of 128 threads, 1100 loads each, a shuffle after every load.
 * Lane 31 completes each shuffle and runs on; at its 1024th global access it
 * yields to a thread not started yet. The first 32 events logged are warp 1's
 * starts (1032 ... 1063); then warp 0's 1024th loads. When the lanes a
 * shuffle released were a pending range that kept new threads from starting,
 * warp 0 logged first (found by a review, session 9). */
Test(l2, threads_take_turns_after_a_shuffle)
{
    int *log, *ticket;
    float *x = dev_buffer(4096 * 4, "x");
    SIM_CHECK(sim_malloc((void **)&log, 512 * 4, "log"));
    SIM_CHECK(sim_malloc((void **)&ticket, 4, "ticket"));
    SIM_CHECK(sim_memset(log, 0xff, 512 * 4));
    SIM_CHECK(sim_memset(ticket, 0, 4));
    simt_cfg cfg = cfg1(1, 128, 0); /* one block: one worker runs it */
    SIM_CHECK(l2_turns_launch_sim(&cfg, log, ticket, x, 1100));
    int h[64];
    SIM_CHECK(sim_memcpy(h, log, sizeof h, SIM_COPY_D2H));
    for (int i = 0; i < 32; i++)
        cr_assert_eq(h[i], 1032 + i, "event %d: %d, want warp 1's thread %d starting (1000 + t)", i, h[i], 32 + i);
    for (int i = 32; i < 64; i++)
        cr_assert(h[i] >= 0 && h[i] < 32, "event %d: %d, want a lane of warp 0 at its 1024th load", i, h[i]);
    sim_free(log), sim_free(ticket), sim_free(x);
}
