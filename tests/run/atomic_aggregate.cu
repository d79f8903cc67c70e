// tests/run/atomic_aggregate.cu - integer atomics on a warp-uniform address: nvcc 13 lets one
// lane issue the warp's (docs/gpu/s31-h100-atomics: VOTE/POPC or REDUX, then one RED/ATOM), so a
// warp's execution is one atomic sector (one shared atomic wavefront), not 32, for add, sub, min,
// max, and, or and xor; not for inc, dec, exch or cas (the H100's counters: docs/gpu/s32-h100-atomics). The rewriter marks
// the calls whose address the kernel's text proves uniform (sim/run/rewrite_atomics.c); float
// atomics and addresses from loaded data are not aggregated. Every kernel runs 4 blocks of 256
// threads: 32 warps.
#include <cstdio>

__device__ int dev_count;

__global__ void k_add(int *c) { atomicAdd(c, 1); }                                    // 32
__global__ void k_block(int *c) { atomicAdd(&c[blockIdx.x], (int)threadIdx.x); }      // 32
__global__ void k_u64(unsigned long long *c) { atomicAdd(c, 1ull); }                  // 32
__global__ void k_sub(int *c) { atomicSub(c + 1, 2); }                                // 32
__global__ void k_max(int *c) { atomicMax(&c[2], (int)threadIdx.x); }                 // 32
__global__ void k_min(int *c) { atomicMin(&c[3], -(int)threadIdx.x); }                // 32
__global__ void k_and(unsigned *c) { atomicAnd(&c[0], ~(1u << (threadIdx.x % 32))); } // 32
__global__ void k_or(unsigned *c) { atomicOr(&c[1], 1u << (threadIdx.x % 32)); }      // 32
__global__ void k_xor(unsigned *c) { atomicXor(&c[2], 1u); }                          // 32
__global__ void k_inc(unsigned *c) { atomicInc(&c[3], 1u << 30); }                    // not: 1024
__global__ void k_divergent(int *c)                                                   // 32
{
    if (threadIdx.x & 1)
        atomicAdd(&c[4], 1);
}
__global__ void k_loop(int *c, int n) // 4 a warp: 128
{
    for (int j = 0; j < n; j++)
        atomicAdd(&c[5 + blockIdx.x % 2], 1);
}
__global__ void k_loop_index(int *c, int n) // a uniform loop counter in the address: 4 a warp, 128
{
    for (int j = 0; j < n; j++)
        atomicAdd(&c[j], 1);
}
template <int SLOT>
__global__ void k_template(int *c) { atomicAdd(&c[SLOT], 1); } // 32
__global__ void k_device_var() { atomicAdd(&dev_count, 1); }   // 32
__global__ void k_shared(int *out)                             // 32 shared atomic wavefronts
{
    __shared__ int s;
    if (threadIdx.x == 0)
        s = 0;
    __syncthreads();
    atomicAdd(&s, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
__global__ void k_many(int *c, unsigned *u) // 9 call sites in one kernel, 8 aggregated: 8 * 32 + 1024
                                             // (atomicInc with ~0u is an add of 1 to nvcc, dec is not)
{
    atomicAdd(&c[0], 1), atomicSub(&c[1], 2), atomicMax(&c[2], 0), atomicMin(&c[3], 0);
    atomicAnd(&u[0], ~0u), atomicOr(&u[1], 0u), atomicXor(&u[2], 0u), atomicInc(&u[3], ~0u), atomicDec(&u[3], ~0u);
}
__global__ void k_local(int *c) // a local assigned once from uniform values: 32
{
    const int b = blockIdx.x % 2;
    atomicAdd(&c[14 + b], 1);
}
// not aggregated by nvcc: a float atomic (32 lanes on one word: 32 sectors a warp, 1024), an
// address from loaded data (16 lanes on each of two words of one sector: 16 a warp, 512)
__global__ void k_float(float *f) { atomicAdd(f, 1.0f); }
__global__ void k_data(int *c, const int *in) { atomicAdd(&c[in[threadIdx.x] & 1], 1); }

int main()
{
    const int B = 4, T = 256, N = B * T;
    int *c, *in, *out;
    unsigned *u;
    unsigned long long *q;
    float *f;
    cudaMalloc(&c, 16 * sizeof(int)), cudaMalloc(&u, 4 * sizeof(unsigned)), cudaMalloc(&q, sizeof *q);
    cudaMalloc(&f, sizeof *f), cudaMalloc(&in, T * sizeof(int)), cudaMalloc(&out, B * sizeof(int));
    int hc[16] = {0, 0, -1, 1}, hin[T];
    unsigned hu[4] = {~0u, 0u, 0u, 0u};
    for (int i = 0; i < T; i++)
        hin[i] = i;
    cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice), cudaMemcpy(u, hu, sizeof hu, cudaMemcpyHostToDevice);
    cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);
    cudaMemset(q, 0, sizeof *q), cudaMemset(f, 0, sizeof *f);
    k_add<<<B, T>>>(c);
    k_block<<<B, T>>>(c + 8);
    k_u64<<<B, T>>>(q);
    k_sub<<<B, T>>>(c);
    k_max<<<B, T>>>(c);
    k_min<<<B, T>>>(c);
    k_and<<<B, T>>>(u);
    k_or<<<B, T>>>(u);
    k_xor<<<B, T>>>(u);
    k_inc<<<B, T>>>(u);
    k_divergent<<<B, T>>>(c);
    k_loop<<<B, T>>>(c, 4);
    k_template<7><<<B, T>>>(c);
    k_device_var<<<B, T>>>();
    k_shared<<<B, T>>>(out);
    k_float<<<B, T>>>(f);
    k_data<<<B, T>>>(c + 12, in);
    k_local<<<B, T>>>(c);
    k_many<<<B, T>>>(c, u);
    int *L;
    cudaMalloc(&L, 4 * sizeof(int));
    cudaMemset(L, 0, 4 * sizeof(int));
    k_loop_index<<<B, T>>>(L, 4);
    int rl[4];
    cudaMemcpy(rl, L, sizeof rl, cudaMemcpyDeviceToHost);
    int rc[16], ro[B], dv = 0;
    unsigned ru[4];
    unsigned long long rq;
    float rf;
    cudaMemcpy(rc, c, sizeof rc, cudaMemcpyDeviceToHost), cudaMemcpy(ru, u, sizeof ru, cudaMemcpyDeviceToHost);
    cudaMemcpy(&rq, q, sizeof rq, cudaMemcpyDeviceToHost), cudaMemcpy(&rf, f, sizeof rf, cudaMemcpyDeviceToHost);
    cudaMemcpy(ro, out, sizeof ro, cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&dv, dev_count, sizeof dv);
    int ok = rc[0] == 2 * N && rc[1] == -4 * N && rc[2] == T - 1 && rc[3] == -(T - 1) && rc[4] == N / 2 &&
             rc[5] == 4 * N / 2 && rc[6] == 4 * N / 2 && rc[7] == N && rq == (unsigned long long)N && dv == N &&
             ru[0] == 0u && ru[1] == ~0u && ru[2] == 0u && ru[3] == (unsigned)N && rf == (float)N;
    int evens = 0, odds = 0;
    for (int i = 0; i < T; i++)
        (hin[i] & 1 ? odds : evens) += B;
    ok = ok && rl[0] == N && rl[1] == N && rl[2] == N && rl[3] == N;
    ok = ok && rc[12] == evens && rc[13] == odds && rc[14] == N / 2 && rc[15] == N / 2;
    for (int b = 0; b < B; b++)
        ok = ok && rc[8 + b] == T * (T - 1) / 2 && ro[b] == T;
    printf("atomic_aggregate: %s\n", ok ? "correct" : "WRONG");
    return !ok;
}
