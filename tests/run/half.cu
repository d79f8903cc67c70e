// tests/run/half.cu - half precision (__half, __half2) and bfloat16 (__nv_bfloat16,
// __nv_bfloat162) in kernels and host code, checked against references this file computes in
// double precision, for both formats (the same templates):
//   1. conversions: every 16-bit pattern to float and back (the identity, NaN stays NaN), on the
//      host and in a kernel; floats at and beside every tie and every representable value (the
//      subnormals, the overflow edge) in the four rounding modes; integers both ways;
//   2. arithmetic in a kernel on 4096 operand sets (random bits: NaN, inf, subnormals too): + - * /
//      fma sqrt, exact against the double result rounded once (the intrinsics, the operators and
//      the pair forms); comparisons, max/min, neg/abs, saturation, floor/ceil/trunc/rint;
//   3. a FlashAttention inner loop as students write it: Q, K, V in half (bfloat16), tiles in
//      shared memory, scores and the online softmax in float, O in half, within a stated bound;
//   4. a warp reduction of pairs with __shfl_xor_sync, and __shfl_sync/_up/_down of one value;
//   5. atomicAdd on T and on pairs (sums exact in the format: the order does not matter);
//   and the math functions (hexp & co.) within one unit in the last place.
// Prints "half: correct" and "half: digest <hex>", a 64-bit FNV-1a hash of the bits of every
// exact result (1, 2, 4, 5; NaNs counted as one NaN), to compare with the same program built by
// nvcc on a GPU (scripts/gpu/half_parity.sh); the attention and math parts have digests of their
// own: a GPU's expf and its approximate hexp & co. may differ from these in a last bit.
// Plain CUDA: builds with nvcc -arch=sm_90 as it is.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector>

enum { RN, RZ, RD, RU };

