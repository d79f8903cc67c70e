// tests/run/fast_math.cu - CUDA's fast-math intrinsics (__expf, __logf, __sinf, ... as attention
// and softmax kernels write them) build, link and compute their functions: here exactly (a GPU's
// are approximations, within 2 ulp or so), checked against the host's float functions.
#include <cmath>
#include <cstdio>

__global__ void fast(const float *x, float *y)
{
    const int i = threadIdx.x;
    const float v = x[i];
    float s, c;
    __sincosf(v, &s, &c);
    y[12 * i + 0] = __expf(v);
    y[12 * i + 1] = __exp10f(v);
    y[12 * i + 2] = __logf(v);
    y[12 * i + 3] = __log2f(v);
    y[12 * i + 4] = __log10f(v);
    y[12 * i + 5] = __sinf(v);
    y[12 * i + 6] = __cosf(v);
    y[12 * i + 7] = __tanf(v);
    y[12 * i + 8] = __powf(v, 1.5f);
    y[12 * i + 9] = s + 2.0f * c;
    y[12 * i + 10] = __fdividef(v, 3.0f);
    y[12 * i + 11] = __saturatef(v - 1.0f);
}

int main()
{
    const int n = 32;
    float x[n], y[12 * n], *dx, *dy;
    for (int i = 0; i < n; i++)
        x[i] = 0.1f + 0.05f * (float)i;
    cudaMalloc(&dx, sizeof x);
    cudaMalloc(&dy, sizeof y);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    fast<<<1, n>>>(dx, dy);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const float v = x[i];
        const float want[12] = {expf(v), powf(10.0f, v), logf(v), log2f(v), log10f(v), sinf(v), cosf(v), tanf(v),
                                powf(v, 1.5f), sinf(v) + 2.0f * cosf(v), v / 3.0f, fminf(fmaxf(v - 1.0f, 0.0f), 1.0f)};
        for (int k = 0; k < 12; k++)
            if (std::fabs(y[12 * i + k] - want[k]) > 1e-5f * (1.0f + std::fabs(want[k]))) {
                printf("fast_math: function %d at %g: %g, expected %g\n", k, v, y[12 * i + k], want[k]);
                bad++;
            }
    }
    printf("fast_math: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
