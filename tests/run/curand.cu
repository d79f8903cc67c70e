// tests/run/curand.cu - cuRAND's device API: XORWOW (curandState), Philox4_32_10 and MRG32k3a.
// An ordinary CUDA program (nvcc -O2 -arch=sm_90 curand.cu builds it; scripts/gpu/curand_parity.sh
// runs it on a GPU). It checks what holds without a GPU:
//   - each generator against itself: curand_init(seed, seq, k) starts at draw k of (seed, seq, 0),
//     skipahead(n) equals n draws, skipahead_sequence(1) (MRG32k3a: skipahead_subsequence(1))
//     equals curand_init with subsequence + 1, curand4 continues curand;
//   - first values known from the algorithms' definitions: the seed whose salted halves are 0
//     gives Marsaglia's published xorwow state (its first draws are computed here on the host
//     from the paper), Philox4x32-10's known-answer vectors (Random123), and the first draws of
//     seed 0 as cuRAND's own host build of the toolkit's header gives them (see below);
//   - Monte-Carlo pi from 2^20 curand_uniform pairs, the mean and variance of 2^20 curand_normal
//     values, and of the other distributions, within 5 standard errors;
// and prints "curand: digest <hex>", a 64-bit FNV-1a hash of every integer draw and the bits of
// every uniform float and double of the first part, to compare bit for bit with a GPU's run.
//
// Built with -DCURAND_HOST_REFERENCE, the per-thread work runs in host loops on the toolkit's own
// header compiled for the host (its QUALIFIERS hook): NVIDIA's code without a GPU, a second
// reference for the digest.
#ifdef CURAND_HOST_REFERENCE
#define QUALIFIERS static __forceinline__ __host__ __device__
#define HD __host__ __device__
#else
#define HD __device__
#endif
#include <cmath>
#include <cstdio>
#include <cstring>
#include <curand_kernel.h>

#define RECW 64 // words a thread of the first part records

struct Rec {
    unsigned w[RECW];
    int n;   // words written
    int bad; // failed self-checks
};
HD static void put(Rec &r, unsigned v)
{
    if (r.n < RECW)
        r.w[r.n] = v;
    r.n++;
}
HD static void put_f(Rec &r, float f)
{
    unsigned u;
    memcpy(&u, &f, 4);
    put(r, u);
}
HD static void put_d(Rec &r, double d)
{
    unsigned long long u;
    memcpy(&u, &d, 8);
    put(r, (unsigned)u);
    put(r, (unsigned)(u >> 32));
}
HD static void expect(Rec &r, bool ok) { r.bad += !ok; }

// ---- part 1: the draws, the generators against themselves ----------------------------------
template <class S>
HD static unsigned draw_after(unsigned long long seed, unsigned long long seq, unsigned long long n)
{
    S s;
    curand_init(seed, seq, 0, &s);
    for (unsigned long long i = 0; i < n; i++)
        curand(&s);
    return curand(&s);
}
template <class S>
HD static unsigned draw_skipped(unsigned long long seed, unsigned long long seq, unsigned long long n)
{
    S s;
    curand_init(seed, seq, 0, &s);
    skipahead(n, &s);
    return curand(&s);
}

// The jumps of XORWOW and Philox: skipahead against as many draws, skipahead_sequence against
// curand_init's next subsequence, a large subsequence and offset against the offset as a skip
template <class S>
HD static void jumps(int t, Rec &r)
{
    S s, u;
    const unsigned n = 100 + t;
    const unsigned a = draw_skipped<S>(1234, t, n);
    expect(r, a == draw_after<S>(1234, t, n));
    put(r, a);
    curand_init(1234, t, 0, &s);
    skipahead_sequence(1, &s);
    curand_init(1234, t + 1, 0, &u);
    for (int i = 0; i < 4; i++) {
        const unsigned x = curand(&s);
        expect(r, x == curand(&u));
        if (i == 0)
            put(r, x);
    }
    const unsigned long long big = (1ull << 20) + 7 + t, off = t * 1000003ull;
    curand_init(42, big, off, &s);
    curand_init(42, big, 0, &u);
    skipahead(off, &u);
    for (int i = 0; i < 4; i++) {
        const unsigned x = curand(&s);
        expect(r, x == curand(&u));
        put(r, x);
    }
}

