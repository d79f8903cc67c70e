/* lessons/05_torch_stack/alloc_trace.c - see alloc_trace.h. */
#include "alloc_trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sizes are fp32 tensors of a two-layer model, batch 4096, 1024 features,
 * 10 classes: W1 is 1024 x 1024 x 4 B = 4 MiB, a batch 4096 x 1024 x 4 B = 16 MiB. */
const char ca_trace_default[] =
    "# the model: weights and biases, live for the whole run\n"
    "alloc w1 4194304        # 4 MiB: 1 MiB < size < 10 MiB, so a 20 MiB segment, split\n"
    "alloc b1 4096           # <= 1 MiB: the small pool, a 2 MiB segment\n"
    "alloc w2 40960\n"
    "alloc b2 40             # rounded up to 512 B\n"
    "# forward: a batch of 4096 inputs (16 MiB) and its activation\n"
    "alloc x 16777216        # best fit: the free 16 MiB of w1's segment, no cudaMalloc\n"
    "alloc h 16777216        # >= 10 MiB: a segment of its own, rounded up to 2 MiB\n"
    "alloc logits 163840\n"
    "alloc loss 4\n"
    "# backward\n"
    "alloc grad_logits 163840\n"
    "free loss\n"
    "alloc grad_w2 40960\n"
    "alloc grad_h 16777216\n"
    "free logits\n"
    "free grad_logits        # merges with the free neighbour\n"
    "alloc grad_w1 4194304   # no free large block: another 20 MiB segment\n"
    "free h\n"
    "free grad_h\n"
    "# optimizer: a scratch buffer that is not a multiple of 512\n"
    "alloc scratch 3000000   # three free 16 MiB blocks fit: the lowest address wins\n"
    "free scratch\n"
    "# the step ends: activations and gradients are freed, their memory stays reserved\n"
    "free grad_w1\n"
    "free grad_w2\n"
    "free x\n"
    "# the next batch arrives on a side stream (stream 1): stream 0's free blocks do not serve it\n"
    "alloc x_next 16777216 1\n"
    "# torch.cuda.empty_cache(): only segments without a live block go back to the driver\n"
    "empty_cache\n"
    "# a 19.5 MiB buffer: a 20 MiB segment whose 512 KiB rest is not split off (the large pool splits only > 1 MiB)\n"
    "alloc buf 20447232\n";

static int add(ca_trace *t, const ca_trace_op *op)
{
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 32;
        ca_trace_op *p = realloc(t->ops, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        t->ops = p;
        t->cap = cap;
    }
    t->ops[t->n++] = *op;
    if (op->kind != CA_TRACE_HEADING)
        t->steps++;
    return 0;
}

/* "3000000", "4MiB", "1.5 MiB" is not accepted (one token), "1.5MiB" is. */
static int parse_bytes(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)s[0]))
        return -1;
    double v = strtod(s, &end);
    if (errno || end == s)
        return -1;
    static const struct { const char *u; double m; } units[] = {
        {"", 1},         {"B", 1},          {"k", 1024},       {"K", 1024},      {"KiB", 1024},
        {"m", 1048576},  {"M", 1048576},    {"MiB", 1048576},  {"g", 1073741824}, {"G", 1073741824},
        {"GiB", 1073741824}, {"KB", 1e3},   {"kB", 1e3},       {"MB", 1e6},      {"GB", 1e9},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(end, units[i].u)) {
            double b = v * units[i].m;
            if (b != floor(b) || b > 1e15) /* whole bytes, below a petabyte */
                return -1;
            *out = (uint64_t)b;
            return 0;
        }
    return -1;
}

typedef struct name_set {
    char (*names)[32];
    int *lines;
    int n, cap;
} name_set;

static int name_find(const name_set *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name))
            return i;
    return -1;
}

