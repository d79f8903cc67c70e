// tests/run/dpx.cu - sm_90's DPX functions (__vimax3_s32, __viaddmax_u16x2, __vibmin_s16x2, ...)
// in a kernel against references the host computes lane by lane in the lanes' own C types, bit for
// bit, on 4096 operand triples (edge values and random words); the flags of __vibmax/__vibmin too.
// Plain CUDA (nvcc -arch=sm_90 builds it): its digest line compares the simulator with a GPU.
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int N = 4096, NF = 36;

__global__ void dpx(const unsigned *x, const unsigned *y, const unsigned *z, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = x[i], b = y[i], c = z[i], *o = out + (size_t)i * NF;
    int sa = (int)a, sb = (int)b, sc = (int)c;
    bool p, q;
    unsigned v;
    *o++ = (unsigned)__vimax_s32_relu(sa, sb);
    *o++ = (unsigned)__vimin_s32_relu(sa, sb);
    *o++ = __vimax_s16x2_relu(a, b);
    *o++ = __vimin_s16x2_relu(a, b);
    *o++ = (unsigned)__vimax3_s32(sa, sb, sc);
    *o++ = __vimax3_u32(a, b, c);
    *o++ = (unsigned)__vimin3_s32(sa, sb, sc);
    *o++ = __vimin3_u32(a, b, c);
    *o++ = (unsigned)__vimax3_s32_relu(sa, sb, sc);
    *o++ = (unsigned)__vimin3_s32_relu(sa, sb, sc);
    *o++ = __vimax3_s16x2(a, b, c);
    *o++ = __vimax3_u16x2(a, b, c);
    *o++ = __vimin3_s16x2(a, b, c);
    *o++ = __vimin3_u16x2(a, b, c);
    *o++ = __vimax3_s16x2_relu(a, b, c);
    *o++ = __vimin3_s16x2_relu(a, b, c);
    *o++ = (unsigned)__viaddmax_s32(sa, sb, sc);
    *o++ = __viaddmax_u32(a, b, c);
    *o++ = (unsigned)__viaddmin_s32(sa, sb, sc);
    *o++ = __viaddmin_u32(a, b, c);
    *o++ = (unsigned)__viaddmax_s32_relu(sa, sb, sc);
    *o++ = (unsigned)__viaddmin_s32_relu(sa, sb, sc);
    *o++ = __viaddmax_s16x2(a, b, c);
    *o++ = __viaddmax_u16x2(a, b, c);
    *o++ = __viaddmin_s16x2(a, b, c);
    *o++ = __viaddmin_u16x2(a, b, c);
    *o++ = __viaddmax_s16x2_relu(a, b, c);
    *o++ = __viaddmin_s16x2_relu(a, b, c);
    v = (unsigned)__vibmax_s32(sa, sb, &p); /* the flag folded into the word */
    *o++ = v ^ (p ? 0x80000000u : 0);
    v = __vibmax_u32(a, b, &p);
    *o++ = v ^ (p ? 0x80000000u : 0);
    v = (unsigned)__vibmin_s32(sa, sb, &p);
    *o++ = v ^ (p ? 0x80000000u : 0);
    v = __vibmin_u32(a, b, &p);
    *o++ = v ^ (p ? 0x80000000u : 0);
    v = __vibmax_s16x2(a, b, &p, &q);
    *o++ = v ^ (p ? 0x80000000u : 0) ^ (q ? 0x8000u : 0);
    v = __vibmax_u16x2(a, b, &p, &q);
    *o++ = v ^ (p ? 0x80000000u : 0) ^ (q ? 0x8000u : 0);
    v = __vibmin_s16x2(a, b, &p, &q);
    *o++ = v ^ (p ? 0x80000000u : 0) ^ (q ? 0x8000u : 0);
    v = __vibmin_u16x2(a, b, &p, &q);
    *o++ = v ^ (p ? 0x80000000u : 0) ^ (q ? 0x8000u : 0);
}

