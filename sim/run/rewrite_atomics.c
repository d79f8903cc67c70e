/* sim/run/rewrite_atomics.c - the rewrite's first step: marking the atomics in a kernel whose
 * address is warp-uniform, which nvcc aggregates (docs/gpu/s31-h100-atomics, docs/run.md).
 *
 * nvcc 13 (sm_90) turns an integer atomicAdd/Sub/Min/Max/And/Or/Xor on an address it can prove the same
 * for every lane of a warp into one atomic a warp, issued by one lane with the warp's combined
 * operand; float atomicAdd is never aggregated, nor an atomic on an address that comes from loaded
 * data. The simulator runs lanes one after another and cannot tell a uniform address from one that
 * happens to be the same for all lanes (a histogram of a flat image: not aggregated on the GPU),
 * so the rewrite says which calls nvcc can prove uniform, by the address's text:
 *
 *   atomicAdd(count, 1)  ->  (sim_atomic_uniform_next(), atomicAdd(count, 1))
 *
 * for a call in a __global__ function's body whose first argument is built only from
 *   - the kernel's parameters (none assigned in the body), its template parameters,
 *   - blockIdx, blockDim, gridDim (.x .y .z), numbers, casts and operators,
 *   - variables declared __shared__ (in the body or at file scope) or __device__ (at file scope),
 * and at most the subscripts of one array (`&c[blockIdx.x]`, `&s[0][blockIdx.y]`), with no
 * subscript or member access inside a subscript (a loaded value). Anything else is not marked and
 * counted lane by lane, as before: a local computed from blockIdx, a __device__ function's
 * parameter. The line numbers do not change (the mark is on the call's line). */
#include "rewrite.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t len;
} word;

typedef struct {
    word w[256];
    int n;
} words;

static int idc(int c) { return isalnum(c) || c == '_'; }

static int is(const char *s, size_t len, const char *w) { return strlen(w) == len && !strncmp(s, w, len); }

static int in_words(const words *ws, const char *s, size_t len)
{
    for (int i = 0; i < ws->n; i++)
        if (ws->w[i].len == len && !strncmp(ws->w[i].s, s, len))
            return 1;
    return 0;
}

static void add_word(words *ws, const char *s, size_t len)
{
    if (ws->n < (int)(sizeof ws->w / sizeof ws->w[0]) && !in_words(ws, s, len))
        ws->w[ws->n++] = (word){s, len};
}

/* Past a comment, literal or preprocessor line starting at i (i itself if none starts there). */
static size_t skip_noncode(const char *s, size_t i, size_t n)
{
    const char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
        for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
            ;
        return i + 2 < n ? i + 2 : n;
    }
    if (c == '"' || c == '\'') {
        if (c == '\'' && i > 0 && isxdigit((unsigned char)s[i - 1])) /* a digit separator: 1'000 */
            return i + 1;
        for (i++; i < n && s[i] != c && s[i] != '\n'; i++)
            if (s[i] == '\\')
                i++;
        return i + 1 < n ? i + 1 : n;
    }
    if (c == '#') { /* a directive when only blanks precede it on its line */
        size_t b = i;
        while (b > 0 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        if (b == 0 || s[b - 1] == '\n') {
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
                    i++;
                else if (s[i] == '\\' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n')
                    i += 2;
                i++;
            }
            return i;
        }
    }
    return i;
}

/* The next token at or after i: its start in *b, its end returned (n at the end). Identifiers and
 * numbers whole, `->` `::` `<<` `>>` `++` `--` and an operator with `=` as one token. */
static size_t next_tok(const char *s, size_t i, size_t n, size_t *b)
{
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n) {
            *b = n;
            return n;
        }
        const size_t j = skip_noncode(s, i, n);
        if (j == i)
            break;
        i = j;
    }
    *b = i;
    if (idc((unsigned char)s[i])) {
        while (i < n && (idc((unsigned char)s[i]) || (s[i] == '.' && isdigit((unsigned char)s[*b]))))
            i++;
        return i;
    }
    static const char *const two[] = {"->", "::", "<<", ">>", "++", "--", "==", "!=", "<=", ">=", "+=", "-=",
                                      "*=", "/=", "%=", "&=", "|=", "^=", "&&", "||"};
    for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
        if (i + 1 < n && s[i] == two[k][0] && s[i + 1] == two[k][1])
            return i + 2 + (i + 2 < n && s[i + 2] == '=' && (two[k][0] == '<' || two[k][0] == '>') &&
                            two[k][1] == two[k][0]);
    return i + 1;
}