int ca_trace_parse(ca_trace *t, const char *text, const char *source, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    name_set live = {0};
    int line = 0, rc = -1;
    const char *p = text;
    char buf[512];
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        if (len >= sizeof buf) {
            snprintf(err, n, "%s:%d: line longer than %zu characters", source, line, sizeof buf - 1);
            goto done;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (eol ? 1 : 0);
        if (len && buf[len - 1] == '\r')
            buf[--len] = 0;

        ca_trace_op op;
        memset(&op, 0, sizeof op);
        op.line = line;
        char *s = buf;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '#') { /* a heading */
            s++;
            while (isspace((unsigned char)*s))
                s++;
            op.kind = CA_TRACE_HEADING;
            snprintf(op.text, sizeof op.text, "%s", s);
            if (add(t, &op))
                goto oom;
            continue;
        }
        char *hash = strchr(s, '#');
        if (hash)
            *hash = 0;
        char *tok[5];
        int nt = 0;
        for (char *q = strtok(s, " \t"); q && nt < 5; q = strtok(NULL, " \t"))
            tok[nt++] = q;
        if (nt == 0)
            continue;
        if (!strcmp(tok[0], "alloc")) {
            if (nt < 3 || nt > 4) {
                snprintf(err, n, "%s:%d: expected `alloc NAME BYTES [STREAM]`, got %d word%s", source, line, nt,
                         nt == 1 ? "" : "s");
                goto done;
            }
            op.kind = CA_TRACE_ALLOC;
            if (parse_bytes(tok[2], &op.bytes)) {
                snprintf(err, n, "%s:%d: alloc %s: '%s' is not a size in bytes (3000000, 4MiB, 1.5MiB, 20MB)",
                         source, line, tok[1], tok[2]);
                goto done;
            }
            if (nt == 4) {
                char *end;
                long v = strtol(tok[3], &end, 10);
                if (*end || end == tok[3] || v < 0 || v >= CA_MAX_STREAMS) {
                    snprintf(err, n, "%s:%d: alloc %s: stream '%s': streams are 0 to %d", source, line, tok[1], tok[3],
                             CA_MAX_STREAMS - 1);
                    goto done;
                }
                op.stream = (int)v;
            }
        } else if (!strcmp(tok[0], "free")) {
            if (nt != 2) {
                snprintf(err, n, "%s:%d: expected `free NAME`, got %d word%s", source, line, nt, nt == 1 ? "" : "s");
                goto done;
            }
            op.kind = CA_TRACE_FREE;
        } else if (!strcmp(tok[0], "empty_cache")) {
            if (nt != 1) {
                snprintf(err, n, "%s:%d: empty_cache takes no arguments", source, line);
                goto done;
            }
            op.kind = CA_TRACE_EMPTY_CACHE;
        } else {
            snprintf(err, n, "%s:%d: unknown step '%s' (alloc NAME BYTES [STREAM], free NAME, empty_cache, # heading)",
                     source, line, tok[0]);
            goto done;
        }
        if (op.kind != CA_TRACE_EMPTY_CACHE) {
            if (strlen(tok[1]) >= sizeof op.name) {
                snprintf(err, n, "%s:%d: name '%s' is longer than %zu characters", source, line, tok[1],
                         sizeof op.name - 1);
                goto done;
            }
            snprintf(op.name, sizeof op.name, "%s", tok[1]);
            int i = name_find(&live, op.name);
            if (op.kind == CA_TRACE_ALLOC && i >= 0) {
                snprintf(err, n, "%s:%d: alloc %s: '%s' is already live (allocated on line %d); free it first", source,
                         line, op.name, op.name, live.lines[i]);
                goto done;
            }
            if (op.kind == CA_TRACE_FREE && i < 0) {
                snprintf(err, n, "%s:%d: free %s: no live tensor of that name", source, line, op.name);
                goto done;
            }
            if (op.kind == CA_TRACE_ALLOC) {
                if (live.n == live.cap) {
                    int cap = live.cap ? 2 * live.cap : 32;
                    void *a = realloc(live.names, (size_t)cap * sizeof *live.names);
                    if (!a)
                        goto oom;
                    live.names = a;
                    void *b = realloc(live.lines, (size_t)cap * sizeof *live.lines);
                    if (!b)
                        goto oom;
                    live.lines = b;
                    live.cap = cap;
                }
                snprintf(live.names[live.n], sizeof live.names[0], "%s", op.name);
                live.lines[live.n++] = line;
            } else {
                live.n--;
                memcpy(live.names[i], live.names[live.n], sizeof live.names[0]);
                live.lines[i] = live.lines[live.n];
            }
        }
        /* the step as written, one space between words */
        size_t k = 0;
        for (int i = 0; i < nt && k < sizeof op.text; i++)
            k += (size_t)snprintf(op.text + k, sizeof op.text - k, "%s%s", i ? " " : "", tok[i]);
        if (add(t, &op))
            goto oom;
    }
    rc = 0;
    goto done;
oom:
    snprintf(err, n, "%s: out of host memory", source);
done:
    free(live.names);
    free(live.lines);
    if (rc)
        ca_trace_free(t);
    return rc;
}

int ca_trace_load(ca_trace *t, const char *path, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, n, "--trace %s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (len + 1 == cap) {
            char *b = realloc(text, cap *= 2);
            if (!b) {
                free(text);
                text = NULL;
            }
            text = b;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!text || bad) {
        snprintf(err, n, "--trace %s: %s", path, text ? "read error" : "out of host memory");
        free(text);
        return -1;
    }
    text[len] = 0;
    if (strlen(text) != len) {
        snprintf(err, n, "--trace %s: the file holds a NUL byte: not a text trace", path);
        free(text);
        return -1;
    }
    int rc = ca_trace_parse(t, text, path, err, n);
    free(text);
    return rc;
}

