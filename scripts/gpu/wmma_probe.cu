// scripts/gpu/wmma_probe.cu - what nvcuda::wmma does on the chip, for the simulator's mma.h
// (sim/run/include/mma.h). Two parts:
//   ./wmma_probe layout    each fragment type's layout: a matrix whose element (r, c) holds its
//                          logical index r * cols + c is loaded, and every lane prints which
//                          index each x[i] holds ("type lane i index"), plus num_elements
//   ./wmma_probe patterns  one warp, one block per kernel: each kernel does one load or store of
//                          one fragment, from global or shared memory (run under ncu for the
//                          requests, sectors and wavefronts of each)
// Built with nvcc -arch=sm_90 (scripts/gpu/s36.sh).
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "ck.h"
using namespace nvcuda;

template <class T> __host__ __device__ T from_int(int v) { return (T)v; }
template <> __host__ __device__ half from_int<half>(int v) { return __int2half_rn(v); }
template <> __host__ __device__ __nv_bfloat16 from_int<__nv_bfloat16>(int v) { return __int2bfloat16_rn(v); }
template <class T> __device__ float to_float(T v) { return (float)v; }
template <> __device__ float to_float<half>(half v) { return __half2float(v); }
template <> __device__ float to_float<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

// ---- layout ----------------------------------------------------------------------------------
template <class Use, int M, int N, int K, class T, class L, class S>
__global__ void layout_k(const S *src, unsigned ldm, float *out, int *ne)
{
    wmma::fragment<Use, M, N, K, T, L> f;
    wmma::load_matrix_sync(f, src, ldm);
    for (int i = 0; i < f.num_elements; i++)
        out[threadIdx.x * f.num_elements + i] = to_float(f.x[i]);
    if (threadIdx.x == 0)
        *ne = f.num_elements;
}
template <int M, int N, int K, class T>
__global__ void layout_acc_k(const T *src, unsigned ldm, wmma::layout_t lay, float *out, int *ne)
{
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    wmma::load_matrix_sync(f, src, ldm, lay);
    for (int i = 0; i < f.num_elements; i++)
        out[threadIdx.x * f.num_elements + i] = to_float(f.x[i]);
    if (threadIdx.x == 0)
        *ne = f.num_elements;
}

// the logical matrix rows x cols, element (r, c) = (r * cols + c) >> shift & mask, stored row- or
// column-major with leading dimension ld
template <class S> static S *make_matrix(int rows, int cols, int colmajor, int shift, int mask, unsigned *ld)
{
    *ld = colmajor ? rows : cols;
    S h[4096], *d;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            h[colmajor ? c * rows + r : r * cols + c] = from_int<S>((r * cols + c) >> shift & mask);
    CK(cudaMalloc(&d, sizeof(S) * rows * cols));
    CK(cudaMemcpy(d, h, sizeof(S) * rows * cols, cudaMemcpyHostToDevice));
    return d;
}

static float *d_out;
static int *d_ne;
static void print_layout(const char *name, int shift)
{
    static float h[32 * 64];
    int ne;
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&ne, d_ne, sizeof ne, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, d_out, sizeof(float) * 32 * ne, cudaMemcpyDeviceToHost));
    printf("type %s num_elements %d shift %d\n", name, ne, shift);
    for (int l = 0; l < 32; l++) {
        printf("%s lane %d:", name, l);
        for (int i = 0; i < ne; i++)
            printf(" %d", (int)h[l * ne + i]);
        printf("\n");
    }
}

template <class Use, int M, int N, int K, class T, class L, class S>
static void layout(const char *name, int rows, int cols, int colmajor, int shift = 0, int mask = 0xffff)
{
    unsigned ld;
    S *m = make_matrix<S>(rows, cols, colmajor, shift, mask, &ld);
    layout_k<Use, M, N, K, T, L, S><<<1, 32>>>(m, ld, d_out, d_ne);
    CK(cudaGetLastError());
    print_layout(name, shift);
    CK(cudaFree(m));
}
template <int M, int N, int K, class T>
static void layout_acc(const char *name, int colmajor)
{
    unsigned ld;
    T *m = make_matrix<T>(M, N, colmajor, 0, 0xffff, &ld);
    layout_acc_k<M, N, K, T><<<1, 32>>>(m, ld, colmajor ? wmma::mem_col_major : wmma::mem_row_major, d_out, d_ne);
    CK(cudaGetLastError());
    print_layout(name, 0);
    CK(cudaFree(m));
}