HD static void xorwow_part(int t, Rec &r)
{
    curandState s;
    unsigned first[8];
    curand_init(1234, t, 0, &s);
    for (int i = 0; i < 8; i++)
        put(r, first[i] = curand(&s));
    curand_init(1234, t, 3, &s); // offset 3: draw 3 of the same subsequence
    expect(r, curand(&s) == first[3]);
    jumps<curandState>(t, r);
    curand_init(7, 0xfedcba9876543210ull + t, 0xffffffffffff0000ull, &s); // every jump matrix
    put(r, curand(&s));
    put(r, curand(&s));
    curand_init(99, t, 0, &s);
    for (int i = 0; i < 4; i++) {
        const float f = curand_uniform(&s);
        expect(r, f > 0.0f && f <= 1.0f);
        put_f(r, f);
    }
    for (int i = 0; i < 2; i++) {
        const double d = curand_uniform_double(&s);
        expect(r, d > 0.0 && d <= 1.0);
        put_d(r, d);
    }
}

HD static void philox_part(int t, Rec &r)
{
    curandStatePhilox4_32_10_t s;
    unsigned first[8];
    curand_init(1234, t, 0, &s);
    for (int i = 0; i < 8; i++)
        put(r, first[i] = curand(&s));
    curand_init(1234, t, 2, &s); // offset 2: curand4 spans two blocks
    const uint4 q = curand4(&s);
    expect(r, q.x == first[2] && q.y == first[3] && q.z == first[4] && q.w == first[5]);
    expect(r, curand(&s) == first[6]); // curand after curand4 goes on from it
    put(r, q.x), put(r, q.y), put(r, q.z), put(r, q.w);
    jumps<curandStatePhilox4_32_10_t>(t, r);
    curand_init(99, t, 1, &s);
    const float4 f = curand_uniform4(&s);
    put_f(r, f.x), put_f(r, f.y), put_f(r, f.z), put_f(r, f.w);
    expect(r, f.x > 0.0f && f.x <= 1.0f && f.w > 0.0f && f.w <= 1.0f);
    put_d(r, curand_uniform_double(&s));
    const double2 d = curand_uniform2_double(&s);
    put_d(r, d.x), put_d(r, d.y);
    expect(r, d.x > 0.0 && d.x <= 1.0 && d.y > 0.0 && d.y <= 1.0);
}

HD static void mrg_part(int t, Rec &r)
{
    curandStateMRG32k3a_t s, u;
    unsigned first[4];
    curand_init(1234, t, 0, &s);
    for (int i = 0; i < 4; i++)
        put(r, first[i] = curand(&s));
    curand_init(1234, t, 2, &s);
    expect(r, curand(&s) == first[2]);
    const unsigned n = 100 + t;
    const unsigned a = draw_skipped<curandStateMRG32k3a_t>(1234, t, n);
    expect(r, a == draw_after<curandStateMRG32k3a_t>(1234, t, n));
    put(r, a);
    curand_init(1234, t, 0, &s);
    skipahead_subsequence(1, &s);
    curand_init(1234, t + 1, 0, &u);
    for (int i = 0; i < 4; i++) {
        const unsigned x = curand(&s);
        expect(r, x == curand(&u));
        if (i == 0)
            put(r, x);
    }
    curand_init(1234, t, 0, &s);
    skipahead_sequence(1, &s);
    put(r, curand(&s));
    put_f(r, curand_uniform(&s));
    put_f(r, curand_uniform(&s));
    put_d(r, curand_uniform_double(&s));
}

HD static void draws(int t, Rec *recs)
{
    Rec &r = recs[t];
    r.n = 0;
    r.bad = 0;
    xorwow_part(t, r);
    philox_part(t, r);
    mrg_part(t, r);
}

// ---- part 2: the distributions --------------------------------------------------------------
struct Moments {
    double s1, s2; // sum, sum of squares
    unsigned long long hits, n;
};
#define SAMPLES 256 // a thread's samples

