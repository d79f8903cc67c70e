/* sim/run/proc.c - see proc.h. */
#define _GNU_SOURCE
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;
volatile int proc_child;
volatile sig_atomic_t proc_pending;

int proc_run(char *const argv[], const char *out, int verbose, char *const envp[])
{
    return proc_run_as(argv[0], argv, out, verbose, envp);
}

int proc_run_as(const char *path, char *const argv[], const char *out, int verbose, char *const envp[])
{
    if (verbose) {
        fputs("simtlab run:", stderr);
        if (strcmp(path, argv[0]))
            fprintf(stderr, " [%s]", path);
        for (int i = 0; argv[i]; i++)
            fprintf(stderr, " %s", argv[i]);
        fputc('\n', stderr);
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (out) {
        posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_adddup2(&fa, 1, 2);
    }
    pid_t pid;
    int rc = posix_spawnp(&pid, path, &fa, NULL, argv, envp ? envp : environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        errno = rc;
        return -1;
    }
    proc_child = pid; /* first: a signal from here on finds the pid; one before it is pending */
    if (proc_pending) {
        kill(pid, proc_pending);
        proc_pending = 0;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            proc_child = 0;
            return -1;
        }
    proc_child = 0;
    return WIFSIGNALED(st) ? PROC_SIGNALED + WTERMSIG(st) : WEXITSTATUS(st);
}

int run_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("simtlab run: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}
