// tests/run/race_names.cu - a shared-memory race report names the array: a static __shared__ array
// by its name and its kernel (the executable's TLS symbols, sim/shared_names.c), extern __shared__
// memory by its byte; both kernels reverse a block's values with no barrier between the write and
// the read (--detail reports the read-after-write at the first thread whose word another thread read
// before it was written, and names that other thread's read and its line).
#include <cstdio>
__global__ void reverse(int *d, int n) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = d[t]; /* MARK:static */
    d[t] = s[n - t - 1]; /* MARK:read */
}
__global__ void dyn(int *d) {
    extern __shared__ int e[];
    e[threadIdx.x] = d[threadIdx.x]; /* MARK:dynamic */
    d[threadIdx.x] = e[127 - threadIdx.x];
}
int main() {
    int *d; cudaMalloc(&d, 512);
    reverse<<<1, 128>>>(d, 128);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaDeviceReset(); cudaMalloc(&d, 512);
    dyn<<<1, 128, 512>>>(d);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
