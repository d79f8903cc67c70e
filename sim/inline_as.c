/* sim/inline_as.c - simtlab-as: the assembler that kernel units are built with (gcc -B).
 *
 * gcc's ThreadSanitizer instrumentation puts `call __tsan_read4` (sim/access.c's hooks)
 * before every load and store of a kernel. In counting mode most of a tiled kernel's
 * accesses are shared-memory accesses whose whole work is one counter increment, and the
 * call around it (call, return, the hook's TLS load) cost more than the work. gcc cannot
 * inline a sanitizer hook, so this program does it in the assembly gcc hands the
 * assembler: each
 *
 *     call __tsan_readN / __tsan_writeN        (N = 1, 2, 4, 8, 16; plain accesses only)
 *
 * becomes the hook's shared-memory fast path (access_inline in sim/access.c: the worker
 * from TLS (sim_tls_fast, never NULL), the dynamic window then the static one, the
 * detailed-mode test, the counter)
 * and, for everything else, a call from the same address: __simtlab_inside_readN/writeN
 * for a shared access in detailed mode (the hook's own detailed branch), and
 * __simtlab_outside_readN/writeN (the hook without the window tests, done already) for the
 * rest (HBM, the stack, constants, reports). A report's pc is
 * the call's return address, unchanged. Both take the worker as a second argument (%rsi).
 * Registers: only %rax, %rcx, %rsi and the flags, which the call clobbers anyway (a
 * one-argument call: %rsi holds nothing across it); %rdi, the argument, is left as it is. The field offsets
 * come from sim/internal.h, compiled in, so the tool always matches the simulator it is
 * built with.
 *
 * Used as gcc's assembler: `gcc -B<dir>/` finds <dir>/as, this program, which rewrites
 * its input files (or standard input) into temporary files and runs the real assembler
 * (SIMTLAB_REAL_AS) with the same arguments on them. `as --simtlab-print FILE.s` writes
 * the rewritten text to standard output (the test inline_as).
 * docs/NOTES.md ("Inline shared counting") has the measurements.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

#ifndef SIMTLAB_REAL_AS
#define SIMTLAB_REAL_AS "as"
#endif

_Static_assert(sizeof(((sim_worker *)0)->detailed) == 4, "cmpl tests sim_worker.detailed");
_Static_assert(sizeof(((sim_worker *)0)->dyn_lim[0]) == 8 && sizeof(((sim_worker *)0)->tls_lim[0]) == 8,
               "cmpq tests the window limits");
_Static_assert(sizeof(((sim_worker *)0)->c.sram_read_bytes) == 8, "addq counts the shared bytes");
_Static_assert(offsetof(sim_counters, sram_write_bytes) == offsetof(sim_counters, sram_read_bytes) + 8,
               "a write's counter follows the read's");

/* The hook a line calls: 1 with *wr and *size set, or 0 (any other line). Exactly
 * "\tcall\t__tsan_read4" or "...@PLT", as gcc writes it, and trailing white space. */
static int hook_call(const char *line, int *wr, unsigned *size)
{
    static const char head[] = "\tcall\t__tsan_";
    if (strncmp(line, head, sizeof head - 1))
        return 0;
    const char *p = line + sizeof head - 1;
    if (!strncmp(p, "read", 4)) {
        *wr = 0;
        p += 4;
    } else if (!strncmp(p, "write", 5)) {
        *wr = 1;
        p += 5;
    } else {
        return 0;
    }
    char *end;
    errno = 0;
    const unsigned long n = strtoul(p, &end, 10);
    if (end == p || errno || !(n == 1 || n == 2 || n == 4 || n == 8 || n == 16))
        return 0;
    p = end;
    if (!strncmp(p, "@PLT", 4))
        p += 4;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p)
        return 0;
    *size = (unsigned)n;
    return 1;
}

