/* sim/run/ptx.c - the inline PTX `simtlab run` translates (sim/run/rewrite.c, ptx_asm): the
 * cp.async family of GEMM and attention kernels written before cuda::pipeline,
 *
 *   cp.async.ca.shared{::cta}.global{.L2::64B|128B|256B}{.L2::cache_hint} [dst], [src], cp-size{, src-size}{, policy};
 *   cp.async.cg.shared{::cta}.global...   (cp-size 16 only)
 *   cp.async.commit_group;   cp.async.wait_group N;   cp.async.wait_all;
 *
 * An asm statement of these becomes simtlab_ptx_asm(template, n, operands...): the template as
 * written, its %k the k-th input operand (as unsigned long long: a register's value, an "n"
 * constant). A copy is the simulator's cp.async (sim_cp_async_at: an LDGSTS request, in flight
 * until its group's wait in detailed mode), at the asm's line; src-size < cp-size copies that many
 * bytes and zeroes the rest (the boundary tiles' zero fill), as plain accesses. dst is a shared
 * address as __cvta_generic_to_shared makes it (32 bits), or a generic one. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

/* operand text t (up to its end): %k, or a number; 1 with *v set */
static int operand(const char *t, const unsigned long long *a, int n, unsigned long long *v)
{
    while (isspace((unsigned char)*t) || *t == '[')
        t++;
    char *end;
    if (*t == '%') {
        const long k = strtol(t + 1, &end, 10);
        if (end == t + 1 || k < 0 || k >= n)
            return 0;
        *v = a[k];
        return 1;
    }
    *v = strtoull(t, &end, 0);
    return end != t;
}

static void ptx_copy(const char *insn, size_t len, const unsigned long long *a, int n, uintptr_t pc)
{
    char q[160]; /* the opcode with its qualifiers */
    size_t ql = 0;
    while (ql < len && !isspace((unsigned char)insn[ql]) && ql < sizeof q - 1)
        q[ql] = insn[ql], ql++;
    q[ql] = 0;
    const int cg = !strncmp(q, "cp.async.cg.", 12), hint = strstr(q, ".L2::cache_hint") != NULL;
    if (!strstr(q, ".global")) {
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %s: simtlab translates cp.async from .global to .shared only", q);
        return;
    }
    unsigned long long op[5];
    int nop = 0;
    for (size_t i = ql; i < len && nop < 5;) { /* the comma-separated operands */
        if (!operand(insn + i, a, n, &op[nop])) {
            sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: an operand simtlab cannot read", (int)len, insn);
            return;
        }
        nop++;
        while (i < len && insn[i] != ',')
            i++;
        i++;
    }
    const int want = 3 + hint; /* [dst], [src], cp-size{, src-size}{, policy} */
    if (nop < want || nop > want + 1) {
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: %d operands where cp.async takes %d or %d", (int)len,
                         insn, nop, want, want + 1);
        return;
    }
    const unsigned long long cp = op[2], src_size = nop == want + 1 ? op[3] : cp;
    if (!(cp == 16 || (!cg && (cp == 4 || cp == 8)))) {
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %s: cp-size %llu: cp.async%s copies %s bytes (ptxas refuses it)",
                         q, cp, cg ? ".cg" : ".ca", cg ? "16" : "4, 8 or 16");
        return;
    }
    if (src_size > cp) { /* undefined on the chip */
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %s: src-size %llu is more than cp-size %llu", q, src_size, cp);
        return;
    }
    char *dst = op[0] >> 32 ? (char *)(uintptr_t)op[0] : (char *)sim_cvta_from_shared((size_t)op[0]);
    const char *src = (const char *)(uintptr_t)op[1];
    if (src_size == cp) {
        sim_cp_async_at(dst, src, (unsigned)cp, pc);
        return;
    }
    for (unsigned long long i = 0; i < src_size; i++) /* the zero fill: plain accesses, then the store */
        sim_access((uintptr_t)src + i, 1, 0, pc);
    sim_access((uintptr_t)dst, (unsigned)cp, 1, pc);
    unsigned char tmp[16];
    memcpy(tmp, src, (size_t)src_size);
    memset(tmp + src_size, 0, (size_t)(cp - src_size));
    memcpy(dst, tmp, (size_t)cp);
}

void simtlab_ptx_asm(const char *tmpl, int n, ...)
{
    const uintptr_t pc = (uintptr_t)__builtin_return_address(0);
    unsigned long long a[32];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n && i < 32; i++)
        a[i] = va_arg(ap, unsigned long long);
    va_end(ap);
    n = n < 32 ? n : 32;
    for (const char *t = tmpl; *t;) {
        while (*t == ';' || isspace((unsigned char)*t))
            t++;
        if (!*t)
            break;
        size_t len = strcspn(t, ";\n");
        while (len && isspace((unsigned char)t[len - 1]))
            len--;
        unsigned long long v;
        if (!strncmp(t, "cp.async.commit_group", 21)) {
            sim_cp_async_commit();
        } else if (!strncmp(t, "cp.async.wait_group", 19)) {
            if (!operand(t + 19, a, n, &v)) {
                sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: its group count is not a number", (int)len, t);
                return;
            }
            sim_cp_async_wait_prior(v > 8 ? 8u : (unsigned)v);
        } else if (!strncmp(t, "cp.async.wait_all", 17)) {
            sim_cp_async_commit();
            sim_cp_async_wait_prior(0);
        } else if (!strncmp(t, "cp.async.ca.", 12) || !strncmp(t, "cp.async.cg.", 12)) {
            ptx_copy(t, len, a, n, pc);
        } else {
            sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: not one simtlab translates", (int)len, t);
            return;
        }
        t += strcspn(t, ";\n");
    }
}
