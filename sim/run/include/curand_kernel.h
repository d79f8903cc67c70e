/* sim/run/include/curand_kernel.h - cuRAND's device API for `simtlab run` (docs/run.md "cuRAND"):
 * the generators XORWOW (curandState, the default), Philox4x32-10 and MRG32k3a, their
 * curand_init, skipahead and skipahead_sequence, and the distributions curand, curand4,
 * curand_uniform(_double), curand_normal(2, 4, _double), curand_log_normal and curand_poisson.
 *
 * Integers and uniform values are NVIDIA's bit for bit: the same seeding, the same sequences and
 * subsequences, the same output transforms. The normal and log-normal values use this machine's
 * libm where the GPU has its own approximations (__sincosf, sincospi, logf): they may differ in
 * the last bits. The states have NVIDIA's layout (48, 64 and 48 bytes), so that an array of them
 * in global memory is what the program allocated, and a kernel's loads and stores of a state are
 * counted as any other. The jumps (curand_init's subsequence and offset, skipahead) use matrices
 * the simulator derives once from the recurrences (sim/run/curand.c); on a GPU curand_init reads
 * NVIDIA's precomputed matrices from global memory, which the simulator does not count.
 *
 * Everything here is a plain inline function: the device pass instruments it like the kernels
 * that call it. */
/* first, as the toolkit's header brings the host API too: curand.h includes this file back after
 * its types, and this guard keeps the rest to that one reading */
#include "curand.h"
#ifndef SIMTLAB_CURAND_KERNEL_H
#define SIMTLAB_CURAND_KERNEL_H
#define CURAND_KERNEL_H_ /* NVIDIA's guard, which programs may test */
#include <math.h>
#include <stddef.h>

#include "cuda_runtime.h"

extern "C" {
/* sim/run/curand.c: v moved n steps (sequence 0) or n subsequences of 2^67 steps (sequence 1) */
int simtlab_curand_xorwow_jump(unsigned v[5], unsigned long long n, int sequence);
/* s1, s2 moved n * 2^log2_unit steps (0, 76 or 127) */
int simtlab_curand_mrg32k3a_jump(unsigned s1[3], unsigned s2[3], unsigned long long n, int log2_unit);
}

/* which value boxmuller_extra holds (the toolkit's names) */
#define EXTRA_FLAG_NORMAL 0x00000001
#define EXTRA_FLAG_LOG_NORMAL 0x00000002

