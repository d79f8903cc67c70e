// tests/run/ptx_ldst.cu - ld, st and mov written as inline PTX, as CUTLASS-style GEMMs write their
// guarded global loads and stores (a `.reg .pred` block: setp, the default value by mov, then
// `@p ld.global`), and vector shared accesses through __cvta_generic_to_shared, under `simtlab
// run` (tests/scripts/run_case.cmake, case ptx_ldst). The rewriter turns each asm into a call
// (sim/run/ptx.c); builds with nvcc too, and checks itself on a GPU.
//   ./ptx_ldst             five kernels, each checked against the host's own computation:
//     guarded   N = 1000 floats, 256 threads: thread t loads 16 bytes at 4t guarded by 4t < N (250
//               threads; the others keep -1 from their mov), 8 and 4 bytes the same way, and stores
//               its 16 bytes back guarded: 4000 bytes read and written by the v4 part
//     shared    st.shared.v4.f32, then ld.shared.v2.f32 and ld.shared.f32 [%1+4] of a neighbour's
//               words, through 32-bit shared addresses (one made by cvta.to.shared.u64 into the
//               asm's own .reg .u64 and cvt.u32.u64)
//     widths    ld.global.nc.f32, ld.global.s8 (sign-extended), ld.global.u16, st.global.b64 and a
//               mov of PTX's float immediate 0f3F800000 (1.0f)
//     cvts      integer cvt narrowing by its destination type (cvt.s8.s32 of 0xff80: 0xffffff80)
//     consts    mov.u64 of 0xFFFFFFFFFFFFFFFF, mov.f64 of a single's bits, mov.f32 of 1.5, and outputs
//               bound to global memory (`"=l"(o64[t])`): their stores counted (768 bytes written)
//   ./ptx_ldst misaligned  ld.global.v4.u32 at an address 4 bytes past 16: a report, the block ends
//   ./ptx_ldst space       ld.global of a shared address: a report (a GPU faults)
//   ./ptx_ldst past        a guarded load whose guard is wrong (past the end): the out-of-bounds report
//   ./ptx_ldst shlocal     ld.shared of a local variable's address: a report (a GPU faults)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define N 1000

// CUTLASS's pattern: the default value first, the load only where the guard holds
__device__ void load16(uint4 &d, const void *p, bool ok)
{
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  setp.ne.b32 p, %5, 0;\n"
                 "  mov.b32 %0, %6;\n"
                 "  mov.b32 %1, %7;\n"
                 "  mov.b32 %2, %8;\n"
                 "  mov.b32 %3, %9;\n"
                 "  @p ld.global.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];\n"
                 "}\n"
                 : "=r"(d.x), "=r"(d.y), "=r"(d.z), "=r"(d.w)
                 : "l"(p), "r"((int)ok), "r"(d.x), "r"(d.y), "r"(d.z), "r"(d.w));
}

__device__ void load8(uint2 &d, const void *p, bool ok)
{
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %3, 0; mov.b32 %0, %4; mov.b32 %1, %5;\n"
                 "  @p ld.global.v2.u32 {%0, %1}, [%2]; }\n"
                 : "=r"(d.x), "=r"(d.y)
                 : "l"(p), "r"((int)ok), "r"(d.x), "r"(d.y));
}

__device__ void load4(unsigned &d, const void *p, bool ok)
{
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b32 %0, %3; @p ld.global.u32 %0, [%1]; }"
                 : "=r"(d)
                 : "l"(p), "r"((int)ok), "r"(d));
}

__device__ void store16(void *p, const uint4 &d, bool ok)
{
    asm volatile("{\n  .reg .pred p;\n  setp.ne.b32 p, %5, 0;\n  @p st.global.v4.u32 [%0], {%1, %2, %3, %4};\n}\n" ::"l"(p),
                 "r"(d.x), "r"(d.y), "r"(d.z), "r"(d.w), "r"((int)ok));
}

__global__ void guarded(const float *x, float *y, float *z8, float *z4)
{
    const int t = threadIdx.x;
    const float neg = -1.0f;
    unsigned m;
    memcpy(&m, &neg, 4);
    uint4 a = make_uint4(m, m, m, m);
    load16(a, x + 4 * t, 4 * t < N); // MARK:guarded_load
    store16(y + 4 * t, a, 4 * t < N);
    uint2 b = make_uint2(m, m);
    load8(b, x + 2 * t, 2 * t < N / 4);
    memcpy(z8 + 2 * t, &b, 8);
    unsigned c = m;
    load4(c, x + t, t < N / 8);
    memcpy(z4 + t, &c, 4);
}

