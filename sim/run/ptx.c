/* sim/run/ptx.c - the inline PTX `simtlab run` translates (sim/run/rewrite.c, ptx_asm): the
 * cp.async family of GEMM and attention kernels written before cuda::pipeline,
 *
 *   cp.async.ca.shared{::cta}.global{.L2::64B|128B|256B}{.L2::cache_hint} [dst], [src], cp-size{, src-size}{, policy};
 *   cp.async.cg.shared{::cta}.global...   (cp-size 16 only)
 *   cp.async.commit_group;   cp.async.wait_group N;   cp.async.wait_all;
 *
 * and the warp's register-level matrix instructions of the mma kernels:
 *
 *   ldmatrix.sync.aligned{.m8n8}.x1|x2|x4{.trans}{.shared{::cta}}.b16 {r...}, [addr];
 *   mma.sync.aligned.m16n8k16|m16n8k8.row.col.D.A.B.C {d...}, {a...}, {b...}, {c...};
 *     (A, B f16 or bf16 with D, C f32 or f16; tf32 with f32, m16n8k8 only)
 *
 * An asm statement of these becomes simtlab_ptx_asm(template, n, operands...) (no outputs) or
 * simtlab_ptx_asm_io(file, line, template, nout, nin, outputs..., inputs...): the template as
 * written, its %k the k-th operand, outputs first as (address, size), inputs as their bits
 * (simtlab_ptx_bits: a register's value, an "n" constant, a float's bits). A copy is the
 * simulator's cp.async (sim_cp_async_at: an LDGSTS request, in flight until its group's wait in
 * detailed mode), at the asm's line; src-size < cp-size copies that many bytes and zeroes the rest
 * (the boundary tiles' zero fill), still an LDGSTS (src not read at 0). dst is a shared address as
 * __cvta_generic_to_shared makes it (32 bits), or a generic one. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "half_bits.h"
#include "ptx_text.h"
#include "launch.h"

/* operand text t (up to its end): %k, a number, or in an address [%k+imm] / [%k-imm]; 1 with *v set */
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
        while (isspace((unsigned char)*end))
            end++;
        if (*end == '+' || *end == '-') { /* an address's offset: PTX's [reg+imm] */
            const char sign = *end;
            char *e2;
            const long long off = strtoll(end + 1, &e2, 0);
            if (e2 == end + 1)
                return 0;
            *v = sign == '+' ? *v + (unsigned long long)off : *v - (unsigned long long)off;
        }
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
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %s: simtlab translates cp.async from .global to .shared only",
                         q);
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
    if (src_size && src_size < cp && (uintptr_t)src % cp) { /* the whole copy's check (copy_async_do) */
        sim_kernel_fault(SIM_ERR_MISALIGNED_ADDRESS, pc,
                         "inline PTX %s: a copy of %llu bytes (src-size %llu) needs its source aligned to %llu: %p",
                         q, cp, src_size, cp, (const void *)src);
        return;
    }
    sim_cp_async_at(dst, src, (unsigned)cp, (unsigned)src_size, pc); /* src-size < cp-size: the zero fill */
}

/* The template's next instruction from t: its start, *len its length without the ';' and
 * trailing space; NULL at the end. */
static const char *next_insn(const char *t, size_t *len)
{
    while (*t == ';' || isspace((unsigned char)*t))
        t++;
    if (!*t)
        return NULL;
    size_t n = strcspn(t, ";\n");
    while (n && isspace((unsigned char)t[n - 1]))
        n--;
    *len = n;
    return t;
}

/* A `{ .reg .pred p; setp.ne.b32 p, %0, 0; @p cp.async... }` block's predicates (the guarded copy
 * of CUTLASS-style GEMMs): the names declared, and what setp made of each (-1: not set yet). */
typedef struct ptx_preds { /* an asm's, all its blocks' together (names are not released at a block's end) */
    int n;
    char name[16][16];
    int v[16];
} ptx_preds;

static int pred_find(const ptx_preds *p, const char *t, size_t len)
{
    for (int i = 0; i < p->n; i++)
        if (strlen(p->name[i]) == len && !strncmp(p->name[i], t, len))
            return i;
    return -1;
}

static size_t ident_len(const char *t, size_t n)
{
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)t[i]) || t[i] == '_'))
        i++;
    return i;
}

/* `.reg .pred p, q` (0) and `setp.ne|eq.b32|s32|u32 p, a, b` (0 with p set); 1 when t is neither;
 * -1 after a report. */
