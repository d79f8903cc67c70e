/* lessons/common/sweep.h - `lesson N --sweep NAME=RANGE` and the CSV it writes.
 *
 * A sweep runs a lesson at several values of one of its integer or size
 * options (lesson 4: n, d, sram, br, bc, ...; lesson 3: rows, cols, block):
 *
 *   n=256:4096:x2        256, 512, 1024, 2048, 4096   (geometric, end inclusive)
 *   sram=16k:64k:+16k    16k, 32k, 48k, 64k            (arithmetic, end inclusive)
 *   d=32,64,128          the values listed
 *
 * At most SWEEP_MAX_POINTS points: they are counted before any is made
 * (in unsigned arithmetic, and for xF from logarithms, so a factor near 1
 * such as x1.0000000000000002 is counted, not looped over), and a range with
 * more is refused with its count.
 * Each value is parsed and bounds-checked as the option itself would be
 * (sizes take k/m suffixes). The CSV writer names every cell's column, writes
 * the header from the first row, checks that later rows have the same
 * columns, and writes PATH.tmp which it renames to PATH only when every row
 * was written: PATH is never left half written, and a failed run leaves the
 * previous PATH as it was.
 *
 * Not here: running the lesson. The lesson's own loop sets the option, runs,
 * and writes its rows; this file only parses, formats and writes.
 */
#ifndef LESSON_SWEEP_H
#define LESSON_SWEEP_H
#include <stddef.h>
#include <stdio.h>

#include "cli.h"

#define SWEEP_MAX_POINTS 256

typedef struct sweep_spec {
    const lesson_opt *opt; /* the swept option (OPT_INT or OPT_SIZE) */
    int n;                 /* number of points */
    long long v[SWEEP_MAX_POINTS];
    const char *text;      /* the argument as given */
} sweep_spec;

/* Parses "NAME=start:end:xF", "NAME=start:end:+S" or "NAME=a,b,c" for one of
 * names (NULL-terminated) among opts. Returns 0, or -1 with the reason in err
 * (the value given, the forms accepted, the option's bounds). Never exits. */
int sweep_parse(sweep_spec *sp, const char *arg, const lesson_opt *opts, const char *const *names, char *err,
                size_t errn);
/* A lesson's sweepable fields: the option's name and where its value goes
 * (an int field, or a long long one). sweep_apply stores point i's value in
 * the field named like the swept option (fields end with {NULL}). */
typedef struct sweep_field {
    const char *name;
    int *i;
    long long *ll;
} sweep_field;
void sweep_apply(const sweep_spec *sp, int i, const sweep_field *fields);
/* "n=1024", "sram=48k": the point as the user would write it. */
const char *sweep_point_str(const sweep_spec *sp, int i, char *buf, size_t n);
/* One progress line on stderr: "lesson 4 sweep [2/5] n=512: <fmt ...>". */
void sweep_progress(const char *prog, const sweep_spec *sp, int i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- CSV --------------------------------------------------------------------- */
#define SWEEP_CSV_MAX_COLS 160

typedef struct sweep_csv {
    FILE *f;        /* PATH.tmp while open */
    char *path, *tmp;
    char *cols[SWEEP_CSV_MAX_COLS]; /* header, taken from the first row */
    int ncols;      /* columns in the header (0 until the first row ends) */
    int col;        /* cells written in the current row */
    int rows;
    char *row;      /* the current row's cells, comma-separated */
    size_t row_len, row_cap;
    char err[512];  /* first error; the commit fails if set */
} sweep_csv;

/* Opens PATH.tmp for writing. Returns 0, or -1 with the reason in c->err. */
int sweep_csv_open(sweep_csv *c, const char *path);
/* Before a run: can PATH (through PATH.tmp) be written? Refuses "", a
 * directory (or a path ending in '/'), an existing file that is not a regular
 * file, and a parent where PATH.tmp cannot be made. 0, or -1 with the reason
 * naming flag ("--csv", "--gantt") and the path. */
int sweep_csv_check_dest(const char *flag, const char *path, char *err, size_t n);
/* sweep_csv_check_dest("--csv", ...) */
int sweep_csv_writable(const char *path, char *err, size_t n);
/* Cells of the current row, left to right; col is the header's name. */
void sweep_csv_str(sweep_csv *c, const char *col, const char *v);
void sweep_csv_int(sweep_csv *c, const char *col, long long v);
void sweep_csv_uint(sweep_csv *c, const char *col, unsigned long long v);
void sweep_csv_num(sweep_csv *c, const char *col, double v); /* %.9g as --json; NaN/inf -> empty */
void sweep_csv_empty(sweep_csv *c, const char *col);         /* not measured by this backend/mode */
void sweep_csv_end_row(sweep_csv *c);
/* Flushes, closes and renames PATH.tmp to PATH. Returns 0, or -1 with the
 * reason in c->err (then PATH.tmp is removed and PATH left untouched). */
int sweep_csv_commit(sweep_csv *c);
/* Closes and removes PATH.tmp (a run that failed part-way). */
void sweep_csv_abort(sweep_csv *c);
#endif
