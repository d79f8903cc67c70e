// tests/run/launch_kernel.cu - cudaLaunchKernel, the runtime API's launch: args[i] points at the
// kernel's i-th argument (copied at the call). A plain kernel, a template whose arguments hold a
// comma, a struct by value, a kernel through a pointer member, CUDA's template with its explicit
// argument; the arguments changed after the call do not reach the launch. Then the C API's form,
// the kernel cast to void * in the call: the rewriter drops the cast, and it runs; a void *
// variable holding a kernel: the simulator cannot see the parameter types and returns
// cudaErrorInvalidDeviceFunction with a message (the line says which), where a GPU runs it.
#include <cstdio>

struct Affine {
    float a, b;
};

__global__ void axpb(float *y, const float *x, Affine f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = f.a * x[i] + f.b;
}

template <class T, int K>
__global__ void scale(T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= (T)K;
}

int main()
{
    const int n = 1000;
    float *x, *y;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    Affine f = {2.0f, 1.0f};
    int nn = n;
    void *args[] = {&y, &x, &f, &nn};
    cudaError_t e = cudaLaunchKernel(axpb, dim3((n + 127) / 128), dim3(128), args, 0, 0);
    f.a = 100.0f; // after the call: the launch has its copy
    cudaError_t e2 = cudaDeviceSynchronize();
    void *args2[] = {&y, &nn};
    cudaError_t e3 = cudaLaunchKernel(scale<float, 3>, dim3((n + 255) / 256), dim3(256), args2, 0, 0);
    cudaError_t e4 = cudaDeviceSynchronize();
    // through a pointer member, and CUDA's template by its explicit argument (y * 1: no change)
    struct Holder {
        void (*fn)(float *, int);
    } h = {scale<float, 1>}, *hp = &h;
    if (cudaLaunchKernel(hp->fn, dim3((n + 255) / 256), dim3(256), args2, 0, 0) ||
        cudaLaunchKernel<void(float *, int)>(scale<float, 1>, dim3((n + 255) / 256), dim3(256), args2, 0, 0))
        e4 = cudaErrorUnknown;
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += y[i] != 3.0f * (2.0f * i + 1.0f);
    printf("launch_kernel: typed %s %s %s %s, %d wrong\n", cudaGetErrorName(e), cudaGetErrorName(e2),
           cudaGetErrorName(e3), cudaGetErrorName(e4), bad);
    // the C API's form, the kernel cast to void * (library code, NVIDIA's samples): the rewriter
    // drops the cast, so the C++ overload takes it (y * 2, a template through its qualified name)
    cudaError_t ec = cudaLaunchKernel((const void *)::scale<float, 2>, dim3((n + 255) / 256), dim3(256), args2, 0, 0);
    cudaError_t ec2 = cudaDeviceSynchronize();
    for (int i = 0; i < n; i++)
        bad += y[i] != 6.0f * (2.0f * i + 1.0f);
    printf("launch_kernel: cast form %s %s, %d wrong\n", cudaGetErrorName(ec), cudaGetErrorName(ec2), bad);
    // a void * variable: no type anywhere, cudaErrorInvalidDeviceFunction and the fix named
    void *fp = (void *)axpb;
    cudaError_t ev = cudaLaunchKernel(fp, dim3(1), dim3(32), args, 0, 0); // MARK:voidform
    cudaDeviceSynchronize();
    cudaGetLastError();
    printf("launch_kernel: void pointer form %s\n", cudaGetErrorName(ev));
    if (bad || e || e2 || e3 || e4 || ec || ec2)
        return 1;
    printf("launch_kernel: correct\n");
    return 0;
}
