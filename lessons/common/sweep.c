/* lessons/common/sweep.c - see sweep.h. */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const forms = "NAME=start:end:xF (geometric), NAME=start:end:+S (arithmetic) or NAME=a,b,c";

/* Parses one value of opt from s[0..len). Returns 0, or -1 with the reason. */
static int parse_value(const lesson_opt *o, const char *s, size_t len, long long *out, char *err, size_t errn)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf) {
        snprintf(err, errn, "--sweep %s: empty or overlong value '%.*s'", o->name, (int)len, s);
        return -1;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    long long v;
    if (o->type == OPT_SIZE) {
        if (cli_parse_size(buf, &v)) {
            snprintf(err, errn, "--sweep %s: '%s' is not a size (bytes, or with k/m suffix: 48k, 227KB)", o->name, buf);
            return -1;
        }
    } else {
        int r = cli_parse_int(buf, &v);
        if (r) {
            snprintf(err, errn, "--sweep %s: '%s' is %s: --%s must be a whole number from %lld to %lld", o->name, buf,
                     r == -2 ? "out of range" : "not a whole number (digits only)", o->name, o->min, o->max);
            return -1;
        }
    }
    *out = v;
    return 0;
}

static int in_bounds(const lesson_opt *o, long long v, char *err, size_t errn)
{
    if (v >= o->min && v <= o->max)
        return 0;
    snprintf(err, errn, "--sweep %s: %lld is out of range for --%s: it must be from %lld to %lld", o->name, v, o->name,
             o->min, o->max);
    return -1;
}

static int push(sweep_spec *sp, long long v, char *err, size_t errn)
{
    if (sp->n == SWEEP_MAX_POINTS) { /* callers count first; this is the backstop */
        snprintf(err, errn, "--sweep '%s' has more than %d points (the limit, SWEEP_MAX_POINTS); use a larger step",
                 sp->text, SWEEP_MAX_POINTS);
        return -1;
    }
    if (in_bounds(sp->opt, v, err, errn))
        return -1;
    sp->v[sp->n++] = v;
    return 0;
}

static int too_many(const char *arg, unsigned long long count, int capped, char *err, size_t errn)
{
    snprintf(err, errn,
             "--sweep '%.80s%s' has %s%llu points; at most %d are allowed (SWEEP_MAX_POINTS): use a larger step or a "
             "shorter range",
             arg, strlen(arg) > 80 ? "..." : "", capped ? "more than " : "", count, SWEEP_MAX_POINTS);
    return -1;
}

/* The geometric range's point after `last` (start*F^k rounded, k = 0, 1, ...,
 * repeats skipped), found from logarithms so that a factor near 1 costs no
 * more than a large one. Returns 0 and the point in *out, or 1 past end. */
static int geo_next(long long start, long long end, double f, double lf, long long last, int first, long long *out)
{
    double x;
    if (first) {
        x = (double)start;
    } else {
        double k = ceil(log(((double)last + 0.5) / (double)start) / lf);
        if (!(k >= 1))
            k = 1;
        if (k > 1 && llround(fmin((double)start * pow(f, k - 1), 9e18)) > last) /* ceil rounded up too far */
            k -= 1;
        x = (double)start * pow(f, k);
        if (!(x < 9e18) || llround(x) <= last) { /* rounding: aim a whole step past last */
            k = ceil(log(((double)last + 1.0) / (double)start) / lf);
            x = (double)start * pow(f, k);
        }
    }
    if (!(x <= (double)end + 0.5) || !(x < 9e18))
        return 1;
    long long v = llround(x);
    if (v <= last && !first)
        v = last + 1;
    if (v > end)
        return 1;
    *out = v;
    return 0;
}

