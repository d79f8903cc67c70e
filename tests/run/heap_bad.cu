// tests/run/heap_bad.cu - a kernel that misuses the device heap ends in a report and
// cudaErrorLaunchFailure, never a hang or a crash: `overflow` writes past its block
// (the next malloc finds the broken header), `double` frees a block twice,
// `interior` frees a pointer inside a block. The mode is argv[1]; prints
// "heap_bad <mode>: <the program's error>".
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void misuse(int mode)
{
    char *a = (char *)malloc(16);
    if (!a)
        return;
    if (mode == 0) {
        memset(a, 0xff, 48); // 32 bytes past the block: the next block's header
        char *b = (char *)malloc(16);
        (void)b;
    } else if (mode == 1) {
        free(a);
        free(a);
    } else {
        free(a + 4);
    }
}

int main(int argc, char **argv)
{
    const char *names[] = {"overflow", "double", "interior"};
    int mode = 0;
    for (int m = 0; m < 3; m++)
        if (argc > 1 && !strcmp(argv[1], names[m]))
            mode = m;
    misuse<<<1, 1>>>(mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("heap_bad %s: %s\n", names[mode], cudaGetErrorName(e));
    return 0;
}
