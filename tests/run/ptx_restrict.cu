// tests/run/ptx_restrict.cu - inline PTX cp.async in a template kernel whose pointers are
// __restrict__ (LeetCUDA's hgemm kernels, survey 17): `&src[i]` is then a restrict-qualified
// pointer, which the shim's operand conversion once took by const reference and g++ refused
// ("binding reference ... discards qualifiers"). It builds and copies right.
#include <cstdio>

template <int N>
__global__ void stage(const float *__restrict__ src, float *__restrict__ dst)
{
    __shared__ float4 tile[N];
    const unsigned t = threadIdx.x;
    const unsigned sa = (unsigned)__cvta_generic_to_shared(&tile[t]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(sa), "l"(&src[4 * t]));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    const float4 v = tile[(t + 1) % N];
    dst[t] = v.x + v.y + v.z + v.w;
}

int main()
{
    const int n = 32;
    float h[4 * n], o[n], *src, *dst;
    for (int i = 0; i < 4 * n; i++)
        h[i] = (float)i;
    cudaMalloc(&src, sizeof h);
    cudaMalloc(&dst, sizeof o);
    cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice);
    stage<n><<<1, n>>>(src, dst);
    cudaMemcpy(o, dst, sizeof o, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int t = 0; t < n; t++) {
        const int u = (t + 1) % n;
        bad += o[t] != (float)(16 * u + 6);
    }
    printf("ptx_restrict: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