/* ---- the states: NVIDIA's fields, in NVIDIA's order ------------------------------------------ */
struct curandStateXORWOW {
    unsigned int d, v[5]; /* Weyl counter, xorshift words */
    int boxmuller_flag;   /* what boxmuller_extra holds: 0, EXTRA_FLAG_NORMAL or EXTRA_FLAG_LOG_NORMAL */
    int boxmuller_flag_double;
    float boxmuller_extra; /* the second value of the last Box-Muller pair */
    double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
    uint4 ctr;          /* the 128-bit counter */
    uint4 output;       /* the block of ctr: the next values */
    uint2 key;          /* the seed */
    unsigned int STATE; /* the next value's index in output */
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
    unsigned int s1[3]; /* the two recurrences' last three values */
    unsigned int s2[3];
    int boxmuller_flag;
    int boxmuller_flag_double;
    float boxmuller_extra;
    double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

static_assert(sizeof(curandStateXORWOW) == 48 && alignof(curandStateXORWOW) == 8, "cuRAND's XORWOW state: 48 bytes");
static_assert(sizeof(curandStatePhilox4_32_10) == 64 && alignof(curandStatePhilox4_32_10) == 16 &&
                  offsetof(curandStatePhilox4_32_10, key) == 32 && offsetof(curandStatePhilox4_32_10, STATE) == 40,
              "cuRAND's Philox state: 64 bytes");
static_assert(sizeof(curandStateMRG32k3a) == 48 && alignof(curandStateMRG32k3a) == 8, "cuRAND's MRG32k3a state: 48 bytes");

namespace simtlab {
namespace rng {
/* 2^-32 and 2^-53 (exact: the products below round only once, with or without a fused add) */
constexpr float k2pow32inv = 0x1p-32f;
constexpr double k2pow32inv_d = 0x1p-32;
constexpr double k2pow53inv_d = 0x1p-53;
constexpr float k2pi = 6.2831855f;                /* 2 pi rounded to float, as cuRAND has it */
constexpr float k2pow32inv_2pi = 0x1p-32f * k2pi; /* exact: a power of two times 2 pi */

/* a 32-bit draw as a float in (0, 1]: x / 2^32 + 2^-33 */
static inline float uniform(unsigned x) { return (float)x * k2pow32inv + k2pow32inv / 2.0f; }
/* two draws as a double with 53 random bits, in (0, 1] */
static inline double uniform53(unsigned lo, unsigned hi)
{
    const unsigned long long z = (unsigned long long)lo ^ ((unsigned long long)hi << 21);
    return (double)z * k2pow53inv_d + k2pow53inv_d / 2.0;
}

/* Box-Muller: radius from the first draw, angle from the second. The angle's multiply-add is
 * fused, as nvcc contracts it by default (-fmad=true). */
static inline float2 box_muller(unsigned x, unsigned y)
{
    const float u = uniform(x);
    const float a = fmaf((float)y, k2pow32inv_2pi, k2pow32inv_2pi / 2.0f);
    const float r = sqrtf(-2.0f * logf(u));
    float s, c;
    sincosf(a, &s, &c);
    return float2{s * r, c * r};
}
/* sin and cos of pi a (CUDA's sincospi) */
static inline void sincospi_(double a, double *s, double *c)
{
    *s = sin(a * 3.141592653589793);
    *c = cos(a * 3.141592653589793);
}
static inline double2 box_muller_double(unsigned x0, unsigned x1, unsigned y0, unsigned y1)
{
    const double u = uniform53(x0, x1);
    const unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << 21);
    const double a = (double)zy * (2.0 * k2pow53inv_d) + k2pow53inv_d; /* in (0, 2]: pi a is the angle */
    const double r = sqrt(-2.0 * log(u));
    double s, c;
    sincospi_(a, &s, &c);
    return double2{s * r, c * r};
}

/* The cached second value of a pair (curand_normal and curand_log_normal share the cache: each
 * takes it only when the other did not put it there). F is the pair's maker. */
template <class _SimS, class _SimF>
static inline float cached_pair(_SimS *st, int flag, _SimF make)
{
    if (st->boxmuller_flag == flag) {
        st->boxmuller_flag = 0;
        return st->boxmuller_extra;
    }
    const float2 v = make();
    st->boxmuller_extra = v.y;
    st->boxmuller_flag = flag;
    return v.x;
}
template <class _SimS, class _SimF>
static inline double cached_pair_double(_SimS *st, int flag, _SimF make)
{
    if (st->boxmuller_flag_double == flag) {
        st->boxmuller_flag_double = 0;
        return st->boxmuller_extra_double;
    }
    const double2 v = make();
    st->boxmuller_extra_double = v.y;
    st->boxmuller_flag_double = flag;
    return v.x;
}
static inline float log_normal(float mean, float stddev, float z) { return expf(fmaf(stddev, z, mean)); }
static inline double log_normal(double mean, double stddev, double z) { return exp(fma(stddev, z, mean)); }
} // namespace rng
} // namespace simtlab

/* ---- XORWOW ------------------------------------------------------------------------------------ */
static inline unsigned int curand(curandStateXORWOW_t *state)
{
    const unsigned x = state->v[0], t = x ^ (x >> 2), w = state->v[4];
    const unsigned nw = (w ^ (w << 4)) ^ (t ^ (t << 1));
    state->v[0] = state->v[1];
    state->v[1] = state->v[2];
    state->v[2] = state->v[3];
    state->v[3] = w;
    state->v[4] = nw;
    state->d += 362437u;
    return nw + state->d;
}

/* the five words moved through the simulator's jump (a copy: the state's own loads and stores are
 * the kernel's) */
static inline void simtlab_xorwow_jump_state(curandStateXORWOW_t *state, unsigned long long n, int sequence)
{
    unsigned v[5] = {state->v[0], state->v[1], state->v[2], state->v[3], state->v[4]};
    simtlab_curand_xorwow_jump(v, n, sequence);
    for (int i = 0; i < 5; i++)
        state->v[i] = v[i];
}
static inline void skipahead(unsigned long long n, curandStateXORWOW_t *state)
{
    simtlab_xorwow_jump_state(state, n, 0);
    state->d += 362437u * (unsigned)n;
}
/* n subsequences of 2^67 draws (d moves by 362437 * 2^67 = 0 modulo 2^32) */
static inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state)
{
    simtlab_xorwow_jump_state(state, n, 1);
}

