/* lessons/05_torch_stack/streams.c - see streams.h. */
#include "streams.h"

#include <math.h>
#include <string.h>

void st_init(st_program *p) { memset(p, 0, sizeof *p); }

static int add(st_program *p, st_kind k, int stream, const char *name, int chunk, int event, double bytes,
               double flops)
{
    if (p->n == ST_MAX_OPS || stream < 0 || stream >= ST_MAX_STREAMS || event < -1 || event >= ST_MAX_EVENTS)
        return -1;
    st_op *o = &p->op[p->n];
    memset(o, 0, sizeof *o);
    o->kind = k;
    o->stream = stream;
    o->chunk = chunk;
    o->event = event;
    o->bytes = bytes;
    o->flops = flops;
    o->waits_for = -1;
    snprintf(o->name, sizeof o->name, "%s", name);
    if (stream + 1 > p->n_streams)
        p->n_streams = stream + 1;
    return p->n++;
}

int st_kernel(st_program *p, int stream, const char *name, int chunk, double bytes, double flops)
{
    return add(p, ST_KERNEL, stream, name, chunk, -1, bytes, flops);
}

int st_copy(st_program *p, st_kind dir, int stream, const char *name, int chunk, double bytes)
{
    return dir == ST_H2D || dir == ST_D2H ? add(p, dir, stream, name, chunk, -1, bytes, 0) : -1;
}

int st_record(st_program *p, int stream, int event)
{
    return event < 0 ? -1 : add(p, ST_RECORD, stream, "record", -1, event, 0, 0);
}

int st_wait(st_program *p, int stream, int event)
{
    return event < 0 ? -1 : add(p, ST_WAIT, stream, "wait", -1, event, 0, 0);
}

st_engine st_engine_of(st_kind k)
{
    return k == ST_KERNEL ? ST_ENG_COMPUTE : k == ST_H2D ? ST_ENG_H2D : k == ST_D2H ? ST_ENG_D2H : ST_ENG_NONE;
}

const char *st_engine_name(st_engine e)
{
    return e == ST_ENG_COMPUTE ? "compute" : e == ST_ENG_H2D ? "H2D copy" : e == ST_ENG_D2H ? "D2H copy" : "-";
}

double st_duration(const st_machine *m, const st_op *op)
{
    switch (op->kind) {
    case ST_KERNEL: /* LESSON: the roofline: whichever of memory and arithmetic takes longer */
        return fmax(op->bytes / m->hbm_bytes_per_s, op->flops / m->fp32_flops_per_s);
    case ST_H2D:
    case ST_D2H:
        return op->bytes / m->pcie_bytes_per_s;
    default:
        return 0;
    }
}

int st_compute_bound(const st_machine *m, const st_op *op)
{
    return op->kind == ST_KERNEL && op->flops / m->fp32_flops_per_s > op->bytes / m->hbm_bytes_per_s;
}

/* What a wait at index w waits for: the latest record of its event issued
 * before it (which ends when the op before it in its stream ends), or -1. */
static int wait_target(const st_program *p, int w)
{
    for (int i = w - 1; i >= 0; i--)
        if (p->op[i].kind == ST_RECORD && p->op[i].event == p->op[w].event)
            return i;
    return -1;
}

/* List scheduling in time order: repeatedly start the op, among the heads
 * of the stream queues whose dependencies have ended, that can start
 * earliest (its stream's and its engine's free time; ties: ready first,
 * then issued first). Every op issued earlier in its stream, and every
 * record a wait refers to, was issued earlier, so a head is always
 * schedulable and the loop ends after n steps. */
void st_simulate(st_program *p, const st_machine *m)
{
    int head[ST_MAX_STREAMS];           /* next unscheduled op index per stream, or -1 */
    double stream_free[ST_MAX_STREAMS]; /* when the stream's last scheduled op ended */
    double engine_free[ST_NENGINES] = {0};
    int done[ST_MAX_OPS] = {0};
    for (int s = 0; s < ST_MAX_STREAMS; s++) {
        head[s] = -1;
        stream_free[s] = 0;
    }
    for (int i = p->n - 1; i >= 0; i--) {
        head[p->op[i].stream] = i;
        p->op[i].waits_for = p->op[i].kind == ST_WAIT ? wait_target(p, i) : -1;
    }
    p->makespan = 0;
    for (int step = 0; step < p->n; step++) {
        int best = -1;
        double best_start = 0, best_ready = 0;
        for (int s = 0; s < ST_MAX_STREAMS; s++) {
            int i = head[s];
            if (i < 0)
                continue;
            const st_op *o = &p->op[i];
            double ready = stream_free[s];
            if (o->kind == ST_WAIT && o->waits_for >= 0) {
                if (!done[o->waits_for])
                    continue; /* its record is not scheduled yet */
                ready = fmax(ready, p->op[o->waits_for].end);
            }
            st_engine e = st_engine_of(o->kind);
            double start = e == ST_ENG_NONE ? ready : fmax(ready, engine_free[e]);
            if (best < 0 || start < best_start || (start == best_start && (ready < best_ready || (ready == best_ready && i < best)))) {
                best = i;
                best_start = start;
                best_ready = ready;
            }
        }
        if (best < 0)
            break; /* cannot happen: see above */
        st_op *o = &p->op[best];
        o->start = best_start;
        o->end = best_start + st_duration(m, o);
        st_engine e = st_engine_of(o->kind);
        if (e != ST_ENG_NONE)
            engine_free[e] = o->end;
        stream_free[o->stream] = o->end;
        done[best] = 1;
        if (o->end > p->makespan)
            p->makespan = o->end;
        int nx = -1;
        for (int j = best + 1; j < p->n; j++)
            if (p->op[j].stream == o->stream) {
                nx = j;
                break;
            }
        head[o->stream] = nx;
    }
}

