// tests/run/kernel_args.cu - how a kernel's arguments reach its threads, as on a GPU: a reference
// parameter is the caller's object (here in managed memory, NVIDIA's unified-memory samples do
// this), so every thread's atomicAdd through it lands there; a by-value parameter is each
// thread's own copy of the launch-time value (a thread's write to it is not seen by the others,
// nor by the host); a parameter whose destructor frees device memory (CUDA by Example's Lock) is
// not destroyed by every thread, only once after the launch, as nvcc's launch stub does; a
// template kernel, a function pointer and an argument needing a constructor still launch.
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
    float *x, hx[32];
    cudaMalloc(&x, sizeof hx);
    fill<<<1, 32>>>(x, 2.0f);
    void (*fp)(float *, Scale) = scaled;
    fp<<<1, 32>>>(x, 1.5f);
    cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        bad += hx[i] != 3.0f;
    printf("kernel_args: %s\n", bad ? "WRONG" : "correct");
    return bad != 0;
}
