// tests/run/wmma_layout.cu - which element of the tile each x[i] of a wmma fragment holds, against
// the H200's (measured by scripts/gpu/wmma_probe.cu: docs/gpu/s37-h200/wmma_layout.txt). Each
// fragment is loaded from a matrix whose element (r, c) holds its index r * cols + c, and lanes 0,
// 5, 18 and 31 print x[0 .. num_elements - 1]; the 8-bit A holds the index mod 128 (it must fit).
// A program that works on fragments by position (a row's epilogue, a mask) relies on this.
// Run by tests/scripts/run_case.cmake, case wmma_layout; it checks itself, on a GPU as well.
#include <cstdio>
#include <cstring>
#include <string>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

template <class T> __host__ __device__ T from_int(int v) { return (T)v; }
template <> __host__ __device__ __half from_int<__half>(int v) { return __int2half_rn(v); }
template <> __host__ __device__ __nv_bfloat16 from_int<__nv_bfloat16>(int v) { return __int2bfloat16_rn(v); }
template <class T> __device__ float to_float(T v) { return (float)v; }
template <> __device__ float to_float<__half>(__half v) { return __half2float(v); }
template <> __device__ float to_float<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

template <class F> __device__ void put(const F &f, float *out, int *ne)
{
    for (int i = 0; i < f.num_elements; i++)
        out[threadIdx.x * f.num_elements + i] = to_float(f.x[i]);
    if (threadIdx.x == 0)
        *ne = f.num_elements;
}
template <class Use, int M, int N, int K, class T, class L, class S>
__global__ void frag_k(const S *src, unsigned ldm, float *out, int *ne)
{
    wmma::fragment<Use, M, N, K, T, L> f;
    wmma::load_matrix_sync(f, src, ldm);
    put(f, out, ne);
}
template <int M, int N, int K, class T>
__global__ void acc_k(const T *src, unsigned ldm, int col, float *out, int *ne)
{
    wmma::fragment<wmma::accumulator, M, N, K, T> f;
    wmma::load_matrix_sync(f, src, ldm, col ? wmma::mem_col_major : wmma::mem_row_major);
    put(f, out, ne);
}

struct lanes {
    const char *l[4]; // lanes 0, 5, 18, 31
};
static float *d_out;
static int *d_ne;

// the matrix rows x cols, element (r, c) = (r * cols + c) mod 128 for 8-bit types, stored row- or
// column-major; *ld its leading dimension
template <class S> static S *matrix(int rows, int cols, int col, unsigned *ld)
{
    static S h[1024];
    S *d = nullptr;
    *ld = col ? rows : cols;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            h[col ? c * rows + r : r * cols + c] = from_int<S>((r * cols + c) % (sizeof(S) == 1 ? 128 : 1024));
    cudaMalloc(&d, sizeof(S) * rows * cols);
    cudaMemcpy(d, h, sizeof(S) * rows * cols, cudaMemcpyHostToDevice);
    return d;
}

static int compare(const char *name, const lanes &want)
{
    static float h[32 * 64];
    int ne = 0;
    if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(&ne, d_ne, sizeof ne, cudaMemcpyDeviceToHost) ||
        ne < 1 || ne > 64 || cudaMemcpy(h, d_out, sizeof(float) * 32 * ne, cudaMemcpyDeviceToHost))
        return printf("wmma layout: %s: the kernel failed\n", name), 1;
    const int lane[4] = {0, 5, 18, 31};
    int bad = 0;
    for (int j = 0; j < 4; j++) {
        std::string got;
        for (int i = 0; i < ne; i++)
            got += (i ? " " : "") + std::to_string((int)h[lane[j] * ne + i]);
        if (got != want.l[j]) {
            printf("wmma layout: %s lane %d: %s, the H200's: %s\n", name, lane[j], got.c_str(), want.l[j]);
            bad = 1;
        }
    }
    return bad;
}

template <class Use, int M, int N, int K, class T, class L, class S>
static int layout(const char *name, int rows, int cols, int col, const lanes &want)
{
    unsigned ld;
    S *m = matrix<S>(rows, cols, col, &ld);
    frag_k<Use, M, N, K, T, L, S><<<1, 32>>>(m, ld, d_out, d_ne);
    const int bad = compare(name, want);
    cudaFree(m);
    return bad;
}
template <int M, int N, int K, class T> static int layout_acc(const char *name, int rows, int cols, int col, const lanes &want)
{
    unsigned ld;
    T *m = matrix<T>(rows, cols, col, &ld);
    acc_k<M, N, K, T><<<1, 32>>>(m, ld, col, d_out, d_ne);
    const int bad = compare(name, want);
    cudaFree(m);
    return bad;
}