int sweep_parse(sweep_spec *sp, const char *arg, const lesson_opt *opts, const char *const *names, char *err,
                size_t errn)
{
    memset(sp, 0, sizeof *sp);
    sp->text = arg;
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg) {
        snprintf(err, errn, "--sweep '%s': expected %s", arg, forms);
        return -1;
    }
    size_t nl = (size_t)(eq - arg);
    int allowed = 0;
    for (const char *const *n = names; *n; n++)
        allowed |= strlen(*n) == nl && !strncmp(*n, arg, nl);
    for (const lesson_opt *o = opts; allowed && o->name; o++)
        if (strlen(o->name) == nl && !strncmp(o->name, arg, nl) && (o->type == OPT_INT || o->type == OPT_SIZE))
            sp->opt = o;
    if (!sp->opt) {
        char list[256] = "";
        for (const char *const *n = names; *n; n++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", n == names ? "" : ", ", *n);
        snprintf(err, errn, "--sweep '%s': cannot sweep '%.*s'; this lesson sweeps %s", arg, (int)nl, arg, list);
        return -1;
    }
    const lesson_opt *o = sp->opt;
    const char *val = eq + 1, *c1 = strchr(val, ':');
    if (!c1) { /* a,b,c */
        unsigned long long count = 1;
        for (const char *p = val; *p; p++)
            count += *p == ',';
        if (count > SWEEP_MAX_POINTS)
            return too_many(arg, count, 0, err, errn);
        for (const char *p = val;;) {
            const char *q = strchr(p, ',');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            long long v;
            if (parse_value(o, p, len, &v, err, errn) || push(sp, v, err, errn))
                return -1;
            if (!q)
                break;
            p = q + 1;
        }
        return 0;
    }
    const char *c2 = strchr(c1 + 1, ':');
    if (!c2 || strchr(c2 + 1, ':') || (c2[1] != 'x' && c2[1] != '+')) {
        snprintf(err, errn, "--sweep '%s': a range needs a step: %s (e.g. %s=256:4096:x2)", arg, forms, o->name);
        return -1;
    }
    long long start, end;
    if (parse_value(o, val, (size_t)(c1 - val), &start, err, errn) ||
        parse_value(o, c1 + 1, (size_t)(c2 - c1 - 1), &end, err, errn) || in_bounds(o, start, err, errn) ||
        in_bounds(o, end, err, errn))
        return -1;
    if (end < start) {
        snprintf(err, errn, "--sweep '%s': the range ends (%lld) before it starts (%lld); write the smaller first", arg,
                 end, start);
        return -1;
    }
    if (c2[1] == '+') {
        long long step;
        if (parse_value(o, c2 + 2, strlen(c2 + 2), &step, err, errn))
            return -1;
        if (step <= 0) {
            snprintf(err, errn, "--sweep '%s': the step must be positive (+1 or more): %lld", arg, step);
            return -1;
        }
        /* count first, in unsigned arithmetic: end - start and the points never overflow */
        unsigned long long span = (unsigned long long)end - (unsigned long long)start;
        unsigned long long count = span / (unsigned long long)step + 1;
        if (count > SWEEP_MAX_POINTS)
            return too_many(arg, count, 0, err, errn);
        for (unsigned long long k = 0; k < count; k++)
            if (push(sp, (long long)((unsigned long long)start + k * (unsigned long long)step), err, errn))
                return -1;
        return 0;
    }
    char *fend;
    errno = 0;
    double f = strtod(c2 + 2, &fend);
    if (fend == c2 + 2 || *fend || !(f > 1.0) || !isfinite(f) || start <= 0 || c2[2] == ' ' || c2[2] == '+' ||
        c2[2] == '-') {
        snprintf(err, errn,
                 "--sweep '%s': a geometric step xF needs a factor F > 1 (x2, x1.5), a finite number, and a start "
                 "above 0",
                 arg);
        return -1;
    }
    const double lf = log1p(f - 1.0);
    /* count first (exactly, up to a cap), then generate the same points */
    enum { COUNT_CAP = 1000000 };
    unsigned long long count = 0;
    long long last = 0, v;
    for (int first = 1; count <= COUNT_CAP && !geo_next(start, end, f, lf, last, first, &v); first = 0) {
        last = v;
        count++;
    }
    if (count > SWEEP_MAX_POINTS)
        return too_many(arg, count > COUNT_CAP ? COUNT_CAP : count, count > COUNT_CAP, err, errn);
    last = 0;
    for (int first = 1; !geo_next(start, end, f, lf, last, first, &v); first = 0) {
        if (push(sp, v, err, errn))
            return -1;
        last = v;
    }
    return 0;
}

