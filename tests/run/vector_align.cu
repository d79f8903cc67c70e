// tests/run/vector_align.cu - CUDA's vector types have CUDA's alignments (vector_types.h): float2,
// int2 and uint2 8 bytes, double2 16, short2 4, char2 2. A float2 copy is then one 8-byte access a
// lane, one request of 8 sectors a warp as the chip's LDG.64 (aligned to 4 it was two 4-byte
// requests, 16 sectors), and a struct holding one is laid out as nvcc lays it out.
#include <cstddef>
#include <cstdio>

struct Tagged {
    char tag;
    float2 f; // at offset 8, as on the GPU
};

__global__ void copy2(const float2 *in, float2 *out) { out[threadIdx.x] = in[threadIdx.x]; }
__global__ void copyd2(const double2 *in, double2 *out) { out[threadIdx.x] = in[threadIdx.x]; }
// a vector built in place and stored: one 16-byte store a lane (STG.128), 16 whole sectors a warp,
// not four 4-byte stores with every sector written in part (session 30)
__global__ void fill4(float4 *out) { out[threadIdx.x] = make_float4(1.0f, 2.0f, 3.0f, (float)threadIdx.x); }
// a long2 copy: one 16-byte access a lane (16 sectors a warp); uchar1 and uchar3 as CUDA has them
__global__ void copyl2(const long2 *in, long2 *out, const uchar3 *c3, uchar1 *c1)
{
    out[threadIdx.x] = in[threadIdx.x];
    c1[threadIdx.x] = make_uchar1((unsigned char)(c3[threadIdx.x].x + c3[threadIdx.x].z));
}

int main()
{
    static_assert(alignof(float2) == 8 && alignof(int2) == 8 && alignof(uint2) == 8, "8-byte 2-vectors");
    static_assert(alignof(double2) == 16 && alignof(float4) == 16 && alignof(int4) == 16, "16-byte vectors");
    static_assert(alignof(short2) == 4 && alignof(char2) == 2 && alignof(uchar4) == 4, "small vectors");
    static_assert(alignof(float3) == 4 && sizeof(float3) == 12, "3-vectors keep their elements' alignment");
    static_assert(alignof(long2) == 16 && alignof(ulonglong2) == 16 && alignof(longlong4) == 16 && sizeof(long3) == 24,
                  "64-bit integer vectors");
    static_assert(sizeof(uchar1) == 1 && sizeof(uchar3) == 3 && alignof(uchar3) == 1 && alignof(short3) == 2 &&
                      alignof(double1) == 8 && sizeof(int1) == 4,
                  "1- and 3-vectors");
    static_assert(offsetof(Tagged, f) == 8 && sizeof(Tagged) == 16, "a struct holding a float2");
    float2 h[32];
    double2 hd[32];
    for (int i = 0; i < 32; i++)
        h[i] = make_float2((float)i, (float)-i), hd[i] = make_double2(i, 2.0 * i);
    float2 *a, *b;
    double2 *c, *d;
    cudaMalloc(&a, sizeof h), cudaMalloc(&b, sizeof h), cudaMalloc(&c, sizeof hd), cudaMalloc(&d, sizeof hd);
    cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(c, hd, sizeof hd, cudaMemcpyHostToDevice);
    float4 *e, h4[32];
    cudaMalloc(&e, sizeof h4);
    copy2<<<1, 32>>>(a, b);
    copyd2<<<1, 32>>>(c, d);
    fill4<<<1, 32>>>(e);
    long2 hl[32], *dl, *dl2;
    uchar3 h3[32], *d3;
    uchar1 h1[32], *d1;
    for (int i = 0; i < 32; i++)
        hl[i] = make_long2(i, -3L * i), h3[i] = make_uchar3((unsigned char)i, 0, 5);
    cudaMalloc(&dl, sizeof hl), cudaMalloc(&dl2, sizeof hl), cudaMalloc(&d3, sizeof h3), cudaMalloc(&d1, sizeof h1);
    cudaMemcpy(dl, hl, sizeof hl, cudaMemcpyHostToDevice);
    cudaMemcpy(d3, h3, sizeof h3, cudaMemcpyHostToDevice);
    copyl2<<<1, 32>>>(dl, dl2, d3, d1);
    cudaMemcpy(hl, dl2, sizeof hl, cudaMemcpyDeviceToHost);
    cudaMemcpy(h1, d1, sizeof h1, cudaMemcpyDeviceToHost);
    cudaMemcpy(h4, e, sizeof h4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i].x != (float)i || h[i].y != (float)-i || hd[i].x != i || hd[i].y != 2.0 * i ||
               h4[i].x != 1.0f || h4[i].y != 2.0f || h4[i].z != 3.0f || h4[i].w != (float)i || hl[i].x != i ||
               hl[i].y != -3L * i || h1[i].x != i + 5;
    printf("vector_align: %s (%d wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