int main()
{
    if (cudaMalloc(&d_out, sizeof(float) * 32 * 64) || cudaMalloc(&d_ne, sizeof(int)))
        return printf("wmma layout: cudaMalloc failed\n"), 1;
    int bad = 0;
    bad += layout<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major, __half>("a_16x16x16_f16_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137 0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155 18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205 68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255 118 119 246 247 126 127 254 255"});
    bad += layout<wmma::matrix_a, 16, 16, 16, __half, wmma::col_major, __half>("a_16x16x16_f16_col", 16, 16, 1,
        {"0 1 128 129 8 9 136 137 0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155 18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205 68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255 118 119 246 247 126 127 254 255"});
    bad += layout<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major, __half>("b_16x16x16_f16_row", 16, 16, 0,
        {"0 16 128 144 8 24 136 152 0 16 128 144 8 24 136 152", "33 49 161 177 41 57 169 185 33 49 161 177 41 57 169 185", "68 84 196 212 76 92 204 220 68 84 196 212 76 92 204 220", "103 119 231 247 111 127 239 255 103 119 231 247 111 127 239 255"});
    bad += layout<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major, __half>("b_16x16x16_f16_col", 16, 16, 1,
        {"0 16 128 144 8 24 136 152 0 16 128 144 8 24 136 152", "33 49 161 177 41 57 169 185 33 49 161 177 41 57 169 185", "68 84 196 212 76 92 204 220 68 84 196 212 76 92 204 220", "103 119 231 247 111 127 239 255 103 119 231 247 111 127 239 255"});
    bad += layout<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major, __half>("a_32x8x16_f16_row", 32, 16, 0,
        {"0 1 128 129 8 9 136 137 256 257 384 385 264 265 392 393", "18 19 146 147 26 27 154 155 274 275 402 403 282 283 410 411", "68 69 196 197 76 77 204 205 324 325 452 453 332 333 460 461", "118 119 246 247 126 127 254 255 374 375 502 503 382 383 510 511"});
    bad += layout<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major, __half>("b_32x8x16_f16_row", 16, 8, 0,
        {"0 8 64 72 0 8 64 72 0 8 64 72 0 8 64 72", "17 25 81 89 17 25 81 89 17 25 81 89 17 25 81 89", "36 44 100 108 36 44 100 108 36 44 100 108 36 44 100 108", "55 63 119 127 55 63 119 127 55 63 119 127 55 63 119 127"});
    bad += layout<wmma::matrix_a, 8, 32, 16, __half, wmma::row_major, __half>("a_8x32x16_f16_row", 8, 16, 0,
        {"0 1 8 9 0 1 8 9 0 1 8 9 0 1 8 9", "18 19 26 27 18 19 26 27 18 19 26 27 18 19 26 27", "68 69 76 77 68 69 76 77 68 69 76 77 68 69 76 77", "118 119 126 127 118 119 126 127 118 119 126 127 118 119 126 127"});
    bad += layout<wmma::matrix_b, 8, 32, 16, __half, wmma::row_major, __half>("b_8x32x16_f16_row", 16, 32, 0,
        {"0 32 8 40 256 288 264 296 16 48 24 56 272 304 280 312", "65 97 73 105 321 353 329 361 81 113 89 121 337 369 345 377", "132 164 140 172 388 420 396 428 148 180 156 188 404 436 412 444", "199 231 207 239 455 487 463 495 215 247 223 255 471 503 479 511"});
    bad += layout<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major, __nv_bfloat16>("a_16x16x16_bf16_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    bad += layout<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::col_major, __nv_bfloat16>("b_16x16x16_bf16_col", 16, 16, 1,
        {"0 16 128 144 8 24 136 152", "33 49 161 177 41 57 169 185", "68 84 196 212 76 92 204 220", "103 119 231 247 111 127 239 255"});
    bad += layout<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major, float>("a_16x16x8_tf32_row", 16, 8, 0,
        {"0 64 4 68", "9 73 13 77", "34 98 38 102", "59 123 63 127"});
    bad += layout<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major, float>("b_16x16x8_tf32_row", 8, 16, 0,
        {"0 64 8 72", "17 81 25 89", "36 100 44 108", "55 119 63 127"});
    bad += layout<wmma::matrix_a, 8, 8, 4, double, wmma::row_major, double>("a_8x8x4_f64_row", 8, 4, 0,
        {"0", "5", "18", "31"});
    bad += layout<wmma::matrix_b, 8, 8, 4, double, wmma::row_major, double>("b_8x8x4_f64_row", 4, 8, 0,
        {"0", "9", "20", "31"});
    bad += layout<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major, signed char>("a_16x16x16_s8_row_lo", 16, 16, 0,
        {"0 1 2 3 0 1 2 3", "20 21 22 23 20 21 22 23", "72 73 74 75 72 73 74 75", "124 125 126 127 124 125 126 127"});
    bad += layout_acc<16, 16, 16, float>("c_16x16x16_f32_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    bad += layout_acc<16, 16, 16, float>("c_16x16x16_f32_col", 16, 16, 1,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    bad += layout_acc<16, 16, 16, __half>("c_16x16x16_f16_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    bad += layout_acc<32, 8, 16, float>("c_32x8x16_f32_row", 32, 8, 0,
        {"0 1 64 65 128 129 192 193", "10 11 74 75 138 139 202 203", "36 37 100 101 164 165 228 229", "62 63 126 127 190 191 254 255"});
    bad += layout_acc<8, 32, 16, float>("c_8x32x16_f32_row", 8, 32, 0,
        {"0 32 8 40 16 48 24 56", "65 97 73 105 81 113 89 121", "132 164 140 172 148 180 156 188", "199 231 207 239 215 247 223 255"});
    bad += layout_acc<16, 16, 8, float>("c_16x16x8_f32_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    bad += layout_acc<8, 8, 4, double>("c_8x8x4_f64_row", 8, 8, 0,
        {"0 1", "10 11", "36 37", "62 63"});
    bad += layout_acc<16, 16, 16, int>("c_16x16x16_s32_row", 16, 16, 0,
        {"0 1 128 129 8 9 136 137", "18 19 146 147 26 27 154 155", "68 69 196 197 76 77 204 205", "118 119 246 247 126 127 254 255"});
    printf(bad ? "wmma layout: WRONG (%d fragments)\n" : "wmma layout: the H200's, all 23 fragments\n", bad);
    return bad != 0;
}
