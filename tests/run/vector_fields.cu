// tests/run/vector_fields.cu - a vector loaded whole and used field by field (the vectorised
// loads every CUDA course teaches): `float4 v = in[i]; ... v.x ...` is one 16-byte access a lane,
// as nvcc's LDG.128, not one 4-byte load a field that g++'s SRA would make of a trivially copied
// struct (4x the requests, and with a warp's lanes 16 bytes apart 4x the sectors: 1536 sectors
// for fields3 where the chip reads 512). The counts are the H100's (docs/run.md).
#include <cstdio>

struct Particle {
    float4 pos, vel;
};

// three fields of each float4 used
__global__ void fields3(const float4 *in, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 v = in[i];
    out[i] = v.x + v.y + v.z;
}

// loaded, changed and stored back: one 16-byte load and one 16-byte store a lane
__global__ void scale4(const float4 *in, float4 *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = in[i];
    v.x *= 2.0f, v.y *= 2.0f, v.z *= 2.0f, v.w *= 2.0f;
    out[i] = v;
}

// a struct of two float4s: two 16-byte loads a lane (its copy is the struct's own constructor)
__global__ void particles(const Particle *p, float4 *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const Particle q = p[i];
    out[i] = make_float4(q.pos.x + q.vel.x, q.pos.y + q.vel.y, q.pos.z + q.vel.z, q.pos.w * q.vel.w);
}

// a float2 (one 8-byte load) and a uchar4 (one 4-byte load)
__global__ void small(const float2 *in2, const uchar4 *in4, float *out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float2 a = in2[i];
    const uchar4 b = in4[i];
    out[i] = a.x * a.y + (float)(b.x + b.y + b.z + b.w);
}

// a float4 read from shared memory, all four fields used: one LDS.128, 4 wavefronts a warp (with
// two of them used, x and w, nvcc makes two LDS.32 of 4 wavefronts each: docs/run.md)
__global__ void shared4(const float4 *in, float *out)
{
    __shared__ float4 s[256];
    const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    const float4 v = s[t ^ 1];
    out[i] = v.x - v.y + v.z - v.w;
}

int main()
{
    const int n = 1024, T = 256;
    static float4 h4[n], r4[n];
    static Particle hp[n];
    static float2 h2[n];
    static uchar4 hb[n];
    static float r[n];
    for (int i = 0; i < n; i++) {
        h4[i] = make_float4((float)i, 1.0f, 2.0f, 0.5f * (float)i);
        hp[i].pos = make_float4((float)i, 0.0f, 1.0f, 2.0f);
        hp[i].vel = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
        h2[i] = make_float2((float)i, 3.0f);
        hb[i] = make_uchar4((unsigned char)(i & 63), 1, 2, 3);
    }
    float4 *d4, *o4;
    Particle *dp;
    float2 *d2;
    uchar4 *db;
    float *o;
    cudaMalloc(&d4, sizeof h4), cudaMalloc(&o4, sizeof h4), cudaMalloc(&dp, sizeof hp);
    cudaMalloc(&d2, sizeof h2), cudaMalloc(&db, sizeof hb), cudaMalloc(&o, sizeof r);
    cudaMemcpy(d4, h4, sizeof h4, cudaMemcpyHostToDevice);
    cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
    cudaMemcpy(d2, h2, sizeof h2, cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice);
    int bad = 0;
    fields3<<<n / T, T>>>(d4, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += r[i] != (float)i + 3.0f;
    scale4<<<n / T, T>>>(d4, o4);
    cudaMemcpy(r4, o4, sizeof r4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += r4[i].x != 2.0f * (float)i || r4[i].y != 2.0f || r4[i].z != 4.0f || r4[i].w != (float)i;
    particles<<<n / T, T>>>(dp, o4);
    cudaMemcpy(r4, o4, sizeof r4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += r4[i].x != (float)i + 1.0f || r4[i].y != 2.0f || r4[i].z != 4.0f || r4[i].w != 8.0f;
    small<<<n / T, T>>>(d2, db, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += r[i] != 3.0f * (float)i + (float)((i & 63) + 6);
    shared4<<<n / T, T>>>(d4, o);
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        bad += r[i] != 0.5f * (float)(i ^ 1) + 1.0f;
    printf("vector_fields: %s (%d wrong)\n", bad ? "WRONG" : "correct", bad);
    return bad != 0;
}
