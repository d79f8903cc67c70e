// tests/run/constexpr_targ.cu - a member of a local constexpr object as a kernel's template
// argument (`copy_tile<int, tpb.x><<<1, tpb>>>`, as Lei Mao's vectorized-access program writes
// it): g++ 12 refused it inside simtlab's launch wrapper ("use of local variable with automatic
// storage from containing function"), nvcc takes it. Built again with a plainer wrapper, with a
// note. The kernel copies 32 ints through shared memory: 128 bytes each way.
#include <cstdio>

struct Tile {
    unsigned rows, cols;
};

template <typename T, unsigned N>
__global__ void copy_tile(T *out, const T *in)
{
    __shared__ T s[N];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[N - 1 - threadIdx.x] = s[threadIdx.x];
}

int main()
{
    constexpr dim3 tpb{32};
    constexpr Tile tile{32, 1};
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    copy_tile<int, tpb.x><<<1, tpb>>>(out, in);
    copy_tile<int, tile.rows><<<1, tile.rows>>>(in, out);
    cudaMemcpy(h, in, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != i;
    printf("constexpr_targ: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
