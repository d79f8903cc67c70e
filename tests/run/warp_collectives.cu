// tests/run/warp_collectives.cu - sm_80's warp reductions (__reduce_*_sync) and
// sm_70's matches (__match_any_sync, __match_all_sync), over whole warps and a
// mask of the even lanes, checked against the host's arithmetic (exit 1 on a
// mismatch). Two warps, so that each warp reduces its own lanes.
#include <cstdio>

enum { ADD, ADDI, MINI, MAXI, MINU, MAXU, AND, OR, XOR, EVEN, ANY, ALL, ALLP, DIFF, DIFFP, N_OUT };

__global__ void collectives(int *out)
{
    const unsigned lane = threadIdx.x % 32, full = 0xffffffffu;
    const int s = (int)lane - 16 + (int)(threadIdx.x / 32) * 100; // the second warp's values are 100 higher
    int *o = out + threadIdx.x * N_OUT;
    o[ADD] = (int)__reduce_add_sync(full, lane);
    o[ADDI] = __reduce_add_sync(full, s);
    o[MINI] = __reduce_min_sync(full, s);
    o[MAXI] = __reduce_max_sync(full, s);
    o[MINU] = (int)__reduce_min_sync(full, (lane * 7u) % 32u + 3u);
    o[MAXU] = (int)__reduce_max_sync(full, (lane * 7u) % 32u + 3u);
    o[AND] = (int)__reduce_and_sync(full, ~(1u << lane));
    o[OR] = (int)__reduce_or_sync(full, 1u << (lane % 8));
    o[XOR] = (int)__reduce_xor_sync(full, lane);
    o[EVEN] = lane % 2 == 0 ? (int)__reduce_add_sync(0x55555555u, lane) : -1;
    o[ANY] = (int)__match_any_sync(full, (short)(lane / 4)); // a short converts to int, as with nvcc
    int pred = -1;
    o[ALL] = (int)__match_all_sync(full, 7.5f, &pred);
    o[ALLP] = pred;
    o[DIFF] = (int)__match_all_sync(full, (long long)lane, &pred);
    o[DIFFP] = pred;
}

int main()
{
    const int threads = 64;
    int *d, h[threads * N_OUT];
    cudaMalloc(&d, sizeof h);
    collectives<<<1, threads>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("warp_collectives: %s\n", cudaGetErrorString(e));
        return 1;
    }
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; t++) {
        const int lane = t % 32, warp = t / 32;
        int want[N_OUT];
        want[ADD] = 496;
        want[ADDI] = -16 + 3200 * warp;
        want[MINI] = -16 + 100 * warp;
        want[MAXI] = 15 + 100 * warp;
        want[MINU] = 3;
        want[MAXU] = 34;
        want[AND] = 0;
        want[OR] = 0xff;
        want[XOR] = 0; // 0 ^ 1 ^ ... ^ 31
        want[EVEN] = lane % 2 == 0 ? 240 : -1;
        want[ANY] = (int)(0xfu << (lane / 4 * 4));
        want[ALL] = -1; // 0xffffffff
        want[ALLP] = 1;
        want[DIFF] = 0;
        want[DIFFP] = 0;
        for (int k = 0; k < N_OUT; k++)
            if (h[t * N_OUT + k] != want[k]) {
                printf("warp_collectives: thread %d, result %d: %d, want %d\n", t, k, h[t * N_OUT + k], want[k]);
                return 1;
            }
    }
    cudaFree(d);
    printf("warp_collectives: correct\n");
    return 0;
}