const char *sweep_point_str(const sweep_spec *sp, int i, char *buf, size_t n)
{
    long long v = sp->v[i];
    if (sp->opt->type == OPT_SIZE && v && v % (1 << 20) == 0)
        snprintf(buf, n, "%s=%lldm", sp->opt->name, v >> 20);
    else if (sp->opt->type == OPT_SIZE && v && v % 1024 == 0)
        snprintf(buf, n, "%s=%lldk", sp->opt->name, v >> 10);
    else
        snprintf(buf, n, "%s=%lld", sp->opt->name, v);
    return buf;
}

void sweep_progress(const char *prog, const sweep_spec *sp, int i, const char *fmt, ...)
{
    char pt[96];
    va_list ap;
    fprintf(stderr, "%s sweep [%d/%d] %s: ", prog, i + 1, sp->n, sweep_point_str(sp, i, pt, sizeof pt));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}

/* ---- CSV --------------------------------------------------------------------- */
__attribute__((format(printf, 2, 3))) static void set_err(sweep_csv *c, const char *fmt, ...)
{
    va_list ap;
    if (c->err[0]) /* keep the first */
        return;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
}

static void release(sweep_csv *c)
{
    for (int i = 0; i < SWEEP_CSV_MAX_COLS; i++)
        free(c->cols[i]);
    free(c->row);
    free(c->path);
    free(c->tmp);
    c->row = c->path = c->tmp = NULL;
    memset(c->cols, 0, sizeof c->cols);
}

int sweep_csv_open(sweep_csv *c, const char *path)
{
    memset(c, 0, sizeof *c);
    size_t n = strlen(path);
    c->path = malloc(n + 1);
    c->tmp = malloc(n + 5);
    if (!c->path || !c->tmp) {
        snprintf(c->err, sizeof c->err, "out of host memory");
        release(c);
        return -1;
    }
    memcpy(c->path, path, n + 1);
    snprintf(c->tmp, n + 5, "%s.tmp", path);
    c->f = fopen(c->tmp, "w");
    if (!c->f) {
        snprintf(c->err, sizeof c->err, "cannot create %s: %s", c->tmp, strerror(errno));
        release(c);
        return -1;
    }
    return 0;
}

/* Appends one cell (already formatted) to the current row. */
static void cell(sweep_csv *c, const char *col, const char *text)
{
    if (c->ncols) {
        if (c->col >= c->ncols || strcmp(c->cols[c->col], col))
            set_err(c, "CSV row has column '%s' where the header has '%s' (a lesson bug: rows must match)", col,
                    c->col < c->ncols ? c->cols[c->col] : "(end of row)");
    } else if (c->col < SWEEP_CSV_MAX_COLS) {
        c->cols[c->col] = strdup(col);
    } else {
        set_err(c, "CSV has more than %d columns (at '%s'); raise SWEEP_CSV_MAX_COLS", SWEEP_CSV_MAX_COLS, col);
    }
    /* quote a cell with a comma, quote or newline (RFC 4180) */
    int quote = strpbrk(text, ",\"\n") != NULL;
    size_t need = c->row_len + 2 * strlen(text) + 4;
    if (need > c->row_cap) {
        size_t cap = need * 2;
        char *r = realloc(c->row, cap);
        if (!r) {
            set_err(c, "out of host memory for a CSV row");
            return;
        }
        c->row = r;
        c->row_cap = cap;
    }
    char *p = c->row + c->row_len;
    if (c->col)
        *p++ = ',';
    if (quote)
        *p++ = '"';
    for (const char *s = text; *s; s++) {
        if (*s == '"')
            *p++ = '"';
        *p++ = *s;
    }
    if (quote)
        *p++ = '"';
    *p = 0;
    c->row_len = (size_t)(p - c->row);
    c->col++;
}

void sweep_csv_str(sweep_csv *c, const char *col, const char *v) { cell(c, col, v ? v : ""); }
void sweep_csv_empty(sweep_csv *c, const char *col) { cell(c, col, ""); }

void sweep_csv_int(sweep_csv *c, const char *col, long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    cell(c, col, b);
}