static int ptx_pred_insn(ptx_preds *p, const char *t, size_t len, const unsigned long long *a, int n, uintptr_t pc)
{
    if (len > 10 && !strncmp(t, ".reg .pred", 10)) {
        for (size_t i = 10; i < len;) {
            while (i < len && (isspace((unsigned char)t[i]) || t[i] == ','))
                i++;
            const size_t l = ident_len(t + i, len - i);
            if (!l)
                break;
            if (p->n == 16 || l >= sizeof p->name[0]) {
                sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: simtlab reads up to 16 predicates an asm, of up "
                                 "to 15 characters", (int)len, t);
                return -1;
            }
            memcpy(p->name[p->n], t + i, l);
            p->name[p->n][l] = 0;
            p->v[p->n++] = -1;
            i += l;
        }
        return 0;
    }
    if (len <= 8 || (strncmp(t, "setp.ne.", 8) && strncmp(t, "setp.eq.", 8)))
        return 1;
    const int eq = t[5] == 'e';
    const char *ty = t + 8;
    if (strncmp(ty, "b32", 3) && strncmp(ty, "s32", 3) && strncmp(ty, "u32", 3)) {
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: simtlab reads setp.ne and setp.eq of .b32, .s32 and "
                         ".u32 only", (int)len, t);
        return -1;
    }
    size_t i = 11;
    while (i < len && isspace((unsigned char)t[i]))
        i++;
    const size_t l = ident_len(t + i, len - i);
    const int k = l ? pred_find(p, t + i, l) : -1;
    const char *c1 = memchr(t + i, ',', len - i), *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(t + len - c1 - 1)) : NULL;
    unsigned long long x, y;
    if (k < 0 || !c2 || !operand(c1 + 1, a, n, &x) || !operand(c2 + 1, a, n, &y)) {
        sim_kernel_fault(SIM_ERR_TRAP, pc, "inline PTX %.*s: simtlab reads `setp.ne.b32 p, a, b` with p declared by "
                         "`.reg .pred p` before it and a, b operands or numbers", (int)len, t);
        return -1;
    }
    p->v[k] = ((uint32_t)x != (uint32_t)y) != eq;
    return 0;
}

/* ---- ldmatrix and mma.sync: a warp's registers ------------------------------------------- */
/* The operands of an instruction as register lists: "{%0, %1}, [%4]" -> groups of operand
 * numbers (a bracket is a group of one). Returns the number of groups; -1 on anything else. */
static int groups(const char *t, size_t len, int g[4][4], int gn[4])
{
    int ng = 0;
    size_t i = 0;
    while (i < len && !isspace((unsigned char)t[i])) /* the opcode */
        i++;
    while (i < len && ng < 4) {
        while (i < len && (isspace((unsigned char)t[i]) || t[i] == ','))
            i++;
        if (i >= len)
            break;
        const char open = t[i], close = open == '{' ? '}' : open == '[' ? ']' : 0;
        if (!close)
            return -1;
        gn[ng] = 0;
        for (i++; i < len && t[i] != close;) {
            while (i < len && (isspace((unsigned char)t[i]) || t[i] == ','))
                i++;
            if (i < len && t[i] == '%' && gn[ng] < 4) {
                char *end;
                const long k = strtol(t + i + 1, &end, 10);
                if (end == t + i + 1 || k < 0 || k >= 32)
                    return -1;
                g[ng][gn[ng]++] = (int)k;
                i = (size_t)(end - t);
            } else if (i < len && t[i] != close) {
                return -1;
            }
        }
        i++;
        ng++;
    }
    return ng;
}

typedef struct ptx_lane {
    void *out[32];            /* the outputs' addresses, operand order (NULL: an input) */
    unsigned out_size[32];
    unsigned long long in[32]; /* every operand's value: an output's current one (a "+" register) too */
    int n;
    const char *insn;
    size_t len;
    uintptr_t pc;
    const char *file; /* the asm's, for a warp-wide misuse report */
    int line;
    int n_loc;        /* the asm's own registers (`.reg .u64 a;`), operands 32 + i */
    char loc_name[8][16];
    unsigned loc_bytes[8];
    unsigned long long loc[8];
} ptx_lane;

static void ptx_meet(void *const args[32]) { (void)args; }

/* a shared address operand: the 32 bits __cvta_generic_to_shared gives, or a generic pointer */
static const char *shared_ptr(unsigned long long v)
{
    return v >> 32 ? (const char *)(uintptr_t)v : (const char *)sim_cvta_from_shared((size_t)v);
}

static float tf32(uint32_t u) /* as the tensor cores read a tf32 operand: 10 significant bits */
{
    float f;
    memcpy(&f, &u, 4);
    return sim_tf32_operand(f);
}

/* An operand's 32 bits: an input's value, an output's current contents. */
static uint32_t reg32(const ptx_lane *p, int k)
{
    return (uint32_t)p->in[k];
}
static void set32(const ptx_lane *p, int k, uint32_t v)
{
    if (k < 32 && p->out[k]) {
        ((ptx_lane *)p)->in[k] = v; /* for the asm's instructions after it (a lane's ptx_lane: still live) */
        if (p->out_size[k] >= 4)
            memcpy(p->out[k], &v, 4);
        else
            memcpy(p->out[k], &v, p->out_size[k]);
    }
}

