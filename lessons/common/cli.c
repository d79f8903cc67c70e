/* lessons/common/cli.c - see cli.h. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const lesson_modes[] = {"sim", "cuda", "compare", NULL};

/* Digits, optionally one '.' and more digits: "48", "1.5". Returns the length, 0 if none. */
static size_t decimal_len(const char *s)
{
    size_t i = 0;
    while (isdigit((unsigned char)s[i]))
        i++;
    if (i && s[i] == '.' && isdigit((unsigned char)s[i + 1]))
        for (i++; isdigit((unsigned char)s[i]); i++)
            ;
    return i;
}

int cli_parse_int(const char *s, long long *out)
{
    const char *d = s + (s[0] == '-');
    size_t i = 0;
    while (isdigit((unsigned char)d[i]))
        i++;
    if (!i || d[i])
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno == ERANGE)
        return -2;
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_real(const char *s, double *out)
{
    const char *d = s + (s[0] == '-');
    size_t i = decimal_len(d);
    if (!i)
        return -1;
    if (d[i] == 'e' || d[i] == 'E') {
        size_t j = i + 1 + (d[i + 1] == '-' || d[i + 1] == '+'), k = j;
        while (isdigit((unsigned char)d[k]))
            k++;
        if (k == j)
            return -1;
        i = k;
    }
    if (d[i])
        return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (!isfinite(v))
        return -2;
    *out = v;
    return 0;
}

int cli_parse_size(const char *s, long long *out)
{
    size_t i = decimal_len(s); /* no sign, space, hex, exponent, inf or nan */
    if (!i)
        return -1;
    const char *end = s + i;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno || !(v >= 0) || v > 1e18)
        return -1;
    long long mul = 1;
    if (*end) {
        char u = (char)tolower((unsigned char)*end);
        if (u == 'k')
            mul = 1024;
        else if (u == 'm')
            mul = 1024 * 1024;
        else if (u == 'g')
            mul = 1024LL * 1024 * 1024;
        else if (u != 'b')
            return -1;
        end++;
        if (u != 'b' && (*end == 'b' || *end == 'B' || *end == 'i'))
            end += *end == 'i' ? (end[1] == 'B' || end[1] == 'b' ? 2 : 1) : 1;
        if (*end)
            return -1;
    }
    if (v * (double)mul > 9e18)
        return -1;
    *out = (long long)(v * (double)mul + 0.5);
    return 0;
}

static const lesson_opt *find(const lesson_opt *opts, const char *name, size_t len)
{
    for (const lesson_opt *o = opts; o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

int cli_parse(int argc, char **argv, int first, const lesson_opt *opts, char *err, size_t errn)
{
    enum { MAX_OPTS = 64 };
    unsigned char seen[MAX_OPTS] = {0};
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) || !a[2]) {
            snprintf(err, errn, "unexpected argument '%s' (options start with --)", a);
            return -1;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const lesson_opt *o = find(opts, name, len);
        if (!o) {
            snprintf(err, errn, "unknown option '--%.*s'", (int)len, name);
            return -1;
        }
        size_t idx = (size_t)(o - opts);
        if (idx < MAX_OPTS) {
            if (seen[idx]) {
                snprintf(err, errn, "--%s given twice; give each option once", o->name);
                return -1;
            }
            seen[idx] = 1;
        }
        if (o->type == OPT_FLAG) {
            if (eq) {
                snprintf(err, errn, "--%s takes no value", o->name);
                return -1;
            }
            *(int *)o->dst = 1;
            continue;
        }
        const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!val) {
            snprintf(err, errn, "--%s needs a value (%s)", o->name, o->metavar);
            return -1;
        }
        if (!eq && !strncmp(val, "--", 2)) {
            snprintf(err, errn, "--%s needs a value (%s), got the option '%s' (write --%s=%s if you mean it)", o->name,
                     o->metavar, val, o->name, val);
            return -1;
        }
        if (!*val) {
            snprintf(err, errn, "--%s needs a value (%s), got an empty string", o->name, o->metavar);
            return -1;
        }
        if (o->type == OPT_STR) {
            *(const char **)o->dst = val;
        } else if (o->type == OPT_CHOICE) {
            int ok = 0;
            for (const char *const *c = o->choices; *c; c++)
                if (!strcmp(*c, val)) {
                    *(const char **)o->dst = *c;
                    ok = 1;
                }
            if (!ok) {
                snprintf(err, errn, "--%s '%s': expected one of %s", o->name, val, o->metavar);
                return -1;
            }
        } else {
            long long v;
            if (o->type == OPT_INT) {
                int r = cli_parse_int(val, &v);
                if (r) {
                    snprintf(err, errn, "--%s '%s' is %s: it must be a whole number from %lld to %lld", o->name, val,
                             r == -2 ? "out of range" : "not a whole number (digits only)", o->min, o->max);
                    return -1;
                }
            } else if (cli_parse_size(val, &v)) {
                snprintf(err, errn,
                         "--%s '%s' is not a size: bytes, or with a k/m/g suffix (48k, 227KB, 1.5m), from %lld to "
                         "%lld bytes",
                         o->name, val, o->min, o->max);
                return -1;
            }
            if (v < o->min || v > o->max) {
                snprintf(err, errn, "--%s %lld is out of range: it must be from %lld to %lld", o->name, v, o->min,
                         o->max);
                return -1;
            }
            *(long long *)o->dst = v;
        }
    }
    return 0;
}

void cli_usage(FILE *f, const char *prog, const lesson_opt *opts, int verbose)
{
    fprintf(f, "usage: %s", prog);
    for (const lesson_opt *o = opts; o->name; o++)
        if (o->type == OPT_FLAG)
            fprintf(f, " [--%s]", o->name);
        else
            fprintf(f, " [--%s %s]", o->name, o->metavar);
    fputc('\n', f);
    if (!verbose)
        return;
    for (const lesson_opt *o = opts; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->type == OPT_FLAG ? "" : " ",
                 o->type == OPT_FLAG ? "" : o->metavar);
        fprintf(f, "  %-26s %s\n", left, o->help);
    }
}
