// tests/run/ptx_cp_async.cu - cp.async written as inline PTX, as GEMM and attention kernels from
// before cuda::pipeline write it (LeetCUDA's, cuda_hgemm's macros), under `simtlab run`
// (tests/scripts/run_case.cmake, case ptx_cp_async). The rewriter turns such an asm statement into
// a call (sim/run/ptx.c): copies, groups and waits are the simulator's cp.async.
//   ./ptx_cp_async          two kernels, checked against the input:
//     stages   a block of 128 threads sums 8 tiles of 512 floats, double-buffered: tile k + 1's
//              16-byte copies (cp.async.cg, a macro) in flight while tile k is read after
//              cp.async.wait_group 1; 8 tiles of 2 KiB = 512 sectors, 128 wavefronts a block
//     fill     the boundary tile: cp.async.ca of 4 bytes with a src-size operand, 0 past the
//              input's end (zero fill), and cp.async.wait_all; the asm written in the kernel
//     offsets  an address with an offset ([%0+16]) and a basic asm without operands
//     guarded  CUTLASS's predicated copy (`@p cp.async` in a `.reg .pred` block): threads 100-127 copy nothing
//   ./ptx_cp_async race     tile k read before its wait (wait_group 1 forgotten): in --detail a
//                           race report at the read
//   ./ptx_cp_async size     cp.async.cg of 8 bytes (cg copies 16 only): a report, the block ends
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CP_ASYNC_CG(dst, src, bytes) \
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

#define T 512    // floats a tile: 4 a thread
#define TILES 8

__global__ void stages(const float *x, float *out, int wait)
{
    __shared__ __align__(16) float buf[2][T];
    const float *g = x + blockIdx.x * TILES * T;
    const int t = threadIdx.x;
    CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&buf[0][4 * t]), g + 4 * t, 16);
    CP_ASYNC_COMMIT_GROUP();
    float acc = 0;
    for (int k = 0; k < TILES; k++) {
        if (k + 1 < TILES) // the next tile in flight while this one is summed
            CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&buf[(k + 1) % 2][4 * t]), g + (k + 1) * T + 4 * t, 16);
        CP_ASYNC_COMMIT_GROUP();
        if (wait)
            CP_ASYNC_WAIT_GROUP(1); // tile k has landed, tile k + 1 may not have
        __syncthreads();
        for (int j = 0; j < 4; j++) // others' elements (the barrier orders them), a word a lane: no conflicts
            acc += buf[k % 2][(t + 1 + 128 * j) % T]; // MARK:read
        __syncthreads();
    }
    atomicAdd(&out[blockIdx.x], acc);
}

// n floats of x into a 128-float tile, zero past n
__global__ void fill(const float *x, float *y, int n)
{
    __shared__ __align__(16) float s[128];
    const int i = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                 "cp.async.wait_all;\n" ::"r"((unsigned)__cvta_generic_to_shared(&s[i])),
                 "l"(x + (i < n ? i : 0)), "r"(i < n ? 4 : 0));
    __syncthreads();
    y[i] = s[(i + 1) % 128];
}

// an address with an offset ([%0+16], PTX's [reg+imm]) and a basic asm (no operands): s[4..7] = x[4..7]
__global__ void offsets(const float *x, float *y)
{
    __shared__ __align__(16) float s[8];
    if (threadIdx.x == 0)
        asm volatile("cp.async.cg.shared.global [%0+16], [%1+16], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(s)),
                     "l"(x));
    asm volatile("cp.async.wait_all;");
    __syncthreads();
    if (threadIdx.x < 4)
        y[threadIdx.x] = s[4 + threadIdx.x];
}

// ptxas refuses a cp.async.cg of 8 bytes, so nvcc builds this kernel without it (`--mode compare`
// builds the whole file): only the simulator's run has the report
__global__ void bad_size(const float *x, float *y)
{
    __shared__ __align__(16) float s[64];
#ifdef SIMTLAB_RUN
    asm volatile("cp.async.cg.shared.global [%0], [%1], 8;\n" /* MARK:bad_size */
                 ::"r"((unsigned)__cvta_generic_to_shared(&s[2 * threadIdx.x])), "l"(x + 2 * threadIdx.x));
#else
    __trap();
#endif
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    y[threadIdx.x] = s[threadIdx.x];
}