static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStateXORWOW_t *state)
{
    /* cuRAND's seeding: each half of the seed, salted and scaled by an odd constant, mixed into
     * Marsaglia's initial words (seed 0xf7dcefddaad26b49 gives the paper's own state) */
    const unsigned lo = 1099087573u * ((unsigned)seed ^ 0xaad26b49u);
    const unsigned hi = 2591861531u * ((unsigned)(seed >> 32) ^ 0xf7dcefddu);
    unsigned v[5] = {123456789u + lo, 362436069u ^ lo, 521288629u + hi, 88675123u ^ hi, 5783321u + lo};
    simtlab_curand_xorwow_jump(v, subsequence, 1);
    simtlab_curand_xorwow_jump(v, offset, 0);
    state->d = 6615241u + hi + lo + 362437u * (unsigned)offset;
    for (int i = 0; i < 5; i++)
        state->v[i] = v[i];
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.0f;
    state->boxmuller_extra_double = 0.0;
}

/* ---- Philox4x32-10 (Salmon, Moraes, Dror, Shaw 2011) --------------------------------------------- */
/* ten rounds of the counter-based block function: two 32 x 32 -> 64-bit products a round, the
 * key bumped by the Weyl constants between rounds */
static inline uint4 curand_Philox4x32_10(uint4 c, uint2 k)
{
    for (int round = 0; round < 10; round++) {
        if (round) {
            k.x += 0x9E3779B9u; /* golden ratio */
            k.y += 0xBB67AE85u; /* sqrt(3) - 1 */
        }
        const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
        c = uint4{(unsigned)(p1 >> 32) ^ c.y ^ k.x, (unsigned)p1, (unsigned)(p0 >> 32) ^ c.w ^ k.y, (unsigned)p0};
    }
    return c;
}

namespace simtlab {
namespace rng {
static inline void philox_next_block(curandStatePhilox4_32_10_t *s)
{
    uint4 c = s->ctr;
    if (++c.x == 0 && ++c.y == 0 && ++c.z == 0)
        ++c.w;
    s->ctr = c;
    s->output = curand_Philox4x32_10(c, s->key);
}
/* ctr += n in its low 64 bits, carrying into the high ones. cuRAND's carry is lost in one case,
 * which this keeps for the same states: n's high word 0xffffffff plus a carry out of the low
 * word. */
static inline void philox_add_low(uint4 &c, unsigned long long n)
{
    const unsigned long long lo = (unsigned long long)c.y << 32 | c.x, sum = lo + n;
    const bool low_carry = (unsigned)sum < (unsigned)n;
    bool carry = sum < lo;
    if ((unsigned)(n >> 32) == 0xffffffffu && low_carry)
        carry = false;
    c.x = (unsigned)sum;
    c.y = (unsigned)(sum >> 32);
    if (carry && ++c.z == 0)
        ++c.w;
}
} // namespace rng
} // namespace simtlab

static inline unsigned int curand(curandStatePhilox4_32_10_t *state)
{
    const uint4 o = state->output;
    const unsigned i = state->STATE;
    const unsigned r = i == 1 ? o.y : i == 2 ? o.z : i == 3 ? o.w : o.x;
    if (i + 1 == 4) { /* the block is used up: the next counter's */
        simtlab::rng::philox_next_block(state);
        state->STATE = 0;
    } else {
        state->STATE = i + 1;
    }
    return r;
}
/* the next four values (STATE stays: they span two blocks unless it is 0) */
static inline uint4 curand4(curandStatePhilox4_32_10_t *state)
{
    const uint4 a = state->output;
    simtlab::rng::philox_next_block(state);
    const uint4 b = state->output;
    switch (state->STATE) {
    case 1:
        return uint4{a.y, a.z, a.w, b.x};
    case 2:
        return uint4{a.z, a.w, b.x, b.y};
    case 3:
        return uint4{a.w, b.x, b.y, b.z};
    default:
        return a;
    }
}
static inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    unsigned i = state->STATE + (unsigned)(n & 3);
    unsigned long long blocks = n / 4;
    if (i > 3) {
        blocks++;
        i -= 4;
    }
    state->STATE = i;
    uint4 c = state->ctr;
    simtlab::rng::philox_add_low(c, blocks);
    state->ctr = c;
    state->output = curand_Philox4x32_10(c, state->key);
}
/* n subsequences of 2^66 values: the counter's high 64 bits */
static inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state)
{
    uint4 c = state->ctr;
    const unsigned long long hi = ((unsigned long long)c.w << 32 | c.z) + n;
    c.z = (unsigned)hi;
    c.w = (unsigned)(hi >> 32);
    state->ctr = c;
    state->output = curand_Philox4x32_10(c, state->key);
}
static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStatePhilox4_32_10_t *state)
{
    state->ctr = uint4{0, 0, 0, 0};
    state->key = uint2{(unsigned)seed, (unsigned)(seed >> 32)};
    state->STATE = 0;
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.0f;
    state->boxmuller_extra_double = 0.0;
    skipahead_sequence(subsequence, state);
    skipahead(offset, state);
}