/* ldmatrix, the last lane of the warp: matrix m's row r is at lane 8 m + r's address; lane l gets
 * row l/4, halves 2 (l%4) and + 1 (.trans: column l/4, rows 2 (l%4) and + 1) of each matrix */
static void ldmatrix_all(void *const args[32])
{
    const ptx_lane *p0 = args[0];
    int g[4][4], gn[4];
    groups(p0->insn, p0->len, g, gn);
    const int x = gn[0], trans = memmem(p0->insn, p0->len, ".trans", 6) != NULL;
    for (int m = 0; m < x; m++)
        for (unsigned l = 0; l < 32; l++) {
            uint16_t h[2];
            for (int e = 0; e < 2; e++) {
                const unsigned row = trans ? 2 * (l % 4) + e : l / 4, col = trans ? l / 4 : 2 * (l % 4) + e;
                const ptx_lane *src = args[8 * m + row];
                memcpy(&h[e], shared_ptr(src->in[g[1][0]]) + 2 * col, 2);
            }
            set32(args[l], g[0][m], (uint32_t)h[0] | (uint32_t)h[1] << 16);
        }
}

static void ptx_ldmatrix(ptx_lane *p)
{
    int g[4][4], gn[4];
    const int ng = groups(p->insn, p->len, g, gn);
    const int x = memmem(p->insn, p->len, ".x4", 3) ? 4 : memmem(p->insn, p->len, ".x2", 3) ? 2 : 1;
    if (ng != 2 || gn[0] != x || gn[1] != 1 || !memmem(p->insn, p->len, ".b16", 4)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads ldmatrix's .x1/.x2/.x4 of .b16 "
                         "into as many registers, from one address", (int)p->len, p->insn);
        return;
    }
    if (g[1][0] >= p->n) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its address is not one of the asm's operands",
                         (int)p->len, p->insn);
        return;
    }
    for (int k = 0; k < x; k++)
        if (g[0][k] >= p->n || !p->out[g[0][k]]) {
            sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its destinations must be outputs", (int)p->len,
                             p->insn);
            return;
        }
    sim_warp_aligned(NULL, ptx_meet, p->file, p->line); /* the lanes' earlier stores made */
    if (sim_lane_id() < 8u * (unsigned)x) { /* the row the lane addresses: a phase of 8 lanes a matrix, as LDSM */
        const char *row = shared_ptr(p->in[g[1][0]]);
        if (sim_space_of(row) != 1 || sim_space_of(row + 15) != 1) {
            sim_kernel_fault(SIM_ERR_ILLEGAL_ADDRESS, p->pc,
                             "inline PTX %.*s: lane %u's row address %p is not in the block's shared memory (ldmatrix "
                             "reads shared memory only: __cvta_generic_to_shared of a __shared__ array's element)",
                             (int)p->len, p->insn, sim_lane_id(), (const void *)row);
            return;
        }
        sim_access_at((uintptr_t)row, 16, 0, p->pc, p->file, p->line);
    }
    sim_warp_aligned(p, ldmatrix_all, p->file, p->line);
}

/* mma.sync: the types of D, A, B, C from the opcode ("...row.col.f32.f16.f16.f32") */
enum { T_F16, T_BF16, T_TF32, T_F32, T_BAD };
static int type_of(const char *t)
{
    return !strncmp(t, "f16", 3) ? T_F16 : !strncmp(t, "bf16", 4) ? T_BF16 : !strncmp(t, "tf32", 4) ? T_TF32
         : !strncmp(t, "f32", 3) ? T_F32 : T_BAD;
}

typedef struct mma_shape {
    int k, td, ta, tb, tc; /* K (16 or 8), the four types */
} mma_shape;

static int mma_parse(const char *insn, size_t len, mma_shape *m)
{
    char op[128];
    size_t ol = 0;
    while (ol < len && !isspace((unsigned char)insn[ol]) && ol < sizeof op - 1)
        op[ol] = insn[ol], ol++;
    op[ol] = 0;
    const char *r = strstr(op, ".row.col.");
    if (!r)
        return 0;
    m->k = strstr(op, ".m16n8k16.") ? 16 : 8;
    const char *t = r + 9;
    int ty[4];
    for (int i = 0; i < 4; i++) {
        ty[i] = type_of(t);
        if (ty[i] == T_BAD)
            return 0;
        t = strchr(t, '.');
        if (!t && i < 3)
            return 0;
        t = t ? t + 1 : t;
    }
    m->td = ty[0], m->ta = ty[1], m->tb = ty[2], m->tc = ty[3];
    const int ok16 = (m->ta == T_F16 || m->ta == T_BF16) && m->tb == m->ta &&
                     (m->td == T_F32 || (m->td == T_F16 && m->ta == T_F16)) &&
                     (m->tc == T_F32 || (m->tc == T_F16 && m->ta == T_F16));
    const int ok32 = m->ta == T_TF32 && m->tb == T_TF32 && m->td == T_F32 && m->tc == T_F32 && m->k == 8;
    return ok16 || ok32;
}

