/* sim/inline_as.c - simtlab-as: the assembler that kernel units are built with (gcc -B).
 *
 * gcc's ThreadSanitizer instrumentation puts `call __tsan_read4` (sim/access.c's hooks)
 * before every load and store of a kernel. In counting mode most of a tiled kernel's
 * accesses are shared-memory accesses whose whole work is one counter increment, and the
 * call around it (call, return, the hook's TLS load) cost more than the work. gcc cannot
 * inline a sanitizer hook, so this program does it in the assembly gcc hands the
 * assembler: each
 *
 *     call __tsan_readN / __tsan_writeN        (N = 1, 2, 4, 8, 16; plain accesses only)
 *
 becomes the hook's shared-memory fast path (access_inline in sim/access.c: the worker
 * from TLS, the dynamic window then the static one, the detailed-mode test, the counter)
 * and, for everything else, a call from the same address: __simtlab_inside_readN/writeN
 * for a shared access in detailed mode (the hook's own detailed branch), and
 * __simtlab_outside_readN/writeN (the hook without the window tests, done already) for the
 * rest (HBM, the stack, constants, reports). A report's pc is
 * the call's return address, unchanged. Both take the worker as a second argument (%rsi).
 * Registers: only %rax, %rcx, %rsi and the flags, which the call clobbers anyway (a
 * one-argument call: %rsi holds nothing across it); %rdi, the argument, is left as it is. The field offsets
 * come from sim/internal.h, compiled in, so the tool always matches the simulator it is
 * built with.
 *
 * Used as gcc's assembler: `gcc -B<dir>/` finds <dir>/as, this program, which rewrites
 * its input files (or standard input) into temporary files and runs the real assembler
 * (SIMTLAB_REAL_AS) with the same arguments on them. `as --simtlab-print FILE.s` writes
 * the rewritten text to standard output (the test inline_as).
 * docs/NOTES.md ("Inline shared counting") has the measurements.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#ifndef SIMTLAB_REAL_AS
#define SIMTLAB_REAL_AS "as"
#endif

_Static_assert(sizeof(((sim_worker *)0)->detailed) == 4, "cmpl tests sim_worker.detailed");
_Static_assert(sizeof(((sim_worker *)0)->dyn_lim[0]) == 8 && sizeof(((sim_worker *)0)->tls_lim[0]) == 8,
               "cmpq tests the window limits");
_Static_assert(sizeof(((sim_worker *)0)->c.sram_read_bytes) == 8, "addq counts the shared bytes");
_Static_assert(offsetof(sim_counters, sram_write_bytes) == offsetof(sim_counters, sram_read_bytes) + 8,
               "a write's counter follows the read's");

/* The hook a line calls: 1 with *wr and *size set, or 0 (any other line). Exactly
 * "\tcall\t__tsan_read4" or "...@PLT", as gcc writes it, and trailing white space. */
static int hook_call(const char *line, int *wr, unsigned *size)
{
    static const char head[] = "\tcall\t__tsan_";
    if (strncmp(line, head, sizeof head - 1))
        return 0;
    const char *p = line + sizeof head - 1;
    if (!strncmp(p, "read", 4)) {
        *wr = 0;
        p += 4;
    } else if (!strncmp(p, "write", 5)) {
        *wr = 1;
        p += 5;
    } else {
        return 0;
    }
    char *end;
    errno = 0;
    const unsigned long n = strtoul(p, &end, 10);
    if (end == p || errno || !(n == 1 || n == 2 || n == 4 || n == 8 || n == 16))
        return 0;
    p = end;
    if (!strncmp(p, "@PLT", 4))
        p += 4;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p)
        return 0;
    *size = (unsigned)n;
    return 1;
}

/* Call number i with its fast path (access_inline in sim/access.c, line for line): no
 * launch running, nothing to do; inside a shared window in counting mode, the count; inside
 * one otherwise, __simtlab_inside_readN/writeN (shared_detailed); outside both, __simtlab_outside_readN/writeN, which does
 * not test the windows again. Both calls are one `call *%rcx`, where the original call was:
 * the return address, the pc of reports and of detailed mode's requests, is the same. */
