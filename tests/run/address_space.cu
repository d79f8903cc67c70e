// tests/run/address_space.cu - the address-space intrinsics (tests/scripts/run_case.cmake, case
// address_space): __isGlobal, __isShared, __isLocal and __isConstant of each kind of pointer, and
// __cvta_generic_to_shared's 32-bit shared addresses (cp.async and ldmatrix programs compute them
// for their PTX): offsets within an array as on the chip, the dynamic buffer after the static
// objects, and __cvta_shared_to_generic back to the same pointer. The same on a GPU.
#include <cstdio>

__constant__ float table[4];
__device__ int counter;

__global__ void spaces(const float *g, unsigned *bad)
{
    __shared__ float s[32];
    extern __shared__ float dyn[];
    float local[2];
    const int t = threadIdx.x;
    s[t] = (float)t;
    dyn[t] = (float)t;
    local[t & 1] = table[t & 3];
    unsigned b = 0;
    b |= (!__isGlobal(g) || __isShared(g) || __isLocal(g) || __isConstant(g)) << 0;
    b |= (!__isGlobal(&counter)) << 1;
    b |= (!__isShared(&s[t]) || __isGlobal(&s[t]) || __isLocal(&s[t])) << 2;
    b |= (!__isShared(&dyn[t])) << 3;
    b |= (!__isLocal(&local[t & 1]) || __isShared(&local[0]) || __isGlobal(&local[0])) << 4;
    b |= (!__isConstant(&table[t & 3]) || __isGlobal(&table[0])) << 5;
    const size_t a = __cvta_generic_to_shared(&s[t]), a0 = __cvta_generic_to_shared(&s[0]);
    const size_t d = __cvta_generic_to_shared(&dyn[t]), d0 = __cvta_generic_to_shared(&dyn[0]);
    b |= (a - a0 != 4u * t || d - d0 != 4u * t) << 6;
    b |= (d0 < a0 + sizeof s || d0 > 0xffffffffu) << 7;
    b |= (__cvta_shared_to_generic(a) != (void *)&s[t] || __cvta_shared_to_generic(d) != (void *)&dyn[t]) << 8;
    if (local[t & 1] < 0)
        b |= 1u << 9;
    bad[t] = b;
}

int main()
{
    float *g;
    unsigned *bad, h[32];
    const float tab[4] = {1, 2, 3, 4};
    cudaMemcpyToSymbol(table, tab, sizeof tab);
    cudaMalloc(&g, 32 * sizeof(float));
    cudaMalloc(&bad, sizeof h);
    spaces<<<1, 32, 32 * sizeof(float)>>>(g, bad);
    cudaError_t e = cudaMemcpy(h, bad, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("address_space: %s\n", cudaGetErrorString(e));
        return 1;
    }
    unsigned any = 0;
    for (int t = 0; t < 32; t++)
        any |= h[t];
    printf(any ? "address_space: WRONG (checks 0x%03x failed)\n" : "address_space: correct\n", any);
    return any != 0;
}