/* registers an operand takes: D or C (f32 4, f16 2), A, B */
static int regs_of(const mma_shape *m, int which)
{
    if (which == 0 || which == 3)
        return (which ? m->tc : m->td) == T_F32 ? 4 : 2;
    if (m->ta == T_TF32)
        return which == 1 ? 4 : 2;
    return which == 1 ? (m->k == 16 ? 4 : 2) : (m->k == 16 ? 2 : 1);
}

static float half_of(const mma_shape *m, uint32_t reg, int hi)
{
    const uint16_t h = (uint16_t)(reg >> (hi ? 16 : 0));
    return m->ta == T_BF16 ? bf16_to_f32(h) : f16_to_f32(h);
}

/* The last lane of the warp: D = A B + C from the 32 lanes' registers (PTX's fragments: lane l's
 * group g = l/4 and thread t = l%4; the same layout wmma's cores have, measured on the H200). */
static void mma_all(void *const args[32])
{
    const ptx_lane *p0 = args[0];
    mma_shape m;
    mma_parse(p0->insn, p0->len, &m);
    int g[4][4], gn[4];
    groups(p0->insn, p0->len, g, gn);
    float A[16][16], B[16][8], C[16][8];
    for (unsigned l = 0; l < 32; l++) {
        const ptx_lane *p = args[l];
        const unsigned gr = l / 4, t = l % 4;
        if (m.ta == T_TF32) {
            for (int i = 0; i < 4; i++)
                A[gr + 8 * (i & 1)][t + 4 * (i >> 1)] = tf32(reg32(p, g[1][i]));
            for (int i = 0; i < 2; i++)
                B[t + 4 * i][gr] = tf32(reg32(p, g[2][i]));
        } else {
            for (int i = 0; i < regs_of(&m, 1); i++)
                for (int e = 0; e < 2; e++)
                    A[gr + 8 * (i & 1)][2 * t + e + 8 * (i >> 1)] = half_of(&m, reg32(p, g[1][i]), e);
            for (int i = 0; i < regs_of(&m, 2); i++)
                for (int e = 0; e < 2; e++)
                    B[2 * t + e + 8 * i][gr] = half_of(&m, reg32(p, g[2][i]), e);
        }
        for (int i = 0; i < 4; i++) { /* C: f32 c0..c3, or f16 pairs in 2 registers */
            const unsigned r = gr + 8 * (i >> 1), c = 2 * t + (i & 1);
            if (m.tc == T_F32) {
                const uint32_t u = reg32(p, g[3][i]);
                memcpy(&C[r][c], &u, 4);
            } else {
                C[r][c] = f16_to_f32((uint16_t)(reg32(p, g[3][i >> 1]) >> (16 * (i & 1))));
            }
        }
    }
    float D[16][8];
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            float acc = C[r][c];
            for (int k = 0; k < m.k; k++)
                acc += A[r][k] * B[k][c]; /* exact products, summed in k order onto C */
            D[r][c] = m.td == T_F16 ? f16_to_f32(f32_to_f16(acc)) : acc;
        }
    for (unsigned l = 0; l < 32; l++) {
        const ptx_lane *p = args[l];
        const unsigned gr = l / 4, t = l % 4;
        if (m.td == T_F32) {
            for (int i = 0; i < 4; i++) {
                uint32_t u;
                memcpy(&u, &D[gr + 8 * (i >> 1)][2 * t + (i & 1)], 4);
                set32(p, g[0][i], u);
            }
        } else {
            for (int i = 0; i < 2; i++)
                set32(p, g[0][i],
                      (uint32_t)f32_to_f16(D[gr + 8 * i][2 * t]) | (uint32_t)f32_to_f16(D[gr + 8 * i][2 * t + 1]) << 16);
        }
    }
}

static void ptx_mma(ptx_lane *p)
{
    mma_shape m;
    int g[4][4], gn[4];
    if (!mma_parse(p->insn, p->len, &m)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc,
                         "inline PTX %.*s: simtlab runs mma.sync m16n8k16 and m16n8k8 .row.col with f16 or bf16 "
                         "(f32 or f16 accumulators) and m16n8k8 with tf32 (f32)", (int)p->len, p->insn);
        return;
    }
    if (groups(p->insn, p->len, g, gn) != 4 || gn[0] != regs_of(&m, 0) || gn[1] != regs_of(&m, 1) ||
        gn[2] != regs_of(&m, 2) || gn[3] != regs_of(&m, 3)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc,
                         "inline PTX %.*s: the register lists are not D, A, B, C of %d, %d, %d, %d",
                         (int)p->len, p->insn, regs_of(&m, 0), regs_of(&m, 1), regs_of(&m, 2), regs_of(&m, 3));
        return;
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < gn[i]; j++)
            if (g[i][j] >= p->n || (i == 0 && !p->out[g[i][j]])) {
                sim_kernel_fault(SIM_ERR_TRAP, p->pc,
                                 "inline PTX %.*s: operand %%%d is not one of the asm's (D must be "
                                 "outputs)", (int)p->len, p->insn, g[i][j]);
                return;
            }
    sim_warp_aligned(p, mma_all, p->file, p->line);
}

