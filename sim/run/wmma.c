/* sim/run/wmma.c - nvcuda::wmma on the simulator (sim/run/include/mma.h is the C++ side).
 *
 * A fragment is what one lane holds of a warp's 16x16 (or 32x8, 8x32, 16x8, 8x4) tile: its
 * num_elements values x[i], element i of lane l being the matrix's element frag_rc(l, i): the
 * H200's layout, measured by scripts/gpu/wmma_probe.cu (docs/gpu/s37-h200; "the chip's layout"
 * below), so that a program relying on it (an epilogue by row or column) gives the chip's result.
 *
 * load_matrix_sync and store_matrix_sync are each lane's accesses as the chip's instructions make
 * them (plan), checked and counted as the instrumented code's are (sim_access, at the caller's
 * line), so the sectors, wavefronts and bank conflicts are the chip's. mma_sync is a rendezvous of
 * the whole warp (sim_warp_aligned): the last lane to arrive gathers A, B and C from the 32 lanes'
 * fragments, computes D = A B + C and hands each lane its part of D.
 *
 * Arithmetic: f16 and bf16 products are exact in float and tf32's too (11 x 11 significant
 * bits); they are summed in float in k order, onto C, as the tensor cores sum (their order and
 * rounding within one mma differ: a result may differ from the chip's in the last bits). f64 is
 * double's own, s8 and u8 exact in 32-bit integers (wrapping, or clamped with satf).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "half_bits.h"
#include "launch.h"
#include "simtlab_wmma.h"

#define USE(d) SIMTLAB_WMMA_USE(d)
#define SHAPE(d) SIMTLAB_WMMA_SHAPE(d)
#define TYPE(d) SIMTLAB_WMMA_TYPE(d)

static unsigned rows_of(unsigned d) { return SIMTLAB_WMMA_ROWS(USE(d), SHAPE(d)); }
static unsigned cols_of(unsigned d) { return SIMTLAB_WMMA_COLS(USE(d), SHAPE(d)); }
static unsigned ne_of(unsigned d) { return SIMTLAB_WMMA_NE(USE(d), SHAPE(d), TYPE(d)); }
static unsigned es_of(unsigned d) { return SIMTLAB_WMMA_ESIZE(TYPE(d)); }

/* ---- the chip's layout (docs/gpu/s37-h200: wmma_layout.txt, wmma_sass.txt, wmma_table.txt) ----
 * A fragment is made of core matrices of 8 rows, each row 4 lanes' worth: 8 halves, 16 chars,
 * 4 tf32 or 4 doubles of a multiplicand, 8 elements of an accumulator; laid over the fragment's
 * "natural" matrix: A and the accumulator as they are, B and the m8n32k16 accumulator transposed
 * (mma.sync's operands). In each core lane l holds row l/4, p elements from column p (l % 4):
 * p = 2 for 16-bit types and every accumulator, 4 for 8-bit, 1 for tf32 and double multiplicands.
 * x[] lists the cores in the chip's order: down each 16-row group by blocks of 8 rows, then along,
 * one group after the other; for B of m16n16k16 and m16n16k8 along each 8-row block first. A half
 * multiplicand's fragment has num_elements 16 whatever the shape: its distinct elements repeated
 * (bf16's and the chars' hold theirs once). Measured on the H200 for every shape and type but the
 * 8-bit ones' B and m32n8k16/m8n32k16 (taken by the same rule). */
typedef struct geom {
    unsigned nr, nc;  /* the natural matrix's rows and columns */
    unsigned trans;   /* natural = the matrix transposed */
    unsigned p;       /* elements a lane holds of each core */
    unsigned ncores;  /* cores in x's order: */
    unsigned char orow[16], ocol[16];
} geom;

static void geom_of(unsigned d, geom *g)
{
    const unsigned use = USE(d), s = SHAPE(d), es = es_of(d);
    g->trans = use == SIMTLAB_WMMA_B || (use == SIMTLAB_WMMA_C && s == SIMTLAB_WMMA_M8N32K16);
    g->nr = g->trans ? cols_of(d) : rows_of(d);
    g->nc = g->trans ? rows_of(d) : cols_of(d);
    g->p = use == SIMTLAB_WMMA_C ? 2 : es >= 4 ? 1 : 4 / es;
    const unsigned w = 4 * g->p; /* a core's width in elements */
    g->ncores = 0;
    if (use == SIMTLAB_WMMA_B && (s == SIMTLAB_WMMA_M16N16K16 || s == SIMTLAB_WMMA_M16N16K8)) {
        for (unsigned r = 0; r < g->nr; r += 8)
            for (unsigned c = 0; c < g->nc; c += w)
                g->orow[g->ncores] = (unsigned char)r, g->ocol[g->ncores++] = (unsigned char)c;
    } else {
        for (unsigned r16 = 0; r16 < g->nr; r16 += 16)
            for (unsigned c = 0; c < g->nc; c += w)
                for (unsigned r = r16; r < r16 + 16 && r < g->nr; r += 8)
                    g->orow[g->ncores] = (unsigned char)r, g->ocol[g->ncores++] = (unsigned char)c;
    }
}