double st_engine_busy(const st_program *p, st_engine e)
{
    double t = 0;
    for (int i = 0; i < p->n; i++)
        if (st_engine_of(p->op[i].kind) == e)
            t += p->op[i].end - p->op[i].start;
    return t;
}

#define CHECK(cond, ...)                                                                              \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            snprintf(why, n, __VA_ARGS__);                                                            \
            return 0;                                                                                 \
        }                                                                                             \
    } while (0)

int st_check(const st_program *p, const st_machine *m, int model, double tol, char *why, size_t n)
{
    double last = 0;
    for (int i = 0; i < p->n; i++) {
        const st_op *o = &p->op[i];
        CHECK(o->end >= o->start - tol && o->start >= -tol, "op %d (%s on stream %d) ends at %.6g s before it starts at %.6g s",
              i, o->name, o->stream, o->end, o->start);
        for (int j = i - 1; j >= 0; j--)
            if (p->op[j].stream == o->stream) {
                CHECK(o->start >= p->op[j].end - tol,
                      "stream %d is not in order: op %d (%s) starts at %.6g s before op %d (%s) ends at %.6g s",
                      o->stream, i, o->name, o->start, j, p->op[j].name, p->op[j].end);
                break;
            }
        if (o->kind == ST_WAIT && o->waits_for >= 0)
            CHECK(o->end >= p->op[o->waits_for].end - tol, "op %d (wait on stream %d) ends before its event (op %d)", i,
                  o->stream, o->waits_for);
        if (o->end > last)
            last = o->end;
        if (!model)
            continue;
        double d = st_duration(m, o);
        CHECK(fabs((o->end - o->start) - d) <= 1e-9 * fmax(d, 1e-12) + 1e-15,
              "op %d (%s): lasts %.9g s, the roofline says %.9g s", i, o->name, o->end - o->start, d);
        st_engine e = st_engine_of(o->kind);
        if (e == ST_ENG_NONE)
            continue;
        for (int j = 0; j < i; j++)
            if (st_engine_of(p->op[j].kind) == e && p->op[j].end - p->op[j].start > 0 && o->end - o->start > 0)
                CHECK(o->start >= p->op[j].end - tol || p->op[j].start >= o->end - tol,
                      "the %s engine runs op %d (%s, stream %d) and op %d (%s, stream %d) at once", st_engine_name(e),
                      j, p->op[j].name, p->op[j].stream, i, o->name, o->stream);
    }
    if (model) {
        CHECK(fabs(last - p->makespan) <= tol, "makespan %.9g s is not the last end %.9g s", p->makespan, last);
        for (int e = 0; e < ST_NENGINES; e++)
            CHECK(p->makespan >= st_engine_busy(p, (st_engine)e) - tol, "makespan %.9g s is shorter than the %s engine's work %.9g s",
                  p->makespan, st_engine_name((st_engine)e), st_engine_busy(p, (st_engine)e));
    }
    return 1;
}

void st_print_timeline(FILE *f, const st_program *p, double t_end, int width, const char *indent)
{
    char row[256];
    if (width > (int)sizeof row - 1)
        width = (int)sizeof row - 1;
    if (t_end <= 0)
        t_end = 1e-9;
    const double dt = t_end / width;
    for (int s = 0; s < p->n_streams; s++) {
        memset(row, '.', (size_t)width);
        row[width] = 0;
        /* long ops first, then the ones shorter than a column on top, so every op shows */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < p->n; i++) {
                const st_op *o = &p->op[i];
                if (o->stream != s || st_engine_of(o->kind) == ST_ENG_NONE)
                    continue;
                int c0 = (int)floor(o->start / dt + 0.5), c1 = (int)floor(o->end / dt + 0.5);
                int narrow = c1 <= c0;
                if (narrow != pass)
                    continue;
                if (narrow) {
                    c0 = (int)floor(o->start / dt);
                    c1 = c0 + 1;
                }
                char ch = o->kind == ST_KERNEL ? 'K' : o->kind == ST_H2D ? 'H' : 'D';
                if (o->chunk % 2)
                    ch = (char)(ch - 'A' + 'a');
                for (int c = c0 < 0 ? 0 : c0; c < c1 && c < width; c++)
                    row[c] = ch;
            }
        fprintf(f, "%sstream %d |%s|\n", indent, s, row);
    }
    char right[32];
    snprintf(right, sizeof right, "%.2f ms", t_end * 1e3);
    int pad = width - 4 - (int)strlen(right);
    fprintf(f, "%s          0 ms%*s%s\n", indent, pad > 0 ? pad : 1, "", right);
}
