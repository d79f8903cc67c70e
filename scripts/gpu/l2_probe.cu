// scripts/gpu/l2_probe.cu - what the H200's L2 does with reads and writes,
// measured so that sim/l2.c can be checked against it (issue 15).
//
// Run under Nsight Compute with the caches left alone between launches:
//   ncu --cache-control none --clock-control none --csv --print-units base \
//       --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,... ./l2_probe
// Every launch of this program is one row of ncu's output, in order; the
// program prints a manifest line "launch <i> <what>" per launch (stdout), so
// rows and experiments can be joined by index. Experiments (each starts from an
// L2 filled with clean lines of another buffer: two reads of 256 MB, "evict"):
//   cold read of X MB, then the same X MB again (capacity: is the second a hit?)
//   full-sector writes of X MB, then an evict read (is the write-back lazy?)
//   strided reads, one 4-byte word per 32/64/128/256 bytes (DRAM fetch size)
//   partial-sector writes (one word per sector: does L2 fetch the rest?)
//   many blocks re-reading one 1 MB buffer (K/V-like reuse)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "ck.h"


// count words read, one every `stride` floats; the sum is written only if it
// equals a value no input produces, so the kernel writes nothing
__global__ void rd(const float *p, size_t count, size_t stride, float *sink)
{
    float acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        acc += p[i * stride];
    if (acc == -12345.f)
        sink[0] = acc;
}
__global__ void wr(float *p, size_t count, size_t stride, float v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
        p[i * stride] = v + (float)(i & 7);
}
// every block reads the same `count` floats (blocks = 4 x SMs)
__global__ void rd_shared_by_blocks(const float *p, size_t count, float *sink)
{
    float acc = 0;
    for (size_t i = threadIdx.x; i < count; i += blockDim.x)
        acc += p[i];
    if (acc == -12345.f)
        sink[0] = acc;
}

static int launch_no;
static void note(const char *what, double mb)
{
    printf("launch %d %s %.3f\n", launch_no++, what, mb);
}
static float *big, *ev, *sink;
static const size_t EV_FLOATS = (256u << 20) / 4;
static int grid;

static void read_f(const float *p, size_t count, size_t stride, const char *what, double mb)
{
    rd<<<grid, 256>>>(p, count, stride, sink);
    CK(cudaGetLastError());
    note(what, mb);
}
static void write_f(float *p, size_t count, size_t stride, const char *what, double mb)
{
    wr<<<grid, 256>>>(p, count, stride, 1.0f);
    CK(cudaGetLastError());
    note(what, mb);
}
static void evict(void)
{
    read_f(ev, EV_FLOATS, 1, "evict", 256);
    read_f(ev, EV_FLOATS, 1, "evict", 256);
}

int main(void)
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int l2 = 0, persist = 0, mem_bus = 0;
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    CK(cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CK(cudaDeviceGetAttribute(&mem_bus, cudaDevAttrGlobalMemoryBusWidth, 0));
    printf("device %s sm_%d%d sms %d l2CacheSize %d persistingL2CacheMaxSize %d memoryBusWidth %d "
           "sharedMemPerMultiprocessor %zu sharedMemPerBlockOptin %zu regsPerMultiprocessor %d "
           "maxThreadsPerMultiProcessor %d maxBlocksPerMultiProcessor %d totalGlobalMem %zu\n",
           p.name, p.major, p.minor, p.multiProcessorCount, l2, persist, mem_bus, p.sharedMemPerMultiprocessor,
           p.sharedMemPerBlockOptin, p.regsPerMultiprocessor, p.maxThreadsPerMultiProcessor,
           p.maxBlocksPerMultiProcessor, p.totalGlobalMem);
    grid = p.multiProcessorCount * 8;
    const size_t BIG = (size_t)1 << 30; // 1 GiB
    CK(cudaMalloc(&big, BIG));
    CK(cudaMalloc(&ev, EV_FLOATS * 4));
    CK(cudaMalloc(&sink, 4096));
    CK(cudaMemset(big, 0, BIG));
    CK(cudaMemset(ev, 0, EV_FLOATS * 4));
    CK(cudaDeviceSynchronize());

    // 1. cold read of X MB, then the same again
    const int rmb[] = {1, 4, 16, 32, 40, 48, 52, 56, 60, 64, 80, 128};
    for (int mb : rmb) {
        evict();
        size_t n = ((size_t)mb << 20) / 4;
        read_f(big, n, 1, "read_cold", mb);
        read_f(big, n, 1, "read_again", mb);
    }
    // 2. full-sector writes of X MB, then the same again, then an evict read
    const int wmb[] = {1, 8, 32, 48, 64, 128, 256};
    for (int mb : wmb) {
        evict();
        size_t n = ((size_t)mb << 20) / 4;
        write_f(big, n, 1, "write", mb);
        write_f(big, n, 1, "write_again", mb);
        read_f(ev, EV_FLOATS, 1, "evict_after_write", mb);
        read_f(ev, EV_FLOATS, 1, "evict_after_write2", mb);
    }
    // 3. write X MB then read it back
    const int rwmb[] = {8, 32, 64, 128};
    for (int mb : rwmb) {
        evict();
        size_t n = ((size_t)mb << 20) / 4;
        write_f(big, n, 1, "raw_write", mb);
        read_f(big, n, 1, "raw_read", mb);
    }
    // 4. strided reads over 256 MB: one word per `stride` floats (sector, 2 sectors, line, 2 lines)
    const int strides[] = {8, 16, 32, 64};
    for (int s : strides) {
        evict();
        size_t n = ((size_t)256 << 20) / 4 / s;
        char what[64];
        snprintf(what, sizeof what, "read_stride_%dB", s * 4);
        read_f(big, n, s, what, 256);
    }
    // 5. partial-sector writes over 64 MB (one word a sector), then evict
    for (int s : strides) {
        evict();
        size_t n = ((size_t)64 << 20) / 4 / s;
        char what[64];
        snprintf(what, sizeof what, "write_stride_%dB", s * 4);
        write_f(big, n, s, what, 64);
        read_f(ev, EV_FLOATS, 1, "evict_after_write", 64);
    }
    // 6. a host-to-device copy of X MB, then a read of it (does the copy leave it in L2?),
    //    and a memset of X MB, then a read
    {
        const int hmb[] = {8, 32};
        for (int mb : hmb) {
            size_t bytes = (size_t)mb << 20;
            float *h;
            CK(cudaMallocHost(&h, bytes));
            for (size_t i = 0; i < bytes / 4; i++)
                h[i] = (float)(i & 7);
            evict();
            CK(cudaMemcpy(big, h, bytes, cudaMemcpyHostToDevice));
            read_f(big, bytes / 4, 1, "read_after_h2d", mb);
            evict();
            CK(cudaMemset(big, 0, bytes));
            read_f(big, bytes / 4, 1, "read_after_memset", mb);
            CK(cudaFreeHost(h));
        }
    }
    // 7. 4 x SMs blocks read one buffer of X MB each (reuse across blocks)
    const int smb[] = {1, 8};
    for (int mb : smb) {
        evict();
        size_t n = ((size_t)mb << 20) / 4;
        rd_shared_by_blocks<<<p.multiProcessorCount * 4, 256>>>(big, n, sink);
        CK(cudaGetLastError());
        note("read_by_all_blocks", mb);
    }
    CK(cudaDeviceSynchronize());
    printf("done %d launches\n", launch_no);
    return 0;
}
