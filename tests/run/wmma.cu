// tests/run/wmma.cu - nvcuda::wmma under `simtlab run` (tests/scripts/run_case.cmake, case wmma).
// C = alpha A B + beta C for each shape and element type wmma has (sm_80+), one warp a 16x16 (or
// 32x8, 8x32, 8x8) tile of C, against a double-precision reference on the host:
//   f16 16x16x16, A row-major and B column-major, float accumulators: the GEMM of the counts
//     (64 x 64 x 64: every A and B tile read once by each warp that needs it)
//   f16 with A column-major and B row-major, through shared memory, C stored column-major
//   f16 with half accumulators; 32x8x16 and 8x32x16; bf16; tf32 (16x16x8); double (8x8x4);
//   s8 and u8 with int accumulators (exact)
// The epilogue scales the accumulator fragment element by element (x[i], num_elements), which
// any layout allows. Tolerances: products of half, bfloat16 and tf32 inputs are exact in float,
// and the inputs here are small multiples of 1/8, so every sum is exact: the results must equal
// the reference but for half accumulators (half's rounding of each result: 2^-11 relative).
// `./wmma misaligned` loads A from a pointer 2 bytes past a tile, `./wmma ldm` with ldm = 12
// halves, `./wmma diverge` lets half a warp reach mma_sync: each must be reported.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("wmma: %s failed: %s\n", #x, cudaGetErrorString(e_));                           \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

// C (M x N, row-major, or column-major if ccol) = alpha A B + beta C; A M x K (row-major, or
// column-major if acol), B K x N (column-major, or row-major if !bcol); one warp a tile
// the matrices' element type: T's, float's for tf32
template <class T> using mem_t = typename std::conditional<std::is_same<T, wmma::precision::tf32>::value, float, T>::type;

template <int TM, int TN, int TK, class T, class LA, class LB, class TC, bool SHARED>
__global__ void gemm(const mem_t<T> *A, const mem_t<T> *B, TC *C, int M, int N, int K, float alpha, float beta, int ccol)
{
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int tiles_n = N / TN, tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm * TM >= M)
        return;
    const bool acol = std::is_same<LA, wmma::col_major>::value, bcol = std::is_same<LB, wmma::col_major>::value;
    wmma::fragment<wmma::matrix_a, TM, TN, TK, T, LA> a;
    wmma::fragment<wmma::matrix_b, TM, TN, TK, T, LB> b;
    wmma::fragment<wmma::accumulator, TM, TN, TK, TC> acc, c;
    wmma::fill_fragment(acc, TC(0));
    __shared__ __align__(32) mem_t<T> sa[4][TM * TK], sb[4][TK * TN]; // one tile each for 4 warps a block
    const int w = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (int k = 0; k < K; k += TK) {
        const mem_t<T> *pa = acol ? A + (size_t)k * M + tm * TM : A + (size_t)tm * TM * K + k;
        const mem_t<T> *pb = bcol ? B + (size_t)tn * TN * K + k : B + (size_t)k * N + tn * TN;
        if (SHARED) { // the tiles through shared memory, packed (ldm = the tile's own width)
            const int lda = acol ? M : K, ldb = bcol ? K : N;
            const int ra = acol ? TK : TM, ca = acol ? TM : TK, rb = bcol ? TN : TK, cb = bcol ? TK : TN;
            for (int i = lane; i < TM * TK; i += 32)
                sa[w][i] = pa[(size_t)(i / ca) * lda + i % ca];
            for (int i = lane; i < TK * TN; i += 32)
                sb[w][i] = pb[(size_t)(i / cb) * ldb + i % cb];
            (void)ra, (void)rb;
            __syncwarp();
            wmma::load_matrix_sync(a, sa[w], ca);
            wmma::load_matrix_sync(b, sb[w], cb);
            __syncwarp();
        } else {
            wmma::load_matrix_sync(a, pa, acol ? M : K);
            wmma::load_matrix_sync(b, pb, bcol ? K : N);
        }
        wmma::mma_sync(acc, a, b, acc);
    }
    TC *pc = ccol ? C + (size_t)tn * TN * M + tm * TM : C + (size_t)tm * TM * N + tn * TN;
    const wmma::layout_t lay = ccol ? wmma::mem_col_major : wmma::mem_row_major;
    wmma::load_matrix_sync(c, pc, ccol ? M : N, lay);
    for (int i = 0; i < c.num_elements; i++)
        c.x[i] = TC(alpha * float(acc.x[i]) + beta * float(c.x[i]));
    wmma::store_matrix_sync(pc, c, ccol ? M : N, lay);
}

