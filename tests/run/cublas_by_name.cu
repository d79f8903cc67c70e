// tests/run/cublas_by_name.cu - cuBLAS functions used by name without a call at once: bound with
// std::bind (Lei Mao's row- and column-major program), kept in a function pointer and in a table.
// The calls are macros in simtlab's cublas_api.h, which a name without `(` does not reach: the
// program was refused as "cublasSgemm is not in simtlab's cuBLAS". 4 x 4 ones: C = A B holds 4s;
// y = 2 x + y twice over ones: 5s.
#include <cstdio>
#include <functional>
#include <cublas_v2.h>

int main()
{
    const int n = 4;
    float h[n * n], *A, *B, *C;
    for (int i = 0; i < n * n; i++)
        h[i] = 1.0f;
    cudaMalloc(&A, sizeof h), cudaMalloc(&B, sizeof h), cudaMalloc(&C, sizeof h);
    cudaMemcpy(A, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(B, h, sizeof h, cudaMemcpyHostToDevice);
    cublasHandle_t handle;
    cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f, two = 2.0f;
    std::function<cublasStatus_t()> gemm{
        std::bind(cublasSgemm, handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n)};
    int bad = gemm() != CUBLAS_STATUS_SUCCESS;
    cublasStatus_t (*axpy)(cublasHandle_t, int, const float *, const float *, int, float *, int) = cublasSaxpy;
    decltype(axpy) table[] = {cublasSaxpy_v2, &cublasSaxpy};
    bad += axpy(handle, n, &two, A, 1, B, 1) != CUBLAS_STATUS_SUCCESS; // B[0..3] = 3
    bad += table[1](handle, n, &one, A, 1, B, 1) != CUBLAS_STATUS_SUCCESS; // B[0..3] = 4
    bad += table[0](handle, n, &one, A, 1, B, 1) != CUBLAS_STATUS_SUCCESS; // B[0..3] = 5
    float c[n * n], b[n * n];
    cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost);
    cudaMemcpy(b, B, sizeof b, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n * n; i++)
        bad += c[i] != 4.0f || b[i] != (i < n ? 5.0f : 1.0f);
    cublasDestroy(handle);
    printf("cublas_by_name: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
