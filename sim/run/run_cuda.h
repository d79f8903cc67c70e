/* sim/run/run_cuda.h - `simtlab run --mode cuda|compare` (run_cuda.c): the
 * same files, unchanged, built by nvcc and run on the GPU; each launch's
 * hardware counters (the metrics of the lessons' CUPTI backend, cuda/counters.cu)
 * read by Nsight Compute (ncu), which profiles any program without a change
 * to it (docs/NOTES.md says why ncu and not in-process CUPTI here). */
#ifndef SIMTLAB_RUN_CUDA_H
#define SIMTLAB_RUN_CUDA_H

typedef struct run_cuda_ctx {
    char bin[4200];  /* the nvcc-built program */
    char dir[4096];  /* the build cache directory */
    char ncu_log[4300];
    int profiled;    /* the last run had counters */
} run_cuda_ctx;

/* Builds the files with nvcc (the GPU's own architecture, or --arch).
 * Returns 0 or 2 with the reason printed. */
int run_cuda_build(const char *const *files, int n_files, const char *const *cflags, int n_cflags, const char *arch,
                   const char *dir, int verbose, run_cuda_ctx *c);
/* Runs it: under ncu unless no_counters; prints the per-launch table on
 * stderr and, with json, the lessons' per-launch schema. Returns the
 * program's exit status (2 when it could not run). */
int run_cuda_run(run_cuda_ctx *c, char **args, int n_args, int no_counters, const char *json, int verbose);
/* Compare mode: the simulator's launches (tsv, written by the sim run) beside
 * the GPU's, launch by launch; json gets both. 0 when every counter the two
 * share agrees, 1 otherwise. */
int run_cuda_compare(const run_cuda_ctx *c, const char *tsv, const char *json);
#endif
