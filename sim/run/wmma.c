/* sim/run/wmma.c - nvcuda::wmma on the simulator (sim/run/include/mma.h is the C++ side).
 *
 * A fragment is what one lane holds of a warp's 16x16 (or 32x8, 8x32, 16x8, 8x4) tile: its
 * num_elements values x[i], element i of lane l being the matrix's element frag_rc(l, i). The
 * mapping is PROVISIONAL: element 32 i + l in row order (each twice in a 16-bit multiplicand's
 * fragment). CUDA leaves it unspecified; the chip's is to be measured with
 * scripts/gpu/wmma_probe.cu (scripts/gpu/s36.sh: no GPU could be had in session 36) and then put
 * in frag_rc and plan, so that the accesses and a program relying on the layout match the chip.
 *
 * load_matrix_sync and store_matrix_sync are each lane's own accesses, checked and counted as the
 * instrumented code's are (sim_access, at the caller's line): the elements a lane holds that lie
 * next to each other in memory go as one access of up to 16 bytes, as the chip's vector loads and
 * stores (LDG/STG/LDS/STS .32/.64/.128) take them. mma_sync is a rendezvous of the whole warp
 * (sim_warp_aligned): the last lane to arrive gathers A, B and C from the 32 lanes' fragments,
 * computes D = A B + C and hands each lane its part of D.
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

#include "launch.h"
#include "simtlab_wmma.h"

#define USE(d) SIMTLAB_WMMA_USE(d)
#define SHAPE(d) SIMTLAB_WMMA_SHAPE(d)
#define TYPE(d) SIMTLAB_WMMA_TYPE(d)

static unsigned rows_of(unsigned d) { return SIMTLAB_WMMA_ROWS(USE(d), SHAPE(d)); }
static unsigned cols_of(unsigned d) { return SIMTLAB_WMMA_COLS(USE(d), SHAPE(d)); }
static unsigned ne_of(unsigned d) { return SIMTLAB_WMMA_NE(USE(d), SHAPE(d), TYPE(d)); }
static unsigned es_of(unsigned d) { return SIMTLAB_WMMA_ESIZE(TYPE(d)); }

/* Element i of lane l's fragment: the matrix's row *r, column *c. */
static void frag_rc(unsigned d, unsigned l, unsigned i, unsigned *r, unsigned *c)
{
    const unsigned cols = cols_of(d), base = rows_of(d) * cols / 32; /* distinct elements a lane */
    const unsigned e = (i % base) * 32 + l;
    *r = e / cols;
    *c = e % cols;
}

/* ---- loads and stores ------------------------------------------------------------------ */
/* Byte offset of element (r, c) in memory of leading dimension ldm elements. */
static size_t mem_off(unsigned d, unsigned r, unsigned c, unsigned ldm, int mem_col)
{
    return (size_t)es_of(d) * (mem_col ? (size_t)c * ldm + r : (size_t)r * ldm + c);
}

/* The lane's accesses for the fragment, in issue order: access j covers elements first[j] ..
 * first[j] + len[j] - 1 of x, which lie next to each other in memory. A run of neighbours is
 * split into naturally aligned pieces of at most 16 bytes, by the element's place along the
 * contiguous dimension (what the compiler knows: the pointer is 32-byte aligned and the leading
 * dimension a multiple of 16 bytes). Elements a second lane also holds (16-bit multiplicands) are
 * loaded once and copied. Returns the number of accesses; *vmax their largest size in bytes. */
static unsigned plan(unsigned d, unsigned l, int mem_col, unsigned first[64], unsigned len[64], unsigned *vmax)
{
    const unsigned es = es_of(d), n = rows_of(d) * cols_of(d) / 32;
    unsigned na = 0;
    *vmax = es;
    for (unsigned i = 0; i < n;) {
        unsigned r, c;
        frag_rc(d, l, i, &r, &c);
        const unsigned along = (mem_col ? r : c) * es; /* offset within the contiguous run */
        unsigned k = 1;
        for (;;) { /* neighbours in memory, within one 16-byte piece */
            unsigned r2, c2;
            if (i + k >= n || (k + 1) * es > 16)
                break;
            frag_rc(d, l, i + k, &r2, &c2);
            if ((mem_col ? c2 != c || r2 != r + k : r2 != r || c2 != c + k))
                break;
            k++;
        }
        unsigned v = 1; /* the largest power of two <= k whose size divides the offset */
        while (v * 2 <= k && along % (v * 2 * es) == 0)
            v *= 2;
        first[na] = i;
        len[na] = v;
        na++;
        if (v * es > *vmax)
            *vmax = v * es;
        i += v;
    }
    return na;
}