/* The end of the bracketed group opening at s[i] ('(' '[' '{' or '<' for a template's), after its
 * closer; n if it does not close. */
static size_t group_end(const char *s, size_t i, size_t n)
{
    const char open = s[i], close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
    int depth = 0;
    size_t b, e = i;
    while ((e = next_tok(s, e, n, &b)) , b < n) {
        if (e == b + 1 && s[b] == open)
            depth++;
        else if (e == b + 1 && s[b] == close && --depth == 0)
            return e;
        else if (open == '<' && e == b + 2 && s[b] == '>' && s[b + 1] == '>' && (depth -= 2) <= 0)
            return e;
    }
    return n;
}

static const char *const kw_ok[] = {"int", "unsigned", "signed", "long", "short", "char", "size_t", "ptrdiff_t",
                                    "uint32_t", "uint64_t", "int32_t", "int64_t", "uintptr_t", "intptr_t", "const",
                                    "volatile", "float", "double", "bool", "static_cast", "reinterpret_cast",
                                    "__restrict__", "true", "false"};

static int keyword_ok(const char *s, size_t len)
{
    for (size_t k = 0; k < sizeof kw_ok / sizeof kw_ok[0]; k++)
        if (is(s, len, kw_ok[k]))
            return 1;
    return 0;
}

/* Whether a token [b, e) is an operand's end: an identifier, a number, `)` or `]`. */
static int operand_end(const char *s, size_t b, size_t e)
{
    return idc((unsigned char)s[b]) || (e == b + 1 && (s[b] == ')' || s[b] == ']'));
}

/* Whether the address text s[a0, a1) is warp-uniform by the rule above: names from `ok` (the
 * kernel's parameters and template parameters), `arrays` (__shared__ and file-scope __device__
 * variables: any number of subscripts), the block built-ins, numbers, casts and operators. */
static int uniform_expr(const char *s, size_t a0, size_t a1, const words *ok, const words *arrays, int subscripts)
{
    size_t b, e = a0, pb = a1, pe = a1; /* the previous token [pb, pe); pb = a1: none */
    int amp = 0, sub = 0, groups = 0, base_array = 0, ntok = 0;
    while ((e = next_tok(s, e, a1, &b)), b < a1) {
        const size_t len = e - b;
        const int prev = pb < a1, prev_member = prev && ((pe - pb == 1 && s[pb] == '.') || is(s + pb, pe - pb, "->"));
        if (idc((unsigned char)s[b])) {
            if (isdigit((unsigned char)s[b]) || keyword_ok(s + b, len)) {
            } else if (prev_member) {
                if (sub || !amp) /* a member read inside a subscript, or a member pointer: loaded */
                    return 0;
            } else if (is(s + b, len, "blockIdx") || is(s + b, len, "blockDim") || is(s + b, len, "gridDim")) {
                size_t b2, e2 = next_tok(s, e, a1, &b2), b3, e3 = next_tok(s, e2, a1, &b3);
                if (!(e2 == b2 + 1 && s[b2] == '.' && e3 == b3 + 1 && (s[b3] == 'x' || s[b3] == 'y' || s[b3] == 'z')))
                    return 0;
                b = b3, e = e3;
            } else if (is(s + b, len, "sizeof")) {
                size_t b2, e2 = next_tok(s, e, a1, &b2);
                if (!(e2 == b2 + 1 && s[b2] == '('))
                    return 0;
                e = group_end(s, b2, a1);
                pb = b2, pe = e; /* the group stands for an operand */
                ntok++;
                continue;
            } else if (in_words(arrays, s + b, len)) {
                if (!sub && groups == 0)
                    base_array = 1;
            } else if (!in_words(ok, s + b, len)) {
                return 0; /* threadIdx, a local, a call, anything else */
            }
        } else if (len == 1 && s[b] == '[') {
            if (!subscripts)
                return 0;
            /* a subscript follows the array's name or its previous subscript, and holds none */
            if (sub || !prev || !(idc((unsigned char)s[pb]) || (pe - pb == 1 && s[pb] == ']')) ||
                (++groups > 1 && !base_array))
                return 0;
            sub = 1;
        } else if (len == 1 && s[b] == ']') {
            sub = 0;
        } else if (len == 1 && (s[b] == '*' || s[b] == '&')) {
            if (!prev || !operand_end(s, pb, pe)) { /* unary */
                if (s[b] == '*' || ntok > 0)       /* a dereference; an address taken inside */
                    return 0;
                amp = 1;
            }
        } else if (is(s + b, len, "::") || is(s + b, len, "++") || is(s + b, len, "--") || (len == 1 && s[b] == '=') ||
                   (len >= 2 && s[b + len - 1] == '=' && !is(s + b, len, "==") && !is(s + b, len, "!=") &&
                    !is(s + b, len, "<=") && !is(s + b, len, ">=")) ||
                   (len == 1 && (s[b] == ',' || s[b] == '{' || s[b] == ';' || s[b] == '"'))) {
            return 0;
        }
        pb = b, pe = e;
        ntok++;
    }
    return ntok > 0 && !sub;
}

