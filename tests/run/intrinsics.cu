// tests/run/intrinsics.cu - CUDA's device intrinsics (sim/run/include/simtlab_math.h) in
// kernels, each group against references the host computes its own way:
//   hinted     cache-hinted loads and stores: plain accesses, counted (run_case checks the bytes)
//   arith      float and double arithmetic in the four rounding modes, bit for bit (references:
//              x87 long double in the same mode, then rounded once more in it)
//   convert    conversions, bit for bit (saturation and NaN as a GPU's cvt)
//   integer    the integer intrinsics, bit for bit
//   math       sinpi ... normcdfinv, within a stated number of ulp of long double (and
//              __float128) references
// Prints the first mismatch and exits 1, or "intrinsics: correct".
#include <cfenv>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

constexpr int N = 512, BLOCK = 256; // inputs of each group; 2 blocks

/* ---- cache-hinted loads and stores ------------------------------------------------------ */
// reads 5 N floats and N float4s, writes 4 N floats and N float4s
__global__ void hinted(const float *in, const float4 *in4, float *out, float4 *out4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = __ldcg(&in[i]) + __ldca(&in[N + i]) + __ldcs(&in[2 * N + i]) + __ldlu(&in[3 * N + i]) +
              __ldcv(&in[4 * N + i]);
    __stcg(&out[i], v);
    __stcs(&out[N + i], 2.0 * v); // a double argument converts, as with CUDA's overloads
    __stwb(&out[2 * N + i], 3 * v);
    __stwt(&out[3 * N + i], 4 * v);
    float4 w = __ldcg(&in4[i]);
    w.x += 1;
    __stcs(&out4[i], w);
}

/* ---- arithmetic in rounding modes -------------------------------------------------------- */
enum { RN, RZ, RU, RD };
static const int fe_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
static const char *const mode_name[4] = {"rn", "rz", "ru", "rd"};
// operation = family * 4 + mode; float has an 8th family (__fmaf_ieee), then __frsqrt_rn
enum { ADD, SUB, MUL, DIV, RCP, SQRT, FMA, FMA_IEEE };
constexpr int NF = 8 * 4 + 1, ND = 7 * 4;
static const char *const float_family[] = {"__fadd", "__fsub", "__fmul", "__fdiv", "__frcp", "__fsqrt", "__fmaf", "__fmaf_ieee"};
static const char *const double_family[] = {"__dadd", "__dsub", "__dmul", "__ddiv", "__drcp", "__dsqrt", "__fma"};

#define MODES(k, f, ...)                                                                                  \
    case 4 * k: return f##_rn(__VA_ARGS__);                                                               \
    case 4 * k + 1: return f##_rz(__VA_ARGS__);                                                           \
    case 4 * k + 2: return f##_ru(__VA_ARGS__);                                                           \
    case 4 * k + 3: return f##_rd(__VA_ARGS__);
__device__ float float_op(int op, float a, float b, float c)
{
    switch (op) {
        MODES(ADD, __fadd, a, b)
        MODES(SUB, __fsub, a, b)
        MODES(MUL, __fmul, a, b)
        MODES(DIV, __fdiv, a, b)
        MODES(RCP, __frcp, a)
        MODES(SQRT, __fsqrt, a)
        MODES(FMA, __fmaf, a, b, c)
        MODES(FMA_IEEE, __fmaf_ieee, a, b, c)
    }
    return __frsqrt_rn(a);
}
__device__ double double_op(int op, double a, double b, double c)
{
    switch (op) {
        MODES(ADD, __dadd, a, b)
        MODES(SUB, __dsub, a, b)
        MODES(MUL, __dmul, a, b)
        MODES(DIV, __ddiv, a, b)
        MODES(RCP, __drcp, a)
        MODES(SQRT, __dsqrt, a)
        MODES(FMA, __fma, a, b, c)
    }
    return 0;
}

__global__ void arith(const float *fa, const float *fb, const float *fc, const double *da, const double *db,
                      const double *dc, float *fout, double *dout, float *fchain, double *dchain, int *mode_kept)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int op = 0; op < NF; op++)
        fout[i * NF + op] = float_op(op, fa[i], fb[i], fc[i]);
    for (int op = 0; op < ND; op++)
        dout[i * ND + op] = double_op(op, da[i], db[i], dc[i]);
    // a product then a sum: two roundings, never one fma (the c of every 8th row cancels a b)
    fchain[i] = __fadd_rn(__fmul_rn(fa[i], fb[i]), fc[i]);
    dchain[i] = __dadd_rn(__dmul_rn(da[i], db[i]), dc[i]);
    mode_kept[i] = fegetround() == FE_TONEAREST;
}

/* ---- conversions ----------------------------------------------------------------------- */
// to integers: 8 sources x 4 modes, each stored as 64 bits (signed ones sign-extended)
constexpr int NI = 32, NFL = 7 * 4 + 2; // to float/double: 7 families x 4 modes, then the exact two
#define TO_INT(k, f, x)                                                                                   \
    o[4 * k] = (unsigned long long)f##_rn(x);                                                             \
    o[4 * k + 1] = (unsigned long long)f##_rz(x);                                                         \
    o[4 * k + 2] = (unsigned long long)f##_ru(x);                                                         \
    o[4 * k + 3] = (unsigned long long)f##_rd(x);
#define TO_FP(k, f, x)                                                                                    \
    p[4 * k] = f##_rn(x);                                                                                 \
    p[4 * k + 1] = f##_rz(x);                                                                             \
    p[4 * k + 2] = f##_ru(x);                                                                             \
    p[4 * k + 3] = f##_rd(x);
