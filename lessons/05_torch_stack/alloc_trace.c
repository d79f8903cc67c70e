/* lessons/05_torch_stack/alloc_trace.c - see alloc_trace.h. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
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

/* ---- a map from names (or block addresses) to small ints --------------------------
 * Open addressing, linear probing, backward-shift deletion: O(1) per lookup, so
 * traces of many live tensors parse and replay in linear time. */
typedef struct name_map {
    struct name_slot { char key[32]; int val, used; } *slots;
    int n, cap; /* cap: a power of two, or 0 */
} name_map;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int map_find(const name_map *m, const char *key)
{
    if (!m->cap)
        return -1;
    for (uint64_t i = hash_str(key) & (uint64_t)(m->cap - 1);; i = (i + 1) & (uint64_t)(m->cap - 1)) {
        if (!m->slots[i].used)
            return -1;
        if (!strcmp(m->slots[i].key, key))
            return (int)i;
    }
}

static int map_get(const name_map *m, const char *key)
{
    int i = map_find(m, key);
    return i < 0 ? -1 : m->slots[i].val;
}

static int map_put(name_map *m, const char *key, int val);

static int map_grow(name_map *m)
{
    name_map g = {calloc((size_t)(m->cap ? 2 * m->cap : 64), sizeof *g.slots), 0, m->cap ? 2 * m->cap : 64};
    if (!g.slots)
        return -1;
    for (int i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            map_put(&g, m->slots[i].key, m->slots[i].val);
    free(m->slots);
    *m = g;
    return 0;
}

/* Sets key's value (adding it). 0, or -1 out of memory. */
static int map_put(name_map *m, const char *key, int val)
{
    int i = map_find(m, key);
    if (i >= 0) {
        m->slots[i].val = val;
        return 0;
    }
    if (2 * (m->n + 1) > m->cap && map_grow(m))
        return -1;
    uint64_t j = hash_str(key) & (uint64_t)(m->cap - 1);
    while (m->slots[j].used)
        j = (j + 1) & (uint64_t)(m->cap - 1);
    snprintf(m->slots[j].key, sizeof m->slots[j].key, "%s", key);
    m->slots[j].val = val;
    m->slots[j].used = 1;
    m->n++;
    return 0;
}

static void map_del(name_map *m, const char *key)
{
    int i = map_find(m, key);
    if (i < 0)
        return;
    uint64_t mask = (uint64_t)(m->cap - 1), hole = (uint64_t)i;
    m->slots[hole].used = 0;
    m->n--;
    for (uint64_t j = (hole + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
        uint64_t home = hash_str(m->slots[j].key) & mask;
        /* move j into the hole unless its home lies cyclically in (hole, j] */
        if (hole <= j ? (home <= hole || home > j) : (home <= hole && home > j)) {
            m->slots[hole] = m->slots[j];
            m->slots[j].used = 0;
            hole = j;
        }
    }
}

static void map_free(name_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ---- parsing ---------------------------------------------------------------------- */
typedef struct parser {
    ca_trace *t;
    name_map live; /* name -> the line of its alloc */
    const char *source;
} parser;

/* Parses one line (NUL-terminated, no newline). 0, or -1 with the reason in err. */
static int parse_line(parser *ps, char *buf, size_t len, int line, char *err, size_t n)
{
    ca_trace *t = ps->t;
    const char *source = ps->source;
    if (len && buf[len - 1] == '\r')
        buf[--len] = 0;
    if (t->n >= CA_TRACE_MAX_STEPS) {
        snprintf(err, n, "%s:%d: more than %d steps and headings; a trace is limited to %d (CA_TRACE_MAX_STEPS)",
                 source, line, CA_TRACE_MAX_STEPS, CA_TRACE_MAX_STEPS);
        return -1;
    }
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
        goto add_op;
    }
    char *hash = strchr(s, '#');
    if (hash)
        *hash = 0;
    char *tok[5], *save = NULL;
    int nt = 0;
    for (char *q = strtok_r(s, " \t", &save); q && nt < 5; q = strtok_r(NULL, " \t", &save))
        tok[nt++] = q;
    if (nt == 0)
        return 0;
    if (!strcmp(tok[0], "alloc")) {
        if (nt < 3 || nt > 4) {
            snprintf(err, n, "%s:%d: expected `alloc NAME BYTES [STREAM]`, got %d word%s", source, line, nt,
                     nt == 1 ? "" : "s");
            return -1;
        }
        op.kind = CA_TRACE_ALLOC;
        if (parse_bytes(tok[2], &op.bytes)) {
            snprintf(err, n, "%s:%d: alloc %s: '%s' is not a size in bytes (3000000, 4MiB, 1.5MiB, 20MB)", source,
                     line, tok[1], tok[2]);
            return -1;
        }
        if (nt == 4) {
            char *end;
            long v = strtol(tok[3], &end, 10);
            if (*end || end == tok[3] || !isdigit((unsigned char)tok[3][0]) || v < 0 || v >= CA_MAX_STREAMS) {
                snprintf(err, n, "%s:%d: alloc %s: stream '%s': streams are 0 to %d", source, line, tok[1], tok[3],
                         CA_MAX_STREAMS - 1);
                return -1;
            }
            op.stream = (int)v;
        }
    } else if (!strcmp(tok[0], "free")) {
        if (nt != 2) {
            snprintf(err, n, "%s:%d: expected `free NAME`, got %d word%s", source, line, nt, nt == 1 ? "" : "s");
            return -1;
        }
        op.kind = CA_TRACE_FREE;
    } else if (!strcmp(tok[0], "empty_cache")) {
        if (nt != 1) {
            snprintf(err, n, "%s:%d: empty_cache takes no arguments", source, line);
            return -1;
        }
        op.kind = CA_TRACE_EMPTY_CACHE;
    } else {
        snprintf(err, n, "%s:%d: unknown step '%.40s' (alloc NAME BYTES [STREAM], free NAME, empty_cache, # heading)",
                 source, line, tok[0]);
        return -1;
    }
    if (op.kind != CA_TRACE_EMPTY_CACHE) {
        if (strlen(tok[1]) >= sizeof op.name) {
            snprintf(err, n, "%s:%d: name '%s' is longer than %zu characters", source, line, tok[1],
                     sizeof op.name - 1);
            return -1;
        }
        snprintf(op.name, sizeof op.name, "%s", tok[1]);
        int at = map_get(&ps->live, op.name);
        if (op.kind == CA_TRACE_ALLOC && at >= 0) {
            snprintf(err, n, "%s:%d: alloc %s: '%s' is already live (allocated on line %d); free it first", source,
                     line, op.name, op.name, at);
            return -1;
        }
        if (op.kind == CA_TRACE_FREE && at < 0) {
            snprintf(err, n, "%s:%d: free %s: no live tensor of that name", source, line, op.name);
            return -1;
        }
        if (op.kind == CA_TRACE_ALLOC) {
            if (map_put(&ps->live, op.name, line))
                goto oom;
        } else {
            map_del(&ps->live, op.name);
        }
    }
    /* the step as written, one space between words */
    size_t k = 0;
    for (int i = 0; i < nt && k < sizeof op.text; i++)
        k += (size_t)snprintf(op.text + k, sizeof op.text - k, "%s%s", i ? " " : "", tok[i]);
add_op:
    if (add(t, &op))
        goto oom;
    return 0;
oom:
    snprintf(err, n, "%s:%d: out of host memory (a trace of %d steps: %zu bytes, or the table of live names)", source,
             line, t->n + 1, (size_t)(t->n + 1) * sizeof *t->ops);
    return -1;
}

int ca_trace_parse(ca_trace *t, const char *text, const char *source, char *err, size_t n)
{
    memset(t, 0, sizeof *t);
    parser ps = {t, {0}, source};
    int line = 0, rc = 0;
    char buf[CA_TRACE_MAX_LINE + 1];
    for (const char *p = text; *p && !rc;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        line++;
        if (len > CA_TRACE_MAX_LINE) {
            snprintf(err, n, "%s:%d: line longer than %d characters", source, line, CA_TRACE_MAX_LINE);
            rc = -1;
            break;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (eol ? 1 : 0);
        rc = parse_line(&ps, buf, len, line, err, n);
    }
    map_free(&ps.live);
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
    char source[600];
    snprintf(source, sizeof source, "--trace %s", path);
    parser ps = {t, {0}, source};
    char buf[CA_TRACE_MAX_LINE + 2];
    size_t len = 0, total = 0;
    int line = 1, rc = 0, ch;
    /* a byte at a time through stdio's buffer: stops at the first NUL byte, overlong
     * line or byte past the cap, so /dev/zero or a huge file is refused at once */
    while (!rc && (ch = getc(f)) != EOF) {
        if (++total > CA_TRACE_MAX_BYTES) {
            snprintf(err, n, "--trace %s: larger than %d bytes (%d MiB, CA_TRACE_MAX_BYTES); a trace is a text file of "
                             "at most %d steps",
                     path, CA_TRACE_MAX_BYTES, CA_TRACE_MAX_BYTES >> 20, CA_TRACE_MAX_STEPS);
            rc = -1;
        } else if (ch == 0) {
            snprintf(err, n, "--trace %s:%d: the file holds a NUL byte (at byte %zu): not a text trace", path, line,
                     total);
            rc = -1;
        } else if (ch == '\n') {
            buf[len] = 0;
            rc = parse_line(&ps, buf, len, line, err, n);
            len = 0;
            line++;
        } else if (len == CA_TRACE_MAX_LINE) {
            snprintf(err, n, "--trace %s:%d: line longer than %d characters", path, line, CA_TRACE_MAX_LINE);
            rc = -1;
        } else {
            buf[len++] = (char)ch;
        }
    }
    if (!rc && ferror(f)) {
        snprintf(err, n, "--trace %s: read error: %s", path, strerror(errno));
        rc = -1;
    }
    if (!rc && len) { /* a last line without a newline */
        buf[len] = 0;
        rc = parse_line(&ps, buf, len, line, err, n);
    }
    fclose(f);
    map_free(&ps.live);
    if (rc)
        ca_trace_free(t);
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

static void block_key(const ca_block *b, char key[32]) { snprintf(key, 32, "%p", (const void *)b); }

static int find_live(const ca_replay *r, const char *name) { return r->names ? map_get(r->names, name) : -1; }

const ca_live *ca_replay_find(const ca_replay *r, const char *name)
{
    int i = find_live(r, name);
    return i < 0 ? NULL : &r->live[i];
}

int ca_replay_step(ca_replay *r, const ca_trace_op *op, char *err, size_t n)
{
    int i, st;
    r->touched = -1;
    r->step_err[0] = 0;
    if ((!r->names && !(r->names = calloc(1, sizeof(name_map)))) ||
        (!r->blocks && !(r->blocks = calloc(1, sizeof(name_map))))) {
        snprintf(err, n, "line %d: out of host memory (%zu bytes for the replay's tables)", op->line, sizeof(name_map));
        return CA_ERR_DEVICE;
    }
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
                snprintf(err, n, "line %d: out of host memory (%zu bytes for %d live tensors)", op->line,
                         (size_t)cap * sizeof *p, cap);
                return CA_ERR_DEVICE;
            }
            r->live = p;
            r->cap_live = cap;
        }
        if (map_put(r->names, op->name, r->n_live)) {
            snprintf(err, n, "line %d: out of host memory (the table of %d live names)", op->line, r->n_live + 1);
            return CA_ERR_DEVICE;
        }
        ca_block *b;
        st = ca_malloc(r->a, op->bytes, op->stream, &b);
        if (st) {
            map_del(r->names, op->name);
            snprintf(err, n, "line %d: %s: %s", op->line, op->text, r->a->err);
            return st;
        }
        ca_live *l = &r->live[r->n_live++];
        memset(l, 0, sizeof *l);
        snprintf(l->name, sizeof l->name, "%s", op->name);
        l->block = b;
        l->bytes = op->bytes;
        l->stream = op->stream;
        r->touched = r->n_live - 1;
        if (b) {
            char key[32];
            block_key(b, key);
            int other = map_get(r->blocks, key);
            if (other >= 0) /* found by the next check */
                snprintf(r->step_err, sizeof r->step_err, "tensors %s and %s share one block", r->live[other].name,
                         l->name);
            else if (map_put(r->blocks, key, r->n_live - 1))
                snprintf(r->step_err, sizeof r->step_err, "out of host memory (the table of %d live blocks)",
                         r->n_live);
            r->live_size += b->size;
        }
        r->live_bytes += op->bytes;
        return CA_OK;
    }
    case CA_TRACE_FREE:
        i = find_live(r, op->name);
        if (i < 0) {
            snprintf(err, n, "line %d: free %s: no live tensor of that name", op->line, op->name);
            return CA_ERR_INVALID;
        }
        ca_block *b = r->live[i].block;
        uint64_t size = b ? b->size : 0;
        st = ca_free(r->a, b);
        if (st) {
            snprintf(err, n, "line %d: %s: %s", op->line, op->text, r->a->err);
            return st;
        }
        char key[32];
        if (b) {
            block_key(b, key);
            if (map_get(r->blocks, key) == i)
                map_del(r->blocks, key);
        }
        r->live_size -= size;
        r->live_bytes -= r->live[i].bytes;
        map_del(r->names, op->name);
        r->live[i] = r->live[--r->n_live];
        if (i < r->n_live) { /* the last tensor moved to i */
            map_put(r->names, r->live[i].name, i);
            if (r->live[i].block) {
                block_key(r->live[i].block, key);
                if (map_get(r->blocks, key) == r->n_live)
                    map_put(r->blocks, key, i);
            }
        }
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

/* One live tensor's block: allocated, big enough, its request, its stream. */
static int check_tensor(const ca_live *l, char *why, size_t n)
{
    if (!l->block) {
        if (l->bytes) {
            snprintf(why, n, "tensor %s of %llu bytes has no block", l->name, (unsigned long long)l->bytes);
            return 0;
        }
        return 1;
    }
    if (!l->block->allocated || l->block->size < l->bytes || l->block->requested != l->bytes ||
        l->block->stream != l->stream) {
        snprintf(why, n, "tensor %s: its block is %s, %llu bytes on stream %d (the tensor: %llu bytes, stream %d)",
                 l->name, l->block->allocated ? "allocated" : "free", (unsigned long long)l->block->size,
                 l->block->stream, (unsigned long long)l->bytes, l->stream);
        return 0;
    }
    return 1;
}

int ca_replay_check(const ca_replay *r, char *why, size_t n)
{
    if (!ca_check(r->a, why, n))
        return 0;
    name_map seen = {0}; /* blocks seen, so that sharing costs O(1) a tensor */
    int ok = 1;
    for (int i = 0; ok && i < r->n_live; i++) {
        const ca_live *l = &r->live[i];
        if (!(ok = check_tensor(l, why, n)) || !l->block)
            continue;
        char key[32];
        block_key(l->block, key);
        int j = map_get(&seen, key);
        if (j >= 0) {
            snprintf(why, n, "tensors %s and %s share one block", r->live[j].name, l->name);
            ok = 0;
        } else if (map_put(&seen, key, i)) {
            snprintf(why, n, "out of host memory checking %d live tensors", r->n_live);
            ok = 0;
        }
    }
    map_free(&seen);
    return ok;
}

int ca_replay_check_step(const ca_replay *r, int full, char *why, size_t n)
{
    if (full)
        return ca_replay_check(r, why, n);
    if (r->step_err[0]) {
        snprintf(why, n, "%s", r->step_err);
        return 0;
    }
    if (r->touched >= 0 && r->touched < r->n_live && !check_tensor(&r->live[r->touched], why, n))
        return 0;
    const ca_allocator *a = r->a;
    if (a->allocated != r->live_size || a->requested != r->live_bytes || a->allocated > a->reserved) {
        snprintf(why, n,
                 "allocated %llu, requested %llu, reserved %llu; the live tensors' blocks add up to %llu, their "
                 "requests to %llu",
                 (unsigned long long)a->allocated, (unsigned long long)a->requested, (unsigned long long)a->reserved,
                 (unsigned long long)r->live_size, (unsigned long long)r->live_bytes);
        return 0;
    }
    return 1;
}

int ca_replay_full_check_due(const ca_replay *r, int step, int steps)
{
    if (step + 1 == steps || !(step & (step + 1))) /* 0, 1, 3, 7, ...: the 2^k-th steps, and the last */
        return 1;
    int segs = 0, blocks = 0; /* a small heap: the full check is cheap, run it every step */
    for (const ca_segment *s = r->a->segments; s && segs <= CA_REPLAY_FULL_CHECK_SEGMENTS; s = s->next, segs++)
        for (const ca_block *b = s->head; b && blocks <= CA_REPLAY_FULL_CHECK_BLOCKS; b = b->next)
            blocks++;
    return segs <= CA_REPLAY_FULL_CHECK_SEGMENTS && blocks <= CA_REPLAY_FULL_CHECK_BLOCKS;
}

int ca_replay_all(ca_replay *r, const ca_trace *t, char *err, size_t n)
{
    int step = 0;
    for (int i = 0; i < t->n; i++) {
        if (t->ops[i].kind == CA_TRACE_HEADING)
            continue;
        int st = ca_replay_step(r, &t->ops[i], err, n);
        if (st)
            return st;
        char why[256];
        if (!ca_replay_check_step(r, ca_replay_full_check_due(r, step++, t->steps), why, sizeof why)) {
            snprintf(err, n, "line %d: %s: invariant broken: %s", t->ops[i].line, t->ops[i].text, why);
            return 1;
        }
    }
    return 0;
}

void ca_replay_free(ca_replay *r)
{
    free(r->live);
    if (r->names)
        map_free(r->names);
    if (r->blocks)
        map_free(r->blocks);
    free(r->names);
    free(r->blocks);
    memset(r, 0, sizeof *r);
}
