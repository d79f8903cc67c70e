// tests/run/lock_fault.cu - a block faults while it holds a lock the other blocks spin on (CUDA by
// Example's hash table did, by a read past an array): a GPU ends the whole launch at the fault.
// The simulator runs the other blocks on, for a deterministic report; one spinning on a lock the
// failed block will never release now ends soon, quietly, and the launch reports the fault,
// where it used to spin until the watchdog. (Blocks 0 and 1 wait for each other: it needs two
// workers, which run_case asks for.)
#include <cstdio>

__global__ void take_and_fault(int *lock, int *go, int *ready, const int *table, int *out)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        while (atomicAdd(ready, 0) == 0)           // block 1 runs beside this one (two workers)
            ;
        atomicExch(lock, 1);                      // taken, and never given back:
        atomicExch(go, 1);
        out[0] = table[1 << 20];                  // MARK:fault (a read far past the table)
        atomicExch(lock, 0);
    } else {
        atomicExch(ready, 1);
        while (atomicAdd(go, 0) == 0)             // block 0 holds the lock by now
            ;
        while (atomicCAS(lock, 0, 1) != 0)        // spins: block 0 will never release it
            ;
        out[blockIdx.x] = 1;
        atomicExch(lock, 0);
    }
}

int main()
{
    int *lock, *go, *ready, *table, *out;
    cudaMalloc(&lock, sizeof(int));
    cudaMalloc(&go, sizeof(int));
    cudaMalloc(&ready, sizeof(int));
    cudaMemset(ready, 0, sizeof(int));
    cudaMalloc(&table, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(lock, 0, sizeof(int));
    cudaMemset(go, 0, sizeof(int));
    take_and_fault<<<2, 32>>>(lock, go, ready, table, out);
    printf("lock_fault: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