/* ---- ld, st and mov ---------------------------------------------------------------------------- */
/* Register k set to v: its operand's value for the instructions after, and an output's variable
 * (its low bytes, as many as it has, little-endian); 0, or -1 after a report (k an input). */
static int set_reg(ptx_lane *p, int k, unsigned long long v)
{
    if (k >= 32 && k - 32 < p->n_loc) { /* one of the asm's own registers: its type's bytes */
        const unsigned b = p->loc_bytes[k - 32];
        p->loc[k - 32] = b < 8 ? v & ((1ull << 8 * b) - 1) : v;
        return 0;
    }
    if (k < 0 || k >= p->n || !p->out[k]) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: operand %%%d is %s: an instruction that writes it "
                         "needs it as an output (\"=r\" or \"+r\")", (int)p->len, p->insn, k,
                         k < p->n ? "an input" : "not one of the asm's");
        return -1;
    }
    p->in[k] = v;
    const unsigned bytes = p->out_size[k] < 8 ? p->out_size[k] : 8;
    /* an output bound to memory (`"=r"(o[i])`): the GPU stores the register there, a store counted
     * and checked as the kernel's own (bounds, races); a local variable is a register, not counted */
    if (sim_space_of(p->out[k]) != 2)
        sim_access_at((uintptr_t)p->out[k], bytes, 1, p->pc, p->file, p->line); /* a fault does not return */
    memcpy(p->out[k], &v, bytes);
    return 0;
}

/* An operand's text t[0..n) as a register number: %k (-1: not one) */
static int reg_of(const ptx_lane *p, const char *t, size_t n)
{
    while (n && isspace((unsigned char)*t))
        t++, n--;
    while (n && isspace((unsigned char)t[n - 1]))
        n--;
    for (int i = 0; i < p->n_loc; i++) /* the asm's own register, by its name */
        if (strlen(p->loc_name[i]) == n && !strncmp(p->loc_name[i], t, n))
            return 32 + i;
    if (n < 2 || *t != '%')
        return -1;
    int k = 0;
    for (size_t i = 1; i < n; i++) {
        if (!isdigit((unsigned char)t[i]) || k > 31)
            return -1;
        k = 10 * k + (t[i] - '0');
    }
    return k < 32 ? k : -1;
}

/* A float constant d as the bits of a float type of fbytes bytes (4 or 8) */
static unsigned long long float_bits(double d, unsigned fbytes)
{
    if (fbytes == 8) {
        unsigned long long b;
        memcpy(&b, &d, 8);
        return b;
    }
    const float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* A source operand: a register's value, or a constant as PTX writes one: an integer (decimal, hex
 * 0x, octal 0, binary 0b, a trailing U; negative ones as two's complement), for a float type
 * (fbytes 4 or 8; 0: an integer type) a decimal float or PTX's hex float 0fXXXXXXXX (single) or
 * 0dXXXXXXXXXXXXXXXX (double), converted to the type's size as ptxas converts it */
static int source(const ptx_lane *p, const char *t, size_t n, unsigned fbytes, unsigned long long *v)
{
    while (n && isspace((unsigned char)*t))
        t++, n--;
    while (n && isspace((unsigned char)t[n - 1]))
        n--;
    char num[40];
    if (!n || n >= sizeof num)
        return 0;
    memcpy(num, t, n);
    num[n] = 0;
    const int k = reg_of(p, t, n);
    if (k >= 32) {
        *v = p->loc[k - 32];
        return 1;
    }
    if (*t == '%') {
        if (k < 0 || k >= p->n)
            return 0;
        *v = p->in[k];
        return 1;
    }
    char *end;
    if (n > 2 && num[0] == '0' && strchr("fFdD", num[1])) {
        const unsigned long long bits = strtoull(num + 2, &end, 16);
        if (end != num + 2 + (num[1] == 'f' || num[1] == 'F' ? 8 : 16))
            return 0; /* 8 or 16 hex digits exactly */
        double d;
        if (num[1] == 'f' || num[1] == 'F') {
            const uint32_t b32 = (uint32_t)bits;
            float f;
            memcpy(&f, &b32, 4);
            d = f;
        } else {
            memcpy(&d, &bits, 8);
        }
        *v = fbytes ? float_bits(d, fbytes) : bits;
        return 1;
    }
    const int hex = strstr(num, "0x") || strstr(num, "0X");
    if (fbytes && !hex && strpbrk(num, ".eE")) {
        *v = float_bits(strtod(num, &end), fbytes);
    } else {
        const int neg = num[0] == '-';
        const char *q = num + (neg || num[0] == '+');
        const unsigned long long x = q[0] == '0' && (q[1] == 'b' || q[1] == 'B') ? strtoull(q + 2, &end, 2)
                                                                                 : strtoull(q, &end, 0);
        if (end == q || *q == '-' || *q == '+')
            return 0;
        if (*end == 'U' || *end == 'u')
            end++;
        *v = fbytes ? float_bits(neg ? -(double)x : (double)x, fbytes) : neg ? 0ull - x : x;
    }
    return *end == 0;
}

/* The operands after the opcode, split at the commas outside braces: up to 4, each t[o[i]..o[i]+l[i]) */
static int split_operands(const char *t, size_t n, size_t o[4], size_t l[4])
{
    size_t i = 0;
    while (i < n && !isspace((unsigned char)t[i]))
        i++;
    int k = 0, depth = 0;
    size_t start = i;
    for (; i <= n; i++) {
        if (i == n || (t[i] == ',' && !depth)) {
            if (k == 4)
                return -1;
            o[k] = start, l[k] = i - start, k++;
            start = i + 1;
        } else if (t[i] == '{' || t[i] == '[') {
            depth++;
        } else if (t[i] == '}' || t[i] == ']') {
            depth--;
        }
    }
    return k;
}

/* `mov.type d, a`: d an output, a a register or a number */
static void ptx_mov(ptx_lane *p, unsigned size)
{
    size_t o[4], l[4];
    unsigned long long v;
    const int k = split_operands(p->insn, p->len, o, l) == 2 ? reg_of(p, p->insn + o[0], l[0]) : -1;
    const unsigned fbytes = p->insn[4] == 'f' ? size : 0; /* mov.f32, mov.f64: a float constant */
    if (k < 0 || !source(p, p->insn + o[1], l[1], fbytes, &v)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads `mov.type %%d, %%a` with %%a an "
                         "operand or a number", (int)p->len, p->insn);
        return;
    }
    (void)set_reg(p, k, size < 8 ? v & ((1ull << 8 * size) - 1) : v);
}