static void layouts()
{
    using wmma::accumulator;
    using wmma::col_major;
    using wmma::matrix_a;
    using wmma::matrix_b;
    using wmma::row_major;
    layout<matrix_a, 16, 16, 16, half, row_major, half>("a_16x16x16_f16_row", 16, 16, 0);
    layout<matrix_a, 16, 16, 16, half, col_major, half>("a_16x16x16_f16_col", 16, 16, 1);
    layout<matrix_b, 16, 16, 16, half, row_major, half>("b_16x16x16_f16_row", 16, 16, 0);
    layout<matrix_b, 16, 16, 16, half, col_major, half>("b_16x16x16_f16_col", 16, 16, 1);
    layout<matrix_a, 32, 8, 16, half, row_major, half>("a_32x8x16_f16_row", 32, 16, 0);
    layout<matrix_b, 32, 8, 16, half, row_major, half>("b_32x8x16_f16_row", 16, 8, 0);
    layout<matrix_a, 8, 32, 16, half, row_major, half>("a_8x32x16_f16_row", 8, 16, 0);
    layout<matrix_b, 8, 32, 16, half, row_major, half>("b_8x32x16_f16_row", 16, 32, 0);
    layout<matrix_a, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16>("a_16x16x16_bf16_row", 16, 16, 0);
    layout<matrix_b, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16>("b_16x16x16_bf16_col", 16, 16, 1);
    layout<matrix_a, 16, 16, 8, wmma::precision::tf32, row_major, float>("a_16x16x8_tf32_row", 16, 8, 0);
    layout<matrix_b, 16, 16, 8, wmma::precision::tf32, row_major, float>("b_16x16x8_tf32_row", 8, 16, 0);
    layout<matrix_a, 8, 8, 4, double, row_major, double>("a_8x8x4_f64_row", 8, 4, 0);
    layout<matrix_b, 8, 8, 4, double, row_major, double>("b_8x8x4_f64_row", 4, 8, 0);
    layout<matrix_a, 16, 16, 16, signed char, row_major, signed char>("a_16x16x16_s8_row_lo", 16, 16, 0, 0, 127);
    layout<matrix_a, 16, 16, 16, signed char, row_major, signed char>("a_16x16x16_s8_row_hi", 16, 16, 0, 7, 127);
    layout_acc<16, 16, 16, float>("c_16x16x16_f32_row", 0);
    layout_acc<16, 16, 16, float>("c_16x16x16_f32_col", 1);
    layout_acc<16, 16, 16, half>("c_16x16x16_f16_row", 0);
    layout_acc<32, 8, 16, float>("c_32x8x16_f32_row", 0);
    layout_acc<8, 32, 16, float>("c_8x32x16_f32_row", 0);
    layout_acc<16, 16, 8, float>("c_16x16x8_f32_row", 0);
    layout_acc<8, 8, 4, double>("c_8x8x4_f64_row", 0);
    layout_acc<16, 16, 16, int>("c_16x16x16_s32_row", 0);
}

// ---- patterns --------------------------------------------------------------------------------
// one fragment load (kind: 0 a row, 1 a col, 2 b row, 3 b col, 4 acc row, 5 acc col, 6 acc f16 row)
// or store (7 acc row, 8 acc col, 9 acc f16 row), from global (sh 0) or shared (sh 1), leading
// dimension ld; the load's values summed into one float a lane, stored to out (a store the
// load kernels all share)
using FA_R = wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major>;
using FA_C = wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::col_major>;
using FB_R = wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major>;
using FB_C = wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major>;
using FC = wmma::fragment<wmma::accumulator, 16, 16, 16, float>;
using FCH = wmma::fragment<wmma::accumulator, 16, 16, 16, half>;
template <class F> __device__ float fsum(const F &f)
{
    float s = 0.0f;
    for (int i = 0; i < f.num_elements; i++)
        s += to_float(f.x[i]);
    return s;
}

