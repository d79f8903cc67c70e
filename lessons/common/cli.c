/* lessons/common/cli.c - see cli.h. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const lesson_modes[] = {"sim", "cuda", "compare", NULL};

int cli_parse_size(const char *s, long long *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !(v >= 0) || v > 1e18) /* also NaN, inf */
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
            char *end;
            if (o->type == OPT_INT) {
                errno = 0;
                v = strtoll(val, &end, 10);
                if (end == val || *end || errno) {
                    snprintf(err, errn, "--%s '%s' is not a whole number", o->name, val);
                    return -1;
                }
            } else if (cli_parse_size(val, &v)) {
                snprintf(err, errn, "--%s '%s' is not a size (bytes, or with k/m suffix: 48k, 227KB)", o->name, val);
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