// ---- each format's names, as overloads (the kernels are templates over the type): T the type,
// T2 its pair, N and N2 the spelling CUDA's names use (half, half2; bfloat16, bfloat162) ----
#define FORMAT_NAMES(T, T2, N, N2)                                                                                  \
    __host__ __device__ inline float tof(T h) { return __##N##2float(h); }                                          \
    __host__ __device__ inline unsigned short bits(T h) { return __##N##_as_ushort(h); }                            \
    __host__ __device__ inline void from_bits(unsigned short b, T &h) { h = __ushort_as_##N(b); }                   \
    __host__ __device__ inline void cvt(float f, int md, T &h)                                                      \
    {                                                                                                               \
        h = md == RN ? __float2##N##_rn(f) : md == RZ ? __float2##N##_rz(f) : md == RD ? __float2##N##_rd(f)        \
                                                                                       : __float2##N##_ru(f);       \
    }                                                                                                               \
    __device__ inline void to_ints(T h, int *o)                                                                     \
    {                                                                                                               \
        o[0] = __##N##2int_rn(h);                                                                                   \
        o[1] = __##N##2int_rz(h);                                                                                   \
        o[2] = __##N##2int_rd(h);                                                                                   \
        o[3] = __##N##2int_ru(h);                                                                                   \
        o[4] = (int)__##N##2uint_rz(h);                                                                             \
        o[5] = __##N##2short_rz(h);                                                                                 \
    }                                                                                                               \
    __device__ inline void from_int(int v, T *o)                                                                    \
    {                                                                                                               \
        o[0] = __int2##N##_rn(v);                                                                                   \
        o[1] = __uint2##N##_rn((unsigned)v);                                                                        \
        o[2] = __short2##N##_rn((short)v);                                                                          \
        o[3] = __int2##N##_rz(v);                                                                                   \
    }                                                                                                               \
    __host__ __device__ inline T2 pair_of(T a, T b) { return __halves2##N2(a, b); }                                 \
    __device__ inline float2 to_float2(T2 h) { return __##N2##2float2(h); }                                         \
    __device__ inline void from_float2(float2 f, T2 &p) { p = __float22##N2##_rn(f); }                              \
    __device__ inline void lanes(T2 p, T &lo, T &hi) { lo = __low2##N(p), hi = __high2##N(p); }
FORMAT_NAMES(__half, __half2, half, half2)
FORMAT_NAMES(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)
template <class T> struct fmt;
template <> struct fmt<__half> {
    typedef __half2 T2;
    enum { M = 10, EMIN = -14, EMAX = 15 };
};
template <> struct fmt<__nv_bfloat16> {
    typedef __nv_bfloat162 T2;
    enum { M = 7, EMIN = -126, EMAX = 127 };
};

// ---- the reference: a double rounded to the format (M fraction bits, exponents EMIN..EMAX) ----
// x + tail is the exact value (tail: below half an ulp of x; only its sign matters, at a tie)
static double ref_round(double x, double tail, int M, int emin, int emax, int md)
{
    if (x != x || std::isinf(x))
        return x;
    if (x == 0)
        return x;
    const double a = std::fabs(x), maxf = std::ldexp(2.0 - std::ldexp(1.0, -M), emax);
    int e;
    std::frexp(a, &e);
    e -= 1; // 2^e <= a < 2^(e + 1)
    const double q = std::ldexp(1.0, (e > emin ? e : emin) - M), n = a / q, fl = std::floor(n), frac = n - fl;
    const int tail_dir = tail == 0 ? 0 : (tail > 0) == (x > 0) ? 1 : -1;
    bool up = false;
    if (md == RN)
        up = frac > 0.5 || (frac == 0.5 && (tail_dir > 0 || (tail_dir == 0 && std::fmod(fl, 2.0) == 1.0)));
    else if (md == RU)
        up = frac > 0 && x > 0;
    else if (md == RD)
        up = frac > 0 && x < 0;
    double r = (fl + up) * q;
    if (r > maxf)
        r = md == RN || (md == RU && x > 0) || (md == RD && x < 0) ? INFINITY : maxf;
    return std::copysign(r, x);
}
template <class T>
static double ref(double x, double tail = 0, int md = RN)
{
    return ref_round(x, tail, fmt<T>::M, fmt<T>::EMIN, fmt<T>::EMAX, md);
}
// the same value (NaN matches NaN; zeros by their sign)
static bool same(double got, double want)
{
    if (got != got || want != want)
        return got != got && want != want;
    return got == want && std::signbit(got) == std::signbit(want);
}

// ---- the digests: FNV-1a over the results' bits, a NaN as one value ----
struct digest {
    uint64_t h = 14695981039346656037ull;
    void byte(unsigned char b) { h = (h ^ b) * 1099511628211ull; }
    void u16(unsigned short v, bool is_nan) { v = is_nan ? 0x7fff : v, byte(v & 0xff), byte(v >> 8); }
    void u32(uint32_t v)
    {
        for (int i = 0; i < 4; i++)
            byte((unsigned char)(v >> 8 * i));
    }
    template <class T> void val(T v) { u16(bits(v), tof(v) != tof(v)); }
    void f32(float f)
    {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        u32(f != f ? 0x7fffffffu : u);
    }
};
static int failures = 0;
static void fail(const char *what, int i, double got, double want)
{
    if (failures++ < 20)
        printf("half: WRONG %s [%d]: %.9g, expected %.9g\n", what, i, got, want);
}
#define CK(call)                                                                                                    \
    do {                                                                                                            \
        cudaError_t e_ = (call);                                                                                    \
        if (e_ != cudaSuccess) {                                                                                    \
            printf("half: %s failed: %s\n", #call, cudaGetErrorString(e_));                                         \
            return 1;                                                                                               \
        }                                                                                                           \
    } while (0)

// ---- 1. conversions ----
// every pattern: to float, back (rn); to the integers; from the integers
template <class T>
__global__ void patterns(float *wide, T *back, int *ints, T *from_ints)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 65536; i += gridDim.x * blockDim.x) {
        T h;
        from_bits((unsigned short)i, h);
        wide[i] = tof(h);
        cvt(wide[i], RN, back[i]);
        to_ints(h, ints + 6 * i);
        from_int(i - 32768 + (i & 7) * 100000, from_ints + 4 * i); // shorts, and ints past 2^16
    }
}
// floats in the four modes
template <class T>
__global__ void rounding(const float *in, int n, T *out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        for (int md = 0; md < 4; md++)
            cvt(in[i], md, out[4 * i + md]);
}
// pairs: float2 both ways, the lanes
template <class T>
__global__ void pairs(const float2 *in, int n, typename fmt<T>::T2 *out, float2 *wide, T *lo_hi)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        typename fmt<T>::T2 p;
        from_float2(in[i], p);
        out[i] = p;
        wide[i] = to_float2(p);
        lanes(p, lo_hi[2 * i + 1], lo_hi[2 * i]); // swapped
    }
}

// the floats to round: every value, the ties between neighbours and a float ulp either side
template <class T>
static std::vector<float> tricky_floats()
{
    std::vector<float> v;
    for (unsigned b = 0; b < 0x8000; b++) {
        T h, next;
        from_bits((unsigned short)b, h);
        from_bits((unsigned short)(b + 1), next);
        const float x = tof(h);
        if (std::isinf(x) || x != x)
            break;
        double hi = tof(next);
        if (std::isinf(hi)) // past the largest: the overflow edge is where the next exponent's first value would be
            hi = (double)x + std::ldexp(1.0, std::ilogb(x) - fmt<T>::M);
        const float m = (float)(((double)x + hi) / 2); // the tie, exact in float
        const float pick[] = {x, std::nextafter(x, INFINITY), m, std::nextafter(m, 0.0f),
                              std::nextafter(m, INFINITY)};
        for (float f : pick) {
            v.push_back(f);
            v.push_back(-f);
        }
    }
    v.push_back(INFINITY);
    v.push_back(-INFINITY);
    v.push_back(NAN);
    v.push_back(1e30f);
    v.push_back(-3.4e38f);
    v.push_back(1e-40f); // a float subnormal
    return v;
}

template <class T>
static int check_conversions(const char *name, digest &d)
{
    char what[64];
    // host: every pattern to float and back
    for (unsigned b = 0; b < 65536; b++) {
        T h, back;
        from_bits((unsigned short)b, h);
        const float f = tof(h);
        cvt(f, RN, back);
        if (f != f ? tof(back) == tof(back) : bits(back) != b)
            snprintf(what, sizeof what, "%s host round trip", name), fail(what, (int)b, tof(back), f);
    }
    // device: the same, the integers both ways
    float *wide;
    T *back, *from_ints;
    int *ints;
    CK(cudaMallocManaged(&wide, 65536 * sizeof(float)));
    CK(cudaMallocManaged(&back, 65536 * sizeof(T)));
    CK(cudaMallocManaged(&ints, 6 * 65536 * sizeof(int)));
    CK(cudaMallocManaged(&from_ints, 4 * 65536 * sizeof(T)));
    patterns<T><<<64, 128>>>(wide, back, ints, from_ints);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 65536; i++) {
        T h;
        from_bits((unsigned short)i, h);
        const float f = tof(h);
        snprintf(what, sizeof what, "%s to float", name);
        if (!same(wide[i], f))
            fail(what, i, wide[i], f);
        snprintf(what, sizeof what, "%s round trip", name);
        if (f != f ? tof(back[i]) == tof(back[i]) : bits(back[i]) != i)
            fail(what, i, tof(back[i]), f);
        // the integers: rounded, then saturated (NaN: 0)
        const double x = f;
        const double r[6] = {std::nearbyint(x), std::trunc(x), std::floor(x),
                             std::ceil(x),      std::trunc(x), std::trunc(x)};
        for (int k = 0; k < 6; k++) {
            const double lo = k == 4 ? 0 : k == 5 ? -32768 : -2147483648.0,
                         hi = k == 4 ? 4294967295.0 : k == 5 ? 32767 : 2147483647.0;
            const long long want = x != x ? 0 : (long long)(r[k] <= lo ? lo : r[k] >= hi ? hi : r[k]);
            const long long got = k == 4 ? (long long)(unsigned)ints[6 * i + k] : ints[6 * i + k];
            snprintf(what, sizeof what, "%s to integer (kind %d)", name, k);
            if (got != want)
                fail(what, i, (double)got, (double)want);
            d.u32((uint32_t)ints[6 * i + k]);
        }
        const long long v = i - 32768 + (i & 7) * 100000;
        const double want[4] = {ref<T>((double)(int)v), ref<T>((double)(unsigned)(int)v), ref<T>((double)(short)v),
                                ref<T>((double)(int)v, 0, RZ)};
        for (int k = 0; k < 4; k++) {
            snprintf(what, sizeof what, "%s from integer (kind %d)", name, k);
            if (!same(tof(from_ints[4 * i + k]), want[k]))
                fail(what, i, tof(from_ints[4 * i + k]), want[k]);
            d.val(from_ints[4 * i + k]);
        }
        d.f32(wide[i]);
        d.val(back[i]);
    }
    // floats in the four modes
    std::vector<float> fl = tricky_floats<T>();
    const int n = (int)fl.size();
    float *in;
    T *out;
    CK(cudaMallocManaged(&in, n * sizeof(float)));
    CK(cudaMallocManaged(&out, 4 * n * sizeof(T)));
    std::memcpy(in, fl.data(), n * sizeof(float));
    rounding<T><<<64, 128>>>(in, n, out);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        for (int md = 0; md < 4; md++) {
            const double want = ref<T>(fl[i], 0, md);
            T host;
            cvt(fl[i], md, host);
            snprintf(what, sizeof what, "%s rounding (mode %d)", name, md);
            if (!same(tof(out[4 * i + md]), want))
                fail(what, i, tof(out[4 * i + md]), want);
            snprintf(what, sizeof what, "%s host rounding (mode %d)", name, md);
            if (!same(tof(host), want))
                fail(what, i, tof(host), want);
            d.val(out[4 * i + md]);
        }
    // pairs
    const int np = 1024;
    float2 *pin, *pwide;
    typename fmt<T>::T2 *pout;
    T *lo_hi;
    CK(cudaMallocManaged(&pin, np * sizeof(float2)));
    CK(cudaMallocManaged(&pwide, np * sizeof(float2)));
    CK(cudaMallocManaged(&pout, np * sizeof(typename fmt<T>::T2)));
    CK(cudaMallocManaged(&lo_hi, 2 * np * sizeof(T)));
    for (int i = 0; i < np; i++)
        pin[i] = make_float2(fl[(size_t)i * 37 % n], fl[(size_t)i * 101 % n]);
    pairs<T><<<8, 64>>>(pin, np, pout, pwide, lo_hi);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < np; i++) {
        const double wx = ref<T>(pin[i].x), wy = ref<T>(pin[i].y);
        snprintf(what, sizeof what, "%s pairs", name);
        if (!same(tof(pout[i].x), wx) || !same(pwide[i].x, wx) || !same(tof(lo_hi[2 * i + 1]), wx))
            fail(what, i, tof(pout[i].x), wx);
        if (!same(tof(pout[i].y), wy) || !same(pwide[i].y, wy) || !same(tof(lo_hi[2 * i]), wy))
            fail(what, i, tof(pout[i].y), wy);
        d.val(pout[i].x), d.val(pout[i].y);
    }
    cudaFree(wide), cudaFree(back), cudaFree(ints), cudaFree(from_ints), cudaFree(in), cudaFree(out);
    cudaFree(pin), cudaFree(pwide), cudaFree(pout), cudaFree(lo_hi);
    return 0;
}

// ---- 2. arithmetic ----
enum { ADD, SUB, MUL, DIV, FMA, SQRT, OADD, OSUB, OMUL, ODIV, ONEG, P_ADD, P_SUB, P_MUL, P_DIV, P_FMA, P_SQRT,
       MAX, MIN, MAXN, MINN, NEG, ABS, ADDSAT, FLOOR, CEIL, TRUNC, RINT, NOPS };
template <class T>
__global__ void arith(const T *a, const T *b, const T *c, int n, T *out, unsigned *cmp)
{
    typedef typename fmt<T>::T2 T2;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const T x = a[i], y = b[i], z = c[i];
        T *o = out + (size_t)NOPS * i;
        o[ADD] = __hadd(x, y);
        o[SUB] = __hsub(x, y);
        o[MUL] = __hmul(x, y);
        o[DIV] = __hdiv(x, y);
        o[FMA] = __hfma(x, y, z);
        o[SQRT] = hsqrt(x);
        o[OADD] = x + y;
        o[OSUB] = x - y;
        o[OMUL] = x * y;
        o[ODIV] = x / y;
        o[ONEG] = -x;
        o[MAX] = __hmax(x, y);
        o[MIN] = __hmin(x, y);
        o[MAXN] = __hmax_nan(x, y);
        o[MINN] = __hmin_nan(x, y);
        o[NEG] = __hneg(x);
        o[ABS] = __habs(x);
        o[ADDSAT] = __hadd_sat(x, y);
        o[FLOOR] = hfloor(x);
        o[CEIL] = hceil(x);
        o[TRUNC] = htrunc(x);
        o[RINT] = hrint(x);
        unsigned m = __heq(x, y) | __hne(x, y) << 1 | __hlt(x, y) << 2 | __hle(x, y) << 3 | __hgt(x, y) << 4;
        m |= __hge(x, y) << 5 | __hequ(x, y) << 6 | __hneu(x, y) << 7 | __hltu(x, y) << 8 | __hleu(x, y) << 9;
        m |= __hgtu(x, y) << 10 | __hgeu(x, y) << 11 | (x == y) << 12 | (x != y) << 13 | (x < y) << 14;
        m |= (x <= y) << 15 | (x > y) << 16 | (x >= y) << 17 | __hisnan(x) << 18 | (__hisinf(x) + 1) << 19;
        if (i % 2 == 0 && i + 1 < n) { // the pair forms, on (i, i + 1): 4-byte loads of the pairs
            const T2 px = reinterpret_cast<const T2 *>(a)[i / 2], py = reinterpret_cast<const T2 *>(b)[i / 2],
                     pz = reinterpret_cast<const T2 *>(c)[i / 2];
            T2 r[6] = {__hadd2(px, py), px - py, __hmul2(px, py), px / py, __hfma2(px, py, pz), h2sqrt(px)};
            for (int k = 0; k < 6; k++) {
                T lo, hi;
                lanes(r[k], lo, hi);
                o[P_ADD + k] = lo;
                out[(size_t)NOPS * (i + 1) + P_ADD + k] = hi;
            }
            const unsigned le = __hle2_mask(px, py);
            const T2 gt = __hgt2(px, py);
            m |= __hbeq2(px, py) << 21 | __hblt2(px, py) << 22 | __hbgeu2(px, py) << 23;
            m |= ((le & 0xffffu) == 0xffffu) << 24 | (le >> 16 == 0xffffu) << 25 | (__low2float(gt) == 1.0f) << 26;
            m |= (__high2float(gt) == 1.0f) << 27 | (px == py) << 28 | (px != py) << 29;
            m |= (__low2float(__hisnan2(px)) == 1.0f) << 30;
        }
        cmp[i] = m;
    }
}

template <class T>
static double ref_op(int op, double x, double y, double z)
{
    switch (op) {
    case ADD: case OADD: case P_ADD: return ref<T>(x + y);
    case SUB: case OSUB: case P_SUB: return ref<T>(x - y);
    case MUL: case OMUL: case P_MUL: return ref<T>(x * y); // exact in double
    case DIV: case ODIV: case P_DIV: return ref<T>(x / y); // double rounding innocuous: 53 >= 2p + 2
    case SQRT: case P_SQRT: return ref<T>(std::sqrt(x));
    case FMA: case P_FMA: { // the product is exact in double; the sum with its error (Fast2Sum)
        const double p = x * y, s = p + z, big = std::fabs(p) >= std::fabs(z) ? p : z, small = big == p ? z : p;
        return ref<T>(s, std::isfinite(s) ? small - (s - big) : 0);
    }
    case ONEG: case NEG: return x != x ? x : -x;
    case ABS: return std::fabs(x);
    case MAX: case MAXN:
        if (x != x || y != y)
            return op == MAXN || (x != x && y != y) ? NAN : x != x ? y : x;
        return x > y ? x : y > x ? y : (std::signbit(x) ? y : x);
    case MIN: case MINN:
        if (x != x || y != y)
            return op == MINN || (x != x && y != y) ? NAN : x != x ? y : x;
        return x < y ? x : y < x ? y : (std::signbit(x) ? x : y);
    case ADDSAT: {
        const double s = ref<T>(x + y);
        return s > 0 ? (s < 1 ? s : 1.0) : 0.0;
    }
    case FLOOR: return std::floor(x);
    case CEIL: return std::ceil(x);
    case TRUNC: return std::trunc(x);
    default: return std::nearbyint(x);
    }
}
static const char *const op_names[NOPS] = {"__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "hsqrt", "+", "-", "*",
                                           "/", "unary -", "__hadd2", "- (pairs)", "__hmul2", "/ (pairs)", "__hfma2",
                                           "h2sqrt", "__hmax", "__hmin", "__hmax_nan", "__hmin_nan", "__hneg",
                                           "__habs", "__hadd_sat", "hfloor", "hceil", "htrunc", "hrint"};

static uint32_t lcg(uint32_t &s) { return s = s * 1664525u + 1013904223u; }
// ==, != (ordered), <, <=, >, >=, then the unordered six (true with a NaN)
static void compare12(double x, double y, bool *c)
{
    const bool un = x != x || y != y;
    const bool v[12] = {x == y, !un && x != y, x < y,       x <= y,       x > y,       x >= y,
                        un || x == y, un || x != y, un || x < y, un || x <= y, un || x > y, un || x >= y};
    for (int k = 0; k < 12; k++)
        c[k] = v[k];
}

template <class T>
static int check_arithmetic(const char *name, digest &d)
{
    const int n = 4096;
    T *a, *b, *c, *out;
    unsigned *cmp;
    CK(cudaMallocManaged(&a, n * sizeof(T)));
    CK(cudaMallocManaged(&b, n * sizeof(T)));
    CK(cudaMallocManaged(&c, n * sizeof(T)));
    CK(cudaMallocManaged(&out, (size_t)NOPS * n * sizeof(T)));
    CK(cudaMallocManaged(&cmp, n * sizeof(unsigned)));
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        // random bits; every fourth set near one another (ties, cancellation, equal operands)
        const unsigned short x = (unsigned short)(lcg(s) >> 16);
        unsigned short y = (unsigned short)(lcg(s) >> 16), z = (unsigned short)(lcg(s) >> 16);
        if (i % 4 == 1)
            y = (unsigned short)(x + (lcg(s) >> 29) - 4);
        if (i % 4 == 2)
            y = x, z = (unsigned short)((lcg(s) >> 16) & 0x83ff); // a subnormal addend
        if (i % 8 == 3)
            y = (unsigned short)(x ^ 0x8000);
        from_bits(x, a[i]), from_bits(y, b[i]), from_bits(z, c[i]);
    }
    // fma at a tie: 1.5 (1 + 2^-M) is halfway between two neighbours, and the smallest subnormal
    // added decides (a sum rounded to float, or to double for bfloat16, would lose it: a tie)
    for (int i = 0; i < 8; i++) {
        a[i] = T(i & 1 ? -1.5f : 1.5f);
        b[i] = T(1.0f + std::ldexp(1.0f, -fmt<T>::M) * (i & 4 ? 3 : 1));
        from_bits(i & 2 ? 0x8001 : 0x0001, c[i]);
    }
    arith<T><<<32, 64>>>(a, b, c, n, out, cmp);
    CK(cudaDeviceSynchronize());
    char what[64];
    for (int i = 0; i < n; i++) {
        const double x = tof(a[i]), y = tof(b[i]), z = tof(c[i]);
        for (int op = 0; op < NOPS; op++) {
            const double want = ref_op<T>(op, x, y, z), got = tof(out[(size_t)NOPS * i + op]);
            snprintf(what, sizeof what, "%s %s", name, op_names[op]);
            if (!same(got, want))
                fail(what, i, got, want);
            d.val(out[(size_t)NOPS * i + op]);
        }
        bool c12[12], p12[12]; // (x, y) and, for an even i, the pair's high lane (i + 1)
        compare12(x, y, c12);
        unsigned want = 0;
        for (int k = 0; k < 12; k++)
            want |= (unsigned)c12[k] << k;
        want |= (unsigned)c12[0] << 12 | (unsigned)c12[7] << 13 | (unsigned)c12[2] << 14 | (unsigned)c12[3] << 15 |
                (unsigned)c12[4] << 16 | (unsigned)c12[5] << 17 | (unsigned)(x != x) << 18 |
                (unsigned)(std::isinf(x) ? (x > 0 ? 2 : 0) : 1) << 19;
        if (i % 2 == 0 && i + 1 < n) {
            compare12(tof(a[i + 1]), tof(b[i + 1]), p12);
            want |= (unsigned)(c12[0] && p12[0]) << 21 | (unsigned)(c12[2] && p12[2]) << 22 |
                    (unsigned)(c12[11] && p12[11]) << 23 | (unsigned)c12[3] << 24 | (unsigned)p12[3] << 25 |
                    (unsigned)c12[4] << 26 | (unsigned)p12[4] << 27 | (unsigned)(c12[0] && p12[0]) << 28 |
                    (unsigned)(c12[7] && p12[7]) << 29 | (unsigned)(x != x) << 30;
        }
        snprintf(what, sizeof what, "%s comparisons", name);
        if (cmp[i] != want)
            fail(what, i, cmp[i], want);
        d.u32(cmp[i]);
    }
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(out), cudaFree(cmp);
    return 0;
}