HD static void pi_part(int t, Moments *m)
{
    curandState s;
    curand_init(2024, t, 0, &s);
    unsigned hits = 0;
    for (int i = 0; i < SAMPLES; i++) {
        const float x = curand_uniform(&s), y = curand_uniform(&s);
        hits += x * x + y * y <= 1.0f;
    }
    m[t].hits = hits;
    m[t].n = SAMPLES;
}
// kind: 0 curand_normal (XORWOW), 1 curand_normal4 (Philox), 2 curand_normal_double (MRG32k3a),
// 3 curand_normal2_double (XORWOW), 4 curand_log_normal (XORWOW, 0, 0.5), 5 curand_poisson
// (Philox, 4), 6 curand_poisson (XORWOW, 100), 7 curand_poisson4 (Philox, 5000)
HD static void dist_part(int t, int kind, Moments *m)
{
    double s1 = 0, s2 = 0;
    int n = 0;
    curandState x;
    curandStatePhilox4_32_10_t p;
    curandStateMRG32k3a_t g;
    curand_init(77 + kind, t, 0, &x);
    curand_init(77 + kind, t, 0, &p);
    curand_init(77 + kind, t, 0, &g);
    for (int i = 0; i < SAMPLES; i += kind == 1 || kind == 7 ? 4 : kind == 3 ? 2 : 1) {
        double v[4];
        int k = 1;
        if (kind == 0) {
            v[0] = curand_normal(&x);
        } else if (kind == 1) {
            const float4 f = curand_normal4(&p);
            v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = f.w, k = 4;
        } else if (kind == 2) {
            v[0] = curand_normal_double(&g);
        } else if (kind == 3) {
            const double2 d = curand_normal2_double(&x);
            v[0] = d.x, v[1] = d.y, k = 2;
        } else if (kind == 4) {
            v[0] = curand_log_normal(&x, 0.0f, 0.5f);
        } else if (kind == 5) {
            v[0] = curand_poisson(&p, 4.0);
        } else if (kind == 6) {
            v[0] = curand_poisson(&x, 100.0);
        } else {
            const uint4 q = curand_poisson4(&p, 5000.0);
            v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w, k = 4;
        }
        for (int j = 0; j < k; j++)
            s1 += v[j], s2 += v[j] * v[j], n++;
    }
    m[t].s1 = s1;
    m[t].s2 = s2;
    m[t].n = n;
}

// the first draws of chosen seeds, and Philox's block function on Random123's known-answer inputs
HD static void first_values(int, unsigned *out)
{
    curandState x, paper;
    curandStatePhilox4_32_10_t p;
    curandStateMRG32k3a_t g;
    curand_init(0, 0, 0, &x);
    curand_init(0xf7dcefddaad26b49ull, 0, 0, &paper); // both salted halves 0: the paper's own state
    curand_init(0, 0, 0, &p);
    curand_init(0, 0, 0, &g);
    for (int i = 0; i < 4; i++) {
        out[i] = curand(&x);
        out[4 + i] = curand(&paper);
        out[8 + i] = curand(&p);
        out[12 + i] = curand(&g);
    }
    uint4 k = curand_Philox4x32_10(make_uint4(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344),
                                   make_uint2(0xa4093822, 0x299f31d0));
    out[16] = k.x, out[17] = k.y, out[18] = k.z, out[19] = k.w;
    k = curand_Philox4x32_10(make_uint4(~0u, ~0u, ~0u, ~0u), make_uint2(~0u, ~0u));
    out[20] = k.x, out[21] = k.y, out[22] = k.z, out[23] = k.w;
}

// ---- each part on n threads: a kernel, or (the reference build) a host loop ------------------
#ifdef CURAND_HOST_REFERENCE
#define EACH_THREAD(n, call)                                                                       \
    for (int t = 0; t < (n); t++)                                                                  \
        call;                                                                                      \
    return 0