template <class T> static T to(double v) { return T(v); }
template <> __half to<__half>(double v) { return __float2half((float)v); }
template <> __nv_bfloat16 to<__nv_bfloat16>(double v) { return __float2bfloat16((float)v); }
template <class T> static double from(T v) { return (double)v; }
template <> double from<__half>(__half v) { return __half2float(v); }
template <> double from<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

// one GEMM: its result against the reference; 0 if it agrees within tol (relative to 1 + |ref|)
template <int TM, int TN, int TK, class T, class LA, class LB, class TC, bool SHARED = false>
static int check(const char *name, int M, int N, int K, int ccol, double tol, bool integer = false)
{
    typedef mem_t<T> S;
    const bool acol = std::is_same<LA, wmma::col_major>::value, bcol = std::is_same<LB, wmma::col_major>::value;
    S *ha = (S *)malloc(sizeof(S) * M * K), *hb = (S *)malloc(sizeof(S) * K * N);
    TC *hc = (TC *)malloc(sizeof(TC) * M * N);
    double *ref = (double *)malloc(sizeof(double) * M * N);
    const float alpha = integer ? 1.0f : 0.5f, beta = integer ? 1.0f : 2.0f;
    for (int r = 0; r < M; r++) // small values: multiples of 1/8 (integers for s8, u8)
        for (int k = 0; k < K; k++) {
            const double v = integer ? (r * 3 + k * 5) % 11 - (std::is_same<T, unsigned char>::value ? 0 : 5)
                                     : ((r * 7 + k * 3) % 13 - 6) / 8.0;
            ha[acol ? k * M + r : r * K + k] = to<S>(v);
        }
    for (int k = 0; k < K; k++)
        for (int c = 0; c < N; c++) {
            const double v = integer ? (k * 7 + c * 2) % 9 - (std::is_same<T, unsigned char>::value ? 0 : 4)
                                     : ((k * 5 + c * 11) % 9 - 4) / 8.0;
            hb[bcol ? c * K + k : k * N + c] = to<S>(v);
        }
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++)
            hc[ccol ? c * M + r : r * N + c] = to<TC>(((r + 2 * c) % 7 - 3) / (integer ? 1.0 : 4.0));
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += from(ha[acol ? k * M + r : r * K + k]) * from(hb[bcol ? c * K + k : k * N + c]);
            ref[r * N + c] = alpha * s + beta * from(hc[ccol ? c * M + r : r * N + c]);
        }
    S *da, *db;
    TC *dc;
    if (cudaMalloc(&da, sizeof(S) * M * K) || cudaMalloc(&db, sizeof(S) * K * N) || cudaMalloc(&dc, sizeof(TC) * M * N))
        return printf("wmma: %s: cudaMalloc failed\n", name), 1;
    cudaMemcpy(da, ha, sizeof(S) * M * K, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, sizeof(S) * K * N, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, hc, sizeof(TC) * M * N, cudaMemcpyHostToDevice);
    const int warps = (M / TM) * (N / TN);
    gemm<TM, TN, TK, T, LA, LB, TC, SHARED><<<(warps + 3) / 4, 128>>>(da, db, dc, M, N, K, alpha, beta, ccol);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        return printf("wmma: %s: %s\n", name, cudaGetErrorString(e)), 1;
    cudaMemcpy(hc, dc, sizeof(TC) * M * N, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int r = 0; r < M; r++)
        for (int c = 0; c < N; c++) {
            const double got = from(hc[ccol ? c * M + r : r * N + c]), want = ref[r * N + c];
            worst = fmax(worst, fabs(got - want) / (1.0 + fabs(want)));
        }
    cudaFree(da), cudaFree(db), cudaFree(dc);
    free(ha), free(hb), free(hc), free(ref);
    printf("wmma: %-34s largest relative difference %.3g (tolerance %.3g)\n", name, worst, tol);
    return worst > tol;
}