/* Call number i with its fast path (access_inline in sim/access.c, line for line): inside a
 * shared window in counting mode, the count; inside one otherwise, __simtlab_inside_readN/
 * writeN (shared_detailed); outside both, __simtlab_outside_readN/writeN, which does not test
 * the windows again. The worker comes from sim_tls_fast, which is never NULL (no launch:
 * sim_idle_worker, whose windows are empty, and the outside entry returns for it), read in one
 * instruction by the local-exec model: sim/tls.c is linked into the executable (the kernel units
 * go into executables only, never a shared library), so its offset from %fs is a link-time
 * constant and no GOT load is needed (lesson 4 -2.7 % instructions; docs/NOTES.md). The shared
 * hit is the last block, so that it falls through: the TLS load, one window's four
 * instructions and branch, the detailed test and the count. Both calls are one `call *%rcx`,
 * where the original call was: the return address, the pc of reports and of detailed mode's
 * requests, is the same; after it, the slow path's reloads (elide). */
static int emit_access(FILE *out, unsigned long i, int wr, unsigned size, const char *reloads)
{
    const unsigned k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : 4;
    const char *rw = wr ? "write" : "read";
    return fprintf(out,
                   "\tmovq\t%%fs:sim_tls_fast@tpoff, %%rax\n"
                   "\tmovq\t%%rdi, %%rcx\n"
                   "\tsubq\t%zu(%%rax), %%rcx\n"
                   "\trorq\t$%u, %%rcx\n"
                   "\tcmpq\t%zu(%%rax), %%rcx\n"
                   "\tjb\t.Lsimtlab_shared%lu\n"
                   "\tmovq\t%%rdi, %%rcx\n"
                   "\tsubq\t%zu(%%rax), %%rcx\n"
                   "\trorq\t$%u, %%rcx\n"
                   "\tcmpq\t%zu(%%rax), %%rcx\n"
                   "\tjb\t.Lsimtlab_shared%lu\n"
                   "\tmovq\t__simtlab_outside_%s%u@GOTPCREL(%%rip), %%rcx\n"
                   "\tjmp\t.Lsimtlab_call%lu\n"
                   ".Lsimtlab_hook%lu:\n"
                   "\tmovq\t__simtlab_inside_%s%u@GOTPCREL(%%rip), %%rcx\n"
                   ".Lsimtlab_call%lu:\n"
                   "\tmovq\t%%rax, %%rsi\n"
                   "\tcall\t*%%rcx\n"
                   "%s"
                   "\tjmp\t.Lsimtlab_done%lu\n"
                   ".Lsimtlab_shared%lu:\n"
                   "\tcmpl\t$0, %zu(%%rax)\n"
                   "\tjne\t.Lsimtlab_hook%lu\n"
                   "\taddq\t$%u, %zu(%%rax)\n"
                   ".Lsimtlab_done%lu:\n",
                   offsetof(sim_worker, dyn_lo), k, offsetof(sim_worker, dyn_lim) + 8 * k, i,
                   offsetof(sim_worker, tls_lo), k, offsetof(sim_worker, tls_lim) + 8 * k, i, rw, size, i, i, rw,
                   size, i, reloads ? reloads : "", i, i, offsetof(sim_worker, detailed), i, size,
                   offsetof(sim_worker, c.sram_read_bytes) + 8 * (size_t)wr, i) < 0
               ? -1
               : 0;
}

/* Whether line is a syntax directive: 1 .intel_syntax, 0 .att_syntax, -1 neither. */
static int syntax_of(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return !strncmp(line, ".intel_syntax", 13) ? 1 : !strncmp(line, ".att_syntax", 11) ? 0 : -1;
}

/* ---- reloads the fast path makes needless ----
 * Every xmm register is caller-saved, so gcc stores the kernel's live floats to the stack
 * before each hook call and loads them back after it: flash v1's dot product keeps its
 * accumulator in memory, a store-to-load round trip on every iteration's critical path. The
 * fast path touches no vector register; only its call (the slow path) clobbers them. So, in
 * a stretch of straight-line code (no label that a jump can reach, no jump, no other call),
 * a load of a stack slot into a register, when the slot was stored from register N in the
 * same stretch and neither changed since, becomes a register operation that gives the
 * destination exactly what the load gave (the low bits from N, the rest zero as the VEX
 * load zeroes them), and each hook call between the store and the load reloads N from the
 * slot after its own call, on the slow path only. The stores stay: memory is always as gcc
 * left it, and the slot is never read wrongly later. Anything the analysis does not know
 * ends the stretch: a store not to a known %rsp offset, an instruction that writes a vector
 * register other than its last operand, inline assembly, a change of %rsp. */
