/* tests/test_util.h - small helpers shared by the Criterion test files.
 *
 * What it is: a checking macro for simulator calls, launch-configuration
 * builders, device buffers filled from host arrays, substring checks on
 * sim_last_error(), and the source line of a marked kernel statement (so a
 * test can check the file:line a report names without hard-coding numbers).
 * What it is not: a test framework; every helper is a few lines of plain C.
 *
 * Every helper that can fail asserts (cr_assert) with the failing expression
 * and the simulator's last error, so a test stops at the first broken step.
 */
#ifndef SIMTLAB_TEST_UTIL_H
#define SIMTLAB_TEST_UTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"
#include "memory.h"

/* SIM_CHECK(expr): expr must return SIM_OK; otherwise the test fails with
 * the expression and the simulator's message. */
#define SIM_CHECK(expr)                                                                   \
    do {                                                                                  \
        int st_ = (int)(expr);                                                            \
        cr_assert_eq(st_, SIM_OK, "%s returned %s: %s", #expr,                            \
                     sim_status_name((sim_status)st_), sim_last_error());                 \
    } while (0)

/* ASSERT_ERROR_HAS(needle, case_fmt, ...): sim_last_error() contains needle. */
#define ASSERT_ERROR_HAS(needle, ...)                                                     \
    do {                                                                                  \
        const char *n_ = (needle);                                                        \
        char c_[256];                                                                     \
        snprintf(c_, sizeof c_, __VA_ARGS__);                                             \
        cr_assert(strstr(sim_last_error(), n_) != NULL,                                   \
                  "case %s: the error message should contain \"%s\"; it is:\n%s", c_, n_, \
                  sim_last_error());                                                      \
    } while (0)

static inline simt_cfg cfg3(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                            size_t shared)
{
    simt_cfg c = {{gx, gy, gz}, {bx, by, bz}, shared, NULL, 0};
    return c;
}

/* A 1-D launch: grid blocks of block threads. */
static inline simt_cfg cfg1(unsigned grid, unsigned block, size_t shared)
{
    return cfg3(grid, 1, 1, block, 1, 1, shared);
}

/* A device buffer of bytes named name, copied from host (NULL: zeroed). */
static inline void *dev_buf(const char *name, size_t bytes, const void *host)
{
    void *d = NULL;
    SIM_CHECK(sim_malloc(&d, bytes, name));
    if (host)
        SIM_CHECK(sim_memcpy(d, host, bytes, SIM_COPY_H2D));
    else
        SIM_CHECK(sim_memset(d, 0, bytes));
    return d;
}

static inline void to_host(void *host, const void *d, size_t bytes)
{
    SIM_CHECK(sim_memcpy(host, d, bytes, SIM_COPY_D2H));
}

/* The 1-based line of tests/kernels/<file> that contains marker (a comment
 * such as "SITE:exit_wait" next to a __syncthreads). Fails the test if the
 * file or the marker is missing. */
static inline int kernel_line(const char *file, const char *marker)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TEST_KERNELS_DIR, file);
    FILE *f = fopen(path, "r");
    cr_assert(f != NULL, "cannot open %s", path);
    char line[1024];
    int n = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, marker)) {
            found = n;
            break;
        }
    }
    fclose(f);
    cr_assert(found > 0, "marker %s not found in %s", marker, path);
    return found;
}

/* "file.cu:123" for a marked line. */
static inline const char *kernel_site(char *buf, size_t n, const char *file, const char *marker)
{
    snprintf(buf, n, "%s:%d", file, kernel_line(file, marker));
    return buf;
}

/* The last error names the kernel, the source line of `marker` in `file`
 * (if given), and block (bx,0,0), thread (tx,0,0): where every report must say. */
static inline void assert_report_where(const char *file, const char *kernel, const char *marker, int bx, int tx,
                                       const char *what)
{
    char buf[160], site[64];
    snprintf(buf, sizeof buf, "in kernel %s", kernel);
    ASSERT_ERROR_HAS(buf, "%s (kernel)", what);
    if (marker) {
        snprintf(buf, sizeof buf, "(%s)", kernel_site(site, sizeof site, file, marker));
        ASSERT_ERROR_HAS(buf, "%s (source line)", what);
    }
    snprintf(buf, sizeof buf, "block (%d,0,0), thread (%d,0,0)", bx, tx);
    ASSERT_ERROR_HAS(buf, "%s (block and thread)", what);
}

#ifdef _OPENMP
#include <omp.h>
#endif

/* Use at least k OpenMP workers for later launches (no-op without OpenMP). */
static inline void use_workers(int k)
{
#ifdef _OPENMP
    omp_set_num_threads(k);
#else
    (void)k;
#endif
}

#endif /* SIMTLAB_TEST_UTIL_H */