void ca_trace_free(ca_trace *t)
{
    free(t->ops);
    memset(t, 0, sizeof *t);
}

/* ---- replay ------------------------------------------------------------------------- */

void ca_replay_init(ca_replay *r, ca_allocator *a)
{
    memset(r, 0, sizeof *r);
    r->a = a;
}

static int find_live(const ca_replay *r, const char *name)
{
    for (int i = 0; i < r->n_live; i++)
        if (!strcmp(r->live[i].name, name))
            return i;
    return -1;
}

const ca_live *ca_replay_find(const ca_replay *r, const char *name)
{
    int i = find_live(r, name);
    return i < 0 ? NULL : &r->live[i];
}

int ca_replay_step(ca_replay *r, const ca_trace_op *op, char *err, size_t n)
{
    int i, st;
    switch (op->kind) {
    case CA_TRACE_ALLOC: {
        if (find_live(r, op->name) >= 0) {
            snprintf(err, n, "line %d: alloc %s: already live", op->line, op->name);
            return CA_ERR_INVALID;
        }
        if (r->n_live == r->cap_live) {
            int cap = r->cap_live ? 2 * r->cap_live : 32;
            ca_live *p = realloc(r->live, (size_t)cap * sizeof *p);
            if (!p) {
                snprintf(err, n, "out of host memory");
                return CA_ERR_DEVICE;
            }
            r->live = p;
            r->cap_live = cap;
        }
        ca_block *b;
        st = ca_malloc(r->a, op->bytes, op->stream, &b);
        if (st) {
            snprintf(err, n, "line %d: %s: %s", op->line, op->text, r->a->err);
            return st;
        }
        ca_live *l = &r->live[r->n_live++];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", op->name);
        l->block = b;
        l->bytes = op->bytes;
        l->stream = op->stream;
        return CA_OK;
    }
    case CA_TRACE_FREE:
        i = find_live(r, op->name);
        if (i < 0) {
            snprintf(err, n, "line %d: free %s: no live tensor of that name", op->line, op->name);
            return CA_ERR_INVALID;
        }
        st = ca_free(r->a, r->live[i].block);
        if (st) {
            snprintf(err, n, "line %d: %s: %s", op->line, op->text, r->a->err);
            return st;
        }
        r->live[i] = r->live[--r->n_live];
        return CA_OK;
    case CA_TRACE_EMPTY_CACHE:
        st = ca_empty_cache(r->a);
        if (st)
            snprintf(err, n, "line %d: empty_cache: %s", op->line, r->a->err);
        return st;
    default:
        return CA_OK;
    }
}

int ca_replay_check(const ca_replay *r, char *why, size_t n)
{
    if (!ca_check(r->a, why, n))
        return 0;
    for (int i = 0; i < r->n_live; i++) {
        const ca_live *l = &r->live[i];
        if (!l->block) {
            if (l->bytes) {
                snprintf(why, n, "tensor %s of %llu bytes has no block", l->name, (unsigned long long)l->bytes);
                return 0;
            }
            continue;
        }
        if (!l->block->allocated || l->block->size < l->bytes || l->block->requested != l->bytes ||
            l->block->stream != l->stream) {
            snprintf(why, n, "tensor %s: its block is %s, %llu bytes on stream %d (the tensor: %llu bytes, stream %d)",
                     l->name, l->block->allocated ? "allocated" : "free", (unsigned long long)l->block->size,
                     l->block->stream, (unsigned long long)l->bytes, l->stream);
            return 0;
        }
        for (int j = 0; j < i; j++)
            if (r->live[j].block == l->block) {
                snprintf(why, n, "tensors %s and %s share one block", r->live[j].name, l->name);
                return 0;
            }
    }
    return 1;
}

int ca_replay_all(ca_replay *r, const ca_trace *t, char *err, size_t n)
{
    for (int i = 0; i < t->n; i++) {
        int st = ca_replay_step(r, &t->ops[i], err, n);
        if (st)
            return st;
        char why[256];
        if (!ca_replay_check(r, why, sizeof why)) {
            snprintf(err, n, "line %d: %s: invariant broken: %s", t->ops[i].line, t->ops[i].text, why);
            return 1;
        }
    }
    return 0;
}

void ca_replay_free(ca_replay *r)
{
    free(r->live);
    memset(r, 0, sizeof *r);
}
