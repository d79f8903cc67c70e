/* lessons/main.c - the `lesson` program: `lesson list`, `lesson N [options]`.
 * The registry below drives `lesson list` and the README's lesson table
 * (`lesson list --markdown`; tests/scripts/readme_lessons.cmake checks they agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

int lesson01_main(int argc, char **argv);
int lesson02_main(int argc, char **argv);
int lesson03_main(int argc, char **argv);
int lesson04_main(int argc, char **argv);
int lesson05_main(int argc, char **argv);
int lesson06_main(int argc, char **argv);
int lesson07_main(int argc, char **argv);

const lesson_entry lesson_registry[] = {
    {1, "compile", "the nvcc chain: .cu -> PTX -> SASS for sm_80/89/90, the fatbinary, JIT from PTX", lesson01_main},
    {2, "scale", "threads, blocks, grids: the custom op y = 2x and its bounds guard", lesson02_main},
    {3, "softmax", "softmax naive, safe and online: passes over HBM, overflow, the online merge rule", lesson03_main},
    {4, "attention", "standard attention (S, P in HBM) vs FlashAttention v1 and v2: results and HBM bytes", lesson04_main},
    {5, "torch", "the PyTorch CUDA stack: copies and kernels on streams; the caching allocator, allocated vs reserved", lesson05_main},
    {6, "blocks", "Triton-style block programs: program_id, arange, masked load/store; add and fused softmax", lesson06_main},
    {7, "backward", "attention backward: standard (P, dP, dS in HBM) vs FlashAttention's recomputation, v1 and v2", lesson07_main},
    {0, NULL, NULL, NULL},
};

/* Lessons of the course that this build does not have yet (ends with number 0). */
static const struct { int number; const char *when; } planned[] = {
    {0, NULL},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: lesson list [--markdown]\n"
               "       lesson N [--mode sim|cuda|compare] [options]   (lesson N --help for its options)\n");
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* reports and errors interleave in order */
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        if (argc >= 2)
            printf("\nsimtlab runs CUDA kernels on a CPU simulator that counts every byte between HBM and SRAM,\n"
                   "and on an NVIDIA GPU beside its hardware counters. `lesson list` shows the lessons.\n");
        return argc < 2 ? LESSON_USAGE : LESSON_PASS;
    }
    if (!strcmp(argv[1], "list")) {
        int md = argc > 2 && !strcmp(argv[2], "--markdown");
        if (argc > 3 || (argc == 3 && !md)) {
            fprintf(stderr, "lesson list: unexpected argument '%s' (it takes only --markdown)\n", argv[argc == 3 ? 2 : 3]);
            usage(stderr);
            return LESSON_USAGE;
        }
        if (md)
            printf("| n | lesson | what you will see |\n|---|--------|-------------------|\n");
        for (const lesson_entry *e = lesson_registry; e->number; e++)
            printf(md ? "| %d | %s | %s |\n" : "  %d  %-10s %s\n", e->number, e->name, e->title);
        return LESSON_PASS;
    }
    /* digits only: no sign, space or hex ("+4", " 4" and "0x4" are not lesson numbers) */
    const char *arg = argv[1];
    size_t digits = strspn(arg, "0123456789");
    int last = 0;
    for (const lesson_entry *e = lesson_registry; e->number; e++)
        last = e->number > last ? e->number : last;
    if (!digits || arg[digits]) {
        fprintf(stderr, "lesson: '%s' is neither a lesson number (1 to %d, digits only) nor 'list'\n", arg, last);
        usage(stderr);
        return LESSON_USAGE;
    }
    while (digits > 1 && *arg == '0') /* "04" is lesson 4 */
        arg++, digits--;
    long n = digits > 6 ? -1 : strtol(arg, NULL, 10);
    for (const lesson_entry *e = lesson_registry; e->number; e++)
        if (e->number == n) {
            char prog[32];
            snprintf(prog, sizeof prog, "lesson %ld", n);
            argv[1] = prog;
            return e->run(argc - 1, argv + 1);
        }
    for (size_t i = 0; planned[i].number; i++)
        if (planned[i].number == n) {
            fprintf(stderr, "%s; `lesson list` shows what this build has\n", planned[i].when);
            return LESSON_USAGE;
        }
    fprintf(stderr, "lesson: there is no lesson %s; lessons are 1 to %d (`lesson list` shows them)\n", arg, last);
    return LESSON_USAGE;
}
