/* sim/run/ptx_text.h - reading inline PTX's text, shared by the rewriter (sim/run/rewrite.c, which
 * decides what to translate) and the runtime (sim/run/ptx.c, which runs it), so that both read
 * an instruction the same way. */
#ifndef SIMTLAB_PTX_TEXT_H
#define SIMTLAB_PTX_TEXT_H
#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* A PTX instruction's text t[0..n) with white space and a scope's braces around it dropped: a
 * '{' or '}' that no brace of the instruction itself (ldmatrix's and mma's register lists) pairs
 * with opens or closes a `{ .reg .pred p; ... }` block. */
static inline void ptx_trim(const char **t, size_t *n)
{
    const char *a = *t;
    size_t m = *n;
    int open = 0;
    for (size_t i = 0; i < m; i++)
        open += (a[i] == '{') - (a[i] == '}');
    for (;;) {
        while (m && isspace((unsigned char)*a))
            a++, m--;
        while (m && isspace((unsigned char)a[m - 1]))
            m--;
        if (m && open > 0 && *a == '{')
            a++, m--, open--;
        else if (m && open < 0 && a[m - 1] == '}')
            m--, open++;
        else
            break;
    }
    *t = a, *n = m;
}

/* `@p` or `@!p` before an instruction: its length (0: none) */
static inline size_t ptx_guard(const char *t, size_t n)
{
    if (!n || *t != '@')
        return 0;
    size_t i = 1 + (n > 1 && t[1] == '!');
    while (i < n && (isalnum((unsigned char)t[i]) || t[i] == '_'))
        i++;
    while (i < n && isspace((unsigned char)t[i]))
        i++;
    return i;
}

/* ld and st as sim/run/ptx.c runs them (the rewriter translates no other form):
 *   ld{.weak}{.global|.shared{::cta}}{.ca|.cg|.cs|.lu|.cv}{.nc}{.L1::evict_*|.L1::no_allocate}
 *     {.L2::64B|.L2::128B|.L2::256B|.L2::evict_*}{.L2::cache_hint}{.v2|.v4}.type
 *   st{.weak}{.global|.shared{::cta}}{.wb|.cg|.cs|.wt}{...the same hints}{.v2|.v4}.type
 * with type b8 u8 s8 b16 u16 s16 b32 u32 s32 f32 b64 u64 s64 f64, at most 16 bytes in all; no
 * state space is a generic address. The cache operators and hints change no value and no byte
 * counted (the simulator's L2 model does not take hints); .volatile, .relaxed, .acquire and the
 * other spaces (.local, .const, .param) are not read. */
typedef struct ptx_ldst {
    int st;        /* 1: st */
    int space;     /* 0 generic, 1 .global, 2 .shared */
    unsigned vec;  /* 1, 2 or 4 elements */
    unsigned size; /* bytes an element: 1, 2, 4 or 8 */
    int sign;      /* .s8, .s16, .s32: sign-extended into a wider register */
    int fl;        /* .f32, .f64: a constant operand is a float */
    int hint;      /* .L2::cache_hint: a cache-policy operand after the others */
} ptx_ldst;

/* A type suffix ("u32", "f64"...) of l characters: its bytes (0: not one); *sign for .sN. */
static inline unsigned ptx_type_bytes(const char *q, size_t l, int *sign)
{
    if (l < 2 || l > 3 || !strchr("bsuf", q[0]))
        return 0;
    const unsigned bits = l == 2 ? (q[1] == '8' ? 8u : 0u)
                          : !strncmp(q + 1, "16", 2) ? 16u
                          : !strncmp(q + 1, "32", 2) ? 32u
                          : !strncmp(q + 1, "64", 2) ? 64u
                                                     : 0u;
    if (!bits || (q[0] == 'f' && bits < 32))
        return 0;
    *sign = q[0] == 's';
    return bits / 8;
}