enum { MAX_MAPS = 64, MAX_CALLS = 512 };
struct slot_map {
    long off;          /* the slot: off(%rsp), off >= 0 */
    unsigned width;    /* 4, 8, 16, 32 or 64 bytes */
    int reg;           /* the vector register it was stored from */
    size_t line;       /* the store's line */
};

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* A vector register's number from "%xmmN", "%ymmN", "%zmmN" (kind 'x', 'y', 'z'), with
 * nothing after it but end (exact) or, when masks is set, EVEX masks "{...}"; else -1. */
static int vreg(const char *p, size_t len, char *kind, int masks)
{
    if (len < 5 || p[0] != '%' || (p[1] != 'x' && p[1] != 'y' && p[1] != 'z') || p[2] != 'm' || p[3] != 'm')
        return -1;
    size_t k = 4;
    int n = 0;
    if (!(p[k] >= '0' && p[k] <= '9'))
        return -1;
    while (k < len && p[k] >= '0' && p[k] <= '9' && n < 100)
        n = n * 10 + (p[k++] - '0');
    if (n > 31 || (k < len && !(masks && p[k] == '{')))
        return -1;
    *kind = p[1];
    return n;
}

/* "off(%rsp)" or "(%rsp)" exactly, off >= 0: 1 with *off; else 0. */
static int rsp_slot(const char *p, size_t len, long *off)
{
    static const char tail[] = "(%rsp)";
    if (len < sizeof tail - 1 || memcmp(p + len - (sizeof tail - 1), tail, sizeof tail - 1))
        return 0;
    const size_t digits = len - (sizeof tail - 1);
    long v = 0;
    for (size_t k = 0; k < digits; k++) {
        if (p[k] < '0' || p[k] > '9' || v > 1L << 40)
            return 0;
        v = v * 10 + (p[k] - '0');
    }
    *off = v;
    return 1;
}

/* The width of a whole-register or scalar vector move, by mnemonic and register kind: 4 or
 * 8 for the scalar moves (xmm only), 16/32/64 for the full ones; 0 for anything else. */
static unsigned move_width(const char *mn, char kind)
{
    static const char *const full[] = {"vmovaps", "vmovups", "vmovapd", "vmovupd", "vmovdqa", "vmovdqu",
                                       "vmovdqa32", "vmovdqa64", "vmovdqu32", "vmovdqu64", "vmovdqu8", "vmovdqu16"};
    if (!strcmp(mn, "vmovss") || !strcmp(mn, "vmovd"))
        return kind == 'x' ? 4 : 0;
    if (!strcmp(mn, "vmovsd") || !strcmp(mn, "vmovq"))
        return kind == 'x' ? 8 : 0;
    for (size_t k = 0; k < sizeof full / sizeof *full; k++)
        if (!strcmp(mn, full[k]))
            return kind == 'x' ? 16 : kind == 'y' ? 32 : 64;
    return 0;
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Mnemonics whose memory operand, even when last, is only read. */
static int reads_only(const char *mn)
{
    return (starts(mn, "cmp") && !starts(mn, "cmpxchg") && !strstr(mn, "xadd")) || starts(mn, "test") ||
           !strcmp(mn, "bt") ||
           !strcmp(mn, "btl") || !strcmp(mn, "btq") || !strcmp(mn, "btw") || starts(mn, "ucomis") ||
           starts(mn, "comis") || starts(mn, "vucomis") || starts(mn, "vcomis") || starts(mn, "prefetch") ||
           starts(mn, "vptest") || starts(mn, "ptest") || starts(mn, "vtestp");
}

/* Instructions that write what their last operand does not say, or that the analysis
 * will not follow: they end the stretch. */
static int unknown_effects(const char *mn)
{
    static const char *const pre[] = {"rep", "lock", "notrack", "bnd", "xchg", "xadd", "cmpxchg", "push", "pop",
                                      "leave", "enter", "syscall", "sysenter", "int", "xrstor", "fxrstor",
                                      "xsave", "fxsave", "vzeroall", "maskmov", "vmaskmovdqu", "xbegin", "xend",
                                      "xabort", "ldmxcsr", "vldmxcsr", "encodekey", "loadiwkey", "movdir64b",
                                      "enqcmd", "fsave", "fnsave", "fstenv", "fnstenv", "frstor"};
    for (size_t k = 0; k < sizeof pre / sizeof *pre; k++)
        if (starts(mn, pre[k]))
            return 1;
    return strstr(mn, "gather") || strstr(mn, "scatter") || strstr(mn, "pcmpestr") || strstr(mn, "pcmpistr") ||
           (starts(mn, "aes") && strstr(mn, "kl")); /* Key Locker: xmm0-7 */
}

/* Mnemonics without operands that touch no vector register and no memory. */
static int harmless_bare(const char *mn)
{
    static const char *const ok[] = {"nop", "cltq", "cqto", "cltd", "cwtl", "cdqe", "endbr64", "lfence", "mfence",
                                     "sfence", "pause", "ud2"};
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++)
        if (!strcmp(mn, ok[k]))
            return 1;
    return 0;
}

