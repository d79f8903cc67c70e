/* lessons/common/cli.h - table-driven command-line options for the lessons.
 *
 * Each lesson lists its options in a lesson_opt table; cli_parse fills the
 * destinations and, on a bad flag or value, writes the reason into err and
 * returns -1 (the driver then prints it with the usage line and exits 2).
 * Refused: an option given twice, an empty value, a value that is another
 * option ("--csv --json"; write --csv=--json to mean it), numbers with a
 * sign other than '-', spaces, hex or a suffix that is not a size unit.
 */
#ifndef LESSON_CLI_H
#define LESSON_CLI_H
#include <stddef.h>
#include <stdio.h>

typedef enum { OPT_INT, OPT_SIZE, OPT_STR, OPT_FLAG, OPT_CHOICE } opt_type;

typedef struct lesson_opt {
    const char *name;    /* "n" for --n */
    opt_type type;
    void *dst;           /* long long* (INT, SIZE), const char** (STR, CHOICE), int* (FLAG) */
    const char *metavar; /* "N", "BYTES", "sim|cuda|compare" */
    const char *help;
    long long min, max;  /* INT and SIZE bounds, inclusive */
    const char *const *choices; /* CHOICE: NULL-terminated */
} lesson_opt;

/* Options every lesson takes. */
typedef struct lesson_common {
    const char *mode; /* sim | cuda | compare */
    const char *arch; /* device preset */
    int detail;
    int json;
    int help;
} lesson_common;

extern const char *const lesson_modes[];
#define LESSON_COMMON_OPTS(c)                                                                           \
    {"mode", OPT_CHOICE, &(c).mode, "sim|cuda|compare", "backend: simulator, GPU, or both side by side", 0, 0, lesson_modes}, \
    {"arch", OPT_STR, &(c).arch, "ARCH", "device preset: sm_80, sm_89, sm_90, h200 (default sm_90)", 0, 0, NULL},           \
    {"detail", OPT_FLAG, &(c).detail, NULL, "count 32-byte sectors, shared wavefronts, bank conflicts, races", 0, 0, NULL}, \
    {"json", OPT_FLAG, &(c).json, NULL, "print one JSON object instead of the text report", 0, 0, NULL},                  \
    {"help", OPT_FLAG, &(c).help, NULL, "show this help", 0, 0, NULL}

/* Parses argv[first..argc). Returns 0, or -1 with the reason in err. */
int cli_parse(int argc, char **argv, int first, const lesson_opt *opts, char *err, size_t errn);
/* "usage: lesson 2 [--n N] ..." and one line per option. */
void cli_usage(FILE *f, const char *prog, const lesson_opt *opts, int verbose);
/* Parses "48k", "227KB", "1m", "1.5m", "4096" into bytes; -1 if malformed
 * (a sign, space, hex, exponent, inf or nan is malformed). */
int cli_parse_size(const char *s, long long *out);
/* A whole number: an optional '-' and digits only (no space, '+' or hex).
 * 0, -1 if malformed, -2 if it does not fit in a long long. */
int cli_parse_int(const char *s, long long *out);
/* A decimal number: [-]digits[.digits][e[+-]digits] (no hex, inf, nan, space).
 * 0, -1 if malformed, -2 if it is too large for a double. */
int cli_parse_real(const char *s, double *out);
#endif