// ---- references: one lane at a time in int64_t, from the lane's own C type ----
static int64_t mx(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t mn(int64_t a, int64_t b) { return a < b ? a : b; }
enum Op { MAX_RELU, MIN_RELU, MAX3, MIN3, MAX3_RELU, MIN3_RELU, ADDMAX, ADDMIN, ADDMAX_RELU, ADDMIN_RELU };
static int64_t op(Op k, int64_t a, int64_t b, int64_t c, int64_t sum)
{
    switch (k) {
    case MAX_RELU: return mx(mx(a, b), 0);
    case MIN_RELU: return mx(mn(a, b), 0);
    case MAX3: return mx(mx(a, b), c);
    case MIN3: return mn(mn(a, b), c);
    case MAX3_RELU: return mx(mx(mx(a, b), c), 0);
    case MIN3_RELU: return mx(mn(mn(a, b), c), 0);
    case ADDMAX: return mx(sum, c);
    case ADDMIN: return mn(sum, c);
    case ADDMAX_RELU: return mx(mx(sum, c), 0);
    case ADDMIN_RELU: return mx(mn(sum, c), 0);
    }
    return 0;
}
static unsigned w32(Op k, bool s, unsigned a, unsigned b, unsigned c)
{
    if (s)
        return (unsigned)(int32_t)op(k, (int32_t)a, (int32_t)b, (int32_t)c, (int32_t)(a + b));
    return (unsigned)op(k, a, b, c, (uint32_t)(a + b));
}
static unsigned w16(Op k, bool s, unsigned a, unsigned b, unsigned c)
{
    unsigned r = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t ua = (uint16_t)(a >> 16 * h), ub = (uint16_t)(b >> 16 * h), uc = (uint16_t)(c >> 16 * h);
        int64_t v = s ? op(k, (int16_t)ua, (int16_t)ub, (int16_t)uc, (int16_t)(uint16_t)(ua + ub))
                      : op(k, ua, ub, uc, (uint16_t)(ua + ub));
        r |= (unsigned)(uint16_t)v << 16 * h;
    }
    return r;
}
static unsigned vib32(bool s, bool max, unsigned a, unsigned b)
{
    bool first = s ? (max ? (int32_t)a >= (int32_t)b : (int32_t)a <= (int32_t)b) : (max ? a >= b : a <= b);
    return (first ? a : b) ^ (first ? 0x80000000u : 0);
}
static unsigned vib16(bool s, bool max, unsigned a, unsigned b)
{
    unsigned r = 0, flags = 0;
    for (int h = 0; h < 2; h++) {
        uint16_t ua = (uint16_t)(a >> 16 * h), ub = (uint16_t)(b >> 16 * h);
        bool first = s ? (max ? (int16_t)ua >= (int16_t)ub : (int16_t)ua <= (int16_t)ub) : (max ? ua >= ub : ua <= ub);
        r |= (unsigned)(first ? ua : ub) << 16 * h;
        flags |= first ? (h ? 0x80000000u : 0x8000u) : 0;
    }
    return r ^ flags;
}
static unsigned reference(int f, unsigned a, unsigned b, unsigned c)
{
    switch (f) {
    case 0: return w32(MAX_RELU, true, a, b, 0);
    case 1: return w32(MIN_RELU, true, a, b, 0);
    case 2: return w16(MAX_RELU, true, a, b, 0);
    case 3: return w16(MIN_RELU, true, a, b, 0);
    case 4: return w32(MAX3, true, a, b, c);
    case 5: return w32(MAX3, false, a, b, c);
    case 6: return w32(MIN3, true, a, b, c);
    case 7: return w32(MIN3, false, a, b, c);
    case 8: return w32(MAX3_RELU, true, a, b, c);
    case 9: return w32(MIN3_RELU, true, a, b, c);
    case 10: return w16(MAX3, true, a, b, c);
    case 11: return w16(MAX3, false, a, b, c);
    case 12: return w16(MIN3, true, a, b, c);
    case 13: return w16(MIN3, false, a, b, c);
    case 14: return w16(MAX3_RELU, true, a, b, c);
    case 15: return w16(MIN3_RELU, true, a, b, c);
    case 16: return w32(ADDMAX, true, a, b, c);
    case 17: return w32(ADDMAX, false, a, b, c);
    case 18: return w32(ADDMIN, true, a, b, c);
    case 19: return w32(ADDMIN, false, a, b, c);
    case 20: return w32(ADDMAX_RELU, true, a, b, c);
    case 21: return w32(ADDMIN_RELU, true, a, b, c);
    case 22: return w16(ADDMAX, true, a, b, c);
    case 23: return w16(ADDMAX, false, a, b, c);
    case 24: return w16(ADDMIN, true, a, b, c);
    case 25: return w16(ADDMIN, false, a, b, c);
    case 26: return w16(ADDMAX_RELU, true, a, b, c);
    case 27: return w16(ADDMIN_RELU, true, a, b, c);
    case 28: return vib32(true, true, a, b);
    case 29: return vib32(false, true, a, b);
    case 30: return vib32(true, false, a, b);
    case 31: return vib32(false, false, a, b);
    case 32: return vib16(true, true, a, b);
    case 33: return vib16(false, true, a, b);
    case 34: return vib16(true, false, a, b);
    default: return vib16(false, false, a, b);
    }
}