/* gcc's debugging labels, which no jump reaches: .LBBn .LBEn .LBIn .LVLn */
static int debug_label(const char *p, size_t len)
{
    if (len < 5 || strncmp(p, ".L", 2) || !(starts(p + 2, "BB") || starts(p + 2, "BE") || starts(p + 2, "BI") ||
                                             starts(p + 2, "VL")))
        return 0;
    for (size_t k = 4; k < len; k++)
        if (p[k] < '0' || p[k] > '9')
            return 0;
    return 1;
}

struct elision {
    char **repl; /* a line's replacement, or NULL */
    char **slow; /* a hook call's reloads for its slow path, or NULL */
};

static int append(char **dst, const char *text)
{
    const size_t old = *dst ? strlen(*dst) : 0, add = strlen(text);
    if (*dst && strstr(*dst, text))
        return 0; /* already reloaded there */
    char *p = realloc(*dst, old + add + 1);
    if (!p)
        return -1;
    memcpy(p + old, text, add + 1);
    *dst = p;
    return 0;
}

/* The register form of a load of `width` bytes of N into K (AT&T). */
static void reg_form(char *buf, size_t n, unsigned width, int src, int dst)
{
    if (width == 4) /* lane 0 of N, lanes 1-3 zero (zmask 1110b), the upper lanes zero: vmovss's load */
        snprintf(buf, n, "\tvinsertps\t$14, %%xmm%d, %%xmm%d, %%xmm%d\n", src, src, dst);
    else if (width == 8)
        snprintf(buf, n, "\tvmovq\t%%xmm%d, %%xmm%d\n", src, dst);
    else
        snprintf(buf, n, "\tvmovaps\t%%%cmm%d, %%%cmm%d\n", width == 16 ? 'x' : width == 32 ? 'y' : 'z', src,
                 width == 16 ? 'x' : width == 32 ? 'y' : 'z', dst);
}

/* The load that restores N from its slot after a slow path's call. */
static void reload_form(char *buf, size_t n, const struct slot_map *m)
{
    if (m->width == 4)
        snprintf(buf, n, "\tvmovss\t%ld(%%rsp), %%xmm%d\n", m->off, m->reg);
    else if (m->width == 8)
        snprintf(buf, n, "\tvmovsd\t%ld(%%rsp), %%xmm%d\n", m->off, m->reg);
    else
        snprintf(buf, n, "\tvmovups\t%ld(%%rsp), %%%cmm%d\n", m->off,
                 m->width == 16 ? 'x' : m->width == 32 ? 'y' : 'z', m->reg);
}