/* Element i of lane l's fragment: the matrix's row *r, column *c. */
static void frag_rc(const geom *g, unsigned l, unsigned i, unsigned *r, unsigned *c)
{
    i %= g->ncores * g->p; /* a 16-bit multiplicand's repeats */
    const unsigned nrow = g->orow[i / g->p] + l / 4, ncol = g->ocol[i / g->p] + g->p * (l % 4) + i % g->p;
    *r = g->trans ? ncol : nrow;
    *c = g->trans ? nrow : ncol;
}

/* ---- loads and stores ------------------------------------------------------------------ */
/* Byte offset of element (r, c) in memory of leading dimension ldm elements. */
static size_t mem_off(unsigned d, unsigned r, unsigned c, unsigned ldm, int mem_col)
{
    return (size_t)es_of(d) * (mem_col ? (size_t)c * ldm + r : (size_t)r * ldm + c);
}

/* The lane's accesses for the fragment, one core after the other, as the chip's loads and stores
 * make them (wmma_sass.txt): where a core's rows run along memory, the lane's p elements are one
 * access of p elements (LDG/STG/LDS/STS.32 for 16-bit types, .64 for a float accumulator, split
 * into naturally aligned pieces of 16 bytes at most). Where they run across it (a column-major A or
 * accumulator, a row-major B or m8n32k16 accumulator), a 16-bit type still takes 4 bytes a lane, row 2 (l %
 * 4) of the core as memory holds it, from column l / 4 (the chip moves the halves between lanes
 * after: MOVM.16.MT88; from shared memory LDSM.T); other types take each element alone. A
 * 16-bit multiplicand's shared load is one LDSM on the chip: the same bytes, a core a phase, so
 * the same wavefronts. off[j], len[j]: access j's byte offset from the pointer and bytes. */
static unsigned plan(unsigned d, const geom *g, unsigned l, unsigned ldm, int mem_col, size_t off[64], unsigned len[64])
{
    const unsigned es = es_of(d), along = g->trans == (unsigned)mem_col; /* the cores' rows run along memory */
    unsigned na = 0;
    for (unsigned j = 0; j < g->ncores; j++) {
        const unsigned r0 = g->orow[j], c0 = g->ocol[j];
        if (!along && es == 2) { /* MOVM: natural (r0 + 2 (l % 4), c0 + l / 4) and the next row */
            const unsigned nrow = r0 + 2 * (l % 4), ncol = c0 + l / 4;
            off[na] = mem_off(d, g->trans ? ncol : nrow, g->trans ? nrow : ncol, ldm, mem_col);
            len[na++] = 4;
            continue;
        }
        for (unsigned t = 0; t < g->p;) {
            unsigned r, c;
            frag_rc(g, l, j * g->p + t, &r, &c);
            unsigned v = 1; /* along memory: the largest power of two <= what is left whose size divides the offset */
            if (along) {
                const unsigned at = (g->p * (l % 4) + t) * es; /* offset within the core's row of 16 bytes or more */
                while (t + v * 2 <= g->p && v * 2 * es <= 16 && at % (v * 2 * es) == 0)
                    v *= 2;
            }
            off[na] = mem_off(d, r, c, ldm, mem_col);
            len[na++] = v * es;
            t += v;
        }
    }
    return na;
}

static const char *base_name(const char *f)
{
    const char *s = strrchr(f, '/');
    return s ? s + 1 : f;
}

/* A pointer or leading dimension that misaligns the lane's vector accesses: the chip's LDG/STG
 * of 16 bytes would fault (cudaErrorMisalignedAddress); reported with CUDA's rule. */
static void check_alignment(const char *what, unsigned d, uintptr_t p, unsigned ldm, const char *file, int line,
                            uintptr_t pc)
{
    const unsigned es = es_of(d);
    if (p % 16) /* CUDA asks for 32 (256 bits); a 16-aligned tile (an 8-row tile of a column-major
                 * m8n32k16 A) is left alone: no 128-bit access of the chip would fault on it */
        sim_kernel_fault(SIM_ERR_MISALIGNED_ADDRESS, pc,
                         "wmma::%s (%s:%d): the matrix pointer %#lx is not 16-byte aligned: CUDA requires a "
                         "256-bit (32-byte) aligned pointer, and the chip's 128-bit loads and stores of the tile "
                         "fault on this one; start the tile at a multiple of %u elements",
                         what, base_name(file), line, (unsigned long)p, 32 / es);
    if ((size_t)ldm * es % 16)
        sim_kernel_fault(SIM_ERR_MISALIGNED_ADDRESS, pc,
                         "wmma::%s (%s:%d): the leading dimension ldm = %u is not a multiple of %u elements (16 "
                         "bytes), as CUDA requires: every row or column after the first would be misaligned; "
                         "pad the matrix's rows to a multiple of %u",
                         what, base_name(file), line, ldm, 16 / es, 16 / es);
}