static int uniform_addr(const char *s, size_t a0, size_t a1, const words *ok, const words *arrays)
{
    return uniform_expr(s, a0, a1, ok, arrays, 1);
}

/* The names a comma-separated list [from, to) declares (a parameter list, a template's): each
 * item's last identifier before a default (`= ...`) or a subscript, if it is not a keyword. */
static void list_names(const char *s, size_t from, size_t to, words *out)
{
    size_t b, e = from, last_b = 0, last_e = 0;
    int depth = 0, in_default = 0;
    while ((e = next_tok(s, e, to, &b)), b < to) {
        const char c = s[b];
        if (e == b + 1 && (c == '(' || c == '[' || c == '<' || c == '{'))
            depth++;
        else if (e == b + 1 && (c == ')' || c == ']' || c == '>' || c == '}'))
            depth--;
        else if (depth == 0 && e == b + 1 && c == '=')
            in_default = 1;
        else if (depth == 0 && e == b + 1 && c == ',') {
            if (last_e)
                add_word(out, s + last_b, last_e - last_b);
            last_e = 0, in_default = 0;
        } else if (depth == 0 && !in_default && idc((unsigned char)c) && !isdigit((unsigned char)c) &&
                   !keyword_ok(s + b, e - b) && !is(s + b, e - b, "typename") && !is(s + b, e - b, "class") &&
                   !is(s + b, e - b, "void"))
            last_b = b, last_e = e;
        else if (depth == 0 && !in_default && idc((unsigned char)c))
            last_e = is(s + b, e - b, "void") ? 0 : last_e; /* `int` after a name: not this item's name */
    }
    if (last_e)
        add_word(out, s + last_b, last_e - last_b);
}

/* The variables a `__shared__` or `__device__` (kw) declaration at token [b, e) names: the
 * identifier before the first `;` `=` `[` or `,` (and after each top-level `,`); none for a
 * function (`(` first). */
static void declared_after(const char *s, size_t e, size_t n, words *out)
{
    size_t b, last_b = 0, last_e = 0;
    while ((e = next_tok(s, e, n, &b)), b < n) {
        const char c = s[b];
        if (e == b + 1 && c == '(')
            return; /* a function, or __launch_bounds__ */
        if (e == b + 1 && (c == ';' || c == '=' || c == '[' || c == ',' || c == '{')) {
            if (last_e)
                add_word(out, s + last_b, last_e - last_b);
            return;
        }
        if (idc((unsigned char)c) && !isdigit((unsigned char)c))
            last_b = b, last_e = e;
    }
}

/* How often name is assigned in [from, to): `name =`, `name op=`, `++name`, `name--`. */
static int assigned_count(const char *s, size_t from, size_t to, const word *name)
{
    size_t b, e = from, pb = to, pe = to;
    int count = 0;
    while ((e = next_tok(s, e, to, &b)), b < to) {
        if (e - b == name->len && !strncmp(s + b, name->s, name->len) &&
            !(pb < to && ((pe - pb == 1 && s[pb] == '.') || is(s + pb, pe - pb, "->") || is(s + pb, pe - pb, "::")))) {
            size_t b2, e2 = next_tok(s, e, to, &b2);
            if ((pb < to && (is(s + pb, pe - pb, "++") || is(s + pb, pe - pb, "--"))) ||
                (b2 < to && ((e2 == b2 + 1 && s[b2] == '=') || is(s + b2, e2 - b2, "++") || is(s + b2, e2 - b2, "--") ||
                             (e2 - b2 >= 2 && s[e2 - 1] == '=' && !is(s + b2, e2 - b2, "==") &&
                              !is(s + b2, e2 - b2, "!=") && !is(s + b2, e2 - b2, "<=") && !is(s + b2, e2 - b2, ">=")))))
                count++;
        }
        pb = b, pe = e;
    }
    return count;
}

