/* sim/run/curand.c - the jumps of cuRAND's device API (sim/run/include/curand_kernel.h):
 * curand_init, skipahead and skipahead_sequence move a generator's state 2^k steps at a time
 * with matrices derived here from the generators' own recurrences, once per program.
 *
 * XORWOW (Marsaglia's xorshift of five 32-bit words plus a Weyl counter d): one step maps the
 * 160 bits of v[0..4] linearly over GF(2), a 160 x 160 bit matrix A built by stepping each unit
 * vector; A^(2^k) for k = 0 .. 130 come from 130 squarings (subsequence s starts 2^67 s steps
 * in, and a skip is at most 2^64 - 1 steps, so n 2^67 needs the powers up to 2^130). The Weyl
 * counter is no part of it: it moves by 362437 a step, n steps at once.
 *
 * MRG32k3a (L'Ecuyer's two third-order recurrences modulo m1 and m2): each step is a 3 x 3
 * matrix modulo its m, and its powers A^(2^k) for k = 0 .. 190 serve skips of n (k < 64), of n
 * subsequences of 2^76 steps and of n sequences of 2^127.
 *
 * The tables (419 KB and 27 KB) are built at the first call, under pthread_once: kernels run on
 * many OpenMP workers at once. A power of A is also kept by bytes (102 KB) from its first use. This file is not instrumented: the jump is arithmetic on the
 * caller's copy of the state, which the header reads from and writes back to the state where the
 * program keeps it (counted as the kernel's own accesses). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- XORWOW ------------------------------------------------------------------------------- */
enum { XW_WORDS = 5, XW_BITS = 160, XW_POWERS = 131, XW_SEQ_LOG2 = 67 };

/* A linear map of the 160-bit state: col[j] is the image of the state with only bit j set (bit
 * j is bit j % 32 of word j / 32). */
typedef struct {
    uint32_t col[XW_BITS][XW_WORDS];
} xw_map;
/* The same map by nibbles: nib[i][b] is the image of the state whose bits 4i .. 4i + 3 are b and
 * the rest 0, so that a state's image is the XOR of 40 entries (a jump's matrix is applied to
 * every thread's state: 40 lookups instead of 80 columns on average, in 12.8 KB). */
enum { XW_NIBS = XW_BITS / 4 };
typedef struct {
    uint32_t nib[XW_NIBS][16][XW_WORDS];
} xw_bytes;

static xw_map xw_pow[XW_POWERS];               /* xw_pow[k] = A^(2^k) */
static xw_bytes *xw_pow_bytes[XW_POWERS];      /* made at a power's first use (12.8 KB each) */
static pthread_once_t xw_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t xw_bytes_lock = PTHREAD_MUTEX_INITIALIZER;

/* one step of the xorshift part (Marsaglia 2003, "Xorshift RNGs", xorwow) */
static void xw_step(uint32_t v[XW_WORDS])
{
    const uint32_t t = v[0] ^ (v[0] >> 2);
    const uint32_t x = v[4];
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = x;
    v[4] = (x ^ (x << 4)) ^ (t ^ (t << 1));
}

/* out = m(in); out and in may not overlap */
static void xw_apply(const xw_map *m, const uint32_t in[XW_WORDS], uint32_t out[XW_WORDS])
{
    uint32_t r[XW_WORDS] = {0};
    for (int w = 0; w < XW_WORDS; w++)
        for (uint32_t bits = in[w]; bits; bits &= bits - 1) {
            const uint32_t *c = m->col[w * 32 + __builtin_ctz(bits)];
            for (int k = 0; k < XW_WORDS; k++)
                r[k] ^= c[k];
        }
    memcpy(out, r, sizeof r);
}

static void xw_build(void)
{
    for (int j = 0; j < XW_BITS; j++) {
        uint32_t v[XW_WORDS] = {0};
        v[j / 32] = 1u << (j % 32);
        xw_step(v);
        memcpy(xw_pow[0].col[j], v, sizeof v);
    }
    for (int k = 1; k < XW_POWERS; k++) /* A^(2^k) = A^(2^(k-1)) applied to each column of itself */
        for (int j = 0; j < XW_BITS; j++)
            xw_apply(&xw_pow[k - 1], xw_pow[k - 1].col[j], xw_pow[k].col[j]);
}