/* t[0..n), an instruction (no guard): 1 with *m set when it is an ld or st of the form above */
static inline int ptx_ldst_parse(const char *t, size_t n, ptx_ldst *m)
{
    size_t e = 0;
    while (e < n && !isspace((unsigned char)t[e]))
        e++;
    if (e < 4 || (strncmp(t, "ld.", 3) && strncmp(t, "st.", 3)))
        return 0;
    *m = (ptx_ldst){t[0] == 's', 0, 1, 0, 0, 0, 0};
    int nc = 0;
    for (size_t i = 3; i < e;) {
        size_t j = i;
        while (j < e && t[j] != '.')
            j++;
        const char *q = t + i;
        const size_t l = j - i;
#define PTX_IS(s) (l == sizeof(s) - 1 && !strncmp(q, s, l))
        int sign = 0;
        if (m->size) /* the type comes last */
            return 0;
        if (PTX_IS("weak")) {
        } else if (PTX_IS("global") || PTX_IS("shared") || PTX_IS("shared::cta")) {
            if (m->space)
                return 0;
            m->space = q[0] == 'g' ? 1 : 2;
        } else if (!m->st && (PTX_IS("ca") || PTX_IS("cg") || PTX_IS("cs") || PTX_IS("lu") || PTX_IS("cv"))) {
        } else if (m->st && (PTX_IS("wb") || PTX_IS("cg") || PTX_IS("cs") || PTX_IS("wt"))) {
        } else if (!m->st && PTX_IS("nc")) {
            nc = 1;
        } else if (PTX_IS("L1::evict_normal") || PTX_IS("L1::evict_unchanged") || PTX_IS("L1::evict_first") ||
                   PTX_IS("L1::evict_last") || PTX_IS("L1::no_allocate") || PTX_IS("L2::64B") ||
                   PTX_IS("L2::128B") || PTX_IS("L2::256B") || PTX_IS("L2::evict_first") ||
                   PTX_IS("L2::evict_last") || PTX_IS("L2::evict_normal")) {
        } else if (PTX_IS("L2::cache_hint")) {
            m->hint = 1;
        } else if (PTX_IS("v2") || PTX_IS("v4")) {
            if (m->vec != 1)
                return 0;
            m->vec = (unsigned)(q[1] - '0');
        } else if ((m->size = ptx_type_bytes(q, l, &sign)) != 0) {
            m->sign = sign;
            m->fl = q[0] == 'f';
        } else {
            return 0;
        }
#undef PTX_IS
        i = j + 1;
    }
    return m->size && !(nc && m->space != 1) && m->vec * m->size <= 16;
}

/* `mov.type d, a` of a b16 to f64 type (the other movs, of special registers or addresses, are not
 * read): its bytes, 0 when t is not one */
static inline unsigned ptx_mov_parse(const char *t, size_t n)
{
    size_t e = 0;
    while (e < n && !isspace((unsigned char)t[e]))
        e++;
    if (e <= 4 || strncmp(t, "mov.", 4) || memchr(t, '{', n))
        return 0;
    for (size_t i = e; i + 1 < n; i++)
        if (t[i] == '%' && t[i + 1] == '%') /* a PTX register (%%laneid) */
            return 0;
    int sign;
    const unsigned b = ptx_type_bytes(t + 4, e - 4, &sign);
    return b >= 2 ? b : 0;
}

/* `cvta.to.shared.u64 d, a`, `cvta.shared.u64 d, a` (ptxas refuses the .u32 forms: no 32-bit
 * addressing) and `cvt.itype.itype d, a` between integer types (no rounding modifier, no float): 1
 * when t is one */
static inline int ptx_convert_parse(const char *t, size_t n)
{
    size_t e = 0;
    while (e < n && !isspace((unsigned char)t[e]))
        e++;
    if ((e == 18 && !strncmp(t, "cvta.to.shared.u64", 18)) || (e == 15 && !strncmp(t, "cvta.shared.u64", 15)))
        return !memchr(t, '{', n) && !memchr(t, '[', n);
    if (e < 10 || strncmp(t, "cvt.", 4))
        return 0;
    const char *d = t + 4, *dot = (const char *)memchr(d, '.', e - 4);
    int sign;
    return dot && d[0] != 'f' && dot[1] != 'f' && ptx_type_bytes(d, (size_t)(dot - d), &sign) &&
           ptx_type_bytes(dot + 1, (size_t)(t + e - dot - 1), &sign) && !memchr(t, '{', n) && !memchr(t, '[', n);
}

/* `.reg .u64 a, b` of a type of 16 to 64 bits: 1 when t declares such registers of the asm's own */
static inline int ptx_local_reg(const char *t, size_t n)
{
    if (n < 10 || strncmp(t, ".reg .", 6) || !strncmp(t, ".reg .pred", 10) || memchr(t, '{', n) || memchr(t, '@', n))
        return 0;
    size_t e = 6;
    while (e < n && !isspace((unsigned char)t[e]))
        e++;
    int sign;
    return ptx_type_bytes(t + 6, e - 6, &sign) >= 2;
}

#endif
