/* lessons/common/json.c - see json.h. */
#include "json.h"

#include <math.h>

static void sep(json *j, const char *key)
{
    if (!j->first[j->depth])
        fputc(',', j->f);
    j->first[j->depth] = 0;
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
    if (key)
        fprintf(j->f, "\"%s\": ", key);
}

static void push(json *j, char c)
{
    fputc(c, j->f);
    if (j->depth < 31)
        j->depth++;
    j->first[j->depth] = 1;
}

static void pop(json *j, char c)
{
    int empty = j->first[j->depth];
    j->depth--;
    if (!empty) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    fputc(c, j->f);
}

void json_open(json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    push(j, '{');
}
void json_close(json *j)
{
    pop(j, '}');
    fputc('\n', j->f);
    fflush(j->f);
}
void json_obj(json *j, const char *key) { sep(j, key); push(j, '{'); }
void json_end(json *j) { pop(j, '}'); }
void json_arr(json *j, const char *key) { sep(j, key); push(j, '['); }
void json_end_arr(json *j) { pop(j, ']'); }
void json_int(json *j, const char *key, long long v) { sep(j, key); fprintf(j->f, "%lld", v); }
void json_uint(json *j, const char *key, unsigned long long v) { sep(j, key); fprintf(j->f, "%llu", v); }
void json_num(json *j, const char *key, double v)
{
    sep(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.9g", v);
    else
        fputs("null", j->f);
}
void json_bool(json *j, const char *key, int v) { sep(j, key); fputs(v ? "true" : "false", j->f); }
void json_null(json *j, const char *key) { sep(j, key); fputs("null", j->f); }
void json_str(json *j, const char *key, const char *v)
{
    sep(j, key);
    fputc('"', j->f);
    for (const char *p = v; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(j->f, "\\%c", *p);
        else if ((unsigned char)*p < 0x20)
            fprintf(j->f, "\\u%04x", *p);
        else
            fputc(*p, j->f);
    }
    fputc('"', j->f);
}