/* power k by nibbles, made once (NULL when out of memory: the columns then) */
static const xw_bytes *xw_bytes_of(int k)
{
    xw_bytes *t = __atomic_load_n(&xw_pow_bytes[k], __ATOMIC_ACQUIRE);
    if (t)
        return t;
    pthread_mutex_lock(&xw_bytes_lock);
    t = xw_pow_bytes[k];
    if (!t && (t = malloc(sizeof *t))) {
        for (int i = 0; i < XW_NIBS; i++) {
            memset(t->nib[i][0], 0, sizeof t->nib[i][0]);
            for (int b = 1; b < 16; b++) { /* b's lowest bit's column and the rest of b's entry */
                const uint32_t *c = xw_pow[k].col[i * 4 + __builtin_ctz((unsigned)b)];
                const uint32_t *rest = t->nib[i][b & (b - 1)];
                for (int w = 0; w < XW_WORDS; w++)
                    t->nib[i][b][w] = c[w] ^ rest[w];
            }
        }
        __atomic_store_n(&xw_pow_bytes[k], t, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&xw_bytes_lock);
    return t;
}

/* v (the five words of curandStateXORWOW) moved n steps (sequence 0) or n subsequences of 2^67
 * steps (sequence 1). The caller adds 362437 n to d for a skip of n steps (2^67 * 362437 is 0
 * modulo 2^32). Returns 0, or -1 for a bad argument. */
int simtlab_curand_xorwow_jump(unsigned v[XW_WORDS], unsigned long long n, int sequence)
{
    if (!v || (sequence != 0 && sequence != 1))
        return -1;
    pthread_once(&xw_once, xw_build);
    const int base = sequence ? XW_SEQ_LOG2 : 0;
    uint32_t cur[XW_WORDS], next[XW_WORDS];
    memcpy(cur, v, sizeof cur);
    for (int b = 0; n; b++, n >>= 1) {
        if (!(n & 1))
            continue;
        const xw_bytes *t = xw_bytes_of(base + b);
        if (t) {
            memset(next, 0, sizeof next);
            for (int i = 0; i < XW_NIBS; i++) {
                const uint32_t *e = t->nib[i][(cur[i / 8] >> (4 * (i % 8))) & 0xf];
                for (int w = 0; w < XW_WORDS; w++)
                    next[w] ^= e[w];
            }
        } else {
            xw_apply(&xw_pow[base + b], cur, next);
        }
        memcpy(cur, next, sizeof cur);
    }
    memcpy(v, cur, sizeof cur);
    return 0;
}

/* ---- MRG32k3a ----------------------------------------------------------------------------- */
enum { MRG_POWERS = 191 };
static const uint64_t mrg_m[2] = {4294967087u, 4294944443u};
static uint64_t mrg_pow[2][MRG_POWERS][3][3]; /* [component][k] = A_c^(2^k) modulo m_c */
static pthread_once_t mrg_once = PTHREAD_ONCE_INIT;

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((unsigned __int128)a * b % m); }

static void mat3_mul(uint64_t r[3][3], const uint64_t a[3][3], const uint64_t b[3][3], uint64_t m)
{
    uint64_t t[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[i][j] = (mulmod(a[i][0], b[0][j], m) + mulmod(a[i][1], b[1][j], m) + mulmod(a[i][2], b[2][j], m)) % m;
    memcpy(r, t, sizeof t);
}

static void mrg_build(void)
{
    /* (x[n-3], x[n-2], x[n-1]) -> (x[n-2], x[n-1], x[n]):
     * x1[n] = 1403580 x1[n-2] - 810728 x1[n-3] mod m1, x2[n] = 527612 x2[n-1] - 1370589 x2[n-3] mod m2 */
    const uint64_t a[2][3][3] = {{{0, 1, 0}, {0, 0, 1}, {mrg_m[0] - 810728u, 1403580u, 0}},
                                 {{0, 1, 0}, {0, 0, 1}, {mrg_m[1] - 1370589u, 0, 527612u}}};
    for (int c = 0; c < 2; c++) {
        memcpy(mrg_pow[c][0], a[c], sizeof a[c]);
        for (int k = 1; k < MRG_POWERS; k++)
            mat3_mul(mrg_pow[c][k], mrg_pow[c][k - 1], mrg_pow[c][k - 1], mrg_m[c]);
    }
}

/* s1 and s2 (curandStateMRG32k3a's) moved n 2^log2_unit steps, log2_unit 0 (skipahead), 76
 * (skipahead_subsequence) or 127 (skipahead_sequence). Returns 0, or -1 for a bad argument.
 *
 * Subsequences end at 2^51 (2^51 subsequences of 2^76 are the sequence of 2^127): cuRAND's
 * subsequence jump multiplies by zero matrices for the bits from 51 on, and its state is then
 * all zeros (every draw m1, curand_uniform 1.0f). That state is NVIDIA's, so it is this one's. */
int simtlab_curand_mrg32k3a_jump(unsigned s1[3], unsigned s2[3], unsigned long long n, int log2_unit)
{
    if (!s1 || !s2 || log2_unit < 0 || log2_unit > MRG_POWERS - 64)
        return -1;
    if (log2_unit == 76 && n >> 51) {
        memset(s1, 0, 3 * sizeof *s1);
        memset(s2, 0, 3 * sizeof *s2);
        return 0;
    }
    pthread_once(&mrg_once, mrg_build);
    unsigned *s[2] = {s1, s2};
    for (int c = 0; c < 2; c++) {
        uint64_t x[3] = {s[c][0], s[c][1], s[c][2]};
        unsigned long long p = n;
        for (int b = 0; p; b++, p >>= 1)
            if (p & 1) {
                const uint64_t (*m)[3] = mrg_pow[c][log2_unit + b];
                uint64_t y[3];
                for (int i = 0; i < 3; i++)
                    y[i] = (mulmod(m[i][0], x[0], mrg_m[c]) + mulmod(m[i][1], x[1], mrg_m[c]) +
                            mulmod(m[i][2], x[2], mrg_m[c])) % mrg_m[c];
                memcpy(x, y, sizeof y);
            }
        for (int i = 0; i < 3; i++)
            s[c][i] = (unsigned)x[i];
    }
    return 0;
}