/* ld and st (ptx_ldst_parse's forms): the access checked and counted as the kernel's own of that
 * size (a .v4.u32 is one 16-byte request, as LDG.128), then made; ld's registers set. */
static void ptx_ldst_run(ptx_lane *p)
{
    ptx_ldst m;
    size_t o[4], l[4];
    const int nops = split_operands(p->insn, p->len, o, l);
    if (!ptx_ldst_parse(p->insn, p->len, &m) || nops != 2 + m.hint) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads ld and st with %d operands%s",
                         (int)p->len, p->insn, 2 + m.hint, m.hint ? " (the cache policy last)" : "");
        return;
    }
    const char *at = p->insn + o[m.st ? 0 : 1], *regs = p->insn + o[m.st ? 1 : 0];
    size_t atn = l[m.st ? 0 : 1], regn = l[m.st ? 1 : 0];
    while (atn && isspace((unsigned char)*at))
        at++, atn--;
    while (regn && isspace((unsigned char)*regs))
        regs++, regn--;
    while (regn && isspace((unsigned char)regs[regn - 1]))
        regn--;
    /* the registers: {%a, %b...} of .vN, or one */
    const char *el[4];
    size_t eln[4];
    unsigned ne = 0;
    if (regn && *regs == '{' && regs[regn - 1] == '}') {
        size_t s = 1;
        for (size_t i = 1; i < regn; i++)
            if (regs[i] == ',' || i == regn - 1) {
                if (ne == 4)
                    break;
                el[ne] = regs + s, eln[ne] = i - s, ne++;
                s = i + 1;
            }
    } else {
        el[0] = regs, eln[0] = regn, ne = 1;
    }
    unsigned long long av;
    if (!atn || *at != '[' || ne != m.vec || !operand(at, p->in, p->n, &av)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads %s with an address [%%k] or [%%k+imm] "
                         "and %u register%s", (int)p->len, p->insn, m.st ? "st" : "ld", m.vec,
                         m.vec > 1 ? "s in braces" : "");
        return;
    }
    const char *a = m.space == 2 ? shared_ptr(av) : (const char *)(uintptr_t)av;
    const unsigned total = m.vec * m.size;
    const int space = sim_space_of(a);
    const char *op = m.st ? "st" : "ld";
    if ((m.space == 1 && (space == 1 || space == 2)) || (m.space == 2 && space != 1 && space != -1)) {
        sim_kernel_fault(SIM_ERR_ILLEGAL_ADDRESS, p->pc,
                         "inline PTX %.*s: %s.%s of %p, an address in %s memory: a GPU faults (an illegal address); "
                         "use %s, or the generic %s without a state space",
                         (int)p->len, p->insn, op, m.space == 1 ? "global" : "shared", (const void *)a,
                         space == 0 ? "global" : space == 1 ? "shared" : space == 2 ? "local" : "constant",
                         space == 1 ? "ld.shared / st.shared"
                         : space == 0 ? "ld.global / st.global" : "a global or shared address",
                         op);
        return;
    }
    if ((uintptr_t)a % total) {
        sim_kernel_fault(SIM_ERR_MISALIGNED_ADDRESS, p->pc,
                         "inline PTX %.*s: an access of %u bytes needs an address aligned to %u: %p", (int)p->len,
                         p->insn, total, total, (const void *)a);
        return;
    }
    unsigned long long v[4];
    if (m.st)
        for (unsigned i = 0; i < ne; i++)
            if (!source(p, el[i], eln[i], m.fl ? m.size : 0, &v[i])) {
                sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its value %.*s is not an operand or a number",
                                 (int)p->len, p->insn, (int)eln[i], el[i]);
                return;
            }
    int dst[4];
    if (!m.st)
        for (unsigned i = 0; i < ne; i++)
            if ((dst[i] = reg_of(p, el[i], eln[i])) < 0) {
                sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its destination %.*s is not an operand",
                                 (int)p->len, p->insn, (int)eln[i], el[i]);
                return;
            }
    sim_access_at((uintptr_t)a, total, m.st, p->pc, p->file, p->line); /* a fault does not return */
    unsigned char b[16];
    if (m.st) {
        for (unsigned i = 0; i < ne; i++)
            memcpy(b + i * m.size, &v[i], m.size);
        memcpy((void *)(uintptr_t)a, b, total);
        return;
    }
    memcpy(b, a, total);
    for (unsigned i = 0; i < ne; i++) {
        unsigned long long x = 0;
        memcpy(&x, b + i * m.size, m.size);
        if (m.sign && m.size < 8 && (x >> (8 * m.size - 1) & 1))
            x |= ~0ull << 8 * m.size;
        if (set_reg(p, dst[i], x))
            return;
    }
}

