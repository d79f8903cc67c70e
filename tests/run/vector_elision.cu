// tests/run/vector_elision.cu - brace elision through CUDA vector types, which nvcc builds: the
// scalars of `float2 c[] = {1, 2, 3, 4}` fill the vectors' fields in order (two float2s), and
// `P p = {1, 2, 3, 4, 5}` fills a struct's float4 member and then its float. simtlab's vectors,
// copied whole, are not aggregates: the program does not compile with them, and the driver builds
// it with plain ones, with a note (docs/run.md). Before, a constructor from one scalar made the
// array four float2s (1, 0), (2, 0), ... without a word, and the struct an error.
#include <cstdio>

__constant__ float2 c[] = {1, 2, 3, 4};
const int4 h[] = {1, 2, 3, 4, 5, 6, 7, 8};

struct P {
    float4 pos;
    float m;
};

__global__ void k(float *out)
{
    const P p = {1, 2, 3, 4, 5};
    const float2 v = c[threadIdx.x & 1];
    out[threadIdx.x] = v.x + v.y + p.pos.w + p.m;
}

int main()
{
    int wrong = 0;
    if (sizeof c != 2 * sizeof(float2) || sizeof h != 2 * sizeof(int4) || h[1].x != 5 || h[0].w != 4) {
        printf("sizes %zu %zu, h[1].x %d h[0].w %d (want 16 32 5 4)\n", sizeof c, sizeof h, h[1].x, h[0].w);
        wrong++;
    }
    float *d, r[32];
    cudaMalloc(&d, sizeof r);
    k<<<1, 32>>>(d);
    cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        if (r[i] != ((i & 1) ? 7.0f : 3.0f) + 9.0f) {
            if (!wrong)
                printf("thread %d: %g, want %g\n", i, r[i], ((i & 1) ? 7.0f : 3.0f) + 9.0f);
            wrong++;
        }
    cudaFree(d);
    printf("vector_elision: %s (%d wrong)\n", wrong ? "WRONG" : "correct", wrong);
    return wrong != 0;
}
