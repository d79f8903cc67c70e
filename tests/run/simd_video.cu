// tests/run/simd_video.cu - CUDA's SIMD video intrinsics (__vadd4, __vabsdiffu2, __vcmpgtu4, ...)
// in a kernel, against references the host computes lane by lane its own way (int8_t / int16_t
// arithmetic, no shared code with sim/run/include/simtlab_simd.h), bit for bit, on 4096 operand
// pairs: edge lanes (0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff) and random words. Plain CUDA:
// it builds with nvcc too, and its digest line compares the simulator with a GPU
// (scripts/gpu/shim_parity.sh). Prints the first mismatch and exits 1, or "simd_video: correct".
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define FUNCS(X)                                                                                            \
    X(vadd2) X(vadd4) X(vaddss2) X(vaddss4) X(vaddus2) X(vaddus4) X(vsub2) X(vsub4) X(vsubss2) X(vsubss4)  \
    X(vsubus2) X(vsubus4) X(vavgs2) X(vavgs4) X(vavgu2) X(vavgu4) X(vhaddu2) X(vhaddu4) X(vabsdiffs2)       \
    X(vabsdiffs4) X(vabsdiffu2) X(vabsdiffu4) X(vmaxs2) X(vmaxs4) X(vmaxu2) X(vmaxu4) X(vmins2) X(vmins4)  \
    X(vminu2) X(vminu4) X(vcmpeq2) X(vcmpeq4) X(vcmpne2) X(vcmpne4) X(vcmpges2) X(vcmpges4) X(vcmpgeu2)    \
    X(vcmpgeu4) X(vcmpgts2) X(vcmpgts4) X(vcmpgtu2) X(vcmpgtu4) X(vcmples2) X(vcmples4) X(vcmpleu2)        \
    X(vcmpleu4) X(vcmplts2) X(vcmplts4) X(vcmpltu2) X(vcmpltu4) X(vseteq2) X(vseteq4) X(vsetne2)           \
    X(vsetne4) X(vsetges2) X(vsetges4) X(vsetgeu2) X(vsetgeu4) X(vsetgts2) X(vsetgts4) X(vsetgtu2)         \
    X(vsetgtu4) X(vsetles2) X(vsetles4) X(vsetleu2) X(vsetleu4) X(vsetlts2) X(vsetlts4) X(vsetltu2)        \
    X(vsetltu4) X(vsads2) X(vsads4) X(vsadu2) X(vsadu4)
#define UNARY(X) X(vabs2) X(vabs4) X(vabsss2) X(vabsss4) X(vneg2) X(vneg4) X(vnegss2) X(vnegss4)

#define NAME(f) #f,
static const char *const names[] = {FUNCS(NAME) UNARY(NAME)};
constexpr int NF = sizeof names / sizeof names[0], N = 4096;

__global__ void simd(const unsigned *x, const unsigned *y, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = x[i], b = y[i], *o = out + (size_t)i * NF;
#define CALL2(f) *o++ = __##f(a, b);
#define CALL1(f) *o++ = __##f(a);
    FUNCS(CALL2)
    UNARY(CALL1)
}

// ---- the host's references: one lane at a time, in the lane's own C type ----
enum Op { ADD, ADDSS, ADDUS, SUB, SUBSS, SUBUS, AVGS, AVGU, HADDU, ABSDS, ABSDU, MAXS, MAXU, MINS, MINU,
          EQ, NE, GES, GEU, GTS, GTU, LES, LEU, LTS, LTU, ABS, ABSSS, NEG, NEGSS };

static long long clamp(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }

// one lane: sa, sb the signed values, ua, ub the unsigned ones, bits its width
static long long lane(Op op, long long sa, long long sb, long long ua, long long ub, int bits, bool set)
{
    const long long smin = -(1ll << (bits - 1)), smax = (1ll << (bits - 1)) - 1, umax = (1ll << bits) - 1;
    const long long yes = set ? 1 : umax;
    switch (op) {
    case ADD: return ua + ub;
    case ADDSS: return clamp(sa + sb, smin, smax);
    case ADDUS: return clamp(ua + ub, 0, umax);
    case SUB: return ua - ub;
    case SUBSS: return clamp(sa - sb, smin, smax);
    case SUBUS: return clamp(ua - ub, 0, umax);
    case AVGS: { long long s = sa + sb; return s >= 0 ? (s + 1) / 2 : -((-s + 1) / 2); } // halves away from 0
    case AVGU: return (ua + ub + 1) / 2;
    case HADDU: return (ua + ub) / 2;
    case ABSDS: return sa > sb ? sa - sb : sb - sa;
    case ABSDU: return ua > ub ? ua - ub : ub - ua;
    case MAXS: return sa > sb ? sa : sb;
    case MAXU: return ua > ub ? ua : ub;
    case MINS: return sa < sb ? sa : sb;
    case MINU: return ua < ub ? ua : ub;
    case EQ: return ua == ub ? yes : 0;
    case NE: return ua != ub ? yes : 0;
    case GES: return sa >= sb ? yes : 0;
    case GEU: return ua >= ub ? yes : 0;
    case GTS: return sa > sb ? yes : 0;
    case GTU: return ua > ub ? yes : 0;
    case LES: return sa <= sb ? yes : 0;
    case LEU: return ua <= ub ? yes : 0;
    case LTS: return sa < sb ? yes : 0;
    case LTU: return ua < ub ? yes : 0;
    case ABS: return sa < 0 ? -sa : sa;
    case ABSSS: return clamp(sa < 0 ? -sa : sa, smin, smax);
    case NEG: return -sa;
    case NEGSS: return clamp(-sa, smin, smax);
    }
    return 0;
}