/* ---- MRG32k3a (L'Ecuyer 1999) ---------------------------------------------------------------------- */
namespace simtlab {
namespace rng {
constexpr unsigned long long mrg_m1 = 4294967087ull, mrg_m2 = 4294944443ull;
/* the next value, in (0, m1] (exact integers; cuRAND returns it as a double) */
static inline double mrg32k3a_next(curandStateMRG32k3a_t *s)
{
    const unsigned long long p1 = (1403580ull * s->s1[1] + 810728ull * (mrg_m1 - s->s1[0])) % mrg_m1;
    const unsigned long long p2 = (527612ull * s->s2[2] + 1370589ull * (mrg_m2 - s->s2[0])) % mrg_m2;
    s->s1[0] = s->s1[1];
    s->s1[1] = s->s1[2];
    s->s1[2] = (unsigned)p1;
    s->s2[0] = s->s2[1];
    s->s2[1] = s->s2[2];
    s->s2[2] = (unsigned)p2;
    return (double)(p1 > p2 ? p1 - p2 : p1 + mrg_m1 - p2);
}
constexpr double mrg_norm = 2.3283065498378288e-10; /* about 1 / (m1 + 1), cuRAND's constant */
static inline void mrg32k3a_jump(curandStateMRG32k3a_t *state, unsigned long long n, int log2_unit)
{
    unsigned s1[3] = {state->s1[0], state->s1[1], state->s1[2]}, s2[3] = {state->s2[0], state->s2[1], state->s2[2]};
    simtlab_curand_mrg32k3a_jump(s1, s2, n, log2_unit);
    for (int i = 0; i < 3; i++) {
        state->s1[i] = s1[i];
        state->s2[i] = s2[i];
    }
}
static inline float2 box_muller_mrg(curandStateMRG32k3a_t *s)
{
    const float u = (float)(mrg32k3a_next(s) * mrg_norm);
    const float a = (float)(mrg32k3a_next(s) * mrg_norm) * k2pi;
    const float r = sqrtf(-2.0f * logf(u));
    float sn, cs;
    sincosf(a, &sn, &cs);
    return float2{sn * r, cs * r};
}
static inline double2 box_muller_mrg_double(curandStateMRG32k3a_t *s)
{
    const double u = mrg32k3a_next(s) * mrg_norm;
    const double a = mrg32k3a_next(s) * mrg_norm * 2.0;
    const double r = sqrt(-2.0 * log(u));
    double sn, cs;
    sincospi_(a, &sn, &cs);
    return double2{sn * r, cs * r};
}
} // namespace rng
} // namespace simtlab