/* The pass over a whole AT&T unit's lines; 0, or -1 (out of memory). */
static int elide(char **lines, size_t n, struct elision *e)
{
    struct slot_map map[MAX_MAPS];
    size_t calls[MAX_CALLS];
    unsigned nm = 0, nc = 0;
    int app = 0;
    char mn[32], buf[96];
    for (size_t i = 0; i < n; i++) {
        const char *l = skip_ws(lines[i]);
        size_t len = strcspn(l, "\n");
        while (len && (l[len - 1] == ' ' || l[len - 1] == '\t' || l[len - 1] == '\r'))
            len--;
        int clear = 0;
        if (len == 0)
            continue;
        if (l[0] == '#') { /* gcc's comments; #APP ... #NO_APP is inline assembly */
            if (starts(l, "#APP"))
                app = 1;
            else if (starts(l, "#NO_APP"))
                app = 0;
            nm = nc = 0;
            continue;
        }
        if (app || l[len - 1] == ':' || memchr(l, ';', len)) {
            if (!(l[len - 1] == ':' && !app && debug_label(l, len - 1)))
                nm = nc = 0;
            continue;
        }
        if (l[0] == '.') { /* directives: only these leave the stretch alone */
            if (!(starts(l, ".loc") || starts(l, ".cfi_") || starts(l, ".p2align") || starts(l, ".align") ||
                  starts(l, ".balign")))
                nm = nc = 0;
            continue;
        }
        int wr;
        unsigned size;
        if (hook_call(lines[i], &wr, &size)) {
            if (nc == MAX_CALLS)
                nm = nc = 0;
            else
                calls[nc++] = i;
            continue;
        }
        const size_t ml = strcspn(l, " \t\r\n");
        if (ml >= sizeof mn || ml > len) {
            nm = nc = 0;
            continue;
        }
        memcpy(mn, l, ml);
        mn[ml] = 0;
        const char *ops = skip_ws(l + ml);
        const size_t olen = len - (size_t)(ops - l);
        /* the operands, split at the commas outside brackets */
        const char *op[4];
        size_t opl[4];
        unsigned nops = 0;
        int depth = 0, bad = 0;
        const char *s0 = ops;
        for (size_t k = 0; k <= olen && olen; k++) {
            const char c = k < olen ? ops[k] : ',';
            if (c == '(' || c == '{')
                depth++;
            else if (c == ')' || c == '}')
                depth--;
            else if (c == ',' && depth == 0) {
                if (nops == 4) {
                    bad = 1;
                    break;
                }
                const char *a = skip_ws(s0);
                size_t al = (size_t)(ops + k - a);
                while (al && (a[al - 1] == ' ' || a[al - 1] == '\t'))
                    al--;
                op[nops] = a;
                opl[nops++] = al;
                s0 = ops + k + 1;
            }
        }
        if (bad || depth || mn[0] == 'j' || starts(mn, "call") || starts(mn, "ret") || starts(mn, "loop") ||
            unknown_effects(mn) || (nops == 0 && !harmless_bare(mn) && strcmp(mn, "vzeroupper"))) {
            nm = nc = 0;
            continue;
        }
        if (!strcmp(mn, "vzeroupper")) { /* bits 128 and up of registers 0-15 */
            for (unsigned k = 0; k < nm;)
                if (map[k].width > 16 && map[k].reg < 16)
                    map[k] = map[--nm];
                else
                    k++;
            continue;
        }
        if (nops == 0)
            continue;
        char kind;
        long off;
        int r;
        unsigned w;
        if (nops == 2 && (r = vreg(op[0], opl[0], &kind, 0)) >= 0 && rsp_slot(op[1], opl[1], &off) &&
            (w = move_width(mn, kind))) { /* a store of a register to a slot */
            /* the slots it overlaps, and r's slots of another width: a reload of one width would
             * zero what another slot of r still holds (helper-57's case) */
            for (unsigned k = 0; k < nm;)
                if ((map[k].off < off + (long)w && off < map[k].off + (long)map[k].width) ||
                    (map[k].reg == r && map[k].width != w))
                    map[k] = map[--nm];
                else
                    k++;
            if (nm == MAX_MAPS)
                map[0] = map[--nm];
            map[nm++] = (struct slot_map){off, w, r, i};
            continue;
        }
        if (nops == 2 && rsp_slot(op[0], opl[0], &off) && (r = vreg(op[1], opl[1], &kind, 0)) >= 0 &&
            (w = move_width(mn, kind))) { /* a load of a slot */
            const struct slot_map *m = NULL;
            for (unsigned k = 0; k < nm && !m; k++)
                if (map[k].off == off && map[k].width == w)
                    m = &map[k];
            if (m && !(nc && calls[nc - 1] > m->line))
                m = NULL; /* no hook call since the store: gcc's own business */
            if (m) {
                reg_form(buf, sizeof buf, w, m->reg, r);
                if (!(e->repl[i] = strdup(buf)))
                    return -1;
                char re[96];
                reload_form(re, sizeof re, m);
                for (unsigned k = 0; k < nc; k++)
                    if (calls[k] > m->line && append(&e->slow[calls[k]], re))
                        return -1;
                if (r == m->reg)
                    continue; /* the same value in the same register */
            }
            for (unsigned k = 0; k < nm;) /* r has a new value */
                if (map[k].reg == r)
                    map[k] = map[--nm];
                else
                    k++;
            continue;
        }
        const char *last = op[nops - 1];
        const size_t ll = opl[nops - 1];
        if (last[0] == '%' && !memchr(last, ':', ll)) { /* a register (%fs:... is memory) */
            if ((r = vreg(last, ll, &kind, 1)) >= 0) {
                for (unsigned k = 0; k < nm;)
                    if (map[k].reg == r)
                        map[k] = map[--nm];
                    else
                        k++;
            } else if (starts(last, "%rsp") || starts(last, "%esp") || starts(last, "%sp")) {
                clear = 1;
            }
        } else if (last[0] == '$') {
            clear = 1;
        } else if (!reads_only(mn)) { /* a store */
            if (rsp_slot(last, ll, &off)) {
                for (unsigned k = 0; k < nm;) /* at most 64 bytes from off */
                    if (map[k].off < off + 64 && off < map[k].off + (long)map[k].width)
                        map[k] = map[--nm];
                    else
                        k++;
            } else {
                clear = 1;
            }
        }
        if (clear)
            nm = nc = 0;
    }
    return 0;
}

