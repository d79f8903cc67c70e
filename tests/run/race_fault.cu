// tests/run/race_fault.cu - survey 21's findings (tests/scripts/run_case.cmake, case race_fault):
//   ./race_fault fault     thread 0 publishes an index in shared memory, every thread reads it after
//                          a barrier, and thread 0 overwrites the word with no barrier between (the
//                          textbook tiled merge's bug): later lanes read the new value and index past
//                          the dynamic shared memory. The fault is reported, and so is the race
//                          behind it, which counting mode's sample saw (it was dropped when the
//                          launch failed)
//   ./race_fault names     a shared-memory race (run with --detail), the report naming the variable
//                          and its kernel, whose first parameter is a struct by value (its type was
//                          taken for the kernel)
//   ./race_fault long      the same in a kernel whose mangled name is long (it was cut short and
//                          printed raw)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void publish(const int *in, int *out)
{
    extern __shared__ int s[]; // 256 ints
    if (threadIdx.x == 0)
        s[0] = 5; // the published index
    __syncthreads();
    int idx = s[0];                   // MARK:read every thread reads it
    s[threadIdx.x] = in[threadIdx.x]; // MARK:write thread 0 overwrites s[0]: no barrier before
    __syncthreads();
    out[threadIdx.x] = s[(idx + threadIdx.x) % 256 + (idx > 100 ? 256 : 0)];
}

struct Params {
    int n, shift;
};

__global__ void rotate(Params p, int *out)
{
    __shared__ int buf[64];
    buf[threadIdx.x] = (int)threadIdx.x;
    out[threadIdx.x] = buf[(threadIdx.x + p.shift) % p.n]; // no barrier: a race on buf
}

__global__ void frontier_expansion_with_block_level_privatization_and_overflow_handling_kernel(int *out)
{
    __shared__ int frontier_counter;
    if (threadIdx.x == 0)
        frontier_counter = 0;
    out[threadIdx.x] = frontier_counter; // no barrier after the write: a race
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int *in, *out, h[256];
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    for (int i = 0; i < 256; ++i)
        h[i] = 1000 + i;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    if (!strcmp(mode, "fault")) {
        publish<<<1, 256, 256 * sizeof(int)>>>(in, out);
        cudaError_t e = cudaDeviceSynchronize();
        printf("race_fault fault: %s\n", cudaGetErrorName(e));
        return e == cudaSuccess ? 0 : 2;
    }
    if (!strcmp(mode, "long")) // a race report ends the context, as a fault does: one kernel a run
        frontier_expansion_with_block_level_privatization_and_overflow_handling_kernel<<<1, 64>>>(out);
    else
        rotate<<<1, 64>>>(Params{64, 1}, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("race_fault %s: %s\n", mode, cudaGetErrorName(e));
    return 0;
}