/* Whether `&name` occurs in [from, to) (a unary &: not after an operand). */
static int address_taken(const char *s, size_t from, size_t to, const word *name)
{
    size_t b, e = from, pb = to, pe = to, ppb = to, ppe = to;
    while ((e = next_tok(s, e, to, &b)), b < to) {
        if (e - b == name->len && !strncmp(s + b, name->s, name->len) && pb < to && pe == pb + 1 && s[pb] == '&' &&
            !(ppb < to && operand_end(s, ppb, ppe)))
            return 1;
        ppb = pb, ppe = pe, pb = b, pe = e;
    }
    return 0;
}

/* A `for` loop's counter (the header after the keyword at e) that is uniform, added to ok:
 * `for ([type] j = U; <j and uniform names>; j++ | ++j | j-- | --j | j op= U)`, U uniform by the
 * rule without subscripts, j assigned nowhere else in the body [bb, be) and its address never
 * taken (nvcc's analysis finds the same: every lane in the loop has the same j). Returns whether
 * it added one. */
static int uniform_counter(const char *s, size_t e, size_t bb, size_t be, words *ok, const words *arrays)
{
    size_t lp, lpe = next_tok(s, e, be, &lp);
    if (!(lp < be && lpe == lp + 1 && s[lp] == '('))
        return 0;
    const size_t rp = group_end(s, lp, be);
    if (rp >= be)
        return 0;
    /* the three clauses: [lpe, s1) [s1 + 1, s2) [s2 + 1, rp - 1) */
    size_t semi[2], ns = 0, b, t = lpe;
    int depth = 0;
    while ((t = next_tok(s, t, rp - 1, &b)), b < rp - 1) {
        if (t == b + 1 && (s[b] == '(' || s[b] == '[' || s[b] == '{'))
            depth++;
        else if (t == b + 1 && (s[b] == ')' || s[b] == ']' || s[b] == '}'))
            depth--;
        else if (t == b + 1 && s[b] == ';' && depth == 0) {
            if (ns == 2)
                return 0;
            semi[ns++] = b;
        }
    }
    if (ns != 2)
        return 0;
    /* the counter: the last name before the init's `=` */
    size_t nb = be, ne = be, eq = be, q;
    for (t = lpe; (t = next_tok(s, t, semi[0], &q)), q < semi[0];) {
        if (t == q + 1 && s[q] == '=') {
            eq = t;
            break;
        }
        if (idc((unsigned char)s[q]) && !isdigit((unsigned char)s[q]))
            nb = q, ne = t;
    }
    if (eq >= be || nb >= be || keyword_ok(s + nb, ne - nb) || in_words(ok, s + nb, ne - nb))
        return 0;
    const word w = {s + nb, ne - nb};
    if (!uniform_expr(s, eq, semi[0], ok, arrays, 0) || assigned_count(s, bb, be, &w) != 2 ||
        address_taken(s, bb, be, &w))
        return 0;
    words with = *ok;
    add_word(&with, w.s, w.len);
    if (!uniform_expr(s, semi[0] + 1, semi[1], &with, arrays, 0))
        return 0;
    /* the step: ++j, j++, --j, j--, or j op= U */
    size_t s0, s0e = next_tok(s, semi[1] + 1, rp - 1, &s0), s1, s1e = next_tok(s, s0e, rp - 1, &s1);
    const int incdec0 = is(s + s0, s0e - s0, "++") || is(s + s0, s0e - s0, "--");
    const int name0 = s0e - s0 == w.len && !strncmp(s + s0, w.s, w.len);
    int step_ok = 0;
    if (incdec0) {
        size_t x;
        step_ok = s1e - s1 == w.len && !strncmp(s + s1, w.s, w.len) && (next_tok(s, s1e, rp - 1, &x), x >= rp - 1);
    } else if (name0 && (is(s + s1, s1e - s1, "++") || is(s + s1, s1e - s1, "--"))) {
        size_t x;
        step_ok = (next_tok(s, s1e, rp - 1, &x), x >= rp - 1);
    } else if (name0 && s1e - s1 >= 2 && s[s1e - 1] == '=' && !is(s + s1, s1e - s1, "==")) {
        step_ok = uniform_expr(s, s1e, rp - 1, ok, arrays, 0);
    }
    if (!step_ok)
        return 0;
    add_word(ok, w.s, w.len);
    return 1;
}

