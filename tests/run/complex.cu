// tests/run/complex.cu - <cuComplex.h>, the toolkit's complex numbers (Mandelbrot and FFT teaching
// code): the shim's own header (the toolkit's clashed with the shim's vector types; survey 7's
// D5). A kernel iterates z = z^2 + c over a few points and uses every operation; the host checks
// against std::complex<double>.
#include <cmath>
#include <complex>
#include <cstdio>
#include <cuComplex.h>

__global__ void iterate(cuFloatComplex *z, cuDoubleComplex *zd, const cuFloatComplex *c, int steps)
{
    int i = threadIdx.x;
    cuFloatComplex w = make_cuFloatComplex(0, 0);
    for (int s = 0; s < steps; s++)
        w = cuCaddf(cuCmulf(w, w), c[i]);
    w = cuCdivf(cuCsubf(w, c[i]), cuConjf(c[i]));
    z[i] = cuCfmaf(w, make_cuComplex(0.5f, -0.25f), make_cuFloatComplex(cuCabsf(c[i]), 0));
    cuDoubleComplex d = cuComplexFloatToDouble(c[i]);
    zd[i] = cuCdiv(cuCmul(d, d), cuCadd(d, make_cuDoubleComplex(1, 1)));
}

int main()
{
    const int n = 4, steps = 3;
    const float cr[n] = {0.25f, -0.5f, 0.1f, -0.75f}, ci[n] = {0.1f, 0.5f, -0.6f, 0.05f};
    cuFloatComplex *c, *z;
    cuDoubleComplex *zd;
    cudaMallocManaged(&c, n * sizeof *c);
    cudaMallocManaged(&z, n * sizeof *z);
    cudaMallocManaged(&zd, n * sizeof *zd);
    for (int i = 0; i < n; i++)
        c[i] = make_cuFloatComplex(cr[i], ci[i]);
    iterate<<<1, n>>>(z, zd, c, steps);
    cudaError_t e = cudaDeviceSynchronize();
    int bad = e != cudaSuccess;
    for (int i = 0; i < n; i++) {
        std::complex<double> cc(cr[i], ci[i]), w(0, 0);
        for (int s = 0; s < steps; s++)
            w = w * w + cc;
        w = (w - cc) / std::conj(cc);
        std::complex<double> want = w * std::complex<double>(0.5, -0.25) + std::abs(cc);
        std::complex<double> wd = cc * cc / (cc + std::complex<double>(1, 1));
        bad += std::abs(std::complex<double>(cuCrealf(z[i]), cuCimagf(z[i])) - want) > 1e-5 * (1 + std::abs(want));
        bad += std::abs(std::complex<double>(cuCreal(zd[i]), cuCimag(zd[i])) - wd) > 1e-12 * (1 + std::abs(wd));
    }
    // magnitudes at the edges (host code: the same functions)
    bad += cuCabsf(make_cuFloatComplex(3, 4)) != 5.0f || cuCabsf(make_cuFloatComplex(0, 0)) != 0.0f;
    bad += !std::isinf(cuCabsf(make_cuFloatComplex(INFINITY, 1))) || !std::isnan(cuCabs(make_cuDoubleComplex(NAN, 1)));
    bad += cuCabs(make_cuDoubleComplex(3e300, 4e300)) != 5e300; // no overflow on the way
    printf("complex: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
