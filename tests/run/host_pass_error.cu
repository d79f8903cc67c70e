// tests/run/host_pass_error.cu - a program only the host pass refuses: the single-pass fallback
// runs it, and the note names the host pass's first error (session 39: under g++ 13 a shim macro
// broke every host pass with <string>, and the note only said "did not compile"). The single
// pass is built with -fsanitize=thread, the host pass without: __SANITIZE_THREAD__ tells them apart.
#include <cstdio>
#ifndef __SANITIZE_THREAD__
static_assert(sizeof(int) == 3, "seen by the host pass only");
#endif
__global__ void k(int *o) { o[threadIdx.x] = threadIdx.x; }
int main() {
    int *d, h[32];
    cudaMalloc(&d, sizeof h);
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("host_pass_error: %d\n", h[31]);
    return h[31] == 31 ? 0 : 1;
}