// the guarded copy of CUTLASS-style GEMMs: `{ .reg .pred p; setp.ne.b32 p, %0, 0; @p cp.async ... }`;
// a thread whose guard is off copies nothing (its -1 stays) and no request is counted
__global__ void guarded(const float *x, float *y, int n)
{
    __shared__ __align__(16) float s[128];
    const int i = threadIdx.x;
    s[i] = -1.0f;
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  setp.ne.b32 p, %0, 0;\n"
                 "  @p cp.async.ca.shared.global [%1], [%2], 4;\n"
                 "}\n"
                 "cp.async.wait_all;\n" ::"r"((int)(i < n)),
                 "r"((unsigned)__cvta_generic_to_shared(&s[i])), "l"(x + i));
    __syncthreads();
    y[i] = s[(i + 1) % 128];
}

// a source that is not global memory (a host array's address): the report names cp.async, not the
// lessons' copy_async_float4
__global__ void host_src(const float *x, float *y)
{
    __shared__ __align__(16) float s[128];
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" /* MARK:host_src */
                 ::"r"((unsigned)__cvta_generic_to_shared(&s[4 * threadIdx.x])), "l"(x + 4 * threadIdx.x));
    asm volatile("cp.async.wait_all;\n" ::);
    __syncthreads();
    y[threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char **argv)
{
    const int blocks = 4, n = blocks * TILES * T;
    static float h[blocks * TILES * T];
    float sums[blocks], y[128], *x, *out, *dy;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 13) - 6.0f;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&out, sizeof sums);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    if (argc > 1 && !strcmp(argv[1], "size")) {
        bad_size<<<1, 32>>>(x, dy);
        printf("ptx_cp_async size: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    if (argc > 1 && !strcmp(argv[1], "host_src")) {
        host_src<<<1, 32>>>(h, dy);
        printf("ptx_cp_async host_src: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
        return 2;
    }
    const int race = argc > 1 && !strcmp(argv[1], "race");
    cudaMemset(out, 0, sizeof sums);
    stages<<<blocks, 128>>>(x, out, !race);
    cudaError_t e = cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("ptx_cp_async: stages: %s\n", cudaGetErrorString(e));
        return 2;
    }
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        double want = 0; // integers: the float sums are exact
        for (int i = 0; i < TILES * T; i++)
            want += h[b * TILES * T + i];
        bad += sums[b] != (float)want;
    }
    fill<<<1, 128>>>(x, dy, 100);
    e = cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("ptx_cp_async: fill: %s\n", cudaGetErrorString(e));
        return 2;
    }
    for (int i = 0; i < 128; i++)
        bad += y[i] != ((i + 1) % 128 < 100 ? h[(i + 1) % 128] : 0.0f);
    offsets<<<1, 32>>>(x, dy);
    if ((e = cudaMemcpy(y, dy, 4 * sizeof(float), cudaMemcpyDeviceToHost)) != cudaSuccess) {
        printf("ptx_cp_async: offsets: %s\n", cudaGetErrorString(e));
        return 2;
    }
    for (int i = 0; i < 4; i++)
        bad += y[i] != h[4 + i];
    guarded<<<1, 128>>>(x, dy, 100);
    if ((e = cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost)) != cudaSuccess) {
        printf("ptx_cp_async: guarded: %s\n", cudaGetErrorString(e));
        return 2;
    }
    for (int i = 0; i < 128; i++)
        bad += y[i] != ((i + 1) % 128 < 100 ? h[(i + 1) % 128] : -1.0f);
    printf(bad ? "ptx_cp_async: WRONG (%d)\n" : "ptx_cp_async: correct\n", bad);
    return bad != 0;
}