/* The locals of a body [bb, be) that hold a uniform value, added to ok: a name assigned exactly
 * once in the body, by `name = value` (a declaration's initializer or not), value uniform by the
 * rule without subscripts (a loaded value) unless it is an address (`&c[blockIdx.x]`), and its
 * address never taken (`int b = blockIdx.x; atomicAdd(&c[b], 1)`). Rounds until none is added,
 * so that one such local may use another. */
static void uniform_locals(const char *s, size_t bb, size_t be, words *ok, const words *arrays)
{
    for (int round = 0, added = 1; added && round < 8; round++) {
        added = 0;
        size_t b, e = bb, pb = be, pe = be;
        for (; (e = next_tok(s, e, be, &b)), b < be; pb = b, pe = e) {
            if (is(s + b, e - b, "for")) {
                added |= uniform_counter(s, e, bb, be, ok, arrays);
                continue;
            }
            if (!idc((unsigned char)s[b]) || isdigit((unsigned char)s[b]) || keyword_ok(s + b, e - b) ||
                in_words(ok, s + b, e - b) || in_words(arrays, s + b, e - b))
                continue;
            if (pb < be && ((pe - pb == 1 && (s[pb] == '.' || s[pb] == '&')) || is(s + pb, pe - pb, "->") ||
                            is(s + pb, pe - pb, "::")))
                continue;
            size_t q, qe = next_tok(s, e, be, &q);
            if (!(q < be && qe == q + 1 && s[q] == '='))
                continue;
            /* the value: up to a `;`, or a `,` or `)` outside brackets */
            size_t v1 = be, tb, te = qe;
            int depth = 0;
            while ((te = next_tok(s, te, be, &tb)), tb < be) {
                const char c = s[tb];
                if (te == tb + 1 && (c == '(' || c == '[' || c == '{'))
                    depth++;
                else if (te == tb + 1 && (c == ')' || c == ']' || c == '}') && --depth < 0) {
                    v1 = tb;
                    break;
                } else if (te == tb + 1 && (c == ';' || (c == ',' && depth == 0))) {
                    v1 = tb;
                    break;
                }
            }
            const word w = {s + b, e - b};
            size_t fb;
            next_tok(s, qe, be, &fb);
            const int addr = fb < v1 && s[fb] == '&'; /* `&c[blockIdx.x]`: an address, no load */
            if (v1 < be && assigned_count(s, bb, be, &w) == 1 && !address_taken(s, bb, be, &w) &&
                uniform_expr(s, qe, v1, ok, arrays, addr)) {
                add_word(ok, w.s, w.len);
                added = 1;
            }
        }
    }
}

/* the operations nvcc aggregates (not atomicInc/Dec, whose wrap-around does not combine, nor
 * Exch/CAS: docs/gpu/s32-h100-atomics); atomicInc with the limit 0xffffffff is an add of 1, and
 * nvcc aggregates it as one (docs/gpu/s33-h100: 32 atomic sectors for 1024 lanes; atomicDec with
 * it is not) */
static const char *const agg_names[] = {"atomicAdd", "atomicSub", "atomicMin", "atomicMax",
                                        "atomicAnd", "atomicOr",  "atomicXor", "atomicInc"};

/* Whether the text [b, e) is 0xffffffff as a program writes it: ~0u, 0xFFFFFFFF, UINT_MAX, ... */
static int all_ones(const char *s, size_t b, size_t e)
{
    char t[40];
    size_t n = 0;
    for (size_t i = b; i < e; i++) {
        if (isspace((unsigned char)s[i]))
            continue;
        if (n + 1 >= sizeof t)
            return 0;
        t[n++] = (char)tolower((unsigned char)s[i]);
    }
    t[n] = 0;
    static const char *const forms[] = {"~0u", "~0", "~0ul", "~0ull", "0xffffffff", "0xffffffffu", "uint_max",
                                        "4294967295u", "4294967295", "(unsigned)-1", "(unsignedint)-1", "-1u"};
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
        if (!strcmp(t, forms[k]))
            return 1;
    return 0;
}