// ---- math functions: within one unit in the last place (the GPU's are approximations) ----
enum { EXP, EXP2, LOG, LOG2, RSQRT, RCP, SIN, COS, TANH, NMATH };
template <class T>
__global__ void math(const T *a, int n, T *out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const T x = a[i];
        T *o = out + (size_t)NMATH * i;
        o[EXP] = hexp(x);
        o[EXP2] = hexp2(x);
        o[LOG] = hlog(x);
        o[LOG2] = hlog2(x);
        o[RSQRT] = hrsqrt(x);
        o[RCP] = hrcp(x);
        o[SIN] = hsin(x);
        o[COS] = hcos(x);
        o[TANH] = htanh(x);
    }
}
template <class T>
static int check_math(const char *name, digest &d)
{
    const int n = 2048;
    T *a, *out;
    CK(cudaMallocManaged(&a, n * sizeof(T)));
    CK(cudaMallocManaged(&out, (size_t)NMATH * n * sizeof(T)));
    uint32_t s = 777;
    for (int i = 0; i < n; i++) // in [-12, 12]: no overflow, and the arguments sin and cos are accurate for
        a[i] = T(((float)(lcg(s) >> 8) / 16777216.0f - 0.5f) * 24.0f);
    math<T><<<16, 64>>>(a, n, out);
    CK(cudaDeviceSynchronize());
    char what[64];
    for (int i = 0; i < n; i++) {
        const double x = tof(a[i]);
        const double want[NMATH] = {std::exp(x), std::exp2(x), std::log(x), std::log2(x), 1 / std::sqrt(x),
                                    1 / x, std::sin(x), std::cos(x), std::tanh(x)};
        for (int k = 0; k < NMATH; k++) {
            const double got = tof(out[(size_t)NMATH * i + k]), w = want[k];
            // one unit in the last place of the format at w (the subnormals' for tiny w)
            // (or w rounded to the format: inf past its largest value)
            int e;
            std::frexp(w, &e);
            const double ulp = std::ldexp(1.0, (e - 1 > fmt<T>::EMIN ? e - 1 : fmt<T>::EMIN) - fmt<T>::M);
            const bool ok = same(got, ref<T>(w)) || std::fabs(got - w) <= ulp;
            snprintf(what, sizeof what, "%s math function %d", name, k);
            if (!ok)
                fail(what, i, got, w);
            d.val(out[(size_t)NMATH * i + k]);
        }
    }
    cudaFree(a), cudaFree(out);
    return 0;
}

// ---- 3. attention: a FlashAttention forward's inner loop, one query row a thread ----
// Q, K, V: [n][D] in T; O = softmax(Q K^T / sqrt(D)) V in T. K and V tiles of BK rows go through
// shared memory as pairs (4-byte loads); the scores, the running max and sum and the accumulator
// are float, as students write it.
enum { D = 32, BK = 16 };
template <class T>
__global__ void attention(const T *Q, const T *K, const T *V, T *O, int n)
{
    typedef typename fmt<T>::T2 T2;
    __shared__ T2 ks[BK][D / 2], vs[BK][D / 2];
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float q[D], acc[D], m = -INFINITY, l = 0;
    const float scale = 1.0f / sqrtf((float)D);
    for (int k = 0; k < D; k++)
        q[k] = tof(Q[row * D + k]) * scale, acc[k] = 0;
    for (int j0 = 0; j0 < n; j0 += BK) {
        for (int t = threadIdx.x; t < BK * D / 2; t += blockDim.x) {
            ks[t / (D / 2)][t % (D / 2)] = reinterpret_cast<const T2 *>(K + (size_t)j0 * D)[t];
            vs[t / (D / 2)][t % (D / 2)] = reinterpret_cast<const T2 *>(V + (size_t)j0 * D)[t];
        }
        __syncthreads();
        for (int j = 0; j < BK; j++) {
            float sc = 0;
            for (int k = 0; k < D / 2; k++) {
                const float2 kk = to_float2(ks[j][k]);
                sc += q[2 * k] * kk.x + q[2 * k + 1] * kk.y;
            }
            const float m_new = fmaxf(m, sc), corr = expf(m - m_new), p = expf(sc - m_new);
            l = l * corr + p;
            for (int k = 0; k < D / 2; k++) {
                const float2 vv = to_float2(vs[j][k]);
                acc[2 * k] = acc[2 * k] * corr + p * vv.x;
                acc[2 * k + 1] = acc[2 * k + 1] * corr + p * vv.y;
            }
            m = m_new;
        }
        __syncthreads();
    }
    for (int k = 0; k < D; k++)
        O[row * D + k] = T(acc[k] / l);
}
template <class T>
static int check_attention(const char *name, digest &d)
{
    const int n = 128;
    T *q, *k, *v, *o;
    CK(cudaMallocManaged(&q, n * D * sizeof(T)));
    CK(cudaMallocManaged(&k, n * D * sizeof(T)));
    CK(cudaMallocManaged(&v, n * D * sizeof(T)));
    CK(cudaMallocManaged(&o, n * D * sizeof(T)));
    uint32_t s = 99;
    for (int i = 0; i < n * D; i++) { // in [-2, 2), [-2, 2), [-1, 1): scores up to a few units
        q[i] = T(((float)(lcg(s) >> 8) / 16777216.0f - 0.5f) * 4);
        k[i] = T(((float)(lcg(s) >> 8) / 16777216.0f - 0.5f) * 4);
        v[i] = T(((float)(lcg(s) >> 8) / 16777216.0f - 0.5f) * 2);
    }
    attention<T><<<n / 32, 32>>>(q, k, v, o, n);
    CK(cudaDeviceSynchronize());
    // O's entries are weighted means of V's, in [-1, 1]: within one unit in the last place of the
    // format at 1 (2^-10 for half, 2^-7 for bfloat16) of the double result, the rounding of the
    // output itself (half an ulp) with as much again for the float arithmetic
    const double tol = std::ldexp(1.0, -fmt<T>::M);
    double worst = 0;
    for (int r = 0; r < n; r++) {
        std::vector<double> sc(n);
        double mx = -INFINITY, sum = 0;
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int c = 0; c < D; c++)
                t += (double)tof(q[r * D + c]) * tof(k[j * D + c]);
            sc[j] = t / std::sqrt((double)D);
            mx = sc[j] > mx ? sc[j] : mx;
        }
        for (int j = 0; j < n; j++)
            sum += sc[j] = std::exp(sc[j] - mx);
        for (int c = 0; c < D; c++) {
            double want = 0;
            for (int j = 0; j < n; j++)
                want += sc[j] * tof(v[j * D + c]);
            want /= sum;
            const double err = std::fabs(tof(o[r * D + c]) - want);
            worst = err > worst ? err : worst;
            char what[64];
            snprintf(what, sizeof what, "%s attention", name);
            if (!(err <= tol))
                fail(what, r * D + c, tof(o[r * D + c]), want);
            d.val(o[r * D + c]);
        }
    }
    printf("half: %s attention: largest error %.3g (bound %.3g)\n", name, worst, tol);
    cudaFree(q), cudaFree(k), cudaFree(v), cudaFree(o);
    return 0;
}

// ---- 4. warp shuffles: a butterfly sum of pairs; one value up, down and across ----
template <class T>
__global__ void warp_sum(const typename fmt<T>::T2 *in, typename fmt<T>::T2 *sum, T *moved)
{
    typedef typename fmt<T>::T2 T2;
    const int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
    T2 v = __ldg(&in[i]);
    for (int off = 16; off > 0; off /= 2)
        v = __hadd2(v, __shfl_xor_sync(0xffffffffu, v, off));
    sum[i] = v;
    const T x = __low2float(in[i]) == 0 ? T(0.0f) : __high2float(in[i]) > 0 ? T(__low2float(in[i])) : T(-1.0f);
    moved[3 * i] = __shfl_sync(0xffffffffu, x, 31 - lane);
    moved[3 * i + 1] = __shfl_up_sync(0xffffffffu, x, 3);
    moved[3 * i + 2] = __shfl_down_sync(0xffffffffu, x, 5);
}
template <class T>
static int check_shuffles(const char *name, digest &d)
{
    typedef typename fmt<T>::T2 T2;
    const int n = 128; // four warps
    T2 *in, *sum;
    T *moved;
    CK(cudaMallocManaged(&in, n * sizeof(T2)));
    CK(cudaMallocManaged(&sum, n * sizeof(T2)));
    CK(cudaMallocManaged(&moved, 3 * n * sizeof(T)));
    for (int i = 0; i < n; i++) // sums exact in both formats: quarters and halves, at most 4 * 31
        in[i] = pair_of(T((float)(i % 32) * 0.25f * (i / 32 + 1)), T(-(float)(i % 7) * 0.5f));
    warp_sum<T><<<2, 64>>>(in, sum, moved);
    CK(cudaDeviceSynchronize());
    char what[64];
    for (int i = 0; i < n; i++) {
        const int w = i / 32 * 32;
        double lo = 0, hi = 0;
        for (int j = w; j < w + 32; j++)
            lo += tof(in[j].x), hi += tof(in[j].y);
        snprintf(what, sizeof what, "%s __shfl_xor_sync sum", name);
        if (tof(sum[i].x) != lo || tof(sum[i].y) != hi)
            fail(what, i, tof(sum[i].x), lo);
        d.val(sum[i].x), d.val(sum[i].y);
        const int lane = i % 32, from[3] = {w + 31 - lane, lane >= 3 ? i - 3 : i, lane + 5 < 32 ? i + 5 : i};
        for (int k = 0; k < 3; k++) {
            const float fx = tof(in[from[k]].x), fy = tof(in[from[k]].y);
            const double want = fx == 0 ? 0.0 : fy > 0 ? (double)fx : -1.0;
            snprintf(what, sizeof what, "%s __shfl_sync/up/down (kind %d)", name, k);
            if (tof(moved[3 * i + k]) != want)
                fail(what, i, tof(moved[3 * i + k]), want);
            d.val(moved[3 * i + k]);
        }
    }
    cudaFree(in), cudaFree(sum), cudaFree(moved);
    return 0;
}