__global__ void shared(const float *x, float *y)
{
    __shared__ __align__(16) float s[4 * 64];
    const int t = threadIdx.x;
    const unsigned me = (unsigned)__cvta_generic_to_shared(&s[4 * t]);
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(me), "f"(x[4 * t]), "f"(x[4 * t + 1]),
                 "f"(x[4 * t + 2]), "f"(x[4 * t + 3]));
    __syncthreads();
    unsigned other; // __cvta_generic_to_shared as YHs' sgemm writes it: the asm's own register
    asm("{.reg .u64 u64addr;\n"
        " cvta.to.shared.u64 u64addr, %1;\n"
        " cvt.u32.u64 %0, u64addr;}\n"
        : "=r"(other)
        : "l"(&s[4 * ((t + 1) % 64)]));
    if (other != (unsigned)__cvta_generic_to_shared(&s[4 * ((t + 1) % 64)]))
        other = 0; // a wrong conversion reads the wrong words: the check below fails
    float a, b, c;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "r"(other));
    asm volatile("ld.shared.f32 %0, [%1+8];" : "=f"(c) : "r"(other));
    y[t] = a + 10 * b + 100 * c;
}

__global__ void widths(const float *x, const signed char *sc, const unsigned short *us, float *y, int *i8,
                       unsigned *u16, unsigned long long *w64)
{
    const int t = threadIdx.x;
    float v, one;
    int s;
    unsigned u;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(x + t));
    asm("mov.f32 %0, 0f3F800000;" : "=f"(one));
    asm("ld.global.s8 %0, [%1];" : "=r"(s) : "l"(sc + t));
    asm("ld.global.u16 %0, [%1];" : "=r"(u) : "l"(us + t));
    y[t] = v + one;
    i8[t] = s;
    u16[t] = u;
    asm volatile("st.global.b64 [%0], %1;" ::"l"(w64 + t), "l"((unsigned long long)t << 40 | 7u));
}

// constants as PTX writes them, and outputs bound to memory (`"=l"(o64[t])`: the register's store
// to o64[t] is the kernel's own, counted and checked)
__global__ void consts(unsigned long long *o64, double *od, float *of, unsigned *om, const unsigned *src)
{
    const int t = threadIdx.x;
    double d;
    float f;
    asm("mov.u64 %0, 0xFFFFFFFFFFFFFFFF;" : "=l"(o64[t]));
    asm("mov.f64 %0, 0f3F800000;" : "=d"(d)); // a single's bits, widened: 1.0
    asm("mov.f32 %0, 1.5;" : "=f"(f));
    asm("ld.global.u32 %0, [%1+4];" : "=r"(om[t]) : "l"(src + t - 1));
    od[t] = d;
    of[t] = f;
}

// integer cvt by PTX's rule: the source extended by its sign, cut to the destination type and
// extended by that one's sign into the register
__global__ void cvts(unsigned *o)
{
    unsigned a, b, c;
    asm("cvt.u8.u32 %0, %1;" : "=r"(a) : "r"(0x1234u));
    asm("cvt.s8.s32 %0, %1;" : "=r"(b) : "r"(0xff80u));
    asm("cvt.u16.u64 %0, %1;" : "=r"(c) : "l"(0x123456789ull));
    o[0] = a, o[1] = b, o[2] = c;
}

__global__ void shlocal(unsigned *o)
{
    unsigned loc[4] = {1, 2, 3, 4}, v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "l"(&loc[threadIdx.x % 4])); // MARK:bad_shared
    o[threadIdx.x] = v;
}

__global__ void misaligned(const float *x, float *y)
{
    uint4 a;
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" // MARK:bad_align
                 : "=r"(a.x), "=r"(a.y), "=r"(a.z), "=r"(a.w)
                 : "l"(x + 1));
    y[threadIdx.x] = (float)a.x;
}

__global__ void space(float *y)
{
    __shared__ float s[32];
    s[threadIdx.x] = 1;
    __syncthreads();
    float v;
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(&s[threadIdx.x])); // MARK:bad_space
    y[threadIdx.x] = v;
}

__global__ void past(const float *x, float *y)
{
    uint4 a = make_uint4(0, 0, 0, 0);
    load16(a, x + 4 * threadIdx.x, 4 * threadIdx.x <= N); // MARK:bad_guard (should be <)
    y[threadIdx.x] = (float)a.x;
}

