// tests/run/explicit_spec.cu - explicit specializations (`template <> __global__ void
// scale<float>(...)`, and of a __device__ function) run instrumented: counted and checked like any
// kernel. `-- oob`: the float kernel writes one element past the end, as an off-by-one does.
#include <cstdio>
#include <cstring>

template <typename T> __device__ T twice(T v) { return v + v; }
template <> __device__ float twice<float>(float v) { return 2.0f * v; }

template <typename T> __global__ void scale(T *x, int n, int extra)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + extra)
        x[i] = twice(x[i]);
}
// the float instance of the template above, specialized ("template" in a comment: not a second one)
template <> __global__ void scale<float>(float *x, int n, int extra)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + extra)
        x[i] = twice(x[i]); // MARK:spec_body
}

int main(int argc, char **argv)
{
    const int n = 256, extra = argc > 1 && !strcmp(argv[1], "oob");
    float *f;
    double *d;
    cudaMallocManaged(&f, n * sizeof(float));
    cudaMallocManaged(&d, n * sizeof(double));
    for (int i = 0; i < n; i++)
        f[i] = (float)i, d[i] = i;
    scale<double><<<1, 256>>>(d, n, 0);
    scale<float><<<2, 256>>>(f, n, extra);
    cudaError_t e = cudaDeviceSynchronize();
    printf("explicit_spec: %s %g %g\n", cudaGetErrorName(e), f[5], d[5]);
    return 0;
}