__global__ void convert(const float *f, const double *d, const long long *l, unsigned long long *iout, double *fpout,
                        unsigned long long *bits)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long *o = iout + i * NI;
    TO_INT(0, __float2int, f[i])
    TO_INT(1, __float2uint, f[i])
    TO_INT(2, __float2ll, f[i])
    TO_INT(3, __float2ull, f[i])
    TO_INT(4, __double2int, d[i])
    TO_INT(5, __double2uint, d[i])
    TO_INT(6, __double2ll, d[i])
    TO_INT(7, __double2ull, d[i])
    double *p = fpout + i * NFL; // the float results widened (exactly) to double
    long long v = l[i];
    TO_FP(0, __double2float, d[i])
    TO_FP(1, __int2float, (int)v)
    TO_FP(2, __uint2float, (unsigned)v)
    TO_FP(3, __ll2float, v)
    TO_FP(4, __ull2float, (unsigned long long)v)
    TO_FP(5, __ll2double, v)
    TO_FP(6, __ull2double, (unsigned long long)v)
    p[28] = __int2double_rn((int)v);
    p[29] = __uint2double_rn((unsigned)v);
    unsigned long long *b = bits + i * 5;
    b[0] = (unsigned long long)__double_as_longlong(d[i]);
    b[1] = (unsigned long long)__double_as_longlong(__longlong_as_double(v));
    b[2] = (unsigned long long)__double2hiint(d[i]);
    b[3] = (unsigned long long)__double2loint(d[i]);
    b[4] = (unsigned long long)__double_as_longlong(__hiloint2double((int)(v >> 32), (int)v));
}

/* ---- integer intrinsics ---------------------------------------------------------------- */
enum { MULHI, UMULHI, MUL64HI, UMUL64HI, BYTE_PERM, FSHL, FSHLC, FSHR, FSHRC, FFSLL, CLZLL, BREVLL, SAD, USAD,
       HADD, RHADD, UHADD, URHADD, DP4A_S, DP4A_U, DP2A_LO_S, DP2A_LO_U, DP2A_HI_S, DP2A_HI_U, DP4A_V, DP2A_HI_V,
       N_INT };
static const char *const int_name[] = {"__mulhi", "__umulhi", "__mul64hi", "__umul64hi", "__byte_perm",
                                       "__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc",
                                       "__ffsll", "__clzll", "__brevll", "__sad", "__usad", "__hadd", "__rhadd",
                                       "__uhadd", "__urhadd", "__dp4a(int)", "__dp4a(unsigned)", "__dp2a_lo(int)",
                                       "__dp2a_lo(unsigned)", "__dp2a_hi(int)", "__dp2a_hi(unsigned)",
                                       "__dp4a(char4)", "__dp2a_hi(short2)"};
__global__ void integer(const unsigned *u, const unsigned *v, const unsigned *w, const unsigned long long *U,
                        const unsigned long long *V, long long *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = u[i], b = v[i], c = w[i];
    long long *o = out + i * N_INT;
    o[MULHI] = __mulhi((int)a, (int)b);
    o[UMULHI] = __umulhi(a, b);
    o[MUL64HI] = __mul64hi((long long)U[i], (long long)V[i]);
    o[UMUL64HI] = (long long)__umul64hi(U[i], V[i]);
    o[BYTE_PERM] = __byte_perm(a, b, c);
    o[FSHL] = __funnelshift_l(a, b, c % 80);
    o[FSHLC] = __funnelshift_lc(a, b, c % 80);
    o[FSHR] = __funnelshift_r(a, b, c % 80);
    o[FSHRC] = __funnelshift_rc(a, b, c % 80);
    o[FFSLL] = __ffsll((long long)U[i]);
    o[CLZLL] = __clzll((long long)U[i]);
    o[BREVLL] = (long long)__brevll(U[i]);
    o[SAD] = __sad((int)a, (int)b, c);
    o[USAD] = __usad(a, b, c);
    o[HADD] = __hadd((int)a, (int)b);
    o[RHADD] = __rhadd((int)a, (int)b);
    o[UHADD] = __uhadd(a, b);
    o[URHADD] = __urhadd(a, b);
    o[DP4A_S] = __dp4a((int)a, (int)b, (int)c);
    o[DP4A_U] = __dp4a(a, b, c);
    o[DP2A_LO_S] = __dp2a_lo((int)a, (int)b, (int)c);
    o[DP2A_LO_U] = __dp2a_lo(a, b, c);
    o[DP2A_HI_S] = __dp2a_hi((int)a, (int)b, (int)c);
    o[DP2A_HI_U] = __dp2a_hi(a, b, c);
    char4 a4 = make_char4((signed char)a, (signed char)(a >> 8), (signed char)(a >> 16), (signed char)(a >> 24));
    char4 b4 = make_char4((signed char)b, (signed char)(b >> 8), (signed char)(b >> 16), (signed char)(b >> 24));
    o[DP4A_V] = __dp4a(a4, b4, (int)c);
    o[DP2A_HI_V] = __dp2a_hi(short2{(short)a, (short)(a >> 16)}, b4, (int)c);
}

/* ---- math functions -------------------------------------------------------------------- */
enum { SINPI, COSPI, SINCOSPI_S, SINCOSPI_C, NORM3D, NORM4D, RNORM3D, RNORM4D, RHYPOT, NORM, RNORM, RCBRT, NORMCDF,
       NORMCDFINV, ERFINV, ERFCINV, N_MATH };
static const char *const math_name[] = {"sinpi", "cospi", "sincospi (sin)", "sincospi (cos)", "norm3d", "norm4d",
                                        "rnorm3d", "rnorm4d", "rhypot", "norm", "rnorm", "rcbrt", "normcdf",
                                        "normcdfinv", "erfinv", "erfcinv"};