static int check(const char *what, int bad)
{
    if (bad)
        printf("ptx_ldst: %s wrong\n", what);
    return bad;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    float hx[N + 24], *x, *y, *z8, *z4;
    for (int i = 0; i < N + 24; i++)
        hx[i] = 0.5f * (float)i - 3;
    cudaMalloc(&x, sizeof hx);
    cudaMalloc(&y, 4 * 1024);
    cudaMalloc(&z8, 4 * 512);
    cudaMalloc(&z4, 4 * 256);
    cudaMemcpy(x, hx, 4 * N, cudaMemcpyHostToDevice); // N floats: x has room for 1024 (a GPU's
    cudaMemset(y, 0, 4 * 1024);                       // allocation is rounded up anyway)
    if (!strcmp(mode, "misaligned") || !strcmp(mode, "space") || !strcmp(mode, "past") || !strcmp(mode, "shlocal")) {
        if (mode[0] == 'm')
            misaligned<<<1, 32>>>(x, y);
        else if (!strcmp(mode, "space"))
            space<<<1, 32>>>(y);
        else if (!strcmp(mode, "shlocal"))
            shlocal<<<1, 32>>>((unsigned *)y);
        else {
            float *xp; // exactly N floats: thread 250's 16 bytes are past its end
            cudaMalloc(&xp, 4 * N);
            past<<<1, 256>>>(xp, y);
        }
        cudaError_t e = cudaDeviceSynchronize();
        printf("ptx_ldst %s: %s\n", mode, cudaGetErrorString(e));
        return e == cudaSuccess ? 0 : 2;
    }
    int bad = 0;
    guarded<<<1, 256>>>(x, y, z8, z4);
    float hy[1024], h8[512], h4[256];
    cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
    cudaMemcpy(h8, z8, sizeof h8, cudaMemcpyDeviceToHost);
    cudaMemcpy(h4, z4, sizeof h4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 1024; i++) // the 250 loads and stores, and 0 past them (never stored)
        bad |= check("guarded v4", hy[i] != (i < N ? hx[i] : 0.0f));
    for (int t = 0; t < 256; t++)
        for (int k = 0; k < 2; k++)
            bad |= check("guarded v2", h8[2 * t + k] != (2 * t < N / 4 ? hx[2 * t + k] : -1.0f));
    for (int t = 0; t < 256; t++)
        bad |= check("guarded u32", h4[t] != (t < N / 8 ? hx[t] : -1.0f));

    shared<<<1, 64>>>(x, y);
    cudaMemcpy(hy, y, 4 * 64, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 64; t++) {
        const int o = 4 * ((t + 1) % 64);
        bad |= check("shared", hy[t] != hx[o] + 10 * hx[o + 1] + 100 * hx[o + 2]);
    }

    signed char hs[32];
    unsigned short hu[32];
    for (int i = 0; i < 32; i++)
        hs[i] = (signed char)(i * 9 - 100), hu[i] = (unsigned short)(60000 + i);
    signed char *sc;
    unsigned short *us;
    int *i8;
    unsigned *u16;
    unsigned long long *w64;
    cudaMalloc(&sc, 32);
    cudaMalloc(&us, 64);
    cudaMalloc(&i8, 128);
    cudaMalloc(&u16, 128);
    cudaMalloc(&w64, 256);
    cudaMemcpy(sc, hs, 32, cudaMemcpyHostToDevice);
    cudaMemcpy(us, hu, 64, cudaMemcpyHostToDevice);
    widths<<<1, 32>>>(x, sc, us, y, i8, u16, w64);
    int hi[32];
    unsigned hu16[32];
    unsigned long long hw[32];
    cudaMemcpy(hy, y, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, i8, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(hu16, u16, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(hw, w64, 256, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) {
        bad |= check("ld.global.nc.f32 and mov's float", hy[t] != hx[t] + 1.0f);
        bad |= check("ld.global.s8", hi[t] != hs[t]);
        bad |= check("ld.global.u16", hu16[t] != hu[t]);
        bad |= check("st.global.b64", hw[t] != ((unsigned long long)t << 40 | 7u));
    }
    unsigned long long *o64;
    double *od;
    float *of;
    unsigned *om, *src, hsrc[32];
    cudaMalloc(&o64, 256);
    cudaMalloc(&od, 256);
    cudaMalloc(&of, 128);
    cudaMalloc(&om, 128);
    cudaMalloc(&src, 128);
    for (int i = 0; i < 32; i++)
        hsrc[i] = 0xabc00u + (unsigned)i;
    cudaMemcpy(src, hsrc, 128, cudaMemcpyHostToDevice);
    consts<<<1, 32>>>(o64, od, of, om, src);
    double hd[32];
    float hf[32];
    unsigned hm[32];
    cudaMemcpy(hw, o64, 256, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, od, 256, cudaMemcpyDeviceToHost);
    cudaMemcpy(hf, of, 128, cudaMemcpyDeviceToHost);
    cudaMemcpy(hm, om, 128, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) {
        bad |= check("mov.u64 of all ones", hw[t] != ~0ull);
        bad |= check("mov.f64 of 0f3F800000", hd[t] != 1.0);
        bad |= check("mov.f32 of 1.5", hf[t] != 1.5f);
        bad |= check("ld.global into an output in memory", hm[t] != hsrc[t]);
    }
    cvts<<<1, 1>>>(om);
    cudaMemcpy(hm, om, 12, cudaMemcpyDeviceToHost);
    bad |= check("cvt.u8.u32", hm[0] != 0x34u);
    bad |= check("cvt.s8.s32", hm[1] != 0xffffff80u);
    bad |= check("cvt.u16.u64", hm[2] != 0x6789u);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("ptx_ldst: %s\n", cudaGetErrorString(e));
        return 1;
    }
    if (!bad)
        printf("ptx_ldst: correct\n");
    return bad;
}