template <int KIND, int SH>
__global__ void pattern_k(half *gh, float *gf, unsigned ld, float *out)
{
    __shared__ __align__(128) char smem[24 * 32 * 4];
    half *h = SH ? (half *)smem : gh;
    float *f = SH ? (float *)smem : gf;
    if (SH && KIND < 7) { // filled with st.shared before a barrier (its wavefronts are op_st)
        for (int i = threadIdx.x; i < 24 * 32; i += 32)
            ((float *)smem)[i] = 1.0f;
        __syncthreads();
    }
    float s = 0.0f;
    if (KIND == 0) { FA_R a; wmma::load_matrix_sync(a, h, ld); s = fsum(a); }
    if (KIND == 1) { FA_C a; wmma::load_matrix_sync(a, h, ld); s = fsum(a); }
    if (KIND == 2) { FB_R b; wmma::load_matrix_sync(b, h, ld); s = fsum(b); }
    if (KIND == 3) { FB_C b; wmma::load_matrix_sync(b, h, ld); s = fsum(b); }
    if (KIND == 4) { FC c; wmma::load_matrix_sync(c, f, ld, wmma::mem_row_major); s = fsum(c); }
    if (KIND == 5) { FC c; wmma::load_matrix_sync(c, f, ld, wmma::mem_col_major); s = fsum(c); }
    if (KIND == 6) { FCH c; wmma::load_matrix_sync(c, h, ld, wmma::mem_row_major); s = fsum(c); }
    if (KIND >= 7) {
        FC c;
        FCH ch;
        wmma::fill_fragment(c, (float)ld);
        wmma::fill_fragment(ch, __float2half((float)ld));
        if (KIND == 7) wmma::store_matrix_sync(f, c, ld, wmma::mem_row_major);
        if (KIND == 8) wmma::store_matrix_sync(f, c, ld, wmma::mem_col_major);
        if (KIND == 9) wmma::store_matrix_sync(h, ch, ld, wmma::mem_row_major);
        if (SH) { // read back after a barrier so the stores are kept
            __syncthreads();
            s = f[threadIdx.x];
        }
    }
    if (KIND < 7 || SH)
        out[threadIdx.x] = s;
}

template <int KIND> static void pattern(half *gh, float *gf, float *out)
{
    const unsigned lds[2] = {16, 24};
    for (int sh = 0; sh < 2; sh++)
        for (unsigned ld : lds) {
            printf("pattern kind %d %s ld %u\n", KIND, sh ? "shared" : "global", ld);
            if (sh)
                pattern_k<KIND, 1><<<1, 32>>>(gh, gf, ld, out);
            else
                pattern_k<KIND, 0><<<1, 32>>>(gh, gf, ld, out);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
        }
}

// the mma itself: one m16n16k16 f16 -> f32, its result against a double reference
__global__ void mma_k(const half *a, const half *b, float *c)
{
    FA_R fa;
    FB_C fb;
    FC fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}

int main(int argc, char **argv)
{
    CK(cudaMalloc(&d_out, sizeof(float) * 32 * 64));
    CK(cudaMalloc(&d_ne, sizeof(int)));
    if (argc > 1 && !strcmp(argv[1], "layout")) {
        layouts();
        return 0;
    }
    half *gh;
    float *gf;
    CK(cudaMalloc(&gh, 32 * 32 * 4));
    CK(cudaMalloc(&gf, 32 * 32 * 4));
    CK(cudaMemset(gh, 0, 32 * 32 * 4));
    CK(cudaMemset(gf, 0, 32 * 32 * 4));
    pattern<0>(gh, gf, d_out);
    pattern<1>(gh, gf, d_out);
    pattern<2>(gh, gf, d_out);
    pattern<3>(gh, gf, d_out);
    pattern<4>(gh, gf, d_out);
    pattern<5>(gh, gf, d_out);
    pattern<6>(gh, gf, d_out);
    pattern<7>(gh, gf, d_out);
    pattern<8>(gh, gf, d_out);
    pattern<9>(gh, gf, d_out);
    // mma numerics: A and B with values k / 8 - 1 (exact in half), C = r - c
    half ha[256], hb[256];
    float hc[256], ref[256];
    for (int i = 0; i < 256; i++) {
        ha[i] = __float2half((float)((i * 7) % 17) / 8.0f - 1.0f);
        hb[i] = __float2half((float)((i * 5) % 13) / 8.0f - 0.75f);
        hc[i] = (float)(i / 16 - i % 16);
    }
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            double s = hc[r * 16 + c];
            for (int k = 0; k < 16; k++)
                s += (double)__half2float(ha[r * 16 + k]) * (double)__half2float(hb[c * 16 + k]);
            ref[r * 16 + c] = (float)s;
        }
    CK(cudaMemcpy(gh, ha, sizeof ha, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(gh + 256, hb, sizeof hb, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(gf, hc, sizeof hc, cudaMemcpyHostToDevice));
    mma_k<<<1, 32>>>(gh, gh + 256, gf);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hc, gf, sizeof hc, cudaMemcpyDeviceToHost));
    double worst = 0.0;
    for (int i = 0; i < 256; i++)
        worst = fmax(worst, fabs((double)hc[i] - ref[i]));
    printf("mma m16n16k16 f16->f32: largest difference from the double reference %g\n", worst);
    return 0;
}