// x: N + 3 values (the norms take x[i..i+3]); p in [0, 1], y in [-1, 1], z in [0, 2] (and a few outside)
__global__ void math(const double *x, const double *p, const double *y, const double *z, const float *xf,
                     const float *pf, const float *yf, const float *zf, double *dout, float *fout)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double *o = dout + i * N_MATH;
    o[SINPI] = sinpi(x[i]);
    o[COSPI] = cospi(x[i]);
    sincospi(x[i], &o[SINCOSPI_S], &o[SINCOSPI_C]);
    o[NORM3D] = norm3d(x[i], x[i + 1], x[i + 2]);
    o[NORM4D] = norm4d(x[i], x[i + 1], x[i + 2], x[i + 3]);
    o[RNORM3D] = rnorm3d(x[i], x[i + 1], x[i + 2]);
    o[RNORM4D] = rnorm4d(x[i], x[i + 1], x[i + 2], x[i + 3]);
    o[RHYPOT] = rhypot(x[i], x[i + 1]);
    o[NORM] = norm(4, &x[i]);
    o[RNORM] = rnorm(4, &x[i]);
    o[RCBRT] = rcbrt(x[i]);
    o[NORMCDF] = normcdf(x[i]);
    o[NORMCDFINV] = normcdfinv(p[i]);
    o[ERFINV] = erfinv(y[i]);
    o[ERFCINV] = erfcinv(z[i]);
    float *q = fout + i * N_MATH;
    q[SINPI] = sinpif(xf[i]);
    q[COSPI] = cospif(xf[i]);
    sincospif(xf[i], &q[SINCOSPI_S], &q[SINCOSPI_C]);
    q[NORM3D] = norm3df(xf[i], xf[i + 1], xf[i + 2]);
    q[NORM4D] = norm4df(xf[i], xf[i + 1], xf[i + 2], xf[i + 3]);
    q[RNORM3D] = rnorm3df(xf[i], xf[i + 1], xf[i + 2]);
    q[RNORM4D] = rnorm4df(xf[i], xf[i + 1], xf[i + 2], xf[i + 3]);
    q[RHYPOT] = rhypotf(xf[i], xf[i + 1]);
    q[NORM] = normf(4, &xf[i]);
    q[RNORM] = rnormf(4, &xf[i]);
    q[RCBRT] = rcbrtf(xf[i]);
    q[NORMCDF] = normcdff(xf[i]);
    q[NORMCDFINV] = normcdfinvf(pf[i]);
    q[ERFINV] = erfinvf(yf[i]);
    q[ERFCINV] = erfcinvf(zf[i]);
}

/* ====================================== host ============================================ */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned long long rnd()
{
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return rng_state;
}
static double uniform() { return (double)(rnd() >> 11) * 0x1p-53; } // [0, 1)
template <class T, class B>
static T from_bits(B b)
{
    T t;
    std::memcpy(&t, &b, sizeof t);
    return t;
}
template <class T>
static unsigned long long bits_of(T t)
{
    unsigned long long b = 0;
    std::memcpy(&b, &t, sizeof t);
    return b;
}
template <class T>
static bool same(T a, T b) { return (std::isnan(a) && std::isnan(b)) || bits_of(a) == bits_of(b); }

