// scripts/gpu/vec_fields_probe.cu - which loads nvcc makes of a float4 whose fields are used in
// part (session 31): for each subset of .x .y .z .w, a kernel reading a float4 from global memory
// and one reading it from shared memory. Only its SASS is looked at (cuobjdump -sass: LDG/LDS and
// their widths); scripts/gpu/s31b.sh compiles it.
#define SUBSET(name, expr)                                                                       \
    __global__ void g_##name(const float4 *in, float *out)                                       \
    {                                                                                            \
        const int i = blockIdx.x * blockDim.x + threadIdx.x;                                     \
        const float4 v = in[i];                                                                  \
        out[i] = expr;                                                                           \
    }                                                                                            \
    __global__ void s_##name(const float4 *in, float *out)                                       \
    {                                                                                            \
        __shared__ float4 s[256];                                                                \
        const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;                              \
        s[t] = in[i];                                                                            \
        __syncthreads();                                                                         \
        const float4 v = s[t ^ 1];                                                               \
        out[i] = expr;                                                                           \
    }
SUBSET(x, v.x)
SUBSET(xy, v.x * v.y)
SUBSET(yz, v.y * v.z)
SUBSET(xw, v.x * v.w)
SUBSET(xyz, v.x * v.y + v.z)
SUBSET(yzw, v.y * v.z + v.w)
SUBSET(xyzw, v.x * v.y + v.z * v.w)