static const char *base_name(const char *f)
{
    const char *s = strrchr(f, '/');
    return s ? s + 1 : f;
}

/* A pointer or leading dimension that misaligns the lane's vector accesses: the chip's LDG/STG
 * of vmax bytes would fault (cudaErrorMisalignedAddress); reported with CUDA's rule. */
static void check_alignment(const char *what, unsigned d, uintptr_t p, unsigned ldm, unsigned vmax, const char *file,
                            int line, uintptr_t pc)
{
    const unsigned es = es_of(d);
    (void)vmax;
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

/* A load or store of the whole warp (.sync.aligned: it waits for all lanes, as PTX's wmma.load and
 * wmma.store do): a rendezvous first, so that the lanes' earlier writes are all made (a tile the
 * lanes wrote to shared memory just before, with no __syncwarp); a store also one after, so that
 * no lane reads the tile before all have written it. Then each lane's own accesses. */
static void transfer(const char *what, void *x, unsigned d, uintptr_t p, unsigned ldm, int mem_col, int wr,
                     const char *file, int line, uintptr_t pc)
{
    unsigned first[64], len[64], vmax;
    const uint32_t l = sim_lane_id();
    const unsigned na = plan(d, l, mem_col, first, len, &vmax), es = es_of(d);
    check_alignment(what, d, p, ldm, vmax, file, line, pc);
    sim_warp_aligned(NULL, warp_meets, file, line);
    unsigned char *xb = x;
    for (unsigned j = 0; j < na; j++) {
        unsigned r, c;
        frag_rc(d, l, first[j], &r, &c);
        const uintptr_t a = p + mem_off(d, r, c, ldm, mem_col);
        sim_access(a, len[j] * es, wr, pc); /* an illegal address ends the block here */
        if (wr)
            memcpy((void *)a, xb + (size_t)first[j] * es, (size_t)len[j] * es);
        else
            memcpy(xb + (size_t)first[j] * es, (const void *)a, (size_t)len[j] * es);
    }
    if (wr)
        sim_warp_aligned(NULL, warp_meets, file, line);
    if (!wr) /* the copies a second lane's elements are (16-bit multiplicands) */
        for (unsigned i = rows_of(d) * cols_of(d) / 32; i < ne_of(d); i++)
            memcpy(xb + (size_t)i * es, xb + (size_t)(i % (rows_of(d) * cols_of(d) / 32)) * es, es);
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
static float f16_to_f32(uint16_t h)
{
    const uint32_t s = (uint32_t)(h >> 15) << 31, e = h >> 10 & 31, m = h & 1023;
    uint32_t u;
    if (e == 31)
        u = s | 0x7f800000u | m << 13;
    else if (e)
        u = s | (e + 112) << 23 | m << 13;
    else if (!m)
        u = s;
    else { /* subnormal: m 2^-24 */
        float f = (float)m * 0x1p-24f;
        return s ? -f : f;
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* round to nearest even, as __float2half_rn */
static uint16_t f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    const uint32_t s = u >> 16 & 0x8000u;
    const uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) /* Inf, NaN (quiet) */
        return (uint16_t)(s | 0x7c00u | (a > 0x7f800000u ? 0x200u : 0));
    if (a >= 0x477ff000u) /* rounds past 65504 */
        return (uint16_t)(s | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: a subnormal half (or 0), m = round(|f| 2^24) */
        float af;
        memcpy(&af, &a, 4);
        return (uint16_t)(s | (uint32_t)lrintf(af * 0x1p24f));
    }
    const uint32_t r = a + 0xfffu + (a >> 13 & 1); /* nearest even at bit 13 */
    return (uint16_t)(s | ((r - 0x38000000u) >> 13));
}

static float bf16_to_f32(uint16_t h)
{
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

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
    for (unsigned l = 0; l < 32; l++) {
        const wmma_call *w = args[l];
        const struct {
            const void *x;
            unsigned d;
        } in[3] = {{w->a, w->ad}, {w->b, w->bd}, {w->c, w->cd}};
        for (unsigned f = 0; f < 3; f++)
            for (unsigned i = 0; i < ne_of(in[f].d); i++) {
                unsigned r, c;
                frag_rc(in[f].d, l, i, &r, &c);
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
            frag_rc(w->dd, l, i, &r, &c);
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
