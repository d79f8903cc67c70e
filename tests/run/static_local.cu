// tests/run/static_local.cu - a file-local object with a constructor (internal linkage) that a
// template host function reads: the device pass's copy of the template is the one that runs (it is
// linked first), and it reads the device pass's copy of the object, which only the device pass's own
// static initialiser builds. simtlab run keeps those initialisers in such a file (run.c
// init_builds_local; test static_init: removed where nothing needs them). Review of a000cb8
// (helper-87): without them the map was empty and the check crashed.
#include <cstdio>
#include <map>
#include <string>

static std::map<std::string, double> tolerance = {{"float", 1e-5}, {"double", 1e-12}};
const std::string label = "static_local"; // const: internal linkage too

template <class T> __attribute__((noinline)) int check(const char *name, const T *got, T want, int n)
{
    const double tol = tolerance.at(name);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += (double)got[i] - (double)want > tol || (double)want - (double)got[i] > tol;
    printf("%s: %s %d of %d within %g\n", label.c_str(), name, n - bad, n, tol);
    return bad;
}

template <class T> __global__ void fill(T *p, T v) { p[threadIdx.x] = v; }

int main()
{
    float *f, hf[32];
    double *d, hd[32];
    cudaMalloc(&f, sizeof hf);
    cudaMalloc(&d, sizeof hd);
    fill<<<1, 32>>>(f, 1.5f);
    fill<<<1, 32>>>(d, 2.5);
    cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    const int bad = check("float", hf, 1.5f, 32) + check("double", hd, 2.5, 32);
    printf("static_local: %s\n", bad ? "WRONG" : "correct");
    return 0;
}