// the whole word: lanes of 16 (two) or 8 (four) bits; sad: the sum of the lanes instead
static unsigned word(Op op, unsigned a, unsigned b, int n, bool set, bool sad)
{
    unsigned r = 0;
    for (int k = 0; k < n; k++) {
        long long sa, sb, ua, ub;
        if (n == 2) {
            sa = (int16_t)(a >> 16 * k), sb = (int16_t)(b >> 16 * k);
            ua = (uint16_t)(a >> 16 * k), ub = (uint16_t)(b >> 16 * k);
        } else {
            sa = (int8_t)(a >> 8 * k), sb = (int8_t)(b >> 8 * k);
            ua = (uint8_t)(a >> 8 * k), ub = (uint8_t)(b >> 8 * k);
        }
        long long v = lane(op, sa, sb, ua, ub, 32 / n, set);
        if (sad)
            r += (unsigned)v;
        else
            r |= (unsigned)(v & ((1ll << (32 / n)) - 1)) << (32 / n) * k;
    }
    return r;
}

static unsigned reference(int f, unsigned a, unsigned b)
{
    // FUNCS's order: each family's 2 then 4
    static const Op fam[] = {ADD, ADDSS, ADDUS, SUB, SUBSS, SUBUS, AVGS, AVGU, HADDU, ABSDS, ABSDU, MAXS, MAXU, MINS,
                             MINU, EQ, NE, GES, GEU, GTS, GTU, LES, LEU, LTS, LTU};
    const int nfam = sizeof fam / sizeof fam[0];
    const int n = f % 2 ? 4 : 2;
    if (f < 2 * nfam)
        return word(fam[f / 2], a, b, n, false, false);
    f -= 2 * nfam;
    if (f < 2 * 10) // vset: the comparisons again, 1 for true
        return word(fam[15 + f / 2], a, b, n, true, false);
    f -= 2 * 10;
    if (f < 4) // vsads2, vsads4, vsadu2, vsadu4
        return word(f < 2 ? ABSDS : ABSDU, a, b, n, false, true);
    f -= 4;
    static const Op un[] = {ABS, ABSSS, NEG, NEGSS};
    return word(un[f / 2], a, 0, n, false, false);
}

int main()
{
    std::vector<unsigned> x(N), y(N), out((size_t)N * NF);
    const unsigned edge[] = {0u, 1u, 0x7fu, 0x80u, 0xffu, 0x7fffu, 0x8000u, 0xffffu, 0x7f7f7f7fu, 0x80808080u,
                             0xffffffffu, 0x7fff8000u, 0x80007fffu, 0x01ff7f80u};
    const int ne = sizeof edge / sizeof edge[0];
    unsigned long long s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (i < ne * ne) {
            x[i] = edge[i / ne];
            y[i] = edge[i % ne];
        } else {
            x[i] = (unsigned)(s >> 32);
            y[i] = (unsigned)s;
        }
    }
    unsigned *dx, *dy, *dout;
    cudaMalloc(&dx, N * 4);
    cudaMalloc(&dy, N * 4);
    cudaMalloc(&dout, (size_t)N * NF * 4);
    cudaMemcpy(dx, x.data(), N * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), N * 4, cudaMemcpyHostToDevice);
    simd<<<N / 128, 128>>>(dx, dy, dout);
    cudaError_t e = cudaMemcpy(out.data(), dout, (size_t)N * NF * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("simd_video: %s\n", cudaGetErrorString(e));
        return 1;
    }
    unsigned long long h = 0xcbf29ce484222325ull; // FNV-1a over every result's bytes
    for (size_t k = 0; k < out.size(); k++)
        for (int b = 0; b < 4; b++)
            h = (h ^ (out[k] >> 8 * b & 0xff)) * 0x100000001b3ull;
    printf("simd_video: digest %016llx\n", h);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; i++)
        for (int f = 0; f < NF && bad < 5; f++) {
            unsigned want = reference(f, x[i], y[i]), got = out[(size_t)i * NF + f];
            if (got != want) {
                printf("simd_video: __%s(0x%08x, 0x%08x) = 0x%08x, expected 0x%08x: WRONG\n", names[f], x[i], y[i], got,
                       want);
                bad++;
            }
        }
    if (bad)
        return 1;
    printf("simd_video: correct (%d functions, %d operand pairs)\n", NF, N);
    return 0;
}