// wmma's loads and stores wait for the whole warp (.sync.aligned): a tile the lanes wrote to shared
// memory just before, with no __syncwarp, is whole when loaded, and a load then a store in place
// (a transpose: row-major in, column-major out) reads before any lane writes
__global__ void shared_transpose(float *P)
{
    __shared__ __align__(32) float s[256];
    for (int i = threadIdx.x; i < 256; i += 32)
        s[i] = P[i];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(c, s, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(s, c, 16, wmma::mem_col_major);
    for (int i = threadIdx.x; i < 256; i += 32)
        P[i] = s[i];
}

static int check_transpose()
{
    float h[256], *P;
    for (int i = 0; i < 256; i++)
        h[i] = (float)i;
    if (cudaMalloc(&P, sizeof h) != cudaSuccess)
        return printf("wmma: transpose: cudaMalloc failed\n"), 1;
    cudaMemcpy(P, h, sizeof h, cudaMemcpyHostToDevice);
    shared_transpose<<<1, 32>>>(P);
    cudaError_t e = cudaMemcpy(h, P, sizeof h, cudaMemcpyDeviceToHost);
    int bad = e != cudaSuccess;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++)
            bad += h[r * 16 + c] != (float)(c * 16 + r);
    cudaFree(P);
    printf("wmma: %-34s %s\n", "in-place transpose, no __syncwarp", bad ? "WRONG" : "right");
    return bad != 0;
}

// the faults: a misaligned tile, an ldm that is not a multiple of 16 bytes, half a warp at mma_sync
__global__ void misuse(const __half *A, float *C, int what)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    if (what == 0)
        wmma::load_matrix_sync(a, A + 1, 16); // MARK:misaligned
    else if (what == 1)
        wmma::load_matrix_sync(a, A, 12); // MARK:ldm
    else
        wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, A, 16);
    if (what != 2 || threadIdx.x < 16)
        wmma::mma_sync(c, a, b, c); // MARK:diverge
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        const int what = !strcmp(argv[1], "misaligned") ? 0 : !strcmp(argv[1], "ldm") ? 1 : 2;
        __half *A;
        float *C;
        CK(cudaMalloc(&A, 512 * sizeof(__half)));
        CK(cudaMalloc(&C, 256 * sizeof(float)));
        CK(cudaMemset(A, 0, 512 * sizeof(__half)));
        misuse<<<1, 32>>>(A, C, what);
        cudaError_t e = cudaDeviceSynchronize();
        printf("wmma %s: %s\n", argv[1], cudaGetErrorString(e));
        return e == cudaSuccess ? 0 : 2;
    }
    using wmma::col_major;
    using wmma::row_major;
    int bad = 0;
    bad += check<16, 16, 16, __half, row_major, col_major, float>("f16 16x16x16 (the counted GEMM)", 64, 64, 64, 0, 0);
    bad += check<16, 16, 16, __half, col_major, row_major, float, true>("f16 col/row, shared, C col-major", 32, 48, 64, 1, 0);
    bad += check<16, 16, 16, __half, row_major, row_major, __half>("f16, half accumulators", 32, 32, 32, 0, 1.0 / 512);
    bad += check<32, 8, 16, __half, row_major, col_major, float>("f16 32x8x16", 64, 32, 32, 0, 0);
    bad += check<8, 32, 16, __half, col_major, col_major, float>("f16 8x32x16", 32, 64, 32, 0, 0);
    bad += check<16, 16, 16, __nv_bfloat16, row_major, col_major, float>("bf16 16x16x16", 32, 32, 48, 0, 0);
    bad += check<16, 16, 8, wmma::precision::tf32, row_major, col_major, float>("tf32 16x16x8", 32, 32, 32, 0, 0);
    bad += check<8, 8, 4, double, row_major, row_major, double>("f64 8x8x4", 16, 24, 16, 1, 0);
    bad += check<16, 16, 16, signed char, row_major, col_major, int>("s8 16x16x16", 32, 32, 64, 0, 0, true);
    bad += check<16, 16, 16, unsigned char, col_major, row_major, int, true>("u8 16x16x16, shared", 32, 32, 32, 0, 0, true);
    bad += check_transpose();
    printf(bad ? "wmma: WRONG (%d cases)\n" : "wmma: correct\n", bad);
    return bad != 0;
}