static int emit_access(FILE *out, unsigned long i, int wr, unsigned size)
{
    const unsigned k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4;
    const char *rw = wr ? "write" : "read";
    return fprintf(out,
                   "\tmovq\tsim_tls_worker@gottpoff(%%rip), %%rax\n"
                   "\tmovq\t%%fs:(%%rax), %%rax\n"
                   "\ttestq\t%%rax, %%rax\n"
                   "\tje\t.Lsimtlab_done%lu\n"
                   "\tmovq\t%%rdi, %%rcx\n"
                   "\tsubq\t%zu(%%rax), %%rcx\n"
                   "\trorq\t$%u, %%rcx\n"
                   "\tcmpq\t%zu(%%rax), %%rcx\n"
                   "\tjb\t.Lsimtlab_shared%lu\n"
                   "\tmovq\t%%rdi, %%rcx\n"
                   "\tsubq\t%zu(%%rax), %%rcx\n"
                   "\trorq\t$%u, %%rcx\n"
                   "\tcmpq\t%zu(%%rax), %%rcx\n"
                   "\tjb\t.Lsimtlab_shared%lu\n"
                   "\tmovq\t__simtlab_outside_%s%u@GOTPCREL(%%rip), %%rcx\n"
                   "\tjmp\t.Lsimtlab_call%lu\n"
                   ".Lsimtlab_shared%lu:\n"
                   "\tcmpl\t$0, %zu(%%rax)\n"
                   "\tjne\t.Lsimtlab_hook%lu\n"
                   "\taddq\t$%u, %zu(%%rax)\n"
                   "\tjmp\t.Lsimtlab_done%lu\n"
                   ".Lsimtlab_hook%lu:\n"
                   "\tmovq\t__simtlab_inside_%s%u@GOTPCREL(%%rip), %%rcx\n"
                   ".Lsimtlab_call%lu:\n"
                   "\tmovq\t%%rax, %%rsi\n"
                   "\tcall\t*%%rcx\n"
                   ".Lsimtlab_done%lu:\n",
                   i, offsetof(sim_worker, dyn_lo), k, offsetof(sim_worker, dyn_lim) + 8 * k, i,
                   offsetof(sim_worker, tls_lo), k, offsetof(sim_worker, tls_lim) + 8 * k, i, rw, size, i, i,
                   offsetof(sim_worker, detailed), i, size,
                   offsetof(sim_worker, c.sram_read_bytes) + 8 * (size_t)wr, i, i, rw, size, i, i) < 0
               ? -1
               : 0;
}

/* Whether line is a syntax directive: 1 .intel_syntax, 0 .att_syntax, -1 neither. */
static int syntax_of(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return !strncmp(line, ".intel_syntax", 13) ? 1 : !strncmp(line, ".att_syntax", 11) ? 0 : -1;
}

/* in to out, each hook call with its fast path (labels numbered on from *n, so that
 * several inputs of one assembler run do not share one). A unit in Intel syntax (gcc
 * -masm=intel) gets its fast paths between `.att_syntax prefix` and the directive it
 * had. 0, or -1 with errno. */
static int rewrite(FILE *in, FILE *out, unsigned long *n)
{
    char *line = NULL, *intel = NULL; /* intel: the last .intel_syntax line, while in force */
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, in) >= 0) {
        int wr;
        unsigned size;
        const int syn = syntax_of(line);
        if (syn >= 0) {
            free(intel);
            intel = syn ? strdup(line) : NULL;
            if (syn && !intel)
                rc = -1;
        }
        if (rc == 0 && hook_call(line, &wr, &size)) {
            rc = (intel && fputs("\t.att_syntax prefix\n", out) < 0) || emit_access(out, (*n)++, wr, size) ||
                 (intel && fputs(intel, out) < 0);
        } else if (rc == 0 && fputs(line, out) < 0) {
            rc = -1;
        }
    }
    if (ferror(in))
        rc = -1;
    free(line);
    free(intel);
    return rc ? -1 : 0;
}

/* Whether argv[i] is an input to rewrite: a file named *.s (gcc's temporary files), or
 * "-" (standard input); not the value of an option that takes one. Anything else goes to
 * the assembler as it is. */
static int is_input(char **argv, int i)
{
    static const char *const with_value[] = {"-o", "-I", "--defsym", "-MF", "--MD", "--debug-prefix-map"};
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (!strcmp(argv[i - 1], with_value[k]))
            return 0;
    const size_t len = strlen(argv[i]);
    return !strcmp(argv[i], "-") || (argv[i][0] != '-' && len > 2 && !strcmp(argv[i] + len - 2, ".s"));
}