static inline unsigned int curand(curandStateMRG32k3a_t *state)
{
    return (unsigned)(simtlab::rng::mrg32k3a_next(state) * 1.000000048662);
}
static inline void skipahead(unsigned long long n, curandStateMRG32k3a_t *state)
{
    simtlab::rng::mrg32k3a_jump(state, n, 0);
}
/* n subsequences of 2^76 values */
static inline void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state)
{
    simtlab::rng::mrg32k3a_jump(state, n, 76);
}
/* n sequences of 2^127 values */
static inline void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state)
{
    simtlab::rng::mrg32k3a_jump(state, n, 127);
}
static inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                               curandStateMRG32k3a_t *state)
{
    using simtlab::rng::mrg_m1;
    using simtlab::rng::mrg_m2;
    unsigned long long a = 12345, b = 12345; /* seed 0: every word 12345 */
    unsigned s1[3], s2[3];
    if (seed) { /* the seed's halves, salted, times 12345 modulo m */
        a = ((unsigned)seed ^ 0x55555555u) * 12345ull;
        b = ((unsigned)(seed >> 32) ^ 0xAAAAAAAAu) * 12345ull;
    }
    s1[0] = (unsigned)(a % mrg_m1);
    s1[1] = (unsigned)(b % mrg_m1);
    s1[2] = (unsigned)(a % mrg_m1);
    s2[0] = (unsigned)(b % mrg_m2);
    s2[1] = (unsigned)(a % mrg_m2);
    s2[2] = (unsigned)(b % mrg_m2);
    simtlab_curand_mrg32k3a_jump(s1, s2, subsequence, 76);
    simtlab_curand_mrg32k3a_jump(s1, s2, offset, 0);
    for (int i = 0; i < 3; i++) {
        state->s1[i] = s1[i];
        state->s2[i] = s2[i];
    }
    state->boxmuller_flag = 0;
    state->boxmuller_flag_double = 0;
    state->boxmuller_extra = 0.0f;
    state->boxmuller_extra_double = 0.0;
}

/* ---- uniform ----------------------------------------------------------------------------------------- */
static inline float curand_uniform(curandStateXORWOW_t *state) { return simtlab::rng::uniform(curand(state)); }
static inline float curand_uniform(curandStatePhilox4_32_10_t *state) { return simtlab::rng::uniform(curand(state)); }
static inline float curand_uniform(curandStateMRG32k3a_t *state)
{
    return (float)(simtlab::rng::mrg32k3a_next(state) * simtlab::rng::mrg_norm);
}
static inline float4 curand_uniform4(curandStatePhilox4_32_10_t *state)
{
    const uint4 x = curand4(state);
    using simtlab::rng::uniform;
    return float4{uniform(x.x), uniform(x.y), uniform(x.z), uniform(x.w)};
}
/* XORWOW: two draws, 53 bits */
static inline double curand_uniform_double(curandStateXORWOW_t *state)
{
    const unsigned x = curand(state);
    return simtlab::rng::uniform53(x, curand(state));
}
/* Philox: one draw, x / 2^32 + 2^-32 (cuRAND's; in (0, 1]) */
static inline double curand_uniform_double(curandStatePhilox4_32_10_t *state)
{
    return (double)curand(state) * simtlab::rng::k2pow32inv_d + simtlab::rng::k2pow32inv_d;
}
static inline double curand_uniform_double(curandStateMRG32k3a_t *state)
{
    return simtlab::rng::mrg32k3a_next(state) * simtlab::rng::mrg_norm;
}
static inline double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state)
{
    const uint4 x = curand4(state);
    return double2{simtlab::rng::uniform53(x.x, x.y), simtlab::rng::uniform53(x.z, x.w)};
}
static inline double4 curand_uniform4_double(curandStatePhilox4_32_10_t *state)
{
    const uint4 x = curand4(state), y = curand4(state);
    using simtlab::rng::uniform53;
    return double4{uniform53(x.x, x.y), uniform53(x.z, x.w), uniform53(y.x, y.y), uniform53(y.z, y.w)};
}

/* ---- normal and log-normal (Box-Muller) ---------------------------------------------------------------- */
namespace simtlab {
namespace rng {
template <class _SimS>
static inline float2 box_muller_2(_SimS *state)
{
    const unsigned x = curand(state);
    return box_muller(x, curand(state));
}
static inline float2 box_muller_2(curandStateMRG32k3a_t *state) { return box_muller_mrg(state); }
template <class _SimS>
static inline double2 box_muller_2_double(_SimS *state) /* XORWOW: four draws */
{
    const unsigned x0 = curand(state), x1 = curand(state), y0 = curand(state);
    return box_muller_double(x0, x1, y0, curand(state));
}
static inline double2 box_muller_2_double(curandStatePhilox4_32_10_t *state) /* Philox: one curand4 */
{
    const uint4 x = curand4(state);
    return box_muller_double(x.x, x.y, x.z, x.w);
}
static inline double2 box_muller_2_double(curandStateMRG32k3a_t *state) { return box_muller_mrg_double(state); }
} // namespace rng
} // namespace simtlab

