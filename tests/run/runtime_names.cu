// tests/run/runtime_names.cu - runtime names survey 16 missed (tests/scripts/run_case.cmake, case
// runtime_names): every error code of CUDA 13 with its name and text, the special streams
// cudaStreamPerThread and cudaStreamLegacy, cudaDevAttrCooperativeLaunch and
// cudaOccupancyMaxPotentialBlockSizeVariableSMem; and a library linked with -l and -L
// (runtime_names_lib.c, built into a library by the test: the program calls its function).
#include <cstdio>

extern "C" int simtlab_test_lib_answer(void); // from the library

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }

int main()
{
    printf("%s: %s\n", cudaGetErrorName(cudaErrorInvalidPc), cudaGetErrorString(cudaErrorInvalidPc));
    printf("%d %s\n", (int)cudaErrorNoKernelImageForDevice, cudaGetErrorName(cudaErrorNoKernelImageForDevice));
    int *d, h[32] = {0};
    cudaMalloc(&d, sizeof h);
    fill<<<1, 32, 0, cudaStreamPerThread>>>(d, 7);
    cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, cudaStreamPerThread);
    cudaError_t e = cudaStreamSynchronize(cudaStreamPerThread);
    unsigned flags = 99;
    cudaStreamGetFlags(cudaStreamLegacy, &flags);
    printf("per-thread stream: %s, h[31] = %d, legacy flags %u\n", cudaGetErrorName(e), h[31], flags);
    int coop = -1;
    cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
    int g1 = 0, b1 = 0, g2 = 0, b2 = 0;
    cudaOccupancyMaxPotentialBlockSize(&g1, &b1, fill, 0);
    cudaOccupancyMaxPotentialBlockSizeVariableSMem(&g2, &b2, fill, [](int b) { return (size_t)b * 200; });
    printf("cooperative %d; block %d grid %d; with 200 B a thread: block %d grid %d\n", coop, b1, g1, b2, g2);
    printf("library: %d\n", simtlab_test_lib_answer());
    return 0;
}
