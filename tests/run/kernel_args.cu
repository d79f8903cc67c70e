// tests/run/kernel_args.cu - how a kernel's arguments reach its threads, as on a GPU: a reference
// parameter is the caller's object (here in managed memory, NVIDIA's unified-memory samples do
// this), so every thread's atomicAdd through it lands there; a by-value parameter is each
// thread's own copy of the launch-time value (a thread's write to it is not seen by the others,
// nor by the host); a parameter whose destructor frees device memory (CUDA by Example's Lock) is
// not destroyed by every thread, only once after the launch, as nvcc's launch stub does; a
// template kernel, a function pointer and an argument needing a constructor still launch, and a
// template kernel deducing its parameters from the arguments (a functor, a struct, a scalar:
// sizeof(T) as the argument's; a __device__ lambda: kernel_lambda.cu) gets them as nvcc gives them, and an exact
// non-template overload wins over a template one.
#include <cstdio>
#include <new>

struct Counter {
    int hits;
    int scale;
};
struct Tally {
    int v[4];
};

__global__ void count_ref(Counter &c, int *seen) // every thread adds to the caller's c
{
    atomicAdd(&c.hits, 1);
    seen[threadIdx.x] = c.scale;
}

__global__ void own_copy(Tally t, int *out) // t is this thread's: the write stays here
{
    t.v[0] += (int)threadIdx.x;
    out[threadIdx.x] = t.v[0];
}

struct Scale {
    float f;
    Scale(float x) : f(x) {} // an argument converted by a constructor
};
__global__ void scaled(float *x, Scale s) { x[threadIdx.x] *= s.f; }

struct Owner { // owns a device counter, frees it when destroyed
    int *count;
    Owner() { cudaMalloc(&count, sizeof(int)), cudaMemset(count, 0, sizeof(int)); }
    ~Owner() { cudaFree(count); }
};
__global__ void count_all(Owner o, int *last) // the last thread to add sees every other's add
{
    if (atomicAdd(o.count, 1) == (int)(gridDim.x * blockDim.x) - 1)
        *last = 1;
}

struct Deep { // deep-copies its buffer (each copy owns one), as a C++ class with a device buffer would
    float *d;
    Deep() { cudaMalloc(&d, 16 * sizeof(float)), cudaMemset(d, 0, 16 * sizeof(float)); }
    Deep(const Deep &o) { cudaMalloc(&d, 16 * sizeof(float)), cudaMemcpy(d, o.d, 16 * sizeof(float), cudaMemcpyDeviceToDevice); }
    ~Deep() { cudaFree(d); }
};
__global__ void read_deep(Deep b, float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = b.d[threadIdx.x % 16] + 1.0f; }

struct Square {
    __device__ float operator()(float v) const { return v * v; }
};
template <class F> __global__ void apply(F f, float *x) { x[threadIdx.x] = f(x[threadIdx.x]); }
template <class T> __global__ void size_of(T v, int *o) { o[threadIdx.x] = (int)sizeof(v) + (int)(v.a - v.a); }
struct Pair {
    int a, b;
};
__global__ void pick(int *o) { o[threadIdx.x] = 1; }                  // the exact match nvcc calls
template <class T> __global__ void pick(T o) { o[threadIdx.x] = 2; } // a generic overload
template <class T> __global__ void bump(T &v) { atomicAdd(&v.hits, 1); } // a deduced reference
struct Hits : Counter {};
__global__ void bump_base(Counter &v, Scale s) { atomicAdd(&v.hits, (int)s.f); } // a base's reference, a conversion
__global__ void is_null(const int *p, int *o) { o[threadIdx.x] = p == nullptr; }

template <class T> __global__ void fill(T *x, T v) { x[threadIdx.x] = v; } // T deduced at the launch

