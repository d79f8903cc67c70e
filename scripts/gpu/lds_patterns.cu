// scripts/gpu/lds_patterns.cu - how many shared-memory wavefronts one warp's
// 32-, 64- and 128-bit load takes on this GPU, for the lane -> address
// patterns the simulator's rule (sim/access.c, count_request) must reproduce.
// One warp, one load per launch; the pattern (a chunk index per lane, in units
// of the access width) is read from global memory so nvcc cannot fold it.
// Run under Nsight Compute:
//   nvcc -arch=sm_90 -o lds lds_patterns.cu && ncu --csv --metrics \
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum ./lds
#include <cstdio>
#include <cuda_runtime.h>

template <typename T> __global__ void probe(const int *idx, float *out)
{
    __shared__ __align__(16) float buf[4096];
    for (int i = threadIdx.x; i < 4096; i += 32)
        buf[i] = (float)i;
    __syncthreads();
    T v = reinterpret_cast<const T *>(buf)[idx[threadIdx.x]];
    const float *f = reinterpret_cast<const float *>(&v);
    float s = 0;
    for (int i = 0; i < (int)(sizeof(T) / 4); i++)
        s += f[i];
    out[threadIdx.x] = s;
}

// Conflict-free shared stores (a tile copy: 32 consecutive words per warp
// request), 8192 floats per block: exactly 256 store wavefronts a block if the
// hardware counts one per request. from_global: the data comes from global
// memory (as flash v2's K/V tile copy) instead of registers.
__global__ void store_probe(const float *g, float *out, int from_global)
{
    __shared__ float buf[8192];
    if (from_global == 2) // 128-bit: 512 consecutive bytes per warp request, 4 wavefronts
        for (int e = 4 * threadIdx.x; e < 8192; e += 4 * blockDim.x)
            *reinterpret_cast<float4 *>(buf + e) = *reinterpret_cast<const float4 *>(g + (size_t)blockIdx.x * 8192 + e);
    else
        for (int e = threadIdx.x; e < 8192; e += blockDim.x)
            buf[e] = from_global ? g[(size_t)blockIdx.x * 8192 + e] : (float)e;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x * 33) % 8192];
}

#include "../../tests/kernels/lds_patterns.h" // the patterns, shared with tests/test_counters.c

int main()
{
    int *d_idx;
    float *d_out;
    cudaMalloc(&d_idx, 32 * sizeof(int));
    cudaMalloc(&d_out, 32 * sizeof(float));
    for (int w = 4; w <= 16; w *= 2)
        for (int p = 0; p < LDS_NPAT; p++) {
            int h[32];
            for (int l = 0; l < 32; l++)
                h[l] = lds_item(p, l);
            cudaMemcpy(d_idx, h, sizeof h, cudaMemcpyHostToDevice);
            if (w == 4) probe<float><<<1, 32>>>(d_idx, d_out);
            if (w == 8) probe<float2><<<1, 32>>>(d_idx, d_out);
            if (w == 16) probe<float4><<<1, 32>>>(d_idx, d_out);
            cudaDeviceSynchronize();
            printf("launch width=%d pattern=%d\n", w, p);
        }
    float *d_g, *d_o;
    cudaMalloc(&d_g, (size_t)264 * 8192 * 4);
    cudaMemset(d_g, 0, (size_t)264 * 8192 * 4);
    cudaMalloc(&d_o, (size_t)264 * 256 * 4);
    const int grids[3] = {1, 132, 264}, blocks[2] = {32, 256};
    for (int gi = 0; gi < 3; gi++)
        for (int bi = 0; bi < 2; bi++)
            for (int fg = 0; fg < 3; fg++) {
                store_probe<<<grids[gi], blocks[bi]>>>(d_g, d_o, fg);
                cudaDeviceSynchronize();
                printf("store grid=%d block=%d from_global=%d expect %d\n", grids[gi], blocks[bi], fg, 256 * grids[gi]);
            }
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