// ---- 5. atomicAdd ----
template <class T>
__global__ void atomics(T *counters, typename fmt<T>::T2 *pairs, T step, T *olds)
{
    typedef typename fmt<T>::T2 T2;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    olds[i] = atomicAdd(&counters[i % 4], step);
    atomicAdd(&pairs[i % 2], pair_of(step, T(-2.0f)));
}
template <class T>
static int check_atomics(const char *name, digest &d)
{
    typedef typename fmt<T>::T2 T2;
    // 512 threads, 128 a counter: steps of 1 (bfloat16: integers to 256 are exact) or 0.5 (half)
    const int n = 512;
    const float step = fmt<T>::M >= 10 ? 0.5f : 1.0f;
    T *counters, *olds;
    T2 *pairs;
    CK(cudaMallocManaged(&counters, 4 * sizeof(T)));
    CK(cudaMallocManaged(&pairs, 2 * sizeof(T2)));
    CK(cudaMallocManaged(&olds, n * sizeof(T)));
    for (int k = 0; k < 4; k++)
        counters[k] = T(0.0f);
    pairs[0] = pairs[1] = pair_of(T(0.0f), T(0.0f));
    atomics<T><<<4, 128>>>(counters, pairs, T(step), olds);
    CK(cudaDeviceSynchronize());
    char what[64];
    for (int k = 0; k < 4; k++) {
        snprintf(what, sizeof what, "%s atomicAdd", name);
        if (tof(counters[k]) != 128 * step)
            fail(what, k, tof(counters[k]), 128 * step);
        // each thread saw a different partial sum: 0, step, ..., 127 step, once each
        std::vector<int> seen(128, 0);
        for (int i = k; i < n; i += 4) {
            const double j = tof(olds[i]) / step;
            if (j >= 0 && j < 128 && j == (int)j)
                seen[(int)j]++;
        }
        for (int j = 0; j < 128; j++)
            if (seen[j] != 1)
                snprintf(what, sizeof what, "%s atomicAdd's old values", name), fail(what, j, seen[j], 1);
        d.val(counters[k]);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(what, sizeof what, "%s atomicAdd on pairs", name);
        if (tof(pairs[k].x) != 256 * step || tof(pairs[k].y) != -512)
            fail(what, k, tof(pairs[k].x), 256 * step);
        d.val(pairs[k].x), d.val(pairs[k].y);
    }
    cudaFree(counters), cudaFree(pairs), cudaFree(olds);
    return 0;
}