int main()
{
    void *mem;
    cudaMallocManaged(&mem, sizeof(Counter));
    Counter *c = new (mem) Counter{0, 7};
    int *seen, *out, h[64];
    cudaMalloc(&seen, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    count_ref<<<2, 64>>>(*c, seen);
    cudaDeviceSynchronize();
    cudaMemcpy(h, seen, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    if (c->hits != 128) {
        printf("kernel_args: the reference parameter's object has %d hits, expected 128\n", c->hits);
        bad++;
    }
    for (int i = 0; i < 64; i++)
        bad += h[i] != 7;
    Tally t = {{100, 0, 0, 0}};
    own_copy<<<1, 64>>>(t, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64; i++)
        if (h[i] != 100 + i) {
            printf("kernel_args: thread %d saw %d in its own copy, expected %d\n", i, h[i], 100 + i);
            bad++;
            break;
        }
    bad += t.v[0] != 100;
    {
        Owner o;
        int *last, hl = 0;
        cudaMalloc(&last, sizeof(int));
        cudaMemset(last, 0, sizeof(int));
        count_all<<<2, 64>>>(o, last);
        if (cudaDeviceSynchronize() != cudaSuccess)
            bad++;
        cudaMemcpy(&hl, last, sizeof hl, cudaMemcpyDeviceToHost);
        if (hl != 1) {
            printf("kernel_args: the last thread did not see 127 adds before its own\n");
            bad++;
        }
        o.count = nullptr; // the launch's copy freed it (as on a GPU): not twice
    }
    {
        // each thread's copy allocates and frees its own buffer here (a GPU copies bitwise and
        // runs neither): from both workers at once, and none of it left behind
        float *dd, hd[256];
        cudaMalloc(&dd, sizeof hd);
        size_t free0, free1, total;
        Deep b;
        cudaMemGetInfo(&free0, &total);
        read_deep<<<4, 64>>>(b, dd);
        if (cudaDeviceSynchronize() != cudaSuccess)
            bad++;
        cudaMemGetInfo(&free1, &total);
        cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 256; i++)
            bad += hd[i] != 1.0f;
        if (free1 != free0) {
            printf("kernel_args: %zu bytes of the threads' copies left allocated\n", free0 - free1);
            bad++;
        }
    }
    float *x, hx[32];
    cudaMalloc(&x, sizeof hx);
    fill<<<1, 32>>>(x, 2.0f);
    void (*fp)(float *, Scale) = scaled;
    fp<<<1, 32>>>(x, 1.5f);
    cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += hx[i] != 3.0f;
    apply<<<1, 32>>>(Square(), x); // 3 * 3
    cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += hx[i] != 9.0f;
    size_of<<<1, 32>>>(Pair{1, 2}, out);
    pick<<<1, 32>>>(seen);
    int hs, hp;
    cudaMemcpy(&hs, out, sizeof hs, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hp, seen, sizeof hp, cudaMemcpyDeviceToHost);
    if (hs != (int)sizeof(Pair) || hp != 1) {
        printf("kernel_args: sizeof(T) %d (expected %d), overload %d (expected the non-template, 1)\n", hs,
               (int)sizeof(Pair), hp);
        bad++;
    }
    c->hits = 0;
    bump<<<1, 32>>>(*c); // the caller's object, as a template deduces T & from it
    void *mh;
    cudaMallocManaged(&mh, sizeof(Hits));
    Hits *h2 = new (mh) Hits();
    h2->hits = 0;
    bump_base<<<1, 32>>>(*h2, 2.0f); // a Counter & bound to a Hits; Scale made from 2.0f
    is_null<<<1, 32>>>(NULL, seen);
    int hn = 0;
    cudaMemcpy(&hn, seen, sizeof hn, cudaMemcpyDeviceToHost);
    if (cudaDeviceSynchronize() != cudaSuccess || c->hits != 32 || h2->hits != 64 || hn != 1) {
        printf("kernel_args: template reference %d (expected 32), base reference %d (expected 64), NULL %d\n", c->hits,
               h2->hits, hn);
        bad++;
    }
    printf("kernel_args: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
