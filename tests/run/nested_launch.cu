// tests/run/nested_launch.cu - a launch from inside a kernel's thread: here a host lambda handed
// to code that launches it with <<<>>> (AIComputing101's scan example does this by mistake; the
// lambda itself launches the real kernel). simtlab crashed there (a launch inside a launch, survey
// 7's D13); now such a launch does not run, and says so once.
#include <cstdio>

__global__ void fill(int *p, int n)
{
    if ((int)threadIdx.x < n)
        p[threadIdx.x] = 1;
}

static void launch_it(void (*kernel)(int *, int), int *d)
{
    kernel<<<1, 4>>>(d, 4);
    printf("outer launch: %s\n", cudaGetErrorString(cudaGetLastError()));
}

int main()
{
    int *d, h[4] = {0, 0, 0, 0};
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    auto wrapper = [](int *p, int n) { fill<<<1, 32>>>(p, n); };
    launch_it(wrapper, d);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("nested_launch: %s, inner kernel %s\n", cudaGetErrorString(e), h[0] ? "ran" : "did not run");
    fill<<<1, 4>>>(d, 4); // a launch from host code afterwards runs
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("after: %s\n", h[3] == 1 ? "ran" : "did not run");
    return 0;
}