int main()
{
    std::vector<unsigned> x(N), y(N), z(N), out((size_t)N * NF);
    const unsigned edge[] = {0u, 1u, 0x7fffu, 0x8000u, 0xffffu, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7fff8000u,
                             0x80007fffu, 0x00010001u};
    const int ne = sizeof edge / sizeof edge[0];
    unsigned long long s = 0x243f6a8885a308d3ull;
    for (int i = 0; i < N; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (i < ne * ne) {
            x[i] = edge[i / ne], y[i] = edge[i % ne], z[i] = edge[(i * 7) % ne];
        } else {
            x[i] = (unsigned)(s >> 32), y[i] = (unsigned)s;
            z[i] = (unsigned)(s >> 16) ^ (unsigned)(s << 7);
        }
    }
    unsigned *dx, *dy, *dz, *dout;
    cudaMalloc(&dx, N * 4), cudaMalloc(&dy, N * 4), cudaMalloc(&dz, N * 4);
    cudaMalloc(&dout, (size_t)N * NF * 4);
    cudaMemcpy(dx, x.data(), N * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), N * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dz, z.data(), N * 4, cudaMemcpyHostToDevice);
    dpx<<<N / 128, 128>>>(dx, dy, dz, dout);
    cudaError_t e = cudaMemcpy(out.data(), dout, (size_t)N * NF * 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("dpx: %s\n", cudaGetErrorString(e));
        return 1;
    }
    unsigned long long h = 0xcbf29ce484222325ull;
    for (size_t k = 0; k < out.size(); k++)
        for (int b = 0; b < 4; b++)
            h = (h ^ (out[k] >> 8 * b & 0xff)) * 0x100000001b3ull;
    printf("dpx: digest %016llx\n", h);
    int bad = 0;
    for (int i = 0; i < N && bad < 5; i++)
        for (int f = 0; f < NF && bad < 5; f++) {
            unsigned want = reference(f, x[i], y[i], z[i]), got = out[(size_t)i * NF + f];
            if (got != want) {
                printf("dpx: function %d (0x%08x, 0x%08x, 0x%08x) = 0x%08x, expected 0x%08x: WRONG\n", f, x[i], y[i],
                       z[i], got, want);
                bad++;
            }
        }
    if (bad)
        return 1;
    printf("dpx: correct (%d functions, %d operand triples)\n", NF, N);
    return 0;
}