static void warp_meets(void *const args[32]) { (void)args; }

typedef struct xfer {
    unsigned char *x; /* the lane's fragment */
    unsigned d, ldm;
    uintptr_t p;
    int mem_col, wr;
} xfer;

/* The last lane of the warp moves every lane's elements between memory and its fragment: the
 * lanes' accesses (checked before) cover the tile, but with MOVM's a lane's own elements are not
 * the bytes it accessed. A 16-bit multiplicand's repeats are copies. */
static void xfer_all(void *const args[32])
{
    const xfer *x0 = args[0];
    geom g;
    geom_of(x0->d, &g);
    const unsigned es = es_of(x0->d), distinct = g.ncores * g.p, ne = ne_of(x0->d);
    for (unsigned l = 0; l < 32; l++) {
        const xfer *t = args[l];
        for (unsigned i = 0; i < distinct; i++) {
            unsigned r, c;
            frag_rc(&g, l, i, &r, &c);
            void *const m = (void *)(t->p + mem_off(t->d, r, c, t->ldm, t->mem_col));
            if (t->wr)
                memcpy(m, t->x + (size_t)i * es, es);
            else
                memcpy(t->x + (size_t)i * es, m, es);
        }
        if (!t->wr)
            for (unsigned i = distinct; i < ne; i++)
                memcpy(t->x + (size_t)i * es, t->x + (size_t)(i % distinct) * es, es);
    }
}

/* A load or store of the whole warp (.sync.aligned: it waits for all lanes, as PTX's wmma.load and
 * wmma.store do): a rendezvous first, so that the lanes' earlier writes are all made (a tile the
 * lanes wrote to shared memory just before, with no __syncwarp); then each lane's own accesses,
 * checked and counted (an illegal address ends the block there); then one more, whose last lane
 * moves the data of all 32, so that no lane reads a stored tile before all of it is written. */
static void transfer(const char *what, void *x, unsigned d, uintptr_t p, unsigned ldm, int mem_col, int wr,
                     const char *file, int line, uintptr_t pc)
{
    size_t off[64];
    unsigned len[64];
    geom g;
    geom_of(d, &g);
    const unsigned na = plan(d, &g, sim_lane_id(), ldm, mem_col, off, len);
    check_alignment(what, d, p, ldm, file, line, pc);
    sim_warp_aligned(NULL, warp_meets, file, line);
    for (unsigned j = 0; j < na; j++)
        sim_access_at(p + off[j], len[j], wr, pc, file, line);
    xfer t = {x, d, ldm, p, mem_col, wr};
    sim_warp_aligned(&t, xfer_all, file, line);
}

void sim_wmma_load(void *x, unsigned desc, const void *p, unsigned ldm, int mem_col, const char *file, int line)
{
    const int col = USE(desc) == SIMTLAB_WMMA_C ? mem_col : (int)SIMTLAB_WMMA_COL(desc);
    transfer("load_matrix_sync", x, desc, (uintptr_t)p, ldm, col, 0, file, line,
             (uintptr_t)__builtin_return_address(0));
}

void sim_wmma_store(void *p, unsigned desc, const void *x, unsigned ldm, int mem_col, const char *file, int line)
{
    transfer("store_matrix_sync", (void *)x, desc, (uintptr_t)p, ldm, mem_col, 1, file, line,
             (uintptr_t)__builtin_return_address(0));
}

/* ---- mma ------------------------------------------------------------------------------- */
/* Element i of fragment x (descriptor d) as a double (exact for every type here). */
static double elem_get(const void *x, unsigned d, unsigned i)
{
    const unsigned char *b = (const unsigned char *)x + (size_t)i * es_of(d);
    uint16_t h;
    float f;
    double v;
    int32_t s;
    switch (TYPE(d)) {
    case SIMTLAB_WMMA_F16: memcpy(&h, b, 2); return f16_to_f32(h);
    case SIMTLAB_WMMA_BF16: memcpy(&h, b, 2); return bf16_to_f32(h);
    case SIMTLAB_WMMA_TF32: memcpy(&f, b, 4); return sim_tf32_operand(f); /* as mma_tf32 reads it */
    case SIMTLAB_WMMA_F32: memcpy(&f, b, 4); return f;
    case SIMTLAB_WMMA_F64: memcpy(&v, b, 8); return v;
    case SIMTLAB_WMMA_S8: return (signed char)*b;
    case SIMTLAB_WMMA_U8: return *b;
    default: memcpy(&s, b, 4); return s;
    }
}

