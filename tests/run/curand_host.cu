// tests/run/curand_host.cu - cuRAND's host API (curandCreateGenerator, curandGenerate*), and a
// kernel that keeps its generators' states in global memory, as NVIDIA's samples do (a state per
// thread, made by one kernel, used by the next). An ordinary CUDA program (with nvcc: -lcurand);
// the checks hold on a GPU too: ranges, means and variances, error codes, none of the values
// themselves (a GPU orders a generator's values its own way).
#include <cmath>
#include <cstdio>
#include <curand.h>
#include <curand_kernel.h>

#define N (1 << 18) // values a call generates

static int check(bool ok, const char *what)
{
    if (!ok)
        printf("curand_host: FAILED %s\n", what);
    return !ok;
}

// the states in global memory: one kernel makes them, the next draws from them
__global__ void setup(curandState *states, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        curand_init(31337, i, 0, &states[i]);
}
__global__ void draw(curandState *states, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        curandState local = states[i];
        out[i] = curand_uniform(&local);
        states[i] = local;
    }
}

// mean and variance of n values in [lo, hi] within 5 standard errors of mu and var (kurt: the
// fourth central moment over var^2, for the variance's error)
template <class T>
static int moments(const char *what, const T *v, size_t n, double mu, double var, double kurt, double lo, double hi)
{
    double s1 = 0, s2 = 0;
    int out = 0;
    for (size_t i = 0; i < n; i++) {
        s1 += v[i], s2 += (double)v[i] * v[i];
        out += !(v[i] >= lo && v[i] <= hi);
    }
    const double mean = s1 / n, var_ = s2 / n - mean * mean;
    printf("curand_host: %s: mean %.4f (%.4f), variance %.4f (%.4f)\n", what, mean, mu, var_, var);
    return check(out == 0 && fabs(mean - mu) <= 5 * sqrt(var / n) && fabs(var_ - var) <= 5 * var * sqrt((kurt - 1) / n),
                 what);
}