typedef struct {
    size_t at;
    const char *text;
    int owned; /* text is malloc'd (an allocation's name), freed with the list */
} insert;

typedef struct {
    insert *v;
    size_t n, cap;
} inserts;

static int add_insert(inserts *x, size_t at, const char *text)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 16;
        insert *v = realloc(x->v, cap * sizeof *v);
        if (!v)
            return -1;
        x->v = v, x->cap = cap;
    }
    x->v[x->n++] = (insert){at, text, 0};
    return 0;
}

static void free_inserts(inserts *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (x->v[i].owned)
            free((char *)x->v[i].text);
    free(x->v);
}

/* ---- allocation names ----
 * `cudaMalloc(&d_A, n)` -> `(simtlab_alloc_name("&d_A"), cudaMalloc(&d_A, n))`: the runtime names
 * the allocation in reports by the pointer's variable (sim/run/cudart.c, alloc_var). A call only:
 * not a member's (`.`/`->`), another scope's (`Pool::cudaMalloc`), a declaration (a type name
 * before it) or a template's explicit instance; `::cudaMalloc(...)` is a call. In every function
 * of the file; the first argument's text, white space folded, quotes and backslashes left out. */
static const char *const alloc_fns[] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocAsync",
                                        "cudaMallocFromPoolAsync", "cudaMallocPitch"};

/* The end of the call argument starting at `from` (a call's arguments end at `close`, its ')'): its
 * comma at depth 0, or close */
static size_t arg_end(const char *s, size_t from, size_t close)
{
    size_t tb, te = from;
    int depth = 0;
    while ((te = next_tok(s, te, close, &tb)), tb < close) {
        const char c = s[tb];
        if (te == tb + 1 && (c == '(' || c == '[' || c == '{'))
            depth++;
        else if (te == tb + 1 && (c == ')' || c == ']' || c == '}'))
            depth--;
        else if (te == tb + 1 && c == ',' && depth == 0)
            return tb;
    }
    return close;
}

/* A word after which an expression starts (`return cudaMalloc(...)`), not a declaration's type */
static int keyword_before(const char *w, size_t len)
{
    return is(w, len, "return") || is(w, len, "throw") || is(w, len, "co_return") || is(w, len, "else") ||
           is(w, len, "do") || is(w, len, "case");
}

static int name_allocations(const char *s, size_t n, inserts *x)
{
    size_t b, e = 0, pb = n, pe = n, ppb = n, ppe = n;
    for (; (e = next_tok(s, e, n, &b)), b < n; ppb = pb, ppe = pe, pb = b, pe = e) {
        int name = 0;
        for (size_t k = 0; k < sizeof alloc_fns / sizeof alloc_fns[0]; k++)
            name |= is(s + b, e - b, alloc_fns[k]);
        if (!name)
            continue;
        size_t lp, lpe = next_tok(s, e, n, &lp);
        if (!(lp < n && lpe == lp + 1 && s[lp] == '('))
            continue;
        size_t at = b;
        if (pb < n && is(s + pb, pe - pb, "::")) {
            if (ppb < n && ((idc((unsigned char)s[ppb]) && !keyword_before(s + ppb, ppe - ppb)) ||
                            (ppe == ppb + 1 && s[ppb] == '>')))
                continue; /* another scope's */
            at = pb;
        } else if (pb < n && ((pe == pb + 1 && (s[pb] == '.' || s[pb] == '>' || s[pb] == '~')) ||
                              is(s + pb, pe - pb, "->") ||
                              (idc((unsigned char)s[pb]) && !keyword_before(s + pb, pe - pb)))) {
            continue; /* a member, a declaration (`cudaError_t cudaMalloc(`), a destructor-like name */
        }
        const size_t rp = group_end(s, lp, n);
        if (rp >= n)
            continue;
        const size_t a_end = arg_end(s, lpe, rp - 1);
        static const char open[] = "(simtlab_alloc_name(\"";
        char *t = malloc(sizeof open + (a_end - lpe) + 8);
        if (!t)
            return -1;
        size_t k = 0;
        memcpy(t, open, sizeof open - 1);
        k = sizeof open - 1;
        int space = 0;
        for (size_t i = lpe; i < a_end; i++) {
            const char c = s[i];
            if (isspace((unsigned char)c) || c == '\\') {
                space = k > sizeof open - 1;
                continue;
            }
            if (c == '"')
                continue;
            if (space)
                t[k++] = ' ';
            space = 0;
            t[k++] = c;
        }
        memcpy(t + k, "\"), ", 4);
        t[k + 4] = 0;
        if (add_insert(x, at, t)) {
            free(t);
            return -1;
        }
        x->v[x->n - 1].owned = 1;
        if (add_insert(x, rp, ")"))
            return -1;
        e = rp; /* past the call: its inserts stay in the text's order */
        b = rp - 1;
    }
    return 0;
}

