// tests/run/struct_args.cu - structs passed by value to __device__ functions, read straight from
// global memory into the argument (`r[i] = pmin(a[i], b[i])`). GCC's ThreadSanitizer pass, which
// simtlab's counters ride on, instruments assignments and not a call's aggregate arguments or
// result, so a call g++ kept out of line moved 0 bytes (HeCBench's f16max, survey 8). Kernels are
// flattened in the instrumented pass, as nvcc inlines device functions, __noinline__ included;
// a recursive function still works (it stays a call).
#include <cstdio>

struct P {
    float a, b, c, d;
};

__device__ P pmin(P x, P y) // g++ -O2 kept this one out of line too
{
    return P{fminf(x.a, y.a), fminf(x.b, y.b), fminf(x.c, y.c), fminf(x.d, y.d)};
}

__device__ __noinline__ P pmax(P x, P y)
{
    return P{fmaxf(x.a, y.a), fmaxf(x.b, y.b), fmaxf(x.c, y.c), fmaxf(x.d, y.d)};
}

__device__ float tree(const float *p, int lo, int hi) // recursive: stays a call
{
    return hi - lo == 1 ? p[lo] : tree(p, lo, (lo + hi) / 2) + tree(p, (lo + hi) / 2, hi);
}

__global__ void k_min(P *r, const P *a, const P *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        r[i] = pmin(a[i], b[i]);
}

__global__ void k_max(P *r, const P *a, const P *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        r[i] = pmax(a[i], b[i]);
}

__global__ void k_tree(float *out, const float *p)
{
    out[threadIdx.x] = tree(p + 8 * threadIdx.x, 0, 8);
}

int main()
{
    const int n = 1024;
    static P ha[n], hb[n], hr[n], hs[n];
    static float hp[8 * 32], ht[32];
    for (int i = 0; i < n; i++) {
        ha[i] = P{(float)i, (float)-i, 1.0f, -2.0f};
        hb[i] = P{(float)(n - i), (float)i, -1.0f, 2.0f};
    }
    for (int i = 0; i < 8 * 32; i++)
        hp[i] = (float)i;
    P *a, *b, *r, *s;
    float *p, *t;
    cudaMalloc(&a, sizeof ha), cudaMalloc(&b, sizeof hb), cudaMalloc(&r, sizeof hr), cudaMalloc(&s, sizeof hs);
    cudaMalloc(&p, sizeof hp), cudaMalloc(&t, sizeof ht);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(p, hp, sizeof hp, cudaMemcpyHostToDevice);
    k_min<<<n / 256, 256>>>(r, a, b, n);
    k_max<<<n / 256, 256>>>(s, a, b, n);
    k_tree<<<1, 32>>>(t, p);
    cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost);
    cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
    cudaMemcpy(ht, t, sizeof ht, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        bad += hr[i].a != fminf(ha[i].a, hb[i].a) || hr[i].b != fminf(ha[i].b, hb[i].b) || hr[i].c != -1.0f ||
               hr[i].d != -2.0f;
        bad += hs[i].a != fmaxf(ha[i].a, hb[i].a) || hs[i].b != fmaxf(ha[i].b, hb[i].b) || hs[i].c != 1.0f ||
               hs[i].d != 2.0f;
    }
    for (int j = 0; j < 32; j++)
        bad += ht[j] != (float)(64 * j + 28);
    printf("struct_args: %s (%d wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
