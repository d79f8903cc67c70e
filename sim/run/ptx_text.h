/* sim/run/ptx_text.h - reading inline PTX's text, shared by the rewriter (sim/run/rewrite.c, which
 * decides what to translate) and the runtime (sim/run/ptx.c, which runs it), so that both read
 * an instruction the same way. */
#ifndef SIMTLAB_PTX_TEXT_H
#define SIMTLAB_PTX_TEXT_H
#include <ctype.h>
#include <stddef.h>

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

#endif