typedef struct wmma_call {
    void *d;
    const void *a, *b, *c;
    unsigned dd, ad, bd, cd;
    int satf;
} wmma_call;

/* The last lane of the warp: D = A B + C from the 32 lanes' fragments. */
static void wmma_compute(void *const args[32])
{
    const wmma_call *w0 = args[0];
    const unsigned s = SHAPE(w0->ad), M = SIMTLAB_WMMA_M(s), N = SIMTLAB_WMMA_N(s), K = SIMTLAB_WMMA_K(s);
    double A[32][16], B[16][32], C[32][32]; /* m <= 32, k <= 16, n <= 32 */
    geom g[4];
    geom_of(w0->ad, &g[0]), geom_of(w0->bd, &g[1]), geom_of(w0->cd, &g[2]), geom_of(w0->dd, &g[3]);
    for (unsigned l = 0; l < 32; l++) {
        const wmma_call *w = args[l];
        const struct {
            const void *x;
            unsigned d;
        } in[3] = {{w->a, w->ad}, {w->b, w->bd}, {w->c, w->cd}};
        for (unsigned f = 0; f < 3; f++)
            for (unsigned i = 0; i < g[f].ncores * g[f].p; i++) {
                unsigned r, c;
                frag_rc(&g[f], l, i, &r, &c);
                const double v = elem_get(in[f].x, in[f].d, i);
                if (f == 0)
                    A[r][c] = v;
                else if (f == 1)
                    B[r][c] = v;
                else
                    C[r][c] = v;
            }
    }
    const unsigned in_t = TYPE(w0->ad), out_t = TYPE(w0->dd);
    for (unsigned m = 0; m < M; m++)
        for (unsigned n = 0; n < N; n++) {
            double r;
            if (in_t == SIMTLAB_WMMA_F64) {
                double acc = C[m][n];
                for (unsigned k = 0; k < K; k++)
                    acc = fma(A[m][k], B[k][n], acc);
                r = acc;
            } else if (in_t == SIMTLAB_WMMA_S8 || in_t == SIMTLAB_WMMA_U8) {
                int64_t acc = (int64_t)C[m][n];
                for (unsigned k = 0; k < K; k++)
                    acc += (int64_t)A[m][k] * (int64_t)B[k][n];
                if (w0->satf)
                    acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
                r = (double)(int32_t)(uint32_t)(uint64_t)acc; /* wraps without satf */
            } else {
                float acc = (float)C[m][n];
                for (unsigned k = 0; k < K; k++)
                    acc += (float)A[m][k] * (float)B[k][n]; /* the product is exact in float */
                if (out_t == SIMTLAB_WMMA_F16)
                    acc = f16_to_f32(f32_to_f16(acc));
                if (w0->satf) {
                    const float big = out_t == SIMTLAB_WMMA_F16 ? 65504.0f : 3.40282347e38f;
                    acc = isnan(acc) ? 0.0f : acc > big ? big : acc < -big ? -big : acc;
                }
                r = acc;
            }
            C[m][n] = r;
        }
    for (unsigned l = 0; l < 32; l++) {
        const wmma_call *w = args[l];
        unsigned char *x = w->d;
        for (unsigned i = 0; i < ne_of(w->dd); i++) {
            unsigned r, c;
            frag_rc(&g[3], l, i, &r, &c);
            const double v = C[r][c];
            if (out_t == SIMTLAB_WMMA_F16) {
                const uint16_t h = f32_to_f16((float)v);
                memcpy(x + 2 * (size_t)i, &h, 2);
            } else if (out_t == SIMTLAB_WMMA_F32) {
                const float f = (float)v;
                memcpy(x + 4 * (size_t)i, &f, 4);
            } else if (out_t == SIMTLAB_WMMA_F64) {
                memcpy(x + 8 * (size_t)i, &v, 8);
            } else {
                const int32_t q = (int32_t)v;
                memcpy(x + 4 * (size_t)i, &q, 4);
            }
        }
    }
}

void sim_wmma_mma(void *d, unsigned dd, const void *a, unsigned ad, const void *b, unsigned bd, const void *c,
                  unsigned cd, int satf, const char *file, int line)
{
    wmma_call w = {d, a, b, c, dd, ad, bd, cd, satf};
    sim_warp_aligned(&w, wmma_compute, file, line);
}