template <class T>
static T *alloc(size_t n) { return new T[n](); }
#else
__global__ void draws_kernel(int n, Rec *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        draws(t, out);
}
__global__ void first_kernel(unsigned *out) { first_values(0, out); }
__global__ void pi_kernel(int n, Moments *m)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        pi_part(t, m);
}
__global__ void dist_kernel(int n, Moments *m, int kind)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n)
        dist_part(t, kind, m);
}
static int finished(const char *what)
{
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        printf("curand: %s: %s\n", what, cudaGetErrorString(e));
    return e != cudaSuccess;
}
template <class T>
static T *alloc(size_t n)
{
    T *p = nullptr;
    return cudaMallocManaged(&p, n * sizeof(T)) == cudaSuccess ? p : nullptr;
}
#endif
static int run_draws(int n, Rec *out)
{
#ifdef CURAND_HOST_REFERENCE
    EACH_THREAD(n, draws(t, out));
#else
    draws_kernel<<<(n + 63) / 64, 64>>>(n, out);
    return finished("draws_kernel");
#endif
}
static int run_first(unsigned *out)
{
#ifdef CURAND_HOST_REFERENCE
    EACH_THREAD(1, first_values(t, out));
#else
    first_kernel<<<1, 1>>>(out);
    return finished("first_kernel");
#endif
}
static int run_pi(int n, Moments *m)
{
#ifdef CURAND_HOST_REFERENCE
    EACH_THREAD(n, pi_part(t, m));
#else
    pi_kernel<<<(n + 63) / 64, 64>>>(n, m);
    return finished("pi_kernel");
#endif
}
static int run_dist(int n, Moments *m, int kind)
{
#ifdef CURAND_HOST_REFERENCE
    EACH_THREAD(n, dist_part(t, kind, m));
#else
    dist_kernel<<<(n + 63) / 64, 64>>>(n, m, kind);
    return finished("dist_kernel");
#endif
}

// Marsaglia's xorwow as the paper gives it (J. Stat. Softw. 8(14), 2003, p. 5): x, y, z, w, v, d
static unsigned xorwow_paper(unsigned st[6])
{
    unsigned t = st[0] ^ (st[0] >> 2);
    st[0] = st[1], st[1] = st[2], st[2] = st[3], st[3] = st[4];
    st[4] = (st[4] ^ (st[4] << 4)) ^ (t ^ (t << 1));
    return (st[5] += 362437) + st[4];
}

static int check(bool ok, const char *what)
{
    if (!ok)
        printf("curand: FAILED %s\n", what);
    return !ok;
}

// mean and variance of n samples within 5 standard errors of mu and var (kurt: the fourth
// central moment over var^2, for the variance's error)
static int moments(const char *what, const Moments *m, int n, double mu, double var, double kurt)
{
    double s1 = 0, s2 = 0, cnt = 0;
    for (int t = 0; t < n; t++)
        s1 += m[t].s1, s2 += m[t].s2, cnt += (double)m[t].n;
    const double mean = s1 / cnt, v = s2 / cnt - mean * mean;
    const double tol_mean = 5 * sqrt(var / cnt), tol_var = 5 * var * sqrt((kurt - 1) / cnt);
    printf("curand: %s: %.0f samples, mean %.5f (%.5f), variance %.5f (%.5f)\n", what, cnt, mean, mu, v, var);
    return check(fabs(mean - mu) <= tol_mean && fabs(v - var) <= tol_var, what);
}