/* The kernels' marks, x->v[0, a), and the allocations' names, x->v[a, n), each in the text's order:
 * merged into one list in that order. 0, or -1 out of memory. */
static int merge_inserts(inserts *x, size_t a)
{
    if (a == 0 || a == x->n)
        return 0;
    insert *v = malloc(x->n * sizeof *v);
    if (!v)
        return -1;
    size_t i = 0, j = a, k = 0;
    while (i < a || j < x->n)
        v[k++] = j >= x->n || (i < a && x->v[i].at <= x->v[j].at) ? x->v[i++] : x->v[j++];
    free(x->v);
    x->v = v;
    x->cap = x->n;
    return 0;
}

#define MARK_OPEN "(sim_atomic_uniform_next(), "

/* The marks of one kernel body [bb, be), its parameter names in ok. */
static int mark_body(const char *s, size_t bb, size_t be, words *ok, const words *file_arrays, inserts *x)
{
    words arrays = *file_arrays;
    size_t b, e = bb;
    while ((e = next_tok(s, e, be, &b)), b < be)
        if (is(s + b, e - b, "__shared__"))
            declared_after(s, e, be, &arrays);
    /* a parameter assigned in the body is not uniform */
    words params = {.n = 0};
    for (int i = 0; i < ok->n; i++)
        if (!assigned_count(s, bb, be, &ok->w[i]))
            add_word(&params, ok->w[i].s, ok->w[i].len);
    uniform_locals(s, bb, be, &params, &arrays);
    size_t pb = be, pe = be, ppb = be;
    for (e = bb; (e = next_tok(s, e, be, &b)), b < be; ppb = pb, pb = b, pe = e) {
        int name = 0;
        for (size_t k = 0; k < sizeof agg_names / sizeof agg_names[0]; k++)
            name |= is(s + b, e - b, agg_names[k]);
        if (!name)
            continue;
        /* a plain or `::` call, not a member's or another scope's */
        const int scoped = pb < be && is(s + pb, pe - pb, "::");
        if (pb < be && ((pe - pb == 1 && s[pb] == '.') || is(s + pb, pe - pb, "->")))
            continue;
        if (scoped && ppb < be && idc((unsigned char)s[ppb]))
            continue;
        size_t lp, lpe = next_tok(s, e, be, &lp);
        if (!(lp < be && lpe == lp + 1 && s[lp] == '('))
            continue;
        const size_t rp = group_end(s, lp, be);
        if (rp >= be)
            continue;
        /* the first argument, and no other atomic among the arguments (it would take the mark) */
        size_t a1 = rp - 1, tb, te = lpe;
        int depth = 0, nested = 0;
        while ((te = next_tok(s, te, rp - 1, &tb)), tb < rp - 1) {
            const char c = s[tb];
            if (te == tb + 1 && (c == '(' || c == '[' || c == '{'))
                depth++;
            else if (te == tb + 1 && (c == ')' || c == ']' || c == '}'))
                depth--;
            else if (te == tb + 1 && c == ',' && depth == 0 && a1 == rp - 1)
                a1 = tb;
            else if (te - tb > 6 && !strncmp(s + tb, "atomic", 6))
                nested = 1;
        }
        if (nested || !uniform_addr(s, lpe, a1, &params, &arrays))
            continue;
        if (is(s + b, e - b, "atomicInc")) { /* only with the limit 0xffffffff: its second argument */
            if (!all_ones(s, a1 + 1, arg_end(s, a1 + 1, rp - 1)))
                continue;
        }
        if (add_insert(x, scoped ? pb : b, MARK_OPEN) || add_insert(x, rp, ")"))
            return -1;
        e = rp; /* past the call */
        b = rp - 1;
    }
    return 0;
}