/* `.reg .u64 a, b;` (a type of 16 to 64 bits, no predicates: those are ptx_pred_insn's): the asm's
 * own registers, 0 until written; 0, or -1 after a report */
static int ptx_local_decl(ptx_lane *p)
{
    const char *t = p->insn;
    const size_t len = p->len;
    size_t i = 5; /* past ".reg " */
    while (i < len && isspace((unsigned char)t[i]))
        i++;
    size_t e = i + 1;
    while (e < len && !isspace((unsigned char)t[e]))
        e++;
    int sign;
    const unsigned bytes = i < len && t[i] == '.' ? ptx_type_bytes(t + i + 1, e - i - 1, &sign) : 0;
    if (bytes < 2) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads registers of .b16 to .f64 types",
                         (int)len, t);
        return -1;
    }
    for (i = e; i < len;) {
        while (i < len && (isspace((unsigned char)t[i]) || t[i] == ','))
            i++;
        const size_t l = ident_len(t + i, len - i);
        if (!l)
            break;
        if (p->n_loc == 8 || l >= sizeof p->loc_name[0]) {
            sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads up to 8 registers an asm, of up "
                             "to 15 characters", (int)len, t);
            return -1;
        }
        memcpy(p->loc_name[p->n_loc], t + i, l);
        p->loc_name[p->n_loc][l] = 0;
        p->loc_bytes[p->n_loc] = bytes;
        p->loc[p->n_loc++] = 0;
        i += l;
    }
    return 0;
}

/* `cvta.to.shared.u64 d, a` (a generic address as the 32-bit shared one, __cvta_generic_to_shared:
 * YHs' and nnfusion's sgemm write it so), `cvta.shared.u64 d, a` (the other way), and `cvt` between
 * integer types (`cvt.u32.u64 d, a`: the low bits; `cvt.s8.s32`: the low byte, sign-extended) */
static void ptx_convert(ptx_lane *p)
{
    size_t o[4], l[4];
    unsigned long long v;
    const int k = split_operands(p->insn, p->len, o, l) == 2 ? reg_of(p, p->insn + o[0], l[0]) : -1;
    if (k < 0 || !source(p, p->insn + o[1], l[1], 0, &v)) {
        sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: simtlab reads it with a destination register and "
                         "a register or a number", (int)p->len, p->insn);
        return;
    }
    const char *t = p->insn;
    if (!strncmp(t, "cvta.to.shared.", 15)) {
        v = sim_cvta_to_shared((const void *)(uintptr_t)v);
    } else if (!strncmp(t, "cvta.shared.", 12)) {
        v = (uintptr_t)sim_cvta_from_shared((size_t)v);
    } else { /* cvt.dtype.atype: the source's bits extended by its sign, cut to dtype and extended by
              * dtype's sign (PTX's rule for a register wider than dtype); set_reg keeps the register's */
        int as = 0, ds = 0;
        const char *a = (const char *)memchr(t + 4, '.', p->len - 4); /* ptx_convert_parse found it */
        size_t an = 0;
        while (a + 1 + an < t + p->len && !isspace((unsigned char)a[1 + an]))
            an++;
        const unsigned ab = ptx_type_bytes(a + 1, an, &as), db = ptx_type_bytes(t + 4, (size_t)(a - t - 4), &ds);
        if (ab && ab < 8)
            v = as && (v >> (8 * ab - 1) & 1) ? v | ~0ull << 8 * ab : v & ((1ull << 8 * ab) - 1);
        if (db && db < 8)
            v = ds && (v >> (8 * db - 1) & 1) ? v | ~0ull << 8 * db : v & ((1ull << 8 * db) - 1);
    }
    (void)set_reg(p, k, v);
}

