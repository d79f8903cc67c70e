// tests/run/global_race.cu - races on global memory between threads of a block: a note (the
// launch goes on), in detailed mode for every access (sim/access.c global_race). HeCBench
// chacha20's test: lanes 0-31 write a key, lane 0 reads it with no __syncwarp(); on a GPU the
// converged warp's stores come first (it passes there), here lane 0 runs first and reads the key
// unwritten, so the note says why the result differs. The clean kernel's accesses are not races:
// each thread's own bytes of a char array, reads after __syncwarp() and __syncthreads(), a
// volatile flag, atomics.
#include <cstdio>

__global__ void racy(unsigned char *key, int *out)
{
    key[threadIdx.x] = (unsigned char)(threadIdx.x + 1);
    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < 32; i++)
            s += key[i]; /* MARK:sum */
        *out = s;
    }
}

__global__ void clean(unsigned char *bytes, int *words, volatile int *flag, int *count, int *out)
{
    const unsigned t = threadIdx.x;
    bytes[t] = (unsigned char)(bytes[t] + 1); // its own byte of a word four threads share
    words[t] = (int)t;
    __syncwarp();
    int s = words[(t + 1) % 32 + t / 32 * 32]; // a lane of its warp wrote it: after __syncwarp()
    __syncthreads();
    s += words[(t + 32) % blockDim.x]; // another warp wrote it: after __syncthreads()
    if (t == 0)
        *flag = 1;
    s += *flag; // volatile: a flag, never a race
    atomicAdd(count, 1);
    s += atomicAdd(count, 0);
    out[t] = s;
}

int main()
{
    unsigned char *key, *bytes;
    int *out, *words, *flag, *count, *outs, h = 0;
    cudaMalloc(&key, 32), cudaMalloc(&out, sizeof(int)), cudaMalloc(&bytes, 64), cudaMalloc(&words, 64 * 4);
    cudaMalloc(&flag, 4), cudaMalloc(&count, 4), cudaMalloc(&outs, 64 * 4);
    cudaMemset(key, 0, 32), cudaMemset(bytes, 0, 64), cudaMemset(flag, 0, 4), cudaMemset(count, 0, 4);
    clean<<<1, 64>>>(bytes, words, flag, count, outs);
    racy<<<1, 32>>>(key, out);
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    unsigned char hb[64];
    cudaMemcpy(hb, bytes, 64, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 0; i < 64; i++)
        ok &= hb[i] == 1;
    // a GPU: 528; here lane 0 reads before lanes 1-31 write: 1 (and the note says so)
    printf("global_race: clean %s, racy sum %d (a GPU: 528)\n", ok ? "correct" : "WRONG", h);
    return !ok;
}