template <class T>
static void copy_in(T **dev, const std::vector<T> &host)
{
    cudaMalloc(dev, host.size() * sizeof(T));
    cudaMemcpy(*dev, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
}
template <class T>
static std::vector<T> copy_out(const T *dev, size_t n)
{
    std::vector<T> host(n);
    cudaMemcpy(host.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost);
    return host;
}
template <class T>
static T *device_buffer(size_t n)
{
    T *p;
    cudaMalloc(&p, n * sizeof(T));
    return p;
}

static int fail(const char *what) // the first mismatch
{
    printf("intrinsics: MISMATCH %s\n", what);
    return 1;
}

/* v (exact, or already rounded in mode m at 64 bits) rounded to T in mode m: the nearest, then
 * one step toward the mode's side (two roundings in one directed mode make one) */
template <class T>
static T round_to(long double v, int m)
{
    T r = (T)v;
    if (std::isnan(v) || m == RN)
        return r;
    if (m == RU && r < v)
        r = std::nextafter(r, std::numeric_limits<T>::infinity());
    if (m == RD && r > v)
        r = std::nextafter(r, -std::numeric_limits<T>::infinity());
    if (m == RZ && fabsl(r) > fabsl(v))
        r = std::nextafter(r, (T)0);
    return r;
}
/* family f on the x87 in mode m (64-bit significand) */
static long double x87_op(int f, int m, long double a, long double b, long double c)
{
    volatile long double x = a, y = b, z = c, r;
    fesetround(fe_mode[m]);
    switch (f) {
    case ADD: r = x + y; break;
    case SUB: r = x - y; break;
    case MUL: r = x * y; break;
    case DIV: r = x / y; break;
    case RCP: r = 1 / x; break;
    case SQRT: r = sqrtl(x); break;
    default: r = fmal(x, y, z); break;
    }
    fesetround(FE_TONEAREST);
    return r;
}
/* round to nearest: the host's own IEEE operations in T */
template <class T>
static T nearest_op(int f, T a, T b, T c)
{
    switch (f) {
    case ADD: return a + b;
    case SUB: return a - b;
    case MUL: return a * b;
    case DIV: return a / b;
    case RCP: return 1 / a;
    case SQRT: return std::sqrt(a);
    default: return std::fma(a, b, c);
    }
}
template <class T>
static T ref_op(int op, T a, T b, T c)
{
    int f = op / 4 == FMA_IEEE ? FMA : op / 4, m = op % 4;
    return m == RN ? nearest_op(f, a, b, c) : round_to<T>(x87_op(f, m, a, b, c), m);
}
/* __frsqrt_rn(x) = r is correctly rounded: the midpoints m- < r < m+ around r satisfy
 * m-^2 x < 1 < m+^2 x (exact in __float128: 25 + 25 + 24 bits) */
static bool rsqrt_ok(float x, float r)
{
    if (std::isnan(x) || x < 0)
        return std::isnan(r);
    if (x == 0 || std::isinf(x))
        return r == 1 / std::sqrt(x);
    __float128 lo = ((__float128)r + std::nextafter(r, 0.0f)) / 2, hi = ((__float128)r + std::nextafter(r, INFINITY)) / 2;
    return lo * lo * x < 1 && hi * hi * x > 1;
}

/* ---- math references: long double, and __float128 where long double would lose digits ---- */
typedef __float128 quad;
static const long double PI_L = 3.141592653589793238462643383279502884L;
static const long double TWO_OVER_SQRTPI = 1.128379167095512573896158903121545172L;
static quad sqrt_q(quad s) // to 113 bits: a Newton step from sqrtl's 64
{
    quad r = sqrtl((long double)s);
    return r == 0 || r != r || r > (quad)LDBL_MAX ? r : (r + s / r) / 2;
}
/* sin(pi x), cos(pi x) from x = n + t, |t| <= 1/2: (-1)^n sin(pi t), (-1)^n sin(pi (1/2 - |t|)) */
static void ref_sincospi(long double x, long double *s, long double *c)
{
    if (!std::isfinite(x)) {
        *s = *c = NAN;
        return;
    }
    long double n = nearbyintl(x), t = x - n, sign = fmodl(n, 2) != 0 ? -1 : 1;
    *s = sign * sinl(PI_L * t);
    *c = sign * sinl(PI_L * (0.5L - fabsl(t)));
}
/* the Euclidean norm of v[0..n) (squares exact in __float128); rec: its reciprocal */
static long double ref_norm(const long double *v, int n, bool rec)
{
    quad s = 0;
    bool inf = false;
    for (int k = 0; k < n; k++)
        inf |= std::isinf(v[k]), s += (quad)v[k] * v[k];
    if (inf)
        return rec ? 0 : INFINITY;
    quad r = sqrt_q(s);
    return (long double)(rec ? 1 / r : r);
}
static long double ref_rcbrt(long double x)
{
    if (x == 0 || !std::isfinite(x))
        return 1 / cbrtl(x);
    quad y = 1 / cbrtl(x);
    return (long double)(y + y * (1 - (quad)x * y * y * y) / 3); /* a Newton step on y^-3 = x */
}
/* erfc(-x / sqrt 2) / 2, the argument to 113 bits and erfc corrected to first order */
static long double ref_normcdf(long double x)
{
    if (!std::isfinite(x))
        return 0.5L * erfcl(-x);
    quad t = -(quad)x / sqrt_q(2);
    long double th = (long double)t, tl = (long double)(t - th);
    return 0.5L * (erfcl(th) - tl * TWO_OVER_SQRTPI * expl(-th * th));
}
/* the inverses: Newton steps in long double from the result under test (from a fixed point if it
 * is not finite), on erf where |y| <= 1/2 and on erfc beyond (1 - |y| is exact) */
static long double ref_erfinv(long double y, long double start)
{
    if (std::isnan(y) || fabsl(y) > 1)
        return NAN;
    if (fabsl(y) == 1 || y == 0)
        return fabsl(y) == 1 ? copysignl(INFINITY, y) : y;
    long double a = fabsl(y), x = std::isfinite(start) ? fabsl(start) : 0.5L;
    for (int k = 0; k < 4; k++)
        x += a <= 0.5L ? -(erfl(x) - a) / (TWO_OVER_SQRTPI * expl(-x * x))
                       : (erfcl(x) - (1 - a)) / (TWO_OVER_SQRTPI * expl(-x * x));
    return copysignl(x, y);
}
static long double ref_erfcinv(long double z, long double start)
{
    if (std::isnan(z) || z < 0 || z > 2)
        return NAN;
    if (z == 0 || z == 2)
        return z == 0 ? INFINITY : -INFINITY;
    if (z > 1)
        return -ref_erfcinv(2 - z, -start);
    if (z > 0.5L)
        return ref_erfinv(1 - z, start);
    long double x = std::isfinite(start) ? start : 1;
    for (int k = 0; k < 4; k++)
        x += (erfcl(x) - z) / (TWO_OVER_SQRTPI * expl(-x * x));
    return x;
}
static long double ref_normcdfinv(long double p, long double start)
{
    if (std::isnan(p) || p < 0 || p > 1)
        return NAN;
    if (p == 0 || p == 1)
        return p == 0 ? -INFINITY : INFINITY;
    if (p > 0.5L)
        return -ref_normcdfinv(1 - p, -start);
    long double x = std::isfinite(start) ? start : 0;
    for (int k = 0; k < 4; k++)
        x -= (ref_normcdf(x) - p) / (expl(-x * x / 2) * 0.398942280401432677939946059934381868L); /* 1/sqrt(2 pi) */
    return x;
}
/* the error of got against ref in units in the last place of T at ref (infinities and NaN must
 * match); a negative result: they do not */
template <class T>
static double ulp_error(T got, long double ref)
{
    if (std::isnan(ref) || std::isnan(got))
        return std::isnan(ref) && std::isnan(got) ? 0 : -1;
    if (std::isinf((T)ref) || std::isinf(got))
        return got == (T)ref ? 0 : -1;
    typedef std::numeric_limits<T> L;
    int e = ref == 0 ? L::min_exponent - 1 : std::max(ilogbl(ref), L::min_exponent - 1);
    return (double)(fabsl(got - ref) / ldexpl(1, e - (L::digits - 1)));
}

/* a float or double: from a few special cases, random bits, and values of a chosen scale */
template <class T>
static T some_fp(int i, const std::vector<T> &special)
{
    if ((size_t)i < special.size())
        return special[i];
    typedef std::numeric_limits<T> L;
    switch (i % 4) {
    case 0: return from_bits<T>((typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type)rnd());
    case 1: return (T)((rnd() & 1 ? -1 : 1) * std::ldexp(0.5 + uniform(), (int)(rnd() % 80) - 40));
    case 2: { // near an integer (ties, the ends of the integer types)
        static const double edge[] = {0x1p31, 0x1p32, 0x1p63, 0x1p64, 0x1p24, 0x1p53};
        double k = rnd() & 1 ? std::ldexp((double)(rnd() >> 40), (int)(rnd() % 8)) : edge[rnd() % 6];
        static const double frac[] = {0, 0.5, -0.5, 0.25, 1.5, -1, 1, -0.75};
        T v = (T)(k + frac[rnd() % 8]);
        if (rnd() % 3 == 0)
            v = std::nextafter(v, rnd() & 1 ? L::infinity() : -L::infinity());
        return rnd() & 1 ? -v : v;
    }
    default: return (T)((uniform() - 0.5) * 1e4);
    }
}

int main()
{
    char msg[512];
    /* ---- cache hints ---- */
    {
        std::vector<float> in(5 * N);
        std::vector<float4> in4(N);
        for (int i = 0; i < 5 * N; i++)
            in[i] = (float)(i % 97);
        for (int i = 0; i < N; i++)
            in4[i] = make_float4((float)i, 1, 2, 3);
        float *d_in, *d_out = device_buffer<float>(4 * N);
        float4 *d_in4, *d_out4 = device_buffer<float4>(N);
        copy_in(&d_in, in);
        copy_in(&d_in4, in4);
        hinted<<<N / BLOCK, BLOCK>>>(d_in, d_in4, d_out, d_out4);
        std::vector<float> out = copy_out(d_out, 4 * N);
        std::vector<float4> out4 = copy_out(d_out4, N);
        for (int i = 0; i < N; i++) {
            float v = in[i] + in[N + i] + in[2 * N + i] + in[3 * N + i] + in[4 * N + i];
            for (int k = 0; k < 4; k++)
                if (out[k * N + i] != (k + 1) * v) {
                    snprintf(msg, sizeof msg, "hinted store %d of thread %d: %g, expected %g", k, i, out[k * N + i], (k + 1) * v);
                    return fail(msg);
                }
            if (out4[i].x != i + 1 || out4[i].w != 3)
                return fail("hinted float4 load/store");
        }
    }

    /* ---- arithmetic in rounding modes ---- */
    {
        const float eps = 1e-8f, tiny = FLT_TRUE_MIN, big = FLT_MAX, inf = INFINITY, nan = NAN;
        std::vector<float> sa = {1, -1, 1, 0, -0.0f, inf, nan, big, tiny, 2, 1, 3, 16777216, 0.1f, -inf, 1e-30f};
        std::vector<float> sb = {eps, -eps, 3, -0.0f, -0.0f, 1, 1, big, 0.5f, 0, -1, 0.1f, 1, 0.1f, inf, 1e-30f};
        std::vector<float> sc = {0, 1, -1, 0, -0.0f, -inf, 2, -big, tiny, -0.0f, 1, -0.3f, 1, -0.01f, 1, -1e-60f};
        std::vector<double> da_s = {1, -1, 1, 0, -0.0, INFINITY, NAN, DBL_MAX, DBL_TRUE_MIN, 2, 1, 3, 0x1p53, 0.1};
        std::vector<double> db_s = {1e-20, -1e-20, 3, -0.0, -0.0, 1, 1, DBL_MAX, 0.5, 0, -1, 0.1, 1, 0.1};
        std::vector<double> dc_s = {0, 1, -1, 0, -0.0, -INFINITY, 2, -DBL_MAX, DBL_TRUE_MIN, -0.0, 1, -0.3, 1, -0.01};
        std::vector<float> fa(N), fb(N), fc(N);
        std::vector<double> da(N), db(N), dc(N);
        for (int i = 0; i < N; i++) {
            fa[i] = some_fp(i, sa), fb[i] = some_fp(i, sb), fc[i] = some_fp(i, sc);
            da[i] = some_fp(i, da_s), db[i] = some_fp(i, db_s), dc[i] = some_fp(i, dc_s);
            if (i >= 64 && i % 8 == 7) // cancellation: b close to -a, c close to -a b
                fb[i] = -fa[i] * (1 + 0x1p-20f), db[i] = -da[i] * (1 + 0x1p-40), fc[i] = -fa[i] * fb[i],
                dc[i] = -da[i] * db[i];
        }
        float *d_fa, *d_fb, *d_fc, *d_fout = device_buffer<float>(N * NF);
        double *d_da, *d_db, *d_dc, *d_dout = device_buffer<double>(N * ND);
        float *d_fchain = device_buffer<float>(N);
        double *d_dchain = device_buffer<double>(N);
        int *d_kept = device_buffer<int>(N);
        copy_in(&d_fa, fa), copy_in(&d_fb, fb), copy_in(&d_fc, fc);
        copy_in(&d_da, da), copy_in(&d_db, db), copy_in(&d_dc, dc);
        arith<<<N / BLOCK, BLOCK>>>(d_fa, d_fb, d_fc, d_da, d_db, d_dc, d_fout, d_dout, d_fchain, d_dchain, d_kept);
        std::vector<float> fout = copy_out(d_fout, N * NF);
        std::vector<double> dout = copy_out(d_dout, N * ND);
        std::vector<float> fchain = copy_out(d_fchain, N);
        std::vector<double> dchain = copy_out(d_dchain, N);
        std::vector<int> kept = copy_out(d_kept, N);
        // the results must differ where the mode says: 1 + 1e-8 (row 0)
        const float next1 = std::nextafter(1.0f, 2.0f);
        const float want_add[4] = {1, 1, next1, 1};
        for (int m = 0; m < 4; m++)
            if (bits_of(fout[ADD * 4 + m]) != bits_of(want_add[m])) {
                snprintf(msg, sizeof msg, "__fadd_%s(1, 1e-8) = %a, expected %a", mode_name[m], fout[ADD * 4 + m], want_add[m]);
                return fail(msg);
            }
        printf("1 + 1e-8: rn %a, rz %a, ru %a, rd %a; 1 / 3: rz %a, ru %a\n", fout[ADD * 4 + RN], fout[ADD * 4 + RZ],
               fout[ADD * 4 + RU], fout[ADD * 4 + RD], fout[2 * NF + DIV * 4 + RZ], fout[2 * NF + DIV * 4 + RU]);
        for (int i = 0; i < N; i++) {
            if (!kept[i])
                return fail("the rounding mode was not restored after the directed operations");
            volatile float fp = fa[i] * fb[i];
            volatile double dp = da[i] * db[i];
            if (!same(fchain[i], fp + fc[i]) || !same(dchain[i], dp + dc[i])) {
                snprintf(msg, sizeof msg, "__fadd_rn(__fmul_rn(%a, %a), %a) = %a or __dadd_rn(__dmul_rn(%a, %a), %a) = %a: "
                         "contracted into an fma?", fa[i], fb[i], fc[i], fchain[i], da[i], db[i], dc[i], dchain[i]);
                return fail(msg);
            }
            for (int op = 0; op < NF - 1; op++) {
                float got = fout[i * NF + op], want = ref_op(op, fa[i], fb[i], fc[i]);
                if (!same(got, want)) {
                    snprintf(msg, sizeof msg, "%s_%s(%a, %a, %a) = %a, expected %a", float_family[op / 4], mode_name[op % 4],
                             fa[i], fb[i], fc[i], got, want);
                    return fail(msg);
                }
            }
            if (!rsqrt_ok(fa[i], fout[i * NF + NF - 1])) {
                snprintf(msg, sizeof msg, "__frsqrt_rn(%a) = %a: not correctly rounded", fa[i], fout[i * NF + NF - 1]);
                return fail(msg);
            }
            for (int op = 0; op < ND; op++) {
                double got = dout[i * ND + op], want = ref_op(op, da[i], db[i], dc[i]);
                if (!same(got, want)) {
                    snprintf(msg, sizeof msg, "%s_%s(%a, %a, %a) = %a, expected %a", double_family[op / 4], mode_name[op % 4],
                             da[i], db[i], dc[i], got, want);
                    return fail(msg);
                }
            }
        }
    }

    /* ---- conversions ---- */
    {
        std::vector<float> sf = {NAN, INFINITY, -INFINITY, 0x1p31f, -0x1p31f, 0x1p32f, 0x1p63f, -0x1p63f, 0x1p64f,
                                 -0.5f, 0.5f, 1.5f, 2.5f, -2.5f, 4294967040.0f, 2147483520.0f, -0.0f, 1e30f};
        std::vector<double> sd = {NAN, INFINITY, -INFINITY, 2147483647.5, 2147483648.0, -2147483648.5, -2147483649.0,
                                  4294967295.5, 4294967296.0, 0x1p63, -0x1p63, 0x1p64, -0.5, 0.5, 2.5, -0.0, 1e300,
                                  0x1.fffffffffffffp62, 3.4028235677973366e38 /* just over FLT_MAX */, 1e-300};
        std::vector<float> f(N);
        std::vector<double> d(N);
        std::vector<long long> l(N);
        const long long sl[] = {0, 1, -1, INT_MAX, INT_MIN, 16777217, 16777219, LLONG_MAX, LLONG_MIN, (1ll << 53) + 1,
                                -1 - (1ll << 53), (long long)0xffffffff00000001ull, 0x7fffffbfll, 0xffffffffll};
        for (int i = 0; i < N; i++) {
            f[i] = some_fp(i, sf), d[i] = some_fp(i, sd);
            l[i] = i < (int)(sizeof sl / sizeof sl[0]) ? sl[i] : (long long)(rnd() >> (rnd() % 64));
            if (i % 2 && i > 20)
                l[i] = -l[i];
        }
        float *d_f;
        double *d_d, *d_fp = device_buffer<double>(N * NFL);
        long long *d_l;
        unsigned long long *d_int = device_buffer<unsigned long long>(N * NI), *d_bits = device_buffer<unsigned long long>(N * 5);
        copy_in(&d_f, f), copy_in(&d_d, d), copy_in(&d_l, l);
        convert<<<N / BLOCK, BLOCK>>>(d_f, d_d, d_l, d_int, d_fp, d_bits);
        std::vector<unsigned long long> iout = copy_out(d_int, N * NI), bits = copy_out(d_bits, N * 5);
        std::vector<double> fp = copy_out(d_fp, N * NFL);
        static const char *const to_int[] = {"__float2int", "__float2uint", "__float2ll", "__float2ull",
                                             "__double2int", "__double2uint", "__double2ll", "__double2ull"};
        static const char *const to_fp[] = {"__double2float", "__int2float", "__uint2float", "__ll2float",
                                            "__ull2float", "__ll2double", "__ull2double"};
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < 8; k++)
                for (int m = 0; m < 4; m++) {
                    long double x = k < 4 ? (long double)f[i] : (long double)d[i];
                    // the reference: rounded in long double, then compared with the type's ends
                    long double r = m == RN ? nearbyintl(x) : m == RZ ? truncl(x) : m == RU ? ceill(x) : floorl(x);
                    bool is_signed = k % 2 == 0;
                    int bits_n = k % 4 < 2 ? 32 : 64;
                    long double hi = bits_n == 32 ? (is_signed ? INT_MAX : UINT_MAX)
                                                  : (is_signed ? (long double)LLONG_MAX : (long double)ULLONG_MAX);
                    long double lo = is_signed ? -hi - 1 : 0;
                    unsigned long long want, nan_value = is_signed ? (unsigned long long)(long long)lo : 1ull << (bits_n - 1);
                    if (std::isnan(x)) // from a float to 32 bits 0, else 1 << (bits - 1) (the PTX ISA)
                        want = k < 4 && bits_n == 32 ? 0 : nan_value;
                    else if (r >= hi)
                        want = is_signed ? (unsigned long long)(long long)hi : (unsigned long long)hi;
                    else if (r <= lo)
                        want = (unsigned long long)(long long)lo;
                    else
                        want = is_signed ? (unsigned long long)(long long)r : (unsigned long long)r;
                    if (iout[i * NI + 4 * k + m] != want) {
                        snprintf(msg, sizeof msg, "%s_%s(%La) = %llx, expected %llx", to_int[k], mode_name[m], x,
                                 iout[i * NI + 4 * k + m], want);
                        return fail(msg);
                    }
                }
            const long double ll = l[i], ull = (unsigned long long)l[i]; // exact in long double
            long double exact[7] = {(long double)d[i], (long double)(int)l[i], (long double)(unsigned)l[i], ll, ull, ll, ull};
            for (int k = 0; k < 7; k++)
                for (int m = 0; m < 4; m++) {
                    double want = k < 5 ? (double)round_to<float>(exact[k], m) : round_to<double>(exact[k], m);
                    if (!same(fp[i * NFL + 4 * k + m], want)) {
                        snprintf(msg, sizeof msg, "%s_%s(%La) = %a, expected %a", to_fp[k], mode_name[m], exact[k],
                                 fp[i * NFL + 4 * k + m], want);
                        return fail(msg);
                    }
                }
            if (fp[i * NFL + 28] != (int)l[i] || fp[i * NFL + 29] != (unsigned)l[i])
                return fail("__int2double_rn or __uint2double_rn");
            unsigned long long db = bits_of(d[i]);
            unsigned long long want_bits[5] = {db, (unsigned long long)l[i], (unsigned long long)(long long)(int)(db >> 32),
                                               (unsigned long long)(long long)(int)(uint32_t)db, (unsigned long long)l[i]};
            static const char *const names[5] = {"__double_as_longlong", "__longlong_as_double", "__double2hiint",
                                                 "__double2loint", "__hiloint2double"};
            for (int k = 0; k < 5; k++)
                if (bits[i * 5 + k] != want_bits[k]) {
                    snprintf(msg, sizeof msg, "%s: %llx, expected %llx", names[k], bits[i * 5 + k], want_bits[k]);
                    return fail(msg);
                }
        }
    }

    /* ---- integer intrinsics ---- */
    {
        std::vector<unsigned> u(N), v(N), w(N);
        std::vector<unsigned long long> U(N), V(N);
        const unsigned su[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x12345678u, 0x80808080u};
        const unsigned long long sU[] = {0, 1, ~0ull, 1ull << 63, (1ull << 63) - 1, 0x0123456789abcdefull, 1ull << 40};
        for (int i = 0; i < N; i++) {
            u[i] = i < 7 ? su[i] : (unsigned)rnd();
            v[i] = i < 7 ? su[(i + 3) % 7] : (unsigned)rnd();
            w[i] = i < 7 ? su[(i + 5) % 7] : (unsigned)rnd();
            U[i] = i < 7 ? sU[i] : rnd() >> (rnd() % 64);
            V[i] = i < 7 ? sU[(i + 2) % 7] : rnd();
        }
        unsigned *d_u, *d_v, *d_w;
        unsigned long long *d_U, *d_V;
        long long *d_out = device_buffer<long long>(N * N_INT);
        copy_in(&d_u, u), copy_in(&d_v, v), copy_in(&d_w, w), copy_in(&d_U, U), copy_in(&d_V, V);
        integer<<<N / BLOCK, BLOCK>>>(d_u, d_v, d_w, d_U, d_V, d_out);
        std::vector<long long> out = copy_out(d_out, N * N_INT);
        for (int i = 0; i < N; i++) {
            unsigned a = u[i], b = v[i], c = w[i];
            int sa = (int)a, sb = (int)b;
            unsigned char ab[8], bb[4];
            std::memcpy(ab, &a, 4), std::memcpy(ab + 4, &b, 4), std::memcpy(bb, &b, 4);
            long long want[N_INT];
            want[MULHI] = (long long)floorl((long double)sa * sb / 0x1p32L);
            want[UMULHI] = (long long)floorl((long double)a * b / 0x1p32L);
            { // 64 x 64 by 32-bit limbs; the signed high word from the unsigned one
                unsigned long long x = U[i], y = V[i], x0 = x & 0xffffffffu, x1 = x >> 32, y0 = y & 0xffffffffu, y1 = y >> 32;
                unsigned long long mid = (x0 * y0 >> 32) + (x1 * y0 & 0xffffffffu) + (x0 * y1 & 0xffffffffu);
                unsigned long long hi = x1 * y1 + (x1 * y0 >> 32) + (x0 * y1 >> 32) + (mid >> 32);
                want[UMUL64HI] = (long long)hi;
                want[MUL64HI] = (long long)(hi - ((long long)x < 0 ? y : 0) - ((long long)y < 0 ? x : 0));
            }
            unsigned perm = 0;
            for (int n = 0; n < 4; n++)
                perm |= (unsigned)ab[(c >> (4 * n)) % 8] << (8 * n);
            want[BYTE_PERM] = perm;
            unsigned s = c % 80, sm = s % 32, sc = s < 32 ? s : 32;
            want[FSHL] = sm ? (b << sm | a >> (32 - sm)) : b;
            want[FSHLC] = sc == 32 ? a : sc ? (b << sc | a >> (32 - sc)) : b;
            want[FSHR] = sm ? (a >> sm | b << (32 - sm)) : a;
            want[FSHRC] = sc == 32 ? b : sc ? (a >> sc | b << (32 - sc)) : a;
            int ffs = 0, clz = 0;
            unsigned long long rev = 0;
            for (int k = 63; k >= 0; k--)
                if (U[i] >> k & 1)
                    ffs = k + 1;
            while (clz < 64 && !(U[i] >> (63 - clz) & 1))
                clz++;
            for (int k = 0; k < 64; k++)
                rev |= (U[i] >> k & 1) << (63 - k);
            want[FFSLL] = ffs, want[CLZLL] = clz, want[BREVLL] = (long long)rev;
            want[SAD] = (unsigned)(std::llabs((long long)sa - sb) + c);
            want[USAD] = (unsigned)(std::llabs((long long)a - b) + c);
            want[HADD] = (long long)floorl(((long double)sa + sb) / 2);
            want[RHADD] = (long long)floorl(((long double)sa + sb + 1) / 2);
            want[UHADD] = (long long)floorl(((long double)a + b) / 2);
            want[URHADD] = (long long)floorl(((long double)a + b + 1) / 2);
            int8_t as8[4], bs8[4];
            int16_t as16[2];
            uint16_t au16[2];
            std::memcpy(as8, &a, 4), std::memcpy(bs8, &b, 4), std::memcpy(as16, &a, 4), std::memcpy(au16, &a, 4);
            long long d4s = (int)c, d4u = c, lo_s = (int)c, lo_u = c, hi_s = (int)c, hi_u = c;
            for (int k = 0; k < 4; k++)
                d4s += as8[k] * bs8[k], d4u += ab[k] * bb[k];
            for (int k = 0; k < 2; k++)
                lo_s += as16[k] * bs8[k], lo_u += au16[k] * bb[k], hi_s += as16[k] * bs8[2 + k], hi_u += au16[k] * bb[2 + k];
            want[DP4A_S] = (int)(uint32_t)d4s, want[DP4A_U] = (uint32_t)d4u;
            want[DP2A_LO_S] = (int)(uint32_t)lo_s, want[DP2A_LO_U] = (uint32_t)lo_u;
            want[DP2A_HI_S] = (int)(uint32_t)hi_s, want[DP2A_HI_U] = (uint32_t)hi_u;
            want[DP4A_V] = want[DP4A_S], want[DP2A_HI_V] = want[DP2A_HI_S];
            for (int k = 0; k < N_INT; k++)
                if (out[i * N_INT + k] != want[k]) {
                    snprintf(msg, sizeof msg, "%s(%#x, %#x, %#x | %#llx, %#llx) = %#llx, expected %#llx", int_name[k], a, b, c,
                             U[i], V[i], (unsigned long long)out[i * N_INT + k], (unsigned long long)want[k]);
                    return fail(msg);
                }
        }
    }
    /* ---- math functions ---- */
    {
        std::vector<double> x(N + 3), p(N), y(N), z(N);
        const double sx[] = {0, -0.0, 0.5, 1, 1.5, -2.5, 0.25, 1 / 3.0, 1e300, -1e300, INFINITY, -INFINITY, NAN, 1e-310,
                             0x1p52 + 1, 0x1p53, 3e15 + 0.5, -37.5, -38.5, 8.3, 1e-20, 5e-324, -7, 1e-300};
        const double sp[] = {0, 1, 0.5, 1e-300, 5e-324, 1e-20, 1 - 0x1p-53, 0.975, 0.025, 1.5, -0.1, NAN, 0x1p-1074 * 3,
                             0.9999999, 1e-5, 0.3};
        const double sy[] = {0, -0.0, 1, -1, 1.5, NAN, 0.5, -0.5, 1e-300, -1e-310, 1 - 0x1p-53, -(1 - 0x1p-53),
                             0.9999999999, 0.84, 0.5000000001, -0.4999999};
        const double sz[] = {0, 2, 1, 0.5, 1.5, 1e-300, 5e-324, 2 - 0x1p-52, 2.5, -1, NAN, 1e-20, 0x1p-1073, 1.0000001};
        const int nsx = sizeof sx / sizeof sx[0], nsp = sizeof sp / sizeof sp[0], nsy = sizeof sy / sizeof sy[0],
                  nsz = sizeof sz / sizeof sz[0];
        for (int i = 0; i < N + 3; i++) {
            double u = uniform(), sign = rnd() & 1 ? -1 : 1;
            x[i] = i < nsx ? sx[i] : i % 4 == 0 ? 16 * u - 8 : i % 4 == 1 ? sign * std::pow(10.0, 60 * u - 30)
                                   : i % 4 == 2 ? std::nextafter((double)(rnd() % (1 << 21)) / 2, sign * INFINITY) : 50 * u - 40;
        }
        for (int i = 0; i < N; i++) {
            double u = uniform(), sign = rnd() & 1 ? -1 : 1;
            p[i] = i < nsp ? sp[i] : i % 3 == 0 ? u : i % 3 == 1 ? std::pow(10.0, -323 * u) : 1 - std::pow(10.0, -16 * u);
            y[i] = i < nsy ? sy[i]
                   : i % 3 == 0 ? 2 * u - 1
                   : i % 3 == 1 ? sign * (1 - std::pow(10.0, -16 * u))
                                : sign * std::pow(10.0, -300 * u);
            z[i] = i < nsz ? sz[i] : i % 3 == 0 ? 2 * u : i % 3 == 1 ? std::pow(10.0, -323 * u) : 2 - std::pow(10.0, -15 * u);
        }
        std::vector<float> xf(x.begin(), x.end()), pf(p.begin(), p.end()), yf(y.begin(), y.end()), zf(z.begin(), z.end());
        double *d_x, *d_p, *d_y, *d_z, *d_dout = device_buffer<double>(N * N_MATH);
        float *d_xf, *d_pf, *d_yf, *d_zf, *d_fout = device_buffer<float>(N * N_MATH);
        copy_in(&d_x, x), copy_in(&d_p, p), copy_in(&d_y, y), copy_in(&d_z, z);
        copy_in(&d_xf, xf), copy_in(&d_pf, pf), copy_in(&d_yf, yf), copy_in(&d_zf, zf);
        math<<<N / BLOCK, BLOCK>>>(d_x, d_p, d_y, d_z, d_xf, d_pf, d_yf, d_zf, d_dout, d_fout);
        std::vector<double> dout = copy_out(d_dout, N * N_MATH);
        std::vector<float> fout = copy_out(d_fout, N * N_MATH);
        // tolerances in ulp: float 1 (computed in double); double 1, normcdf 4 (CUDA's bound is 5),
        // the inverses 4 (glibc's erf and erfc are within a few ulp themselves)
        double worst_f = 0, worst_d = 0;
        int worst_fk = 0, worst_dk = 0;
        for (int i = 0; i < N; i++)
            for (int prec = 0; prec < 2; prec++) {
                long double v[4], ref[N_MATH];
                for (int k = 0; k < 4; k++)
                    v[k] = prec ? (long double)x[i + k] : (long double)xf[i + k];
                long double pp = prec ? p[i] : pf[i], yy = prec ? y[i] : yf[i], zz = prec ? z[i] : zf[i];
                long double got[N_MATH];
                for (int k = 0; k < N_MATH; k++)
                    got[k] = prec ? (long double)dout[i * N_MATH + k] : (long double)fout[i * N_MATH + k];
                ref_sincospi(v[0], &ref[SINPI], &ref[COSPI]);
                ref[SINCOSPI_S] = ref[SINPI], ref[SINCOSPI_C] = ref[COSPI];
                ref[NORM3D] = ref_norm(v, 3, false), ref[NORM4D] = ref_norm(v, 4, false);
                ref[RNORM3D] = ref_norm(v, 3, true), ref[RNORM4D] = ref_norm(v, 4, true);
                ref[RHYPOT] = ref_norm(v, 2, true), ref[NORM] = ref[NORM4D], ref[RNORM] = ref[RNORM4D];
                ref[RCBRT] = ref_rcbrt(v[0]);
                ref[NORMCDF] = ref_normcdf(v[0]);
                ref[NORMCDFINV] = ref_normcdfinv(pp, got[NORMCDFINV]);
                ref[ERFINV] = ref_erfinv(yy, got[ERFINV]);
                ref[ERFCINV] = ref_erfcinv(zz, got[ERFCINV]);
                for (int k = 0; k < N_MATH; k++) {
                    double err = prec ? ulp_error((double)got[k], ref[k]) : ulp_error((float)got[k], ref[k]);
                    double tol = !prec ? 1 : k == NORMCDF || k >= NORMCDFINV ? 4 : 1;
                    if (err < 0 || err > tol) {
                        long double arg = k == NORMCDFINV ? pp : k == ERFINV ? yy : k == ERFCINV ? zz : v[0];
                        snprintf(msg, sizeof msg, "%s%s(%.17Lg%s) = %.17Lg, expected %.20Lg (%s%.2f ulp, tolerance %g)",
                                 math_name[k], prec ? "" : " (float)", arg, k >= NORM3D && k <= RNORM ? ", ..." : "",
                                 got[k], ref[k], err < 0 ? "not even close: " : "", err, tol);
                        return fail(msg);
                    }
                    if (prec && err > worst_d)
                        worst_d = err, worst_dk = k;
                    if (!prec && err > worst_f)
                        worst_f = err, worst_fk = k;
                }
            }
        printf("math: largest error %.2f ulp in float (%s), %.2f ulp in double (%s)\n", worst_f, math_name[worst_fk],
               worst_d, math_name[worst_dk]);
    }
    printf("intrinsics: correct\n");
    return 0;
}
