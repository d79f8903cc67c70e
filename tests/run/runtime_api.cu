// tests/run/runtime_api.cu - parts of the runtime API that NVIDIA's samples use
// (session 17): clock64()/clock() in a kernel, pinned host memory that a kernel
// reads and writes (cudaHostAlloc, cudaHostGetDevicePointer), L2 access policy
// windows and limits (accepted, kept, checked), cudaDeviceProp's fields, and
// stream-ordered allocation (cudaMallocAsync, the default memory pool), and the small calls:
// cudaPointerGetAttributes, cudaFuncGetAttributes, stream priorities, cudaMemset2D, symbols, peers.
// Prints "runtime_api: correct" or names what went wrong (exit 1).
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <ctime>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            printf("runtime_api: %s failed: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__); \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)
#define EXPECT(cond, ...)                    \
    do {                                             \
        if (!(cond)) {                               \
            printf("runtime_api: " __VA_ARGS__);     \
            printf("\n");                            \
            return 1;                                \
        }                                            \
    } while (0)

// waits `cycles` of the SM clock, as NVIDIA's simpleHyperQ does, and says how many passed
__global__ void wait_cycles(long long cycles, long long *waited, long *with_clock, long long *start_end)
{
    clock_t c0 = clock(); // read first and last: its interval holds clock64()'s
    long long t0 = clock64();
    start_end[2 * threadIdx.x] = t0;
    while (clock64() - t0 < cycles) {
    }
    waited[threadIdx.x] = clock64() - t0;
    start_end[2 * threadIdx.x + 1] = t0 + waited[threadIdx.x];
    with_clock[threadIdx.x] = (long)(clock() - c0);
}

__device__ float table[4];
__device__ float by_address[4]; // written and copied through cudaGetSymbolAddress's pointer

__global__ void count_up(float *p) { p[threadIdx.x] += threadIdx.x + 1; }

// doubles what the host wrote into pinned memory, in place
__global__ void twice(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
}

int main()
{
    int rate_khz = 0;
    CHECK(cudaDeviceGetAttribute(&rate_khz, cudaDevAttrClockRate, 0));
    EXPECT(rate_khz > 0, "clock rate %d kHz", rate_khz);

    // clock64() and clock() in a kernel count the device clock: 2 ms worth of cycles pass
    const long long cycles = 2LL * rate_khz; // 2 ms
    const int waiters = 32;
    long long *waited, *start_end;
    long *with_clock;
    CHECK(cudaMallocManaged(&waited, waiters * sizeof(long long)));
    CHECK(cudaMallocManaged(&with_clock, waiters * sizeof(long)));
    CHECK(cudaMallocManaged(&start_end, 2 * waiters * sizeof(long long)));
    clock_t host0 = clock();
    wait_cycles<<<1, waiters>>>(cycles, waited, with_clock, start_end);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    // the block's threads wait together, as a GPU's warps do: the last one starts before the first ends
    long long last_start = 0, first_end = -1;
    for (int t = 0; t < waiters; t++) {
        last_start = start_end[2 * t] > last_start ? start_end[2 * t] : last_start;
        first_end = first_end < 0 || start_end[2 * t + 1] < first_end ? start_end[2 * t + 1] : first_end;
    }
    EXPECT(last_start < first_end, "the threads waited one after another (last start %lld, first end %lld)",
           last_start, first_end);
    for (int t = 0; t < waiters; t++) {
        EXPECT(waited[t] >= cycles && waited[t] < cycles + 1000LL * rate_khz,
               "thread %d waited %lld cycles for %lld", t, waited[t], cycles);
        EXPECT(with_clock[t] >= cycles, "thread %d: clock() saw %ld cycles, clock64() %lld", t, with_clock[t], waited[t]);
    }
    // host code's clock() is still the C library's CPU time (seconds, not device cycles)
    clock_t host1 = std::clock();
    EXPECT(host1 >= host0 && host1 < 600 * (clock_t)CLOCKS_PER_SEC, "host clock() %ld", (long)host1);

    // pinned host memory: written by the host, doubled by a kernel through its device pointer
    const int n = 1000;
    float *h, *d;
    CHECK(cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocMapped));
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, h));
    EXPECT(flags & cudaHostAllocMapped, "cudaHostGetFlags 0x%x", flags);
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    CHECK(cudaHostGetDevicePointer(&d, h, 0));
    twice<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 2.0f * i, "pinned h[%d] = %g, want %g", i, h[i], 2.0 * i);
    // a copy from pinned memory is a host-to-device copy (cudaMemcpyDefault asks the pointers)
    float *dev, back = 0;
    CHECK(cudaMalloc(&dev, n * sizeof(float)));
    CHECK(cudaMemcpy(dev, h, n * sizeof(float), cudaMemcpyDefault));
    CHECK(cudaMemcpy(&back, dev + 7, sizeof(float), cudaMemcpyDefault));
    EXPECT(back == 14.0f, "copied back %g", back);
    int stack_var = 0;
    void *p = nullptr;
    EXPECT(cudaHostGetDevicePointer(&p, &stack_var, 0) == cudaErrorInvalidValue, "a pointer not pinned was mapped");
    (void)cudaGetLastError();
    CHECK(cudaFreeHost(h));

    // L2 persistence: the properties, the limit (clamped), a stream's access policy window
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(prop.persistingL2CacheMaxSize > 0 && prop.persistingL2CacheMaxSize < prop.l2CacheSize,
           "persistingL2CacheMaxSize %d of %d", prop.persistingL2CacheMaxSize, prop.l2CacheSize);
    EXPECT(prop.accessPolicyMaxWindowSize > 0 && prop.pageableMemoryAccess == 0 && prop.cooperativeLaunch == 0,
           "accessPolicyMaxWindowSize %d, pageableMemoryAccess %d, cooperativeLaunch %d",
           prop.accessPolicyMaxWindowSize, prop.pageableMemoryAccess, prop.cooperativeLaunch);
    CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, (size_t)1 << 40));
    size_t lim = 0;
    CHECK(cudaDeviceGetLimit(&lim, cudaLimitPersistingL2CacheSize));
    EXPECT(lim == (size_t)prop.persistingL2CacheMaxSize, "persisting limit %zu, max %d", lim, prop.persistingL2CacheMaxSize);
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    cudaStreamAttrValue a = {}, b = {};
    a.accessPolicyWindow.base_ptr = dev;
    a.accessPolicyWindow.num_bytes = n * sizeof(float);
    a.accessPolicyWindow.hitRatio = 0.6f;
    a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &a));
    CHECK(cudaStreamGetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &b));
    EXPECT(b.accessPolicyWindow.base_ptr == dev && b.accessPolicyWindow.hitRatio == 0.6f, "the window was not kept");
    a.accessPolicyWindow.hitRatio = 1.5f;
    EXPECT(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &a) == cudaErrorInvalidValue,
           "a hit ratio of 1.5 was accepted");
    (void)cudaGetLastError();
    twice<<<(n + 255) / 256, 256, 0, st>>>(dev, n);
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaCtxResetPersistingL2Cache());
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaFree(dev));
    // stream-ordered allocation and the default memory pool
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    unsigned long long threshold = 1ull << 30, got = 0;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    EXPECT(got == threshold, "release threshold %llu", got);
    float *a_dev;
    CHECK(cudaMallocAsync(&a_dev, n * sizeof(float), 0));
    CHECK(cudaMemsetAsync(a_dev, 0, n * sizeof(float), 0));
    twice<<<(n + 255) / 256, 256>>>(a_dev, n);
    CHECK(cudaFreeAsync(a_dev, 0));
    CHECK(cudaMallocAsync(&a_dev, n * sizeof(float), pool, 0)); // the C++ form with a pool
    CHECK(cudaFreeAsync(a_dev, 0));
    CHECK(cudaStreamSynchronize(0));
    EXPECT(cudaMemPoolSetAttribute(pool, (cudaMemPoolAttr)99, &threshold) == cudaErrorInvalidValue,
           "attribute 99 was accepted");
    (void)cudaGetLastError();
    // a pool of the program's own: its attributes, the device's current pool, an allocation from it
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine, cur;
    CHECK(cudaMemPoolCreate(&mine, &props));
    threshold = 12345;
    CHECK(cudaMemPoolSetAttribute(mine, cudaMemPoolAttrReleaseThreshold, &threshold));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    EXPECT(got == 1ull << 30, "the default pool's threshold became %llu", got);
    CHECK(cudaDeviceSetMemPool(0, mine));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(cur == mine, "cudaDeviceGetMemPool is not the pool set");
    CHECK(cudaMallocFromPoolAsync(&a_dev, n * sizeof(float), mine, 0));
    twice<<<(n + 255) / 256, 256>>>(a_dev, n);
    CHECK(cudaFreeAsync(a_dev, 0));
    CHECK(cudaMemPoolDestroy(mine));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    EXPECT(cur == pool, "after its destruction, the current pool is not the default");
    EXPECT(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue, "the default pool was destroyed");
    (void)cudaGetLastError();
    int p2p = 7;
    EXPECT(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0) == cudaErrorInvalidDevice,
           "a P2P attribute of device 0 with itself");
    (void)cudaGetLastError();
    // what a pointer is, a kernel's attributes, streams' priorities, 2D memsets, symbols, peers
    float *dv, *mv, *pv;
    CHECK(cudaMalloc(&dv, 64 * sizeof(float)));
    CHECK(cudaMallocManaged(&mv, 64 * sizeof(float)));
    CHECK(cudaMallocHost(&pv, 64 * sizeof(float)));
    // managed memory's hints in CUDA 13's forms (a location) and the older ones (a device)
    cudaMemLocation on_gpu = {cudaMemLocationTypeDevice, 0}, on_host = {cudaMemLocationTypeHost, 0};
    CHECK(cudaMemPrefetchAsync(mv, 64 * sizeof(float), on_gpu, 0));
    CHECK(cudaMemPrefetchAsync(mv, 64 * sizeof(float), on_host, 0, (cudaStream_t)0));
    CHECK(cudaMemAdvise(mv, 64 * sizeof(float), cudaMemAdviseSetReadMostly, on_gpu));
    CHECK(cudaMemPrefetchAsync(mv, 64 * sizeof(float), 0, (cudaStream_t)0));
    CHECK(cudaMemAdvise(mv, 64 * sizeof(float), cudaMemAdviseSetPreferredLocation, cudaCpuDeviceId));
    CHECK(cudaStreamAttachMemAsync((cudaStream_t)0, mv));
    CHECK(cudaStreamAttachMemAsync((cudaStream_t)0, mv, 0, cudaMemAttachGlobal));
    const float *cmv = mv;
    CHECK(cudaStreamAttachMemAsync((cudaStream_t)0, cmv));
    cudaMemLocation nowhere = {cudaMemLocationTypeInvalid, 0};
    EXPECT(cudaMemPrefetchAsync(mv, 64 * sizeof(float), nowhere, 0) == cudaErrorInvalidValue,
           "a location of no type was accepted");
    EXPECT(cudaMemAdvise(mv, 64 * sizeof(float), cudaMemAdviseSetReadMostly, 3) == cudaErrorInvalidDevice,
           "device 3 was accepted");
    (void)cudaGetLastError();
    cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, dv + 3));
    EXPECT(pa.type == cudaMemoryTypeDevice && pa.device == 0 && pa.devicePointer == dv + 3, "device pointer: type %d",
           (int)pa.type);
    CHECK(cudaPointerGetAttributes(&pa, mv));
    EXPECT(pa.type == cudaMemoryTypeManaged && pa.hostPointer == mv, "managed pointer: type %d", (int)pa.type);
    CHECK(cudaPointerGetAttributes(&pa, pv));
    EXPECT(pa.type == cudaMemoryTypeHost && pa.devicePointer == pv, "pinned pointer: type %d", (int)pa.type);
    CHECK(cudaPointerGetAttributes(&pa, &stack_var));
    EXPECT(pa.type == cudaMemoryTypeUnregistered, "a stack pointer: type %d", (int)pa.type);
    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, twice));
    EXPECT(fa.maxThreadsPerBlock == prop.maxThreadsPerBlock && fa.maxDynamicSharedSizeBytes >= 48 * 1024 &&
               fa.binaryVersion == prop.major * 10 + prop.minor,
           "cudaFuncGetAttributes: %d threads, %d dynamic shared, version %d", fa.maxThreadsPerBlock,
           fa.maxDynamicSharedSizeBytes, fa.binaryVersion);
    int least = 1, greatest = 1, pr = 1;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t hi;
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
    CHECK(cudaStreamGetPriority(hi, &pr));
    unsigned sflags = 0;
    CHECK(cudaStreamGetFlags(hi, &sflags));
    EXPECT(least == 0 && greatest < 0 && pr == greatest && sflags == cudaStreamNonBlocking,
           "priorities %d..%d, got %d, flags %u", least, greatest, pr, sflags);
    CHECK(cudaMemset2DAsync(dv, 16 * sizeof(float), 0, 8 * sizeof(float), 4, hi));
    float rows[4][16];
    CHECK(cudaMemcpy2DAsync(rows, sizeof rows[0], dv, 16 * sizeof(float), 8 * sizeof(float), 4, cudaMemcpyDeviceToHost, hi));
    CHECK(cudaStreamSynchronize(hi));
    EXPECT(rows[3][7] == 0.0f, "cudaMemset2D left %g", rows[3][7]);
    CHECK(cudaStreamDestroy(hi));
    size_t sym = 0;
    CHECK(cudaGetSymbolSize(&sym, table));
    const float vals[4] = {1, 2, 3, 4};
    CHECK(cudaMemcpyToSymbolAsync(table, vals, sizeof vals, 0, cudaMemcpyHostToDevice, 0));
    float back4[4];
    CHECK(cudaMemcpyFromSymbolAsync(back4, table, sizeof back4, 0, cudaMemcpyDeviceToHost, 0));
    EXPECT(sym == sizeof(float) * 4 && back4[2] == 3.0f, "symbol of %zu bytes, read back %g", sym, back4[2]);
    int can = 1;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 0));
    char bus[32];
    CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, 0));
    EXPECT(can == 0 && bus[0], "peer access %d, bus id '%s'", can, bus);
    // one device: a peer copy to itself is a copy; no peer to disable (p2pBandwidthLatencyTest's calls)
    float p2[4] = {0, 0, 0, 0};
    CHECK(cudaMemcpyPeerAsync(dv, 0, dv + 4, 0, 4 * sizeof(float), 0));
    CHECK(cudaMemcpy(p2, dv, sizeof p2, cudaMemcpyDeviceToHost));
    float p3[4] = {0, 0, 0, 0};
    CHECK(cudaMemcpy(p3, dv + 4, sizeof p3, cudaMemcpyDeviceToHost));
    EXPECT(p2[0] == p3[0] && p2[3] == p3[3], "cudaMemcpyPeerAsync: %g %g against %g %g", p2[0], p2[3], p3[0], p3[3]);
    EXPECT(cudaDeviceDisablePeerAccess(0) == cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess(0) on one device");
    cudaGetLastError();
    CHECK(cudaFree(dv));
    CHECK(cudaFree(mv));
    CHECK(cudaFreeHost(pv));
    // the shared memory carveout (siboehm's SGEMM runner): accepted, no effect; out of range refused
    CHECK(cudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
    CHECK(cudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutDefault));
    CHECK(cudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxL1));
    EXPECT(cudaFuncSetAttribute(twice, cudaFuncAttributePreferredSharedMemoryCarveout, 101) == cudaErrorInvalidValue,
           "a carveout of 101 %% accepted");
    cudaGetLastError(); // the error above, as CUDA keeps it for the next call
    // a __device__ variable's address (cudaGetSymbolAddress) in cudaMemset and every kind of cudaMemcpy
    float *sp = nullptr, sgot[4] = {0, 0, 0, 0}, *dcopy;
    CHECK(cudaGetSymbolAddress((void **)&sp, by_address));
    CHECK(cudaMemset(sp, 0, 4 * sizeof(float)));
    count_up<<<1, 4>>>(sp);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(sgot, sp, sizeof sgot, cudaMemcpyDeviceToHost));
    EXPECT(sgot[3] == 4.0f, "by_address[3] read back through its address: %g", sgot[3]);
    CHECK(cudaMemcpy(sp + 1, vals, 2 * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&dcopy, sizeof sgot));
    CHECK(cudaMemcpy(dcopy, sp, sizeof sgot, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(sp, dcopy + 1, sizeof(float), cudaMemcpyDefault));
    CHECK(cudaMemcpyFromSymbol(sgot, by_address, sizeof sgot));
    EXPECT(sgot[0] == 1.0f && sgot[1] == 1.0f && sgot[2] == 2.0f && sgot[3] == 4.0f, "by_address %g %g %g %g", sgot[0], sgot[1],
           sgot[2], sgot[3]);
    EXPECT(cudaMemcpy(sgot, sp + 1, sizeof sgot, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
           "a copy past the end of a __device__ variable accepted");
    cudaGetLastError();
    CHECK(cudaFree(dcopy));
    // the device's memory is the host's at most: the simulated device's memory is this machine's
    size_t mfree = 0, mtotal = 0;
    CHECK(cudaMemGetInfo(&mfree, &mtotal));
    const size_t host = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
    EXPECT(mfree <= mtotal && mtotal <= host, "cudaMemGetInfo: %zu free of %zu, the host has %zu", mfree, mtotal, host);
    printf("runtime_api: correct\n");
    return 0;
}
