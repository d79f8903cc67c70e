/* sim/run/run_report.h - what `simtlab run` prints and writes about the
 * launches of a program (sim/run/report.c); cudart.c records them. */
#ifndef SIMTLAB_RUN_REPORT_H
#define SIMTLAB_RUN_REPORT_H
#include <stdio.h>

#include "backend.h"
#include "json.h"

typedef struct launch_rec {
    be_kernel k;      /* the lessons' launch record: one JSON schema (kernel_json.h) */
    char file[64];    /* where it was launched */
    int line;
    double sim_ms;    /* simulated GPU time (simtlab_cudart.h) */
    void *lines;      /* --lines: run_line[n_lines] */
    int n_lines;
    int library;      /* a cuBLAS call's launch (sim/run/cublas.c): compare mode pairs it apart */
} launch_rec;

/* --lines, after a launch: reads the launch's per-instruction counters,
 * sums them per source line and kind, prints the table (the first three
 * launches of each kernel) and keeps the rows for --json. */
void run_lines_report(const char *kernel, size_t launch_no, void **lines, int *n_lines);
void run_lines_json(json *j, const void *lines, int n_lines);
/* At exit: every launch (the first 40 one per row, then totals per kernel). */
void run_summary(FILE *f, const launch_rec *recs, size_t n, int detailed);
#endif