/* in to out, each hook call with its fast path (labels numbered on from *n, so that
 * several inputs of one assembler run do not share one), and the reloads the fast path
 * makes needless taken out of it (elide; not in a unit with Intel syntax). A unit in Intel
 * syntax (gcc -masm=intel) gets its fast paths between `.att_syntax prefix` and the
 * directive it had. 0, or -1 with errno. */
static int rewrite(FILE *in, FILE *out, unsigned long *n)
{
    char **lines = NULL, *intel = NULL; /* intel: the last .intel_syntax line, while in force */
    size_t nl = 0, cap = 0;
    int rc = 0, any_intel = 0;
    for (;;) {
        char *line = NULL;
        size_t lcap = 0;
        if (getline(&line, &lcap, in) < 0) {
            free(line);
            break;
        }
        if (nl == cap) {
            char **p = realloc(lines, (cap = cap ? 2 * cap : 1024) * sizeof *p);
            if (!p) {
                free(line);
                rc = -1;
                break;
            }
            lines = p;
        }
        lines[nl++] = line;
        any_intel |= syntax_of(line) == 1;
    }
    if (ferror(in))
        rc = -1;
    struct elision e = {calloc(nl + 1, sizeof(char *)), calloc(nl + 1, sizeof(char *))};
    if (!e.repl || !e.slow)
        rc = -1;
    if (rc == 0 && !any_intel && elide(lines, nl, &e))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < nl; i++) {
        const char *line = lines[i];
        int wr;
        unsigned size;
        const int syn = syntax_of(line);
        if (syn >= 0) {
            free(intel);
            intel = syn ? strdup(line) : NULL;
            if (syn && !intel)
                rc = -1;
        }
        if (rc == 0 && hook_call(line, &wr, &size)) {
            rc = (intel && fputs("\t.att_syntax prefix\n", out) < 0) || emit_access(out, (*n)++, wr, size, e.slow[i]) ||
                 (intel && fputs(intel, out) < 0);
        } else if (rc == 0 && fputs(e.repl[i] ? e.repl[i] : line, out) < 0) {
            rc = -1;
        }
    }
    for (size_t i = 0; i < nl; i++) {
        free(lines[i]);
        if (e.repl)
            free(e.repl[i]);
        if (e.slow)
            free(e.slow[i]);
    }
    free(lines);
    free(e.repl);
    free(e.slow);
    free(intel);
    return rc ? -1 : 0;
}

/* Whether argv[i] is an input to rewrite: a file named *.s (gcc's temporary files), or
 * "-" (standard input); not the value of an option that takes one. Anything else goes to
 * the assembler as it is. */
static int is_input(char **argv, int i)
{
    static const char *const with_value[] = {"-o", "-I", "--defsym", "-MF", "--MD", "--debug-prefix-map"};
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        if (!strcmp(argv[i - 1], with_value[k]))
            return 0;
    const size_t len = strlen(argv[i]);
    return !strcmp(argv[i], "-") || (argv[i][0] != '-' && len > 2 && !strcmp(argv[i] + len - 2, ".s"));
}

