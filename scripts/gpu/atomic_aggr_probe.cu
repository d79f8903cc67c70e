// scripts/gpu/atomic_aggr_probe.cu - when nvcc aggregates a warp's atomics (session 31): one
// kernel a case; only the SASS is read (cuobjdump -sass: a RED/ATOM after a VOTE/POPC of the
// active lanes, issued by one lane, is an aggregated atomic). OLCF-style and CoffeeBeforeArch-style
// counters showed 1 atomic sector a warp on the H100 where the simulator counts 32.
__global__ void k_const_unused(int *c) { atomicAdd(c, 1); }
__global__ void k_const_used(int *c, int *out) { out[threadIdx.x] = atomicAdd(c, 1); }
__global__ void k_lane_operand(int *c) { atomicAdd(c, (int)threadIdx.x); }
__global__ void k_block_address(int *c) { atomicAdd(&c[blockIdx.x], 1); }
__global__ void k_divergent(int *c, const int *in) { if (in[threadIdx.x] > 0) atomicAdd(c, 1); }
__global__ void k_float(float *c) { atomicAdd(c, 1.0f); }
__global__ void k_data_address(int *c, const int *in) { atomicAdd(&c[in[threadIdx.x] & 1], 1); }
__global__ void k_u64(unsigned long long *c) { atomicAdd(c, 1ull); }
__global__ void k_max(int *c) { atomicMax(c, 7); }
__global__ void k_sub(int *c) { atomicSub(c, 1); }
__global__ void k_shared(int *out)
{
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, 1);
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x] = s;
}