template <class T>
static int check_all(const char *name, digest &exact, digest &attn, digest &mathd)
{
    digest own;
    if (check_conversions<T>(name, own) || check_arithmetic<T>(name, own) || check_shuffles<T>(name, own) ||
        check_atomics<T>(name, own) || check_attention<T>(name, attn) || check_math<T>(name, mathd))
        return 1;
    printf("half: digest %s %016llx\n", name, (unsigned long long)own.h);
    exact.u32((uint32_t)own.h), exact.u32((uint32_t)(own.h >> 32));
    return 0;
}

int main()
{
    // the types as CUDA lays them out
    static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "half");
    static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "half2");
    static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "bf16");
    // host code: the constants, constructors and conversions a program fills its arrays with
    const __half one = 1.0f, three = 3, h_from_double = 0.1;
    const half2 h2 = __floats2half2_rn(1.5f, -2.0f);
    const __nv_bfloat16 b = __float2bfloat16(3.0f);
    if (__half2float(one) != 1 || (float)three != 3 || __half_as_ushort(h_from_double) != 0x2e66 ||
        __low2float(h2) != 1.5f || __high2float(h2) != -2.0f || __bfloat162float(b) != 3 ||
        __half_as_ushort(CUDART_INF_FP16) != 0x7c00 || !__hisnan(CUDART_NAN_FP16) ||
        __bfloat16_as_ushort(CUDART_INF_BF16) != 0x7f80 || __half_as_ushort(__float2half(65520.0f)) != 0x7c00 ||
        __half_as_ushort(__float2half(5.9604645e-8f)) != 0x0001 || __half_as_ushort(__float2half(2.9802322e-8f)) != 0)
        fail("host conversions", 0, 0, 0);
    digest exact, attn, mathd;
    if (check_all<__half>("f16", exact, attn, mathd) || check_all<__nv_bfloat16>("bf16", exact, attn, mathd))
        return 1;
    printf("half: digest attention %016llx (a GPU's expf and fused float fma may change a last bit)\n",
           (unsigned long long)attn.h);
    printf("half: digest math %016llx (a GPU's hexp & co. are approximations)\n", (unsigned long long)mathd.h);
    printf("half: digest %016llx\n", (unsigned long long)exact.h);
    printf("half: %s\n", failures ? "WRONG" : "correct");
    return failures != 0;
}
