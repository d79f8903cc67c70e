// tests/run/runtime_flags.cu - runtime calls of survey 19 that did not compile: the device's cache
// configuration read back (cudaDeviceGetCacheConfig; a config out of range refused; a reset
// forgets it), and an event made with cudaEventInterprocess (xiaohuangyu's cuda_learning
// 22_streams/04): an event of this process like any other, refused as CUDA refuses it without
// cudaEventDisableTiming; flags that are no event flags are cudaErrorInvalidValue.
#include <cstdio>

int main()
{
    cudaFuncCache c = cudaFuncCachePreferNone;
    cudaError_t set = cudaDeviceSetCacheConfig(cudaFuncCachePreferShared);
    cudaError_t get = cudaDeviceGetCacheConfig(&c);
    printf("cache config: %s %s %d\n", cudaGetErrorName(set), cudaGetErrorName(get), (int)c);
    printf("cache config 7: %s\n", cudaGetErrorName(cudaDeviceSetCacheConfig((cudaFuncCache)7)));
    cudaGetLastError();
    cudaEvent_t e;
    cudaError_t ipc = cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventInterprocess);
    printf("interprocess: %s\n", cudaGetErrorName(ipc));
    if (!ipc) { /* an event in this process like any other */
        cudaEventRecord(e, 0);
        printf("interprocess sync: %s\n", cudaGetErrorName(cudaEventSynchronize(e)));
        cudaEventDestroy(e);
    }
    printf("interprocess, timed: %s\n", cudaGetErrorName(cudaEventCreateWithFlags(&e, cudaEventInterprocess)));
    cudaGetLastError();
    cudaDeviceReset();
    cudaDeviceGetCacheConfig(&c);
    printf("cache config after reset: %d\n", (int)c);
    printf("flags 0x40: %s\n", cudaGetErrorName(cudaEventCreateWithFlags(&e, 0x40)));
    cudaGetLastError();
    cudaError_t plain = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    printf("disable timing: %s\n", cudaGetErrorName(plain));
    if (!plain)
        cudaEventDestroy(e);
    return 0;
}
