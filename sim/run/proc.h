/* sim/run/proc.h - running a tool from an argument vector (never a shell), for
 * `simtlab run`'s driver (run.c, run_cuda.c). */
#ifndef SIMTLAB_RUN_PROC_H
#define SIMTLAB_RUN_PROC_H
#include <signal.h>
/* Runs argv (argv[0] looked up on PATH) and waits; returns its exit status (0-255),
 * PROC_SIGNALED + the signal that ended it, or -1 (errno set) when it could not start
 * (a program may exit with 128 + n itself: exit(702) is status 190, no signal).
 * out: its stdout and stderr go to that file (NULL: inherited); verbose: the
 * command is printed first; envp NULL: this process's environment. */
#define PROC_SIGNALED 256
/* the status a shell would show: 128 + the signal for a signalled process */
static inline int proc_status(int rc) { return rc >= PROC_SIGNALED ? 128 + rc - PROC_SIGNALED : rc; }
int proc_run(char *const argv[], const char *out, int verbose, char *const envp[]);
/* The same, running the executable at path with argv as given (argv[0] the name the program
 * sees) */
int proc_run_as(const char *path, char *const argv[], const char *out, int verbose, char *const envp[]);
/* The program being waited for by proc_run_as (0 when none): run.c forwards SIGTERM to it. */
extern volatile int proc_child;
/* A signal to pass on to the child once it exists (0: none): a handler that finds proc_child 0
 * (before the spawn has returned) sets it, and proc_run_as sends it as soon as the pid is known. */
extern volatile sig_atomic_t proc_pending;
/* "simtlab run: <message>" on stderr; returns 2 (the driver's exit status for its own errors). */
int run_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif
