// tests/run/cublas.cu - cuBLAS's classic API as an ordinary program calls it (with nvcc:
// -lcublas): GEMM in all four transposes on edge sizes and padded leading dimensions, double,
// strided and pointer-array batches, GemmEx on float, half and bfloat16 data, GEMV both ways,
// geam (a transpose and a sum), ger, level 1, the copy helpers, device pointer mode, and the errors a student meets (a leading
// dimension too small, no handle, integer data in GemmEx). Results against a double-precision reference on the host: relative error at
// most 1e-5 for float (k <= 70 terms of magnitude <= 1), 1e-12 for double. Prints
// "cublas: correct" when every check holds; the checks hold on a GPU too.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

static int failures;
static void check(bool ok, const char *what)
{
    if (!ok) {
        printf("cublas: FAILED %s\n", what);
        failures++;
    }
}

static double urand(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (double)(*s >> 8) / (double)(1u << 24) * 2.0 - 1.0;
}

// op(X)(i, j) of a column-major matrix with leading dimension ld
template <class T>
static T at(const T *X, int ld, bool t, int i, int j)
{
    return t ? X[j + (size_t)i * ld] : X[i + (size_t)j * ld];
}

// C = alpha op(A) op(B) + beta C on the host, in double; the largest relative error of got
template <class T>
static double gemm_error(bool ta, bool tb, int m, int n, int k, double alpha, const T *A, int lda, const T *B, int ldb,
                         double beta, const T *C0, const T *got, int ldc)
{
    double worst = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0, mag = 0;
            for (int p = 0; p < k; p++) {
                s += (double)at(A, lda, ta, i, p) * (double)at(B, ldb, tb, p, j);
                mag += fabs((double)at(A, lda, ta, i, p) * (double)at(B, ldb, tb, p, j));
            }
            const double want = alpha * s + (beta != 0 ? beta * (double)C0[i + (size_t)j * ldc] : 0);
            const double scale = fabs(alpha) * mag + fabs(beta) + 1e-30;
            const double e = fabs((double)got[i + (size_t)j * ldc] - want) / scale;
            worst = e > worst ? e : worst;
        }
    return worst;
}

template <class T>
static T *device_copy(const T *h, size_t n)
{
    T *d;
    cudaMalloc(&d, n * sizeof(T));
    cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}

template <class T>
static T *host_random(size_t n, unsigned seed)
{
    T *h = (T *)malloc(n * sizeof(T));
    for (size_t i = 0; i < n; i++)
        h[i] = (T)urand(&seed);
    return h;
}

// one GEMM (batch 1) of the given shape through cublasSgemm or cublasDgemm, checked
template <class T>
static void one_gemm(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, int pad, double alpha, double beta,
                     double tol, const char *what)
{
    const int lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + pad;
    const size_t na = (size_t)lda * (ta ? m : k), nb = (size_t)ldb * (tb ? k : n), nc = (size_t)ldc * n;
    T *A = host_random<T>(na, 1), *B = host_random<T>(nb, 2), *C = host_random<T>(nc, 3);
    if (beta == 0)
        for (size_t i = 0; i < nc; i++)
            C[i] = (T)NAN; // cuBLAS does not read C when beta is 0
    T *dA = device_copy(A, na), *dB = device_copy(B, nb), *dC = device_copy(C, nc);
    T *got = (T *)malloc(nc * sizeof(T));
    const T a = (T)alpha, b = (T)beta;
    cublasStatus_t s;
    if (sizeof(T) == 4)
        s = cublasSgemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, (const float *)&a,
                        (const float *)dA, lda, (const float *)dB, ldb, (const float *)&b, (float *)dC, ldc);
    else
        s = cublasDgemm(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, k, (const double *)&a,
                        (const double *)dA, lda, (const double *)dB, ldb, (const double *)&b, (double *)dC, ldc);
    cudaMemcpy(got, dC, nc * sizeof(T), cudaMemcpyDeviceToHost);
    const double e = gemm_error(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, got, ldc);
    printf("cublas: %s: status %d, relative error %.2e\n", what, (int)s, e);
    check(s == CUBLAS_STATUS_SUCCESS && e <= tol, what);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
    free(A), free(B), free(C), free(got);
}

int main()
{
    cublasHandle_t h;
    check(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    int version = 0;
    check(cublasGetVersion(h, &version) == CUBLAS_STATUS_SUCCESS && version > 0, "cublasGetVersion");
    check(cublasGetCudartVersion() == CUDART_VERSION, "cublasGetCudartVersion"); // Bruce-Lee-LY/cuda_hgemm's error path
    check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH) == CUBLAS_STATUS_SUCCESS, "cublasSetMathMode");

    // the counted launches first (run_case.cmake checks their bytes): 64 x 64 x 64, beta 0 and 1
    {
        const int n = 64;
        float *A = host_random<float>(n * n, 4), *B = host_random<float>(n * n, 5);
        float *dA = device_copy(A, n * n), *dB = device_copy(B, n * n), *dC;
        cudaMalloc(&dC, n * n * sizeof(float));
        const float one = 1, zero = 0;
        check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n) == 0, "count, beta 0"); // MARK:beta0
        check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &one, dC, n) == 0, "count, beta 1");
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
        free(A), free(B);
    }

    // all four transposes, edge sizes (not multiples of the 64-tile or of 16), padded ld
    one_gemm<float>(h, false, false, 70, 45, 33, 0, 1.5, 0.5, 1e-5, "sgemm NN");
    one_gemm<float>(h, true, false, 70, 45, 33, 3, -1.0, 0.0, 1e-5, "sgemm TN, beta 0 over NaN");
    one_gemm<float>(h, false, true, 17, 130, 65, 1, 0.75, 2.0, 1e-5, "sgemm NT");
    one_gemm<float>(h, true, true, 129, 1, 70, 2, 1.0, 1.0, 1e-5, "sgemm TT");
    one_gemm<float>(h, false, false, 5, 7, 0, 1, 1.0, 3.0, 1e-6, "sgemm k = 0: C = beta C");
    one_gemm<double>(h, true, false, 40, 33, 50, 1, 1.25, -0.5, 1e-12, "dgemm TN");

    // strided batches and pointer arrays: 3 matrices of 20 x 30 x 10
    {
        const int m = 20, n = 30, k = 10, batch = 3;
        float *A = host_random<float>((size_t)m * k * batch, 7), *B = host_random<float>((size_t)k * n * batch, 8);
        float *dA = device_copy(A, (size_t)m * k * batch), *dB = device_copy(B, (size_t)k * n * batch), *dC, *dC2;
        cudaMalloc(&dC, (size_t)m * n * batch * sizeof(float));
        cudaMalloc(&dC2, (size_t)m * n * batch * sizeof(float));
        const float one = 1, zero = 0;
        cublasStatus_t s = cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, m, (long long)m * k, dB,
                                                     k, (long long)k * n, &zero, dC, m, (long long)m * n, batch);
        const float *pa[batch], *pb[batch];
        float *pc[batch];
        for (int b = 0; b < batch; b++)
            pa[b] = dA + (size_t)b * m * k, pb[b] = dB + (size_t)b * k * n, pc[b] = dC2 + (size_t)b * m * n;
        const float **dpa, **dpb;
        float **dpc;
        cudaMalloc(&dpa, sizeof pa), cudaMalloc(&dpb, sizeof pb), cudaMalloc(&dpc, sizeof pc);
        cudaMemcpy(dpa, pa, sizeof pa, cudaMemcpyHostToDevice);
        cudaMemcpy(dpb, pb, sizeof pb, cudaMemcpyHostToDevice);
        cudaMemcpy(dpc, pc, sizeof pc, cudaMemcpyHostToDevice);
        cublasStatus_t s2 =
            cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dpa, m, dpb, k, &zero, dpc, m, batch);
        float *got = (float *)malloc((size_t)m * n * batch * sizeof(float));
        float *got2 = (float *)malloc((size_t)m * n * batch * sizeof(float));
        cudaMemcpy(got, dC, (size_t)m * n * batch * sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(got2, dC2, (size_t)m * n * batch * sizeof(float), cudaMemcpyDeviceToHost);
        double e = 0, e2 = 0;
        for (int b = 0; b < batch; b++) {
            const size_t oa = (size_t)b * m * k, ob = (size_t)b * k * n, oc = (size_t)b * m * n;
            e = fmax(e, gemm_error(false, false, m, n, k, 1, A + oa, m, B + ob, k, 0, got + oc, got + oc, m));
            e2 = fmax(e2, gemm_error(false, false, m, n, k, 1, A + oa, m, B + ob, k, 0, got2 + oc, got2 + oc, m));
        }
        printf("cublas: strided batch error %.2e, pointer-array batch error %.2e\n", e, e2);
        check(s == 0 && e <= 1e-5, "sgemmStridedBatched");
        check(s2 == 0 && e2 <= 1e-5, "sgemmBatched");
        // GemmEx on float data: the same product as the first matrix of the batch
        cublasStatus_t s3 = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dA, CUDA_R_32F, m, dB, CUDA_R_32F,
                                         k, &zero, dC, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        cudaMemcpy(got, dC, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost);
        e = gemm_error(false, false, m, n, k, 1, A, m, B, k, 0, got, got, m);
        check(s3 == 0 && e <= 1e-5, "GemmEx, float");
        cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dC2), cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
        free(A), free(B), free(got), free(got2);
    }

    // GEMV both ways: A 50 x 37, x with increment 2 (op N) and 1 (op T)
    {
        const int m = 50, n = 37;
        float *A = host_random<float>((size_t)m * n, 9), *x = host_random<float>(2 * 50, 10), *y = host_random<float>(50, 11);
        float *dA = device_copy(A, (size_t)m * n), *dx = device_copy(x, 100), *dy = device_copy(y, 50);
        const float alpha = 2, beta = -1;
        cublasStatus_t s = cublasSgemv(h, CUBLAS_OP_N, m, n, &alpha, dA, m, dx, 2, &beta, dy, 1);
        float got[50];
        cudaMemcpy(got, dy, sizeof got, cudaMemcpyDeviceToHost);
        double e = 0;
        for (int i = 0; i < m; i++) {
            double r = 0, mag = 0;
            for (int j = 0; j < n; j++)
                r += (double)A[i + j * m] * x[2 * j], mag += fabs((double)A[i + j * m] * x[2 * j]);
            e = fmax(e, fabs(got[i] - (alpha * r + beta * y[i])) / (2 * mag + 1));
        }
        check(s == 0 && e <= 1e-5, "sgemv N");
        cudaMemcpy(dy, y, sizeof got, cudaMemcpyHostToDevice);
        s = cublasSgemv(h, CUBLAS_OP_T, m, n, &alpha, dA, m, dx, 1, &beta, dy, 1);
        cudaMemcpy(got, dy, n * sizeof(float), cudaMemcpyDeviceToHost);
        double e2 = 0;
        for (int j = 0; j < n; j++) {
            double r = 0, mag = 0;
            for (int i = 0; i < m; i++)
                r += (double)A[i + j * m] * x[i], mag += fabs((double)A[i + j * m] * x[i]);
            e2 = fmax(e2, fabs(got[j] - (alpha * r + beta * y[j])) / (2 * mag + 1));
        }
        printf("cublas: sgemv errors %.2e (N), %.2e (T)\n", e, e2);
        check(s == 0 && e2 <= 1e-5, "sgemv T");
        cudaFree(dA), cudaFree(dx), cudaFree(dy);
        free(A), free(x), free(y);
    }

    // level 1 on 1000 elements, and the copy helpers with increments
    {
        const int n = 1000;
        float *x = host_random<float>(n, 12), *y = host_random<float>(n, 13);
        float *dx, *dy;
        cudaMalloc(&dx, n * sizeof(float)), cudaMalloc(&dy, n * sizeof(float));
        check(cublasSetVector(n, sizeof(float), x, 1, dx, 1) == 0, "cublasSetVector");
        check(cublasSetVector(n, sizeof(float), y, 1, dy, 1) == 0, "cublasSetVector y");
        double dot = 0, nrm = 0, asum = 0, best = -1;
        int imax = 0;
        for (int i = 0; i < n; i++) {
            dot += (double)x[i] * y[i], nrm += (double)x[i] * x[i], asum += fabs(x[i]);
            if (fabs(x[i]) > best)
                best = fabs(x[i]), imax = i + 1;
        }
        float r = 0;
        int ir = 0;
        check(cublasSdot(h, n, dx, 1, dy, 1, &r) == 0 && fabs(r - dot) <= 1e-4 * (1 + fabs(dot)), "cublasSdot");
        check(cublasSnrm2(h, n, dx, 1, &r) == 0 && fabs(r - sqrt(nrm)) <= 1e-5 * sqrt(nrm), "cublasSnrm2");
        check(cublasSasum(h, n, dx, 1, &r) == 0 && fabs(r - asum) <= 1e-5 * asum, "cublasSasum");
        check(cublasIsamax(h, n, dx, 1, &ir) == 0 && ir == imax, "cublasIsamax");
        const float a = 0.5f;
        check(cublasSaxpy(h, n, &a, dx, 1, dy, 1) == 0, "cublasSaxpy");
        check(cublasSscal(h, n / 2, &a, dx, 2) == 0, "cublasSscal, increment 2");
        float gx[1000], gy[1000];
        check(cublasGetVector(n, sizeof(float), dx, 1, gx, 1) == 0, "cublasGetVector");
        check(cublasGetVector(n, sizeof(float), dy, 1, gy, 1) == 0, "cublasGetVector y");
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += gy[i] != y[i] + 0.5f * x[i] || gx[i] != (i % 2 == 0 ? 0.5f * x[i] : x[i]);
        check(bad == 0, "axpy and scal values");
        check(cublasScopy(h, n, dy, 1, dx, 1) == 0 && cublasGetVector(n, 4, dx, 1, gx, 1) == 0 &&
                  gx[0] == gy[0] && gx[n - 1] == gy[n - 1],
              "cublasScopy");
        // SetMatrix / GetMatrix: a 3 x 4 block of a 5-row host matrix into a 4-row device one
        float hm[5 * 4], back[5 * 4] = {0};
        for (int i = 0; i < 20; i++)
            hm[i] = (float)i;
        float *dm;
        cudaMalloc(&dm, 4 * 4 * sizeof(float));
        check(cublasSetMatrix(3, 4, sizeof(float), hm, 5, dm, 4) == 0, "cublasSetMatrix");
        check(cublasGetMatrix(3, 4, sizeof(float), dm, 4, back, 5) == 0, "cublasGetMatrix");
        bad = 0;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 5; i++)
                bad += back[i + 5 * j] != (i < 3 ? hm[i + 5 * j] : 0.0f);
        check(bad == 0, "SetMatrix / GetMatrix values");
        // alpha in device memory
        float *dalpha;
        cudaMalloc(&dalpha, sizeof(float));
        const float two = 2;
        cudaMemcpy(dalpha, &two, sizeof two, cudaMemcpyHostToDevice);
        check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == 0, "device pointer mode");
        check(cublasSscal(h, n, dalpha, dy, 1) == 0, "scal with alpha on the device");
        float *dres;
        cudaMalloc(&dres, sizeof(float));
        check(cublasSasum(h, n, dy, 1, dres) == 0, "asum into device memory");
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
        float res = 0;
        cudaMemcpy(&res, dres, sizeof res, cudaMemcpyDeviceToHost);
        double want = 0;
        for (int i = 0; i < n; i++)
            want += fabs(2.0 * gy[i]);
        check(fabs(res - want) <= 1e-5 * want, "asum of the scaled vector");
        cudaFree(dx), cudaFree(dy), cudaFree(dm), cudaFree(dalpha), cudaFree(dres);
        free(x), free(y);
    }

    // geam as a transpose (C = A^T, B not read: beta = 0), geam summing, ger, iamin
    {
        const int m = 37, n = 21;
        float *A = host_random<float>((size_t)m * n, 16), *B = host_random<float>((size_t)m * n, 17);
        float *x = host_random<float>(m, 18), *y = host_random<float>(n, 19);
        float *dA = device_copy(A, (size_t)m * n), *dB = device_copy(B, (size_t)m * n), *dT, *dS;
        float *dx = device_copy(x, m), *dy = device_copy(y, n);
        cudaMalloc(&dT, (size_t)m * n * 4), cudaMalloc(&dS, (size_t)m * n * 4);
        const float one = 1, zero = 0, half = 0.5f;
        check(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, &one, dA, m, &zero, dB, n, dT, n) == 0, "geam transpose");
        check(cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &one, dA, m, &half, dB, m, dS, m) == 0, "geam sum");
        check(cublasSger(h, m, n, &half, dx, 1, dy, 1, dA, m) == 0, "ger");
        float *t = (float *)malloc((size_t)m * n * 4), *sm = (float *)malloc((size_t)m * n * 4);
        float *ga = (float *)malloc((size_t)m * n * 4);
        cudaMemcpy(t, dT, (size_t)m * n * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(sm, dS, (size_t)m * n * 4, cudaMemcpyDeviceToHost);
        cudaMemcpy(ga, dA, (size_t)m * n * 4, cudaMemcpyDeviceToHost);
        int bad_t = 0, bad_s = 0, bad_g = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                bad_t += t[j + (size_t)i * n] != A[i + (size_t)j * m];
                bad_s += fabs(sm[i + (size_t)j * m] - (A[i + (size_t)j * m] + 0.5 * B[i + (size_t)j * m])) > 1e-6;
                bad_g += fabs(ga[i + (size_t)j * m] - (A[i + (size_t)j * m] + 0.5 * x[i] * y[j])) > 1e-6;
            }
        check(bad_t == 0, "geam transpose values");
        check(bad_s == 0, "geam sum values");
        check(bad_g == 0, "ger values");
        int imin = 0, want = 1;
        for (int i = 1; i < m; i++)
            if (fabs(x[i]) < fabs(x[want - 1]))
                want = i + 1;
        check(cublasIsamin(h, m, dx, 1, &imin) == 0 && imin == want, "cublasIsamin");
        cudaFree(dA), cudaFree(dB), cudaFree(dT), cudaFree(dS), cudaFree(dx), cudaFree(dy);
        free(A), free(B), free(x), free(y), free(t), free(sm), free(ga);
    }

    // GemmEx on half and bfloat16 data, 48 x 40 x 36, transa = T: products of 16-bit values are
    // exact in float, so C in float is within float's rounding of the double reference of the
    // rounded inputs; C in half or bfloat16 within half a unit of its last place (2^-11, 2^-8)
    {
        const int m = 48, n = 40, k = 36;
        float *Af = host_random<float>((size_t)k * m, 14), *Bf = host_random<float>((size_t)k * n, 15);
        __half *Ah = (__half *)malloc((size_t)k * m * 2), *Bh = (__half *)malloc((size_t)k * n * 2);
        __nv_bfloat16 *Ab = (__nv_bfloat16 *)malloc((size_t)k * m * 2), *Bb = (__nv_bfloat16 *)malloc((size_t)k * n * 2);
        double *A1 = (double *)malloc((size_t)k * m * 8), *B1 = (double *)malloc((size_t)k * n * 8);
        double *A2 = (double *)malloc((size_t)k * m * 8), *B2 = (double *)malloc((size_t)k * n * 8);
        for (int i = 0; i < k * m; i++)
            Ah[i] = __float2half(Af[i]), Ab[i] = __float2bfloat16(Af[i]), A1[i] = __half2float(Ah[i]),
            A2[i] = __bfloat162float(Ab[i]);
        for (int i = 0; i < k * n; i++)
            Bh[i] = __float2half(Bf[i]), Bb[i] = __float2bfloat16(Bf[i]), B1[i] = __half2float(Bh[i]),
            B2[i] = __bfloat162float(Bb[i]);
        __half *dAh = device_copy(Ah, (size_t)k * m), *dBh = device_copy(Bh, (size_t)k * n), *dCh;
        __nv_bfloat16 *dAb = device_copy(Ab, (size_t)k * m), *dBb = device_copy(Bb, (size_t)k * n), *dCb;
        float *dCf;
        cudaMalloc(&dCf, (size_t)m * n * 4), cudaMalloc(&dCh, (size_t)m * n * 2), cudaMalloc(&dCb, (size_t)m * n * 2);
        const float one = 1, zero = 0;
        float *cf = (float *)malloc((size_t)m * n * 4);
        double *ref = (double *)malloc((size_t)m * n * 8), *got = (double *)malloc((size_t)m * n * 8);
        for (int pass = 0; pass < 4; pass++) { // half -> float, half -> half, bf16 -> float, bf16 -> bf16
            const bool bf = pass >= 2, to16 = pass % 2 == 1;
            const cudaDataType t = bf ? CUDA_R_16BF : CUDA_R_16F;
            cublasStatus_t st = cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, bf ? (void *)dAb : (void *)dAh, t,
                                             k, bf ? (void *)dBb : (void *)dBh, t, k, &zero,
                                             to16 ? (bf ? (void *)dCb : (void *)dCh) : (void *)dCf,
                                             to16 ? t : CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            if (to16 && bf) {
                __nv_bfloat16 *c16 = (__nv_bfloat16 *)malloc((size_t)m * n * 2);
                cudaMemcpy(c16, dCb, (size_t)m * n * 2, cudaMemcpyDeviceToHost);
                for (int i = 0; i < m * n; i++)
                    got[i] = __bfloat162float(c16[i]);
                free(c16);
            } else if (to16) {
                __half *c16 = (__half *)malloc((size_t)m * n * 2);
                cudaMemcpy(c16, dCh, (size_t)m * n * 2, cudaMemcpyDeviceToHost);
                for (int i = 0; i < m * n; i++)
                    got[i] = __half2float(c16[i]);
                free(c16);
            } else {
                cudaMemcpy(cf, dCf, (size_t)m * n * 4, cudaMemcpyDeviceToHost);
                for (int i = 0; i < m * n; i++)
                    got[i] = cf[i];
            }
            double worst = 0;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++) {
                    double r = 0, mag = 0;
                    for (int p = 0; p < k; p++) {
                        const double x = (bf ? A2 : A1)[p + i * k] * (bf ? B2 : B1)[p + j * k];
                        r += x, mag += fabs(x);
                    }
                    // allowed: the float sum's rounding (k terms), then C's own: half a unit of the
                    // last place of a half (2^-11 relative, 2^-25 below 2^-14) or a bfloat16 (2^-8)
                    const double bound = k * 0x1p-23 * mag +
                                         (!to16 ? 0 : bf ? 0x1p-8 * fabs(r) : 0x1p-11 * fabs(r) + 0x1p-25);
                    const double e = fabs(got[i + j * m] - r) / (bound + 1e-300);
                    worst = e > worst ? e : worst;
                }
            printf("cublas: GemmEx %s -> %s: status %d, error %.2f of its bound\n", bf ? "bf16" : "half",
                   to16 ? (bf ? "bf16" : "half") : "float", (int)st, worst);
            check(st == CUBLAS_STATUS_SUCCESS && worst <= 1, "GemmEx on 16-bit data");
        }
        // cublasHgemm: half scalars, and a GPU may sum in half (the bound allows k half roundings);
        // cublasSgemmEx: bfloat16 A and B into float C, as GemmEx's pass above
        {
            const __half hone = __float2half(1.0f), hzero = __float2half(0.0f);
            cublasStatus_t st = cublasHgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &hone, dAh, k, dBh, k, &hzero, dCh, m);
            __half *c16 = (__half *)malloc((size_t)m * n * 2);
            cudaMemcpy(c16, dCh, (size_t)m * n * 2, cudaMemcpyDeviceToHost);
            cublasStatus_t st2 = cublasSgemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, dAb, CUDA_R_16BF, k, dBb,
                                               CUDA_R_16BF, k, &zero, dCf, CUDA_R_32F, m);
            cudaMemcpy(cf, dCf, (size_t)m * n * 4, cudaMemcpyDeviceToHost);
            double worst = 0, worst2 = 0;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++) {
                    double r = 0, mag = 0, r2 = 0, mag2 = 0;
                    for (int p = 0; p < k; p++) {
                        r += A1[p + i * k] * B1[p + j * k], mag += fabs(A1[p + i * k] * B1[p + j * k]);
                        r2 += A2[p + i * k] * B2[p + j * k], mag2 += fabs(A2[p + i * k] * B2[p + j * k]);
                    }
                    worst = fmax(worst, fabs(__half2float(c16[i + j * m]) - r) /
                                            (k * 0x1p-11 * mag + 0x1p-11 * fabs(r) + 0x1p-25));
                    worst2 = fmax(worst2, fabs(cf[i + j * m] - r2) / (k * 0x1p-23 * mag2 + 1e-300));
                }
            printf("cublas: Hgemm: status %d, error %.2f of its bound; SgemmEx bf16 -> float: status %d, %.2f\n",
                   (int)st, worst, (int)st2, worst2);
            check(st == CUBLAS_STATUS_SUCCESS && worst <= 1, "cublasHgemm");
            check(st2 == CUBLAS_STATUS_SUCCESS && worst2 <= 1, "cublasSgemmEx");
            free(c16);
        }
        cudaFree(dAh), cudaFree(dBh), cudaFree(dCh), cudaFree(dAb), cudaFree(dBb), cudaFree(dCb), cudaFree(dCf);
        free(Af), free(Bf), free(Ah), free(Bh), free(Ab), free(Bb), free(A1), free(B1), free(A2), free(B2);
        free(cf), free(ref), free(got);
    }

    // alpha = 0: A and B not read (NaN there changes nothing), C = beta C; nrm2 of an infinity;
    // GemmEx with a cudaDataType compute type (older code: the toolkit's C++ overload maps it)
    {
        const int n = 8;
        float nan_a[n * n], c0[n * n], got[n * n];
        for (int i = 0; i < n * n; i++)
            nan_a[i] = NAN, c0[i] = (float)i;
        float *dA = device_copy(nan_a, n * n), *dC = device_copy(c0, n * n);
        const float zero = 0, two = 2;
        check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &zero, dA, n, dA, n, &two, dC, n) == 0, "alpha 0");
        cudaMemcpy(got, dC, sizeof got, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n * n; i++)
            bad += got[i] != 2.0f * c0[i];
        check(bad == 0, "alpha 0: C = beta C, A unread");
        float v[3] = {1.0f, INFINITY, INFINITY}, r = 0;
        float *dv = device_copy(v, 3);
        check(cublasSnrm2(h, 3, dv, 1, &r) == 0 && r == INFINITY, "nrm2 of infinities");
        float one = 1, b[n * n];
        for (int i = 0; i < n * n; i++)
            b[i] = 1.0f;
        float *dB = device_copy(b, n * n);
        check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dB, CUDA_R_32F, n, dB, CUDA_R_32F, n, &zero, dC,
                           CUDA_R_32F, n, CUDA_R_32F, CUBLAS_GEMM_DEFAULT) == 0,
              "GemmEx with CUDA_R_32F as its compute type");
        cudaMemcpy(got, dC, sizeof got, cudaMemcpyDeviceToHost);
        check(got[0] == (float)n && got[n * n - 1] == (float)n, "GemmEx with CUDA_R_32F: values");
        // geam in place with a transpose: cuBLAS refuses it
        check(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, &one, dB, n, &zero, dC, n, dB, n) ==
                  CUBLAS_STATUS_INVALID_VALUE,
              "geam in place, transposed, is CUBLAS_STATUS_INVALID_VALUE");
#ifdef SIMTLAB_RUN // a GPU's cuBLAS dereferences these on the host, and the process crashes
        float *dtwo = device_copy(&two, 1);
        check(cublasSscal(h, n, dtwo, dB, 1) == CUBLAS_STATUS_INVALID_VALUE, "a device alpha in host pointer mode");
        check(cublasSnrm2(h, 3, dv, 1, dtwo) == CUBLAS_STATUS_INVALID_VALUE, "a device result in host pointer mode");
        check(cublasSscal(h, n, NULL, dB, 1) == CUBLAS_STATUS_INVALID_VALUE, "a NULL alpha");
        cudaFree(dtwo);
        cublasLtHandle_t lt;
        check(cublasLtCreate(&lt) == 0 && cublasLtDestroy(lt) == 0, "cublasLtCreate, cublasLtDestroy");
        check(cublasLtDestroy(lt) == CUBLAS_STATUS_NOT_INITIALIZED, "cublasLtDestroy twice");
#endif
        cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dv);
    }

    // errors: each returns its status; nothing runs
    {
        float *d;
        cudaMalloc(&d, 64 * 64 * sizeof(float));
        const float one = 1;
        check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, d, 10, d, 64, &one, d, 64) ==
                  CUBLAS_STATUS_INVALID_VALUE,
              "lda < m is CUBLAS_STATUS_INVALID_VALUE");
#ifdef SIMTLAB_RUN // the simulator's cuBLAS multiplies no integer data; a GPU's checks its own way
        const cublasStatus_t i8 = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, d, CUDA_R_8I, 8, d,
                                               CUDA_R_8I, 8, &one, d, CUDA_R_32F, 8, CUBLAS_COMPUTE_32F,
                                               CUBLAS_GEMM_DEFAULT);
        check(i8 == CUBLAS_STATUS_NOT_SUPPORTED, "GemmEx on int8 data is CUBLAS_STATUS_NOT_SUPPORTED");
        cublasHandle_t none = NULL; // a GPU's cuBLAS may not check it
        check(cublasSgemm(none, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, d, 8, d, 8, &one, d, 8) ==
                  CUBLAS_STATUS_NOT_INITIALIZED,
              "a NULL handle");
#endif
        cudaFree(d);
    }
    check(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS, "cublasDestroy");
    check(cudaGetLastError() == cudaSuccess, "no runtime error left behind");
    if (!failures)
        printf("cublas: correct\n");
    return failures != 0;
}