#define SIMTLAB_CURAND_NORMALS(_SimS)                                                                                   \
    static inline float curand_normal(_SimS *state)                                                                     \
    {                                                                                                               \
        return simtlab::rng::cached_pair(state, EXTRA_FLAG_NORMAL, [&] { return simtlab::rng::box_muller_2(state); }); \
    }                                                                                                               \
    static inline float2 curand_normal2(_SimS *state) { return simtlab::rng::box_muller_2(state); }                     \
    static inline double curand_normal_double(_SimS *state)                                                             \
    {                                                                                                               \
        return simtlab::rng::cached_pair_double(state, EXTRA_FLAG_NORMAL,                                           \
                                                [&] { return simtlab::rng::box_muller_2_double(state); });          \
    }                                                                                                               \
    static inline double2 curand_normal2_double(_SimS *state) { return simtlab::rng::box_muller_2_double(state); }      \
    static inline float curand_log_normal(_SimS *state, float mean, float stddev)                                       \
    {                                                                                                               \
        return simtlab::rng::cached_pair(state, EXTRA_FLAG_LOG_NORMAL, [&] {                                        \
            const float2 v = simtlab::rng::box_muller_2(state);                                                     \
            return float2{simtlab::rng::log_normal(mean, stddev, v.x), simtlab::rng::log_normal(mean, stddev, v.y)}; \
        });                                                                                                         \
    }                                                                                                               \
    static inline float2 curand_log_normal2(_SimS *state, float mean, float stddev)                                     \
    {                                                                                                               \
        const float2 v = simtlab::rng::box_muller_2(state);                                                         \
        return float2{simtlab::rng::log_normal(mean, stddev, v.x), simtlab::rng::log_normal(mean, stddev, v.y)};    \
    }                                                                                                               \
    static inline double curand_log_normal_double(_SimS *state, double mean, double stddev)                             \
    {                                                                                                               \
        return simtlab::rng::cached_pair_double(state, EXTRA_FLAG_LOG_NORMAL, [&] {                                 \
            const double2 v = simtlab::rng::box_muller_2_double(state);                                             \
            return double2{simtlab::rng::log_normal(mean, stddev, v.x), simtlab::rng::log_normal(mean, stddev, v.y)}; \
        });                                                                                                         \
    }                                                                                                               \
    static inline double2 curand_log_normal2_double(_SimS *state, double mean, double stddev)                           \
    {                                                                                                               \
        const double2 v = simtlab::rng::box_muller_2_double(state);                                                 \
        return double2{simtlab::rng::log_normal(mean, stddev, v.x), simtlab::rng::log_normal(mean, stddev, v.y)};   \
    }
SIMTLAB_CURAND_NORMALS(curandStateXORWOW_t)
SIMTLAB_CURAND_NORMALS(curandStatePhilox4_32_10_t)
SIMTLAB_CURAND_NORMALS(curandStateMRG32k3a_t)
#undef SIMTLAB_CURAND_NORMALS

/* Philox's four at a time: one curand4, two pairs */
static inline float4 curand_normal4(curandStatePhilox4_32_10_t *state)
{
    const uint4 x = curand4(state);
    const float2 a = simtlab::rng::box_muller(x.x, x.y), b = simtlab::rng::box_muller(x.z, x.w);
    return float4{a.x, a.y, b.x, b.y};
}
static inline double4 curand_normal4_double(curandStatePhilox4_32_10_t *state)
{
    const double2 a = simtlab::rng::box_muller_2_double(state), b = simtlab::rng::box_muller_2_double(state);
    return double4{a.x, a.y, b.x, b.y};
}
static inline float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev)
{
    const float4 v = curand_normal4(state);
    using simtlab::rng::log_normal;
    return float4{log_normal(mean, stddev, v.x), log_normal(mean, stddev, v.y), log_normal(mean, stddev, v.z),
                  log_normal(mean, stddev, v.w)};
}
static inline double4 curand_log_normal4_double(curandStatePhilox4_32_10_t *state, double mean, double stddev)
{
    const double4 v = curand_normal4_double(state);
    using simtlab::rng::log_normal;
    return double4{log_normal(mean, stddev, v.x), log_normal(mean, stddev, v.y), log_normal(mean, stddev, v.z),
                   log_normal(mean, stddev, v.w)};
}

