// tests/run/ptx_mma.cu - ldmatrix and mma.sync written as inline PTX (the register-level kernels of
// cuda_hgemm, LeetCUDA, flash-attention's), under `simtlab run` (tests/scripts/run_case.cmake, case
// ptx_mma). One warp computes C (16 x 8) = A (16 x K) B (K x 8), K = 32, four ways, each against a
// double-precision reference (inputs small multiples of 1/8: every sum exact, the results equal
// to the reference but for half accumulators' rounding):
//   f16     m16n8k16 f16 -> f32, the fragments packed by hand from PTX's layout (lane l: group
//           g = l/4, thread t = l%4; a0 = A[g][2t..2t+1], a1 = A[g+8][..], a2 = A[g][2t+8..], ...)
//   ldsm    the same from shared memory with ldmatrix.x4 (A) and ldmatrix.x2.trans (B, stored
//           K x 8 row-major), f16 accumulators (two registers of two halves)
//   bf16    m16n8k16 bf16 -> f32, by hand
//   tf32    m16n8k8 tf32 -> f32, by hand (a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], ...)
// C is stored from the registers by the same layout (c0 = C[g][2t], c1 = C[g][2t+1], c2 = C[g+8][2t], ...).
// `./ptx_mma half`: half the warp at mma.sync (.aligned: a GPU hangs or returns garbage): a report.
// `./ptx_mma global`: ldmatrix given a global-memory address (it reads shared memory only): a report.
#include <cstdio>
#include <cstring>
#include <cmath>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define K 32

__device__ unsigned pack_h(float lo, float hi)
{
    __half2 h = __floats2half2_rn(lo, hi);
    unsigned u;
    memcpy(&u, &h, 4);
    return u;
}
__device__ unsigned pack_b(float lo, float hi)
{
    __nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
    unsigned u;
    memcpy(&u, &h, 4);
    return u;
}

// A row-major 16 x K, B row-major K x 8, C 16 x 8 (floats in global memory)
__global__ void mma_f16(const float *A, const float *B, float *C, int bf)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    float c[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < K; k0 += 16) {
        unsigned a[4], b[2];
        for (int i = 0; i < 4; i++) {
            const int r = g + 8 * (i & 1), k = k0 + 2 * t + 8 * (i >> 1);
            a[i] = bf ? pack_b(A[r * K + k], A[r * K + k + 1]) : pack_h(A[r * K + k], A[r * K + k + 1]);
        }
        for (int i = 0; i < 2; i++) {
            const int k = k0 + 2 * t + 8 * i;
            b[i] = bf ? pack_b(B[k * 8 + g], B[(k + 1) * 8 + g]) : pack_h(B[k * 8 + g], B[(k + 1) * 8 + g]);
        }
        if (bf)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                         "{%8, %9}, {%0, %1, %2, %3};\n"
                         : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        else
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                         "{%8, %9}, {%10, %11, %12, %13};\n"
                         : "=f"(c[0]), "=f"(c[1]), "=f"(c[2]), "=f"(c[3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
                           "f"(c[2]), "f"(c[3]));
    }
    for (int i = 0; i < 4; i++)
        C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = c[i];
}

__global__ void mma_tf32(const float *A, const float *B, float *C)
{
    const int g = threadIdx.x / 4, t = threadIdx.x % 4;
    float c[4] = {0, 0, 0, 0};
    for (int k0 = 0; k0 < K; k0 += 8) {
        unsigned a[4], b[2];
        for (int i = 0; i < 4; i++)
            a[i] = __float_as_uint(A[(g + 8 * (i & 1)) * K + k0 + t + 4 * (i >> 1)]);
        for (int i = 0; i < 2; i++)
            b[i] = __float_as_uint(B[(k0 + t + 4 * i) * 8 + g]);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    for (int i = 0; i < 4; i++)
        C[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = c[i];
}

// through shared memory: ldmatrix.x4 for A's 16 x 16 tile, ldmatrix.x2.trans for B's 16 x 8
__global__ void mma_ldsm(const float *A, const float *B, float *C)
{
    __shared__ __align__(16) __half sa[16][16], sb[16][8];
    const int l = threadIdx.x, g = l / 4, t = l % 4;
    unsigned d[2] = {0, 0};
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = l; i < 256; i += 32)
            sa[i / 16][i % 16] = __float2half(A[(i / 16) * K + k0 + i % 16]);
        for (int i = l; i < 128; i += 32)
            sb[i / 8][i % 8] = __float2half(B[(k0 + i / 8) * 8 + i % 8]);
        __syncwarp();
        unsigned a[4], b[2];
        const unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[l % 16][8 * (l / 16)]);
        const unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[l % 16][0]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                     : "r"(pa));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%0, %1};\n"
                     : "+r"(d[0]), "+r"(d[1])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        __syncwarp();
    }
    for (int i = 0; i < 2; i++) {
        __half2 h;
        memcpy(&h, &d[i], 4);
        C[(g + 8 * i) * 8 + 2 * t] = __low2float(h);
        C[(g + 8 * i) * 8 + 2 * t + 1] = __high2float(h);
    }
}