void sweep_csv_uint(sweep_csv *c, const char *col, unsigned long long v)
{
    char b[32];
    snprintf(b, sizeof b, "%llu", v);
    cell(c, col, b);
}

void sweep_csv_num(sweep_csv *c, const char *col, double v)
{
    char b[40] = "";
    if (isfinite(v))
        snprintf(b, sizeof b, "%.9g", v);
    cell(c, col, b);
}

void sweep_csv_end_row(sweep_csv *c)
{
    if (!c->f)
        return;
    if (!c->ncols) { /* the first row: its names are the header */
        c->ncols = c->col < SWEEP_CSV_MAX_COLS ? c->col : SWEEP_CSV_MAX_COLS;
        for (int i = 0; i < c->ncols; i++)
            fprintf(c->f, "%s%s", i ? "," : "", c->cols[i] ? c->cols[i] : "");
        fputc('\n', c->f);
    } else if (c->col != c->ncols) {
        set_err(c, "CSV row %d has %d columns, the header %d (a lesson bug: rows must match)", c->rows + 1, c->col,
                c->ncols);
    }
    fprintf(c->f, "%s\n", c->row ? c->row : "");
    c->row_len = 0;
    if (c->row)
        c->row[0] = 0;
    c->col = 0;
    c->rows++;
}

void sweep_csv_abort(sweep_csv *c)
{
    if (c->f) {
        fclose(c->f);
        c->f = NULL;
    }
    if (c->tmp)
        unlink(c->tmp);
    release(c);
}

int sweep_csv_commit(sweep_csv *c)
{
    if (!c->f) {
        if (!c->err[0])
            snprintf(c->err, sizeof c->err, "CSV file not open");
        sweep_csv_abort(c);
        return -1;
    }
    if (!c->err[0] && !c->rows)
        snprintf(c->err, sizeof c->err, "no rows to write to %s (every point failed)", c->path);
    if (!c->err[0] && (fflush(c->f) || ferror(c->f) || fsync(fileno(c->f))))
        snprintf(c->err, sizeof c->err, "cannot write %s: %s", c->tmp, strerror(errno));
    int closed = fclose(c->f);
    c->f = NULL;
    if (!c->err[0] && closed)
        snprintf(c->err, sizeof c->err, "cannot write %s: %s", c->tmp, strerror(errno));
    if (!c->err[0] && rename(c->tmp, c->path))
        snprintf(c->err, sizeof c->err, "cannot rename %s to %s: %s", c->tmp, c->path, strerror(errno));
    if (c->err[0]) {
        sweep_csv_abort(c);
        return -1;
    }
    release(c);
    return 0;
}

int sweep_csv_check_dest(const char *flag, const char *path, char *err, size_t n)
{
    char tmp[4096];
    struct stat st;
    if (!*path) {
        snprintf(err, n, "%s '': the path is empty; give a file name such as out.csv", flag);
        return -1;
    }
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
        snprintf(err, n, "%s: the path is %zu characters long; at most %zu are accepted", flag, strlen(path),
                 sizeof tmp - 5);
        return -1;
    }
    if (path[strlen(path) - 1] == '/' || (!stat(path, &st) && S_ISDIR(st.st_mode))) {
        snprintf(err, n, "%s %s: is a directory; give a file name inside it (%s%sout.csv)", flag, path, path,
                 path[strlen(path) - 1] == '/' ? "" : "/");
        return -1;
    }
    if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
        snprintf(err, n, "%s %s: exists and is not a regular file (the file is written as %s, then renamed over it); "
                         "choose another path",
                 flag, path, tmp);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, n, "%s %s: cannot write %s (%s); choose a writable path", flag, path, tmp, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(tmp);
    return 0;
}

int sweep_csv_writable(const char *path, char *err, size_t n) { return sweep_csv_check_dest("--csv", path, err, n); }

void sweep_apply(const sweep_spec *sp, int i, const sweep_field *fields)
{
    for (const sweep_field *f = fields; f->name; f++)
        if (!strcmp(f->name, sp->opt->name)) {
            if (f->i)
                *f->i = (int)sp->v[i];
            else
                *f->ll = sp->v[i];
            return;
        }
}
