// tests/run/race_order.cu - a shared-memory race is named in the program's order, not in the order
// the simulator ran the two threads (it runs one thread, or one warp's lanes, ahead of the others):
//   race_order reload  a loop refills a tile with no __syncthreads() at the end of its body: thread 0
//                      goes round the loop and overwrites the tile while thread 1 still reads it, a
//                      write-after-read (the write is the next iteration's)
//   race_order tail    s[t] written, then s[63 - t] read, no barrier: warp 0 runs to its end first and
//                      reads words warp 1 has not written, a read-after-write (in the program the write
//                      comes first); the report names warp 0's read and its line, though warp 0 has
//                      exited (its history in its lanes' logs)
//   race_order tailg   the same, each thread's value loaded from global memory first (the warp's
//                      history in its request table)
//   race_order swap    s[i] += s[i ^ 1] in one warp with no __syncwarp(): lane 0 reads s[0] and s[1]
//                      and writes s[0] before lane 1 reads s[0]; on a GPU the warp's loads come before
//                      its stores, a write-after-read
//   race_order iter    one warp, two iterations of `s[t + 32 i] = x; y += s[i ? t : t + 33]`: lane 0
//                      reads s[33] in iteration 0, lane 1 writes it in iteration 1: a write-after-read
//                      in either order (lane 0 had made the write as often as lane 1 has: not ahead)
//   race_order cold    s[t] written in an unlikely branch (laid out after the read), then s[t ^ 1]
//                      read: a read-after-write, whatever the code's layout
#include <cstdio>
#include <cstring>

__global__ void order(const float *in, float *out, int mode)
{
    __shared__ float s[64];
    const int t = threadIdx.x;
    float acc = 0.0f;
    if (mode == 0) {
        for (int j = 0; j < 256; j += 64) {
            s[t] = in[j + t]; /* MARK:refill */
            __syncthreads();
            for (int i = 0; i < 64; i++)
                acc += s[(t + i) % 64]; /* MARK:use */
        }
    } else if (mode == 1 || mode == 2) {
        s[t] = mode == 1 ? (float)t : in[t]; /* MARK:write */
        acc = s[63 - t]; /* MARK:read */
    } else if (mode == 3) {
        s[t] = in[t];
        __syncthreads();
        if (t < 32)
            s[t] += s[t ^ 1]; /* MARK:swap */
        __syncthreads();
        acc = s[t];
    } else if (mode == 4) {
        if (t < 32)
            for (int i = 0; i < 2; i++) {
                s[t + 32 * i] = (float)t; /* MARK:iterw */
                acc += s[i ? t : t + 33]; /* MARK:iterr */
            }
    } else {
        if (__builtin_expect(in[t] >= 0.0f, 0))
            s[t] = in[t] + 1.0f; /* MARK:coldw */
        acc = s[t ^ 1]; /* MARK:coldr */
    }
    out[t] = acc;
}

int main(int argc, char **argv)
{
    const char *modes[] = {"reload", "tail", "tailg", "swap", "iter", "cold"};
    const char *m = argc > 1 ? argv[1] : "reload";
    int mode = 0;
    for (int i = 0; i < 6; i++)
        if (!strcmp(m, modes[i]))
            mode = i;
    float *in, *out;
    cudaMallocManaged(&in, 256 * sizeof(float));
    cudaMallocManaged(&out, 64 * sizeof(float));
    for (int i = 0; i < 256; i++)
        in[i] = (float)i;
    order<<<1, 64>>>(in, out, mode);
    cudaError_t e = cudaDeviceSynchronize();
    printf("race_order %s: %s\n", m, cudaGetErrorName(e));
    return e != cudaSuccess;
}
