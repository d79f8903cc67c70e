/* lessons/common/lesson.h - what every lesson driver shares: the registry,
 * backend set-up from --mode, the result check, the report and --json. */
#ifndef LESSON_LESSON_H
#define LESSON_LESSON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "cli.h"
#include "json.h"
#include "kernel_json.h"

typedef struct lesson_entry {
    int number;
    const char *name;  /* "scale" */
    const char *title; /* one line for `lesson list` and the README table */
    int (*run)(int argc, char **argv); /* argv[0] = "lesson N"; returns the exit code */
} lesson_entry;

extern const lesson_entry lesson_registry[]; /* ends with number 0 */

/* Exit codes of every lesson. */
enum { LESSON_PASS = 0, LESSON_FAIL = 1, LESSON_USAGE = 2 };

/* Result check against a double-precision CPU reference:
 * pass when |got - ref| <= atol + rtol * |ref| for every element.
 * max_rel_err is taken over elements with |ref| > atol / rtol (where the
 * relative term dominates; if there is none, over all nonzero elements);
 * near zero the absolute error is the measure. */
typedef struct check_result {
    double max_abs_err, max_rel_err, rtol, atol;
    size_t worst;  /* index of the worst element */
    int pass;
} check_result;
check_result check_close(const float *got, const double *ref, size_t n, double rtol, double atol);

/* Prints "<prog>: <why>" and the usage line to stderr; returns LESSON_USAGE. */
int lesson_usage_error(const char *prog, const lesson_opt *opts, const char *why);
/* --version's value: "all" (every one of the n names), one name, or a comma list of them
 * ("standard,v2"); a bit mask over names[], 0 for anything else (an unknown name, a space, an
 * empty item) */
int lesson_parse_versions(const char *v, const char *const *names, int n);
/* Handles the parse, --help and --mode; fills the backends to run (1 or 2:
 * sim first). Returns -1 to continue, or an exit code to return. */
int lesson_start(const char *prog, int argc, char **argv, const lesson_opt *opts, lesson_common *c,
                 backend *bes, int *n_bes);

/* JSON pieces in the schema of DESIGN.md (one launch: kernel_json.h). */
void lesson_json_buffers(json *j, backend *be);
void lesson_json_check(json *j, const check_result *r);
void lesson_json_check_named(json *j, const char *name, const check_result *r); /* the same object, keyed name */

/* --mode compare: the simulator's counters and the GPU's, kernel by kernel
 * (sim->kernels[i] beside gpu->kernels[i], n of them from the given firsts),
 * with one line on why DRAM bytes differ from the simulated HBM bytes. */
void lesson_compare_table(FILE *f, const backend *sim, int sim_first, const backend *gpu, int gpu_first, int n);
extern const char *const lesson_dram_note;

/* The simulator's L2 model (sim/l2.c): a launch's figures added into a sum,
 * and a table of them (the hit rate: kernel_json.h):
 * the bytes kernels request (HBM bytes, what L1 sees), the L2 hit rate, the
 * DRAM bytes predicted to be read and written, and what stays dirty in L2. */
void lesson_add_l2(sim_counters *sum, const sim_counters *k);
void lesson_l2_head(FILE *f, const char *indent, const sim_device *dev);
void lesson_l2_row(FILE *f, const char *indent, const char *name, const sim_counters *c);

/* --detail, one kernel's warp-level counts on lines of their own, each
 * starting with indent: on the simulator (detailed mode) its 32-byte sectors
 * and warp requests, shared wavefronts and bank conflicts, and cp.async
 * copies (their sectors and conflicts are inside those totals, as on the GPU);
 * for a launch with hardware counters the GPU's. Prints nothing for a launch
 * that counted neither (simulator not detailed, GPU without counters).
 * Returns the number of lines printed. */
int lesson_print_detail(FILE *f, const char *indent, const backend *be, const be_kernel *k);

/* Seeded xorshift in [-1, 1): the lessons' inputs, the same every run. */
float lesson_rnd(uint64_t *state);
/* A launch's HBM bytes were measured: always on the simulator; on a GPU only
 * with its counters. lesson_kernels_measured: every one of be->kernels[first,
 * first + n). lesson_no_counters_why: why a GPU's were not ("--no-counters",
 * the CUPTI note, ...). */
int lesson_bytes_measured(const backend *be, const be_kernel *k);
int lesson_kernels_measured(const backend *be, int first, int n);
const char *lesson_no_counters_why(const backend *be);
/* The time column's head ("CPU ms" on the simulator, "GPU ms") and the note that says what it is. */
const char *lesson_time_head(const backend *be);
const char *lesson_time_note(const backend *be);

/* The report pieces lessons 4 and 7 share (one row or object per version):
 * lesson_kernel_rows prints one row per launch be->kernels[first, first + n)
 * (HBM read/write, SRAM read/write, time) and its --detail lines;
 * lesson_tensor_cells prints one row of "read/written" cells, the closed
 * form in brackets where it differs (width: a cell's width);
 * lesson_json_kernels writes the "kernels" array of those launches;
 * lesson_json_tensors writes a "tensors" object of nt named tensors. */
void lesson_kernel_rows(FILE *f, const backend *be, const char *version, int first, int n);
void lesson_tensor_cells(FILE *f, int nt, int width, const uint64_t *rd, const uint64_t *wr, const uint64_t *erd,
                         const uint64_t *ewr);
void lesson_json_kernels(json *j, const backend *be, int first, int n);
void lesson_json_tensors(json *j, int nt, const char *const *names, const uint64_t *rd, const uint64_t *wr,
                         const uint64_t *erd, const uint64_t *ewr);

/* "4.00 MB" style */
const char *human_bytes(double b, char *buf, size_t n);
#endif