/* The temporary files, removed on every way out, a signal's too. */
static char **tmp_paths;
static volatile sig_atomic_t n_tmp;
static void remove_tmp(void)
{
    for (sig_atomic_t i = 0; i < n_tmp; i++)
        unlink(tmp_paths[i]);
}
static void on_signal(int sig)
{
    remove_tmp();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A new temporary file for the rewritten text: in TMPDIR, else /tmp (as gcc falls back). */
static FILE *tmp_open(char **path)
{
    const char *env = getenv("TMPDIR");
    const char *dirs[2] = {env && *env ? env : "/tmp", "/tmp"};
    for (int k = 0; k < 2; k++) {
        if (asprintf(path, "%s/simtlab-as-XXXXXX.s", dirs[k]) < 0) {
            *path = NULL;
            return NULL;
        }
        const int fd = mkstemps(*path, 2);
        if (fd >= 0) {
            tmp_paths[n_tmp] = *path;
            n_tmp++; /* registered before anything is written: a signal removes it */
            FILE *f = fdopen(fd, "w");
            if (!f)
                close(fd);
            return f;
        }
        free(*path);
        *path = NULL;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long labels = 0;
    if (argc == 3 && !strcmp(argv[1], "--simtlab-print")) {
        FILE *in = fopen(argv[2], "r");
        if (!in) {
            fprintf(stderr, "simtlab-as: cannot read %s: %s\n", argv[2], strerror(errno));
            return 1;
        }
        const int rc = rewrite(in, stdout, &labels);
        fclose(in);
        return rc ? 1 : 0;
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    tmp_paths = calloc((size_t)argc + 1, sizeof *tmp_paths);
    if (!args || !tmp_paths) {
        fprintf(stderr, "simtlab-as: out of memory\n");
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* --version and --help assemble nothing; every other call does (`as -v` too) */
    int n_in = 0, informational = 0, rc = 0;
    args[0] = (char *)SIMTLAB_REAL_AS;
    for (int i = 1; i < argc; i++) {
        args[i] = argv[i];
        informational |= !strcmp(argv[i], "--version") || !strcmp(argv[i], "--help");
        n_in += is_input(argv, i);
    }
    int nargs = argc;
    const int use_stdin = n_in == 0 && !informational; /* gcc -pipe: the text comes on standard input */
    for (int i = 1; i <= argc && rc == 0 && !informational; i++) {
        if (i < argc ? !is_input(argv, i) : !use_stdin)
            continue;
        const int from_stdin = i == argc || !strcmp(argv[i], "-");
        char *path = NULL;
        FILE *out = tmp_open(&path);
        FILE *in = from_stdin ? stdin : fopen(argv[i], "r");
        if (!out || !in) {
            fprintf(stderr, "simtlab-as: cannot %s %s: %s\n", !out ? "write" : "read",
                    !out ? (path ? path : "a temporary file") : argv[i], strerror(errno));
            rc = -1;
        } else if (rewrite(in, out, &labels)) {
            fprintf(stderr, "simtlab-as: rewriting %s: %s\n", from_stdin ? "standard input" : argv[i],
                    strerror(errno));
            rc = -1;
        }
        if (in && in != stdin)
            fclose(in);
        if (out && fclose(out) && !rc) {
            fprintf(stderr, "simtlab-as: writing %s: %s\n", path, strerror(errno));
            rc = -1;
        }
        if (i == argc)
            args[nargs++] = path;
        else
            args[i] = path ? path : argv[i];
    }
    args[nargs] = NULL;
    int status = 1;
    if (rc == 0) {
        const pid_t pid = fork();
        if (pid == 0) {
            execvp(args[0], args);
            fprintf(stderr, "simtlab-as: cannot run %s: %s\n", args[0], strerror(errno));
            _exit(127);
        }
        int st = 0;
        if (pid < 0)
            fprintf(stderr, "simtlab-as: cannot start %s: %s\n", args[0], strerror(errno));
        else if (waitpid(pid, &st, 0) == pid)
            status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    remove_tmp();
    for (sig_atomic_t i = 0; i < n_tmp; i++)
        free(tmp_paths[i]);
    free(tmp_paths);
    free(args);
    return status;
}