int main()
{
    int bad = 0;
    float *df, *hf = new float[N];
    double *dd, *hd = new double[N];
    unsigned *du, *hu = new unsigned[N];
    bad += check(cudaMalloc(&df, N * sizeof *df) == cudaSuccess && cudaMalloc(&dd, N * sizeof *dd) == cudaSuccess &&
                     cudaMalloc(&du, N * sizeof *du) == cudaSuccess,
                 "cudaMalloc");
    const double ln_kurt = exp(1.0) + 2 * exp(0.75) + 3 * exp(0.5) - 3; // a log-normal's, sigma 0.5
    const curandRngType_t types[3] = {CURAND_RNG_PSEUDO_DEFAULT, CURAND_RNG_PSEUDO_PHILOX4_32_10,
                                      CURAND_RNG_PSEUDO_MRG32K3A};
    for (int k = 0; k < 3; k++) {
        curandGenerator_t g;
        bad += check(curandCreateGenerator(&g, types[k]) == CURAND_STATUS_SUCCESS, "curandCreateGenerator");
        bad += check(curandSetPseudoRandomGeneratorSeed(g, 1234ULL + k) == CURAND_STATUS_SUCCESS, "the seed");
        bad += check(curandGenerateUniform(g, df, N) == CURAND_STATUS_SUCCESS, "curandGenerateUniform");
        cudaMemcpy(hf, df, N * sizeof *hf, cudaMemcpyDeviceToHost);
        bad += moments("uniform", hf, N, 0.5, 1.0 / 12, 1.8, 1e-10, 1.0);
        bad += check(curandGenerateUniformDouble(g, dd, N) == CURAND_STATUS_SUCCESS, "curandGenerateUniformDouble");
        cudaMemcpy(hd, dd, N * sizeof *hd, cudaMemcpyDeviceToHost);
        bad += moments("uniform double", hd, N, 0.5, 1.0 / 12, 1.8, 1e-17, 1.0);
        bad += check(curandGenerateNormal(g, df, N, 2.0f, 3.0f) == CURAND_STATUS_SUCCESS, "curandGenerateNormal");
        cudaMemcpy(hf, df, N * sizeof *hf, cudaMemcpyDeviceToHost);
        bad += moments("normal (2, 3)", hf, N, 2.0, 9.0, 3, -1e9, 1e9);
        bad += check(curandGenerateNormalDouble(g, dd, N, -1.0, 0.5) == CURAND_STATUS_SUCCESS, "curandGenerateNormalDouble");
        cudaMemcpy(hd, dd, N * sizeof *hd, cudaMemcpyDeviceToHost);
        bad += moments("normal double (-1, 0.5)", hd, N, -1.0, 0.25, 3, -1e9, 1e9);
        bad += check(curandGenerateLogNormal(g, df, N, 0.0f, 0.5f) == CURAND_STATUS_SUCCESS, "curandGenerateLogNormal");
        cudaMemcpy(hf, df, N * sizeof *hf, cudaMemcpyDeviceToHost);
        bad += moments("log-normal (0, 0.5)", hf, N, exp(0.125), (exp(0.25) - 1) * exp(0.25), ln_kurt, 0, 1e9);
        bad += check(curandGeneratePoisson(g, du, N, 7.5) == CURAND_STATUS_SUCCESS, "curandGeneratePoisson");
        cudaMemcpy(hu, du, N * sizeof *hu, cudaMemcpyDeviceToHost);
        bad += moments("Poisson (7.5)", hu, N, 7.5, 7.5, 3 + 1 / 7.5, 0, 1e9);
        bad += check(curandGenerate(g, du, N) == CURAND_STATUS_SUCCESS, "curandGenerate");
        cudaMemcpy(hu, du, N * sizeof *hu, cudaMemcpyDeviceToHost);
        bad += moments("32-bit", hu, N, 2147483647.5, 4294967296.0 * 4294967296.0 / 12, 1.8, 0, 4294967295.0);
        // Box-Muller makes pairs: an odd count is refused, as cuRAND 13 refuses it, except from Philox
        // (an H100 took 3 normals from it)
        bad += check(curandGenerateNormal(g, df, 3, 0.0f, 1.0f) ==
                         (k == 1 ? CURAND_STATUS_SUCCESS : CURAND_STATUS_LENGTH_NOT_MULTIPLE),
                     "odd count");
        bad += check(curandDestroyGenerator(g) == CURAND_STATUS_SUCCESS, "curandDestroyGenerator");
    }
    // the same seed, the same values; a generator writing host memory
    {
        curandGenerator_t a, b, h;
        bad += check(curandCreateGenerator(&a, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS &&
                         curandCreateGenerator(&b, CURAND_RNG_PSEUDO_XORWOW) == CURAND_STATUS_SUCCESS &&
                         curandCreateGeneratorHost(&h, CURAND_RNG_PSEUDO_PHILOX4_32_10) == CURAND_STATUS_SUCCESS,
                     "three generators");
        curandSetPseudoRandomGeneratorSeed(a, 99);
        curandSetPseudoRandomGeneratorSeed(b, 99);
        curandGenerate(a, du, 1000);
        cudaMemcpy(hu, du, 1000 * sizeof *hu, cudaMemcpyDeviceToHost);
        curandGenerate(b, du, 1000);
        unsigned *again = new unsigned[1000];
        cudaMemcpy(again, du, 1000 * sizeof *again, cudaMemcpyDeviceToHost);
        int same = 0;
        for (int i = 0; i < 1000; i++)
            same += again[i] == hu[i];
        bad += check(same == 1000, "a seed's values, twice");
        curandSetPseudoRandomGeneratorSeed(h, 7);
        bad += check(curandGenerateUniform(h, hf, N) == CURAND_STATUS_SUCCESS, "a host generator");
        bad += moments("uniform in host memory", hf, N, 0.5, 1.0 / 12, 1.8, 1e-10, 1.0);
        int version = 0;
        bad += check(curandGetVersion(&version) == CURAND_STATUS_SUCCESS && version >= 10000, "curandGetVersion");
        curandDestroyGenerator(a);
        curandDestroyGenerator(b);
        curandDestroyGenerator(h);
        delete[] again;
    }
    // states in global memory
    const int n = 1024;
    curandState *states;
    bad += check(cudaMalloc(&states, n * sizeof *states) == cudaSuccess, "the states");
    setup<<<n / 256, 256>>>(states, n);
    draw<<<n / 256, 256>>>(states, df, n);
    bad += check(cudaDeviceSynchronize() == cudaSuccess, "the kernels");
    cudaMemcpy(hf, df, n * sizeof *hf, cudaMemcpyDeviceToHost);
    bad += moments("a draw per state", hf, n, 0.5, 1.0 / 12, 1.8, 1e-10, 1.0);
    cudaFree(states);
    cudaFree(df);
    cudaFree(dd);
    cudaFree(du);
    delete[] hf;
    delete[] hd;
    delete[] hu;
    printf("curand_host: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
