// tests/run/c_file/main.cu - a .cu file calling a C function of helper.c (test run_c_file)
#include <cstdio>
#include "helper.h"

__global__ void k(int *o) { *o = 41; }

int main()
{
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    k<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    int r = host_helper(h);
    printf("c_file: %d, %d call\n", r, helper_calls);
    return 0;
}
