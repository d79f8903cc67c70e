// tests/run/openmp_host.cu - host code with OpenMP, as HeCBench's openmp-cuda: built with
// `-Xcompiler -fopenmp` (nvcc's form; `-fopenmp` alone too), the parallel region runs 2 threads,
// each launching a kernel; without the flag the pragmas are ignored (1 thread: WRONG).
#include <cstdio>
#include <omp.h>
__global__ void add(int *c, int v) { atomicAdd(c, v); }
int main() {
  int *c, h = 0;
  cudaMalloc(&c, sizeof(int));
  cudaMemset(c, 0, sizeof(int));
  int threads = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    threads++;
  }
  for (int i = 0; i < threads; i++) add<<<1, 32>>>(c, 1);
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("omp threads %d, counter %d: %s\n", threads, h, h == 32 * threads && threads == 2 ? "correct" : "WRONG");
  return !(h == 32 * threads && threads == 2);
}