__global__ void half_warp(float *o)
{
    float c[4] = {0, 0, 0, 0};
    const unsigned a = 0, b = 0;
    if (threadIdx.x < 16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, " // MARK:half
                     "{%0,%1,%2,%3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a), "r"(b));
    o[threadIdx.x] = c[0];
}

// half the warp returns before an ldmatrix of the full warp (a 32-thread block): the report says
// which lanes returned, not that the block should be a multiple of 32
__global__ void ldsm_early(float *o)
{
    __shared__ __align__(16) __half s[8][8];
    if (threadIdx.x >= 16)
        return;
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" /* MARK:early */
                 : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(&s[threadIdx.x % 8][0])));
    o[threadIdx.x] = (float)r;
}

__global__ void ldsm_global(const float *g, float *o)
{
    unsigned r;
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r) : "l"(g + 4 * (threadIdx.x % 8))); // MARK:global
    o[threadIdx.x] = (float)r;
}

int main(int argc, char **argv)
{
    float hA[16 * K], hB[K * 8], hC[16 * 8];
    double ref[16 * 8];
    for (int i = 0; i < 16 * K; i++)
        hA[i] = (float)((i * 7) % 13 - 6) / 8.0f;
    for (int i = 0; i < K * 8; i++)
        hB[i] = (float)((i * 5) % 11 - 5) / 8.0f;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)hA[r * K + k] * hB[k * 8 + c];
            ref[r * 8 + c] = s;
        }
    float *A, *B, *C;
    cudaMalloc(&A, sizeof hA);
    cudaMalloc(&B, sizeof hB);
    cudaMalloc(&C, sizeof hC);
    cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice);
    if (argc > 1 && !strcmp(argv[1], "global")) {
        ldsm_global<<<1, 32>>>(A, C);
        printf("ptx_mma global: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    if (argc > 1 && !strcmp(argv[1], "early")) {
        ldsm_early<<<1, 32>>>(C);
        printf("ptx_mma early: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    if (argc > 1 && !strcmp(argv[1], "half")) {
        half_warp<<<1, 32>>>(C);
        printf("ptx_mma half: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    const char *names[4] = {"f16 (by hand)", "bf16 (by hand)", "tf32 m16n8k8", "ldmatrix, f16 accumulators"};
    int bad = 0;
    for (int v = 0; v < 4; v++) {
        cudaMemset(C, 0, sizeof hC);
        if (v < 2)
            mma_f16<<<1, 32>>>(A, B, C, v);
        else if (v == 2)
            mma_tf32<<<1, 32>>>(A, B, C);
        else
            mma_ldsm<<<1, 32>>>(A, B, C);
        cudaError_t e = cudaMemcpy(hC, C, sizeof hC, cudaMemcpyDeviceToHost);
        if (e != cudaSuccess) {
            printf("ptx_mma: %s: %s\n", names[v], cudaGetErrorString(e));
            return 2;
        }
        double worst = 0; // relative to 1 + |ref|; half accumulators round each partial sum
        for (int i = 0; i < 16 * 8; i++)
            worst = fmax(worst, fabs(hC[i] - ref[i]) / (1 + fabs(ref[i])));
        const double tol = v == 3 ? 1.0 / 512 : 0;
        printf("ptx_mma: %-28s largest relative difference %.3g (tolerance %.3g)\n", names[v], worst, tol);
        bad += worst > tol;
    }
    printf(bad ? "ptx_mma: WRONG\n" : "ptx_mma: correct\n");
    return bad != 0;
}
