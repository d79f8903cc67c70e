// tests/run/type_pun.cu - vectorised copies through a reinterpret_cast (`*(float4 *)&a[i] =
// *(const float4 *)&b[i]`), as GEMM kernels write them: nvcc keeps them (CUDA code relies on it);
// g++ at -O2 may assume a float and an int4 never alias (strict aliasing) and read a local array's
// old contents, so `simtlab run` builds with -fno-strict-aliasing.
#include <cstdio>

__global__ void through_int4(const float *in, float *out)
{
    float r[4] = {0.f, 0.f, 0.f, 0.f}; // a local tile, filled through an int4 lvalue
    *reinterpret_cast<int4 *>(&r[0]) = *reinterpret_cast<const int4 *>(&in[4 * threadIdx.x]);
    float s[4] = {0.f, 0.f, 0.f, 0.f};
    for (int i = 0; i < 4; i++)
        s[i] += 2.0f * r[i];
    const int4 v = *reinterpret_cast<const int4 *>(&s[0]); // the floats just summed, read as ints
    *reinterpret_cast<int4 *>(&out[4 * threadIdx.x]) = v;
}

int main()
{
    float h[128], *in, *out;
    for (int i = 0; i < 128; i++)
        h[i] = (float)(i + 1);
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    through_int4<<<1, 32>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 128; i++)
        bad += h[i] != 2.0f * (float)(i + 1);
    printf("type_pun: %s (%d of 128 wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