/* The temporary files, removed on every way out, a signal's too. */
static char **tmp_paths;
static volatile sig_atomic_t n_tmp;
static void remove_tmp(void)
{
    for (sig_atomic_t i = 0; i < n_tmp; i++)
        unlink(tmp_paths[i]);
}
static void on_signal(int sig)
{
    remove_tmp();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A new temporary file for the rewritten text: in TMPDIR, else /tmp (as gcc falls back). */
static FILE *tmp_open(char **path)
{
    const char *env = getenv("TMPDIR");
    const char *dirs[2] = {env && *env ? env : "/tmp", "/tmp"};
    for (int k = 0; k < 2; k++) {
        if (asprintf(path, "%s/simtlab-as-XXXXXX.s", dirs[k]) < 0) {
            *path = NULL;
            return NULL;
        }
        const int fd = mkstemps(*path, 2);
        if (fd >= 0) {
            tmp_paths[n_tmp] = *path;
            n_tmp++; /* registered before anything is written: a signal removes it */
            FILE *f = fdopen(fd, "w");
            if (!f)
                close(fd);
            return f;
        }
        free(*path);
        *path = NULL;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned long labels = 0;
    if (argc == 3 && !strcmp(argv[1], "--simtlab-print")) {
        FILE *in = fopen(argv[2], "r");
        if (!in) {
            fprintf(stderr, "simtlab-as: cannot read %s: %s\n", argv[2], strerror(errno));
            return 1;
        }
        const int rc = rewrite(in, stdout, &labels);
        fclose(in);
        return rc ? 1 : 0;
    }
    char **args = calloc((size_t)argc + 2, sizeof *args);
    tmp_paths = calloc((size_t)argc + 1, sizeof *tmp_paths);
    if (!args || !tmp_paths) {
        fprintf(stderr, "simtlab-as: out of memory\n");
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* --version and --help assemble nothing; every other call does (`as -v` too) */
    int n_in = 0, informational = 0, rc = 0;
    args[0] = (char *)SIMTLAB_REAL_AS;
    for (int i = 1; i < argc; i++) {
        args[i] = argv[i];
        informational |= !strcmp(argv[i], "--version") || !strcmp(argv[i], "--help");
        n_in += is_input(argv, i);
    }
    int nargs = argc;
    const int use_stdin = n_in == 0 && !informational; /* gcc -pipe: the text comes on standard input */
    for (int i = 1; i <= argc && rc == 0 && !informational; i++) {
        if (i < argc ? !is_input(argv, i) : !use_stdin)
            continue;
        const int from_stdin = i == argc || !strcmp(argv[i], "-");
        char *path = NULL;
        FILE *out = tmp_open(&path);
        FILE *in = from_stdin ? stdin : fopen(argv[i], "r");
        if (!out || !in) {
            fprintf(stderr, "simtlab-as: cannot %s %s: %s\n", !out ? "write" : "read",
                    !out ? (path ? path : "a temporary file") : argv[i], strerror(errno));
            rc = -1;
        } else if (rewrite(in, out, &labels)) {
            fprintf(stderr, "simtlab-as: rewriting %s: %s\n", from_stdin ? "standard input" : argv[i],
                    strerror(errno));
            rc = -1;
        }
        if (in && in != stdin)
            fclose(in);
        if (out && fclose(out) && !rc) {
            fprintf(stderr, "simtlab-as: writing %s: %s\n", path, strerror(errno));
            rc = -1;
        }
        if (i == argc)
            args[nargs++] = path;
        else
            args[i] = path ? path : argv[i];
    }
    args[nargs] = NULL;
    int status = 1;
    if (rc == 0) {
        const pid_t pid = fork();
        if (pid == 0) {
            execvp(args[0], args);
            fprintf(stderr, "simtlab-as: cannot run %s: %s\n", args[0], strerror(errno));
            _exit(127);
        }
        int st = 0;
        if (pid < 0)
            fprintf(stderr, "simtlab-as: cannot start %s: %s\n", args[0], strerror(errno));
        else if (waitpid(pid, &st, 0) == pid)
            status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    remove_tmp();
    for (sig_atomic_t i = 0; i < n_tmp; i++)
        free(tmp_paths[i]);
    free(tmp_paths);
    free(args);
    return status;
}