/* ---- Poisson: cuRAND's three methods by lambda --------------------------------------------------------- */
namespace simtlab {
namespace rng {
/* lambda < 64: Knuth's product of uniforms */
template <class _SimS>
static inline unsigned poisson_knuth(_SimS *state, float lambda)
{
    unsigned k = 0;
    float p = expf(lambda);
    do {
        k++;
        p *= curand_uniform(state);
    } while (p > 1.0f);
    return k - 1;
}
/* 64 <= lambda <= 4000: rejection from an approximation of the regularized incomplete gamma
 * function P(a, x) ~ 1 / (1 + exp(alpha (a - x) - beta))^2, alpha and beta fitted in a (the
 * constants are cuRAND's, so that the same draws propose the same values) */
static inline void gammainc_shape(float a, float *alpha, float *beta)
{
    *alpha = fmaf(1.43248035075540910f, 1.0f / sqrtf(a - 0.12400979329415655f), 0.00025361074907033f);
    *beta = fmaf(0.21096734870196546f, 1.0f / sqrtf(a - 1.97381164089999420f), 0.94201734077887530f);
}
static inline float gammainc_p(float a, float x)
{
    float alpha, beta;
    gammainc_shape(a, &alpha, &beta);
    const float t = 1.0f + expf(fmaf(alpha, a - x, -beta));
    return 1.0f / (t * t);
}
static inline float gammainc_p_inverse(float a, float y)
{
    float alpha, beta;
    gammainc_shape(a, &alpha, &beta);
    return fmaf(-(beta + logf(1.0f / sqrtf(y) - 1.0f)), 1.0f / alpha, a);
}
template <class _SimS>
static inline unsigned poisson_gammainc(_SimS *state, float lambda)
{
    const float log_lambda = logf(lambda);
    for (;;) {
        const float x = floorf(gammainc_p_inverse(lambda, curand_uniform(state)));
        const float v = (gammainc_p(lambda, x + 1.0f) - gammainc_p(lambda, x)) * 1.3f;
        const float z = curand_uniform(state) * v;
        /* the Poisson probability of x: exp(-lambda + x log lambda - log x!) */
        const float t = expf(-lambda + x * log_lambda - (float)lgamma(1.0 + (double)x));
        if (z < t && v >= 1e-20f)
            return (unsigned)x;
    }
}
template <class _SimS>
static inline unsigned poisson(_SimS *state, double lambda)
{
    if (lambda < 64)
        return poisson_knuth(state, (float)lambda);
    if (lambda > 4000) /* the normal approximation, rounded */
        return (unsigned)(sqrt(lambda) * curand_normal_double(state) + lambda + 0.5);
    return poisson_gammainc(state, (float)lambda);
}
} // namespace rng
} // namespace simtlab
static inline unsigned int curand_poisson(curandStateXORWOW_t *state, double lambda)
{
    return simtlab::rng::poisson(state, lambda);
}
static inline unsigned int curand_poisson(curandStatePhilox4_32_10_t *state, double lambda)
{
    return simtlab::rng::poisson(state, lambda);
}
static inline unsigned int curand_poisson(curandStateMRG32k3a_t *state, double lambda)
{
    return simtlab::rng::poisson(state, lambda);
}
/* four at a time: each value's draws in turn (for lambda > 4000, from one curand_normal4_double) */
static inline uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda)
{
    using namespace simtlab::rng;
    if (lambda < 64) {
        const unsigned a = poisson_knuth(state, (float)lambda), b = poisson_knuth(state, (float)lambda);
        const unsigned c = poisson_knuth(state, (float)lambda);
        return uint4{a, b, c, poisson_knuth(state, (float)lambda)};
    }
    if (lambda > 4000) {
        const double4 z = curand_normal4_double(state);
        const double r = sqrt(lambda);
        return uint4{(unsigned)(r * z.x + lambda + 0.5), (unsigned)(r * z.y + lambda + 0.5),
                     (unsigned)(r * z.z + lambda + 0.5), (unsigned)(r * z.w + lambda + 0.5)};
    }
    const unsigned a = poisson_gammainc(state, (float)lambda), b = poisson_gammainc(state, (float)lambda);
    const unsigned c = poisson_gammainc(state, (float)lambda);
    return uint4{a, b, c, poisson_gammainc(state, (float)lambda)};
}
#endif /* SIMTLAB_CURAND_KERNEL_H */