int main()
{
    int bad = 0;
    const int nd = 256, nm = 4096;
    Rec *recs = alloc<Rec>(nd);
    unsigned *out = alloc<unsigned>(24);
    Moments *m = alloc<Moments>(nm);
    if (!recs || !out || !m)
        return check(false, "memory");
    bad += check(sizeof(curandState) == 48 && sizeof(curandStatePhilox4_32_10_t) == 64 &&
                     sizeof(curandStateMRG32k3a_t) == 48,
                 "the states' sizes (48, 64, 48 bytes)");

    // part 1: the draws, their self-checks and their digest
    bad += run_draws(nd, recs);
    unsigned long long h = 0xcbf29ce484222325ull; // FNV-1a, 64 bits, over the words' bytes
    int fails = 0;
    for (int t = 0; t < nd; t++) {
        fails += recs[t].bad;
        bad += recs[t].n != recs[0].n || recs[t].n > RECW;
        for (int i = 0; i < recs[t].n && i < RECW; i++)
            for (int b = 0; b < 4; b++)
                h = (h ^ ((recs[t].w[i] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    }
    bad += check(fails == 0, "the generators' self-checks (offset, skipahead, skipahead_sequence, curand4)");
    bad += check(recs[0].n == 63, "63 words a thread");

    // first values
    bad += run_first(out);
    unsigned paper[6] = {123456789, 362436069, 521288629, 88675123, 5783321, 6615241};
    // cuRAND's seed 0, read from the toolkit's header compiled for the host (the reference build)
    static const unsigned xorwow0[4] = {0xbd7f03b6, 0x703e556d, 0x845af0c5, 0x283067fd};
    // MRG32k3a's seed 0 is L'Ecuyer's 12345 in all six words: its first value, 0.1270111220...
    // of the reference implementation, times 2^32
    static const unsigned mrg0[4] = {0x2083cd07, 0x518b05c4, 0x4f26d091, 0xd36ab334};
    // Random123's known answers for Philox4x32-10: counter 0 key 0 (cuRAND's seed 0), pi's
    // digits, all ones
    static const unsigned philox0[4] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
    static const unsigned philox_pi[4] = {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
    static const unsigned philox_ff[4] = {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd};
    for (int i = 0; i < 4; i++) {
        bad += check(out[i] == xorwow0[i], "XORWOW seed 0's first draws");
        bad += check(out[4 + i] == xorwow_paper(paper), "XORWOW from Marsaglia's state: the paper's draws");
        bad += check(out[8 + i] == philox0[i], "Philox seed 0: the known-answer block of counter 0, key 0");
        bad += check(out[12 + i] == mrg0[i], "MRG32k3a seed 0's first draws");
        bad += check(out[16 + i] == philox_pi[i] && out[20 + i] == philox_ff[i], "Philox's known-answer vectors");
    }

    // part 2: Monte-Carlo pi from 2^20 pairs: 4 p with p = pi / 4, standard error 4 sqrt(p (1 - p) / n)
    bad += run_pi(nm, m);
    unsigned long long hits = 0, n = 0;
    for (int t = 0; t < nm; t++)
        hits += m[t].hits, n += m[t].n;
    const double pi = 4.0 * (double)hits / (double)n, p = M_PI / 4, se = 4 * sqrt(p * (1 - p) / (double)n);
    printf("curand: pi from %llu samples: %.5f (within %.5f)\n", n, pi, 5 * se);
    bad += check(fabs(pi - M_PI) <= 5 * se, "Monte-Carlo pi");
    // the distributions (normal: kurtosis 3; Poisson(l): variance l, kurtosis 3 + 1 / l)
    const double ln_mean = exp(0.125), ln_var = (exp(0.25) - 1) * exp(0.25);
    const double ln_kurt = exp(1.0) + 2 * exp(0.75) + 3 * exp(0.5) - 3; // a log-normal's, sigma 0.5
    bad += run_dist(nm, m, 0) || moments("curand_normal", m, nm, 0, 1, 3);
    bad += run_dist(nm / 4, m, 1) || moments("curand_normal4", m, nm / 4, 0, 1, 3);
    bad += run_dist(nm / 4, m, 2) || moments("curand_normal_double", m, nm / 4, 0, 1, 3);
    bad += run_dist(nm / 4, m, 3) || moments("curand_normal2_double", m, nm / 4, 0, 1, 3);
    bad += run_dist(nm / 4, m, 4) || moments("curand_log_normal", m, nm / 4, ln_mean, ln_var, ln_kurt);
    bad += run_dist(nm / 4, m, 5) || moments("curand_poisson(4)", m, nm / 4, 4, 4, 3.25);
    bad += run_dist(nm / 4, m, 6) || moments("curand_poisson(100)", m, nm / 4, 100, 100, 3.01);
    bad += run_dist(nm / 4, m, 7) || moments("curand_poisson4(5000)", m, nm / 4, 5000, 5000, 3.0002);

    printf("curand: digest %016llx\n", h);
    printf("curand: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