char *rewrite_uniform_atomics(const char *s, size_t n, size_t *out_n, int *marks)
{
    inserts x = {0};
    words file_arrays = {.n = 0};
    int depth = 0;
    size_t b, e = 0;
    /* file-scope __shared__ and __device__ variables */
    while ((e = next_tok(s, e, n, &b)), b < n) {
        if (e == b + 1 && s[b] == '{')
            depth++;
        else if (e == b + 1 && s[b] == '}')
            depth--;
        else if (depth == 0 && (is(s + b, e - b, "__shared__") || is(s + b, e - b, "__device__")))
            declared_after(s, e, n, &file_arrays);
    }
    size_t tmpl_from = n, tmpl_to = n, stmt_end = 0;
    for (e = 0, depth = 0; (e = next_tok(s, e, n, &b)), b < n;) {
        if (e == b + 1 && (s[b] == ';' || s[b] == '{' || s[b] == '}')) {
            depth += s[b] == '{' ? 1 : s[b] == '}' ? -1 : 0;
            stmt_end = e;
            continue;
        }
        if (is(s + b, e - b, "template")) {
            size_t lt, lte = next_tok(s, e, n, &lt);
            if (lt < n && lte == lt + 1 && s[lt] == '<') {
                tmpl_from = lte;
                e = group_end(s, lt, n);
                tmpl_to = e - 1;
                stmt_end = b; /* the template's header belongs to what follows it */
            }
            continue;
        }
        if (!is(s + b, e - b, "__global__"))
            continue;
        /* the header: __launch_bounds__(...) and attributes skipped, up to the parameter list */
        size_t pb, pe = e, lp = n;
        while ((pe = next_tok(s, pe, n, &pb)), pb < n) {
            if (pe == pb + 1 && (s[pb] == ';' || s[pb] == '{'))
                break;
            if (is(s + pb, pe - pb, "__launch_bounds__") || is(s + pb, pe - pb, "__attribute__") ||
                is(s + pb, pe - pb, "alignas") || is(s + pb, pe - pb, "__maxnreg__")) {
                size_t g, ge = next_tok(s, pe, n, &g);
                if (g < n && ge == g + 1 && s[g] == '(')
                    pe = group_end(s, g, n);
                continue;
            }
            if (pe == pb + 1 && s[pb] == '(') {
                lp = pb;
                break;
            }
        }
        if (lp >= n)
            continue;
        const size_t rp = group_end(s, lp, n);
        size_t ob, oe = rp;
        while ((oe = next_tok(s, oe, n, &ob)), ob < n && !(oe == ob + 1 && (s[ob] == '{' || s[ob] == ';')))
            ;
        if (ob >= n || s[ob] == ';') { /* a declaration */
            e = oe;
            stmt_end = oe;
            continue;
        }
        const size_t be = group_end(s, ob, n);
        words ok = {.n = 0};
        list_names(s, lp + 1, rp - 1, &ok);
        if (tmpl_to < n && stmt_end <= tmpl_to) /* `template <...>` right before it */
            list_names(s, tmpl_from, tmpl_to, &ok);
        if (mark_body(s, ob + 1, be - 1, &ok, &file_arrays, &x)) {
            free_inserts(&x);
            return NULL;
        }
        e = be;
        stmt_end = be;
        tmpl_to = n;
    }
    const size_t atomic_inserts = x.n;
    if (name_allocations(s, n, &x) || merge_inserts(&x, atomic_inserts)) {
        free_inserts(&x);
        return NULL;
    }
    size_t extra = 0;
    for (size_t i = 0; i < x.n; i++)
        extra += strlen(x.v[i].text);
    char *out = malloc(n + extra + 1);
    if (!out) {
        free_inserts(&x);
        return NULL;
    }
    size_t o = 0, from = 0;
    for (size_t i = 0; i < x.n; i++) {
        memcpy(out + o, s + from, x.v[i].at - from);
        o += x.v[i].at - from;
        const size_t tl = strlen(x.v[i].text);
        memcpy(out + o, x.v[i].text, tl);
        o += tl;
        from = x.v[i].at;
    }
    memcpy(out + o, s + from, n - from);
    o += n - from;
    out[o] = 0;
    *out_n = o;
    *marks = (int)(atomic_inserts / 2);
    free_inserts(&x);
    return out;
}