/* ---- an asm statement's instructions, in order ----------------------------------------------- */
static void ptx_run(ptx_lane *p, const char *tmpl)
{
    ptx_preds preds = {0};
    size_t len;
    for (const char *t0 = tmpl; (t0 = next_insn(t0, &len)) != NULL; t0 += len) {
        const char *t = t0;
        size_t tl = len;
        ptx_trim(&t, &tl); /* a block's braces */
        if (!tl)
            continue;
        p->insn = t, p->len = tl;
        if (tl > 5 && !strncmp(t, ".reg ", 5) && strncmp(t, ".reg .pred", 10)) {
            if (ptx_local_decl(p))
                return;
            continue;
        }
        const int pr = ptx_pred_insn(&preds, t, tl, p->in, p->n, p->pc);
        if (pr < 0)
            return;
        if (!pr)
            continue;
        const size_t g = ptx_guard(t, tl);
        if (g) { /* @p or @!p: the instruction runs where p (or !p) holds */
            const int neg = t[1] == '!', k = pred_find(&preds, t + 1 + neg, ident_len(t + 1 + neg, g - 1 - neg));
            if (k < 0 || preds.v[k] < 0) {
                sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its predicate is not %s by the asm before it",
                                 (int)tl, t, k < 0 ? "declared (.reg .pred)" : "set (setp)");
                return;
            }
            if (preds.v[k] == neg)
                continue; /* predicated off: no access, nothing counted (the chip issues no request) */
            t += g, tl -= g;
            p->insn = t, p->len = tl;
        }
        unsigned long long v;
        ptx_ldst m;
        unsigned msize;
        if (!strncmp(t, "cp.async.commit_group", 21)) {
            sim_cp_async_commit();
        } else if (!strncmp(t, "cp.async.wait_group", 19)) {
            if (!operand(t + 19, p->in, p->n, &v)) {
                sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: its group count is not a number", (int)tl, t);
                return;
            }
            sim_cp_async_wait_prior(v > 8 ? 8u : (unsigned)v);
        } else if (!strncmp(t, "cp.async.wait_all", 17)) {
            sim_cp_async_commit();
            sim_cp_async_wait_prior(0);
        } else if (!strncmp(t, "cp.async.ca.", 12) || !strncmp(t, "cp.async.cg.", 12)) {
            ptx_copy(t, tl, p->in, p->n, p->pc);
        } else if (!strncmp(t, "ldmatrix.", 9)) {
            ptx_ldmatrix(p);
        } else if (!strncmp(t, "mma.sync.", 9)) {
            ptx_mma(p);
        } else if (ptx_ldst_parse(t, tl, &m)) {
            ptx_ldst_run(p);
        } else if ((msize = ptx_mov_parse(t, tl)) != 0) {
            ptx_mov(p, msize);
        } else if (ptx_convert_parse(t, tl)) {
            ptx_convert(p);
        } else {
            sim_kernel_fault(SIM_ERR_TRAP, p->pc, "inline PTX %.*s: not one simtlab translates", (int)tl, t);
            return;
        }
    }
}

void simtlab_ptx_asm(const char *tmpl, int n, ...)
{
    ptx_lane p;
    memset(&p, 0, sizeof p);
    p.pc = (uintptr_t)__builtin_return_address(0);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n && i < 32; i++)
        p.in[i] = va_arg(ap, unsigned long long);
    va_end(ap);
    p.n = n < 32 ? n : 32;
    ptx_run(&p, tmpl);
}

void simtlab_ptx_asm_io(const char *file, int line, const char *tmpl, int nout, int nin, ...)
{
    ptx_lane p;
    memset(&p, 0, sizeof p);
    p.pc = (uintptr_t)__builtin_return_address(0);
    p.file = file, p.line = line;
    va_list ap;
    va_start(ap, nin);
    for (int i = 0; i < nout + nin && i < 32; i++) {
        if (i < nout) {
            p.out[i] = va_arg(ap, void *);
            p.out_size[i] = (unsigned)va_arg(ap, size_t);
            unsigned long long v = 0; /* a "+" register's value ("=": whatever the variable held) */
            memcpy(&v, p.out[i], p.out_size[i] < 8 ? p.out_size[i] : 8);
            p.in[i] = v;
        } else {
            p.in[i] = va_arg(ap, unsigned long long);
        }
    }
    va_end(ap);
    p.n = nout + nin < 32 ? nout + nin : 32;
    ptx_run(&p, tmpl);
}
