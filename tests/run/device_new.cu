// tests/run/device_new.cu - new and delete in kernels, from the device heap as malloc is
// (cudaLimitMallocHeapSize): arrays of ints, objects with constructors and destructors (arrays
// of them: the destructors run, last first), a virtual destructor through a second base (the
// whole object is freed), a private destructor's `delete this`, an array of arrays, nullptr when
// the heap is full,
// placement new in shared memory (allocates nothing). Three rounds in a 1 MiB heap, then one
// block of almost all of it: what was not freed whole would not leave room, and freeing a wrong
// address is a report. Prints
// "device_new: correct" or the first mismatch (exit 1).
#include <cstdio>
#include <new> // placement new

__device__ int constructed, destroyed, order_ok;

struct Counted {
    int v;
    __device__ Counted() : v(-1) { atomicAdd(&constructed, 1); }
    __device__ explicit Counted(int x) : v(x) { atomicAdd(&constructed, 1); }
    __device__ ~Counted() { atomicAdd(&destroyed, 1); }
    __device__ Counted(const Counted &) = delete; // a deleted function stays one
};

struct Named {
    char tag[24];
    __device__ virtual ~Named() {}
};
struct Shape {
    __device__ virtual ~Shape() { atomicAdd(&destroyed, 1); }
    __device__ virtual int area() const = 0;
};
struct Square : Named, Shape { // Shape is not at the object's start
    int side;
    __device__ explicit Square(int s) : side(s) { atomicAdd(&constructed, 1); }
    __device__ ~Square() override { atomicAdd(&destroyed, 1); }
    __device__ int area() const override { return side * side; }
};

struct Ordered { // each destructor writes its index to the thread's log: 3 2 1 0, last first
    int k;
    int *log, *n;
    __device__ ~Ordered() { log[(*n)++] = k; }
};

__global__ void objects(int *out, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    int *a = new int[n];
    Counted *one = new Counted(t);
    Counted *three = new Counted[3];
    Shape *sq = new Square(t % 7);
    Ordered *ord = new Ordered[4];
    if (!a || !one || !three || !sq || !ord) {
        out[t] = -1;
        return;
    }
    int log[4], logged = 0;
    for (int i = 0; i < 4; i++)
        ord[i].k = i, ord[i].log = log, ord[i].n = &logged;
    for (int i = 0; i < n; i++)
        a[i] = t + i;
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[t] = s + one->v + three[0].v + three[2].v + sq->area();
    delete[] a;
    delete one;
    delete[] three;
    delete sq;
    delete[] ord;
    if (logged != 4 || log[0] != 3 || log[1] != 2 || log[2] != 1 || log[3] != 0)
        atomicExch(&order_ok, 0);
    delete (Counted *)nullptr; // does nothing
}

class RefCounted { // a private destructor: only its own `delete this` may end it
    int refs = 1;
    __device__ ~RefCounted() { atomicAdd(&destroyed, 1); }

public:
    __device__ RefCounted() { atomicAdd(&constructed, 1); }
    __device__ void release()
    {
        if (--refs == 0)
            delete this;
    }
};

__global__ void shapes(int *out) // `delete this`, and an array of arrays
{
    RefCounted *r = new RefCounted;
    r->release();
    Counted(*grid)[2] = new Counted[3][2];
    grid[2][1].v = 7;
    out[0] = grid[2][1].v + grid[0][0].v;
    delete[] grid;
}

__global__ void too_big(int *out)
{
    // far past any heap: nullptr (the H100 gave 2 MiB from a heap set to 1 MiB: its size is rounded
    // up; and a failing `new T` of a type with a constructor faults there, where the simulator gives
    // nullptr: a GPU's operator new is not noexcept)
    char *p = new char[(size_t)1 << 40];
    out[0] = p == nullptr;
    delete[] p;
}

__global__ void in_shared(int *out)
{
    __shared__ int raw[32]; // room for 32 Counted (nvcc refuses a __shared__ object with a constructor)
    Counted *c = new (&raw[threadIdx.x]) Counted((int)threadIdx.x); // placement: no allocation
    __syncthreads();
    out[threadIdx.x] = ((Counted *)raw)[31 - threadIdx.x].v;
    c->~Counted();
}

__global__ void whole_heap(int *out) // everything before was freed whole: one block fits again
{
    char *p = new char[(1 << 20) - 1024];
    out[0] = p != nullptr;
    delete[] p;
}

int main()
{
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) != cudaSuccess) {
        printf("device_new: the heap's size was refused\n");
        return 1;
    }
    const int blocks = 4, threads = 64, n = 100, total = blocks * threads;
    int *d, h[total];
    cudaMalloc(&d, sizeof h);
    int one = 1;
    cudaMemcpyToSymbol(order_ok, &one, sizeof one);
    for (int round = 0; round < 3; round++) {
        objects<<<blocks, threads>>>(d, n);
        if (cudaDeviceSynchronize() != cudaSuccess) {
            printf("device_new: round %d failed: %s\n", round, cudaGetErrorString(cudaGetLastError()));
            return 1;
        }
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        for (int t = 0; t < total; t++) {
            const int want = n * t + n * (n - 1) / 2 + t - 1 - 1 + (t % 7) * (t % 7);
            if (h[t] != want) {
                printf("device_new: round %d, thread %d: %d, want %d\n", round, t, h[t], want);
                return 1;
            }
        }
    }
    int c, x, ok;
    cudaMemcpyFromSymbol(&c, constructed, sizeof c);
    cudaMemcpyFromSymbol(&x, destroyed, sizeof x);
    cudaMemcpyFromSymbol(&ok, order_ok, sizeof ok);
    // a thread: Counted 1 + 3, Square 1 constructor; destructors: the 4 Counted, Square's and Shape's
    if (c != 3 * total * 5 || x != 3 * total * 6 || ok != 1) {
        printf("device_new: %d constructed, %d destroyed (want %d, %d); array order %s\n", c, x, 3 * total * 5,
               3 * total * 6, ok ? "right" : "wrong");
        return 1;
    }
    shapes<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&c, constructed, sizeof c);
    cudaMemcpyFromSymbol(&x, destroyed, sizeof x);
    if (h[0] != 6 || c != 3 * total * 5 + 7 || x != 3 * total * 6 + 7) {
        printf("device_new: delete this and Counted[3][2]: %d (want 6), %d constructed, %d destroyed (want 7 each)\n",
               h[0], c - 3 * total * 5, x - 3 * total * 6);
        return 1;
    }
    too_big<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpyFromSymbol(&c, constructed, sizeof c);
    if (h[0] != 1 || c != 3 * total * 5 + 7) {
        printf("device_new: past the heap: %s, %d constructors ran\n", h[0] ? "nullptr" : "not nullptr",
               c - 3 * total * 5 - 7);
        return 1;
    }
    in_shared<<<1, 32>>>(d);
    cudaMemcpy(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        if (h[i] != 31 - i) {
            printf("device_new: placement new in shared memory, lane %d: %d\n", i, h[i]);
            return 1;
        }
    whole_heap<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
    if (h[0] != 1) {
        printf("device_new: after every delete, 1023 KiB of the 1 MiB heap was not free\n");
        return 1;
    }
    cudaFree(d);
    printf("device_new: correct\n");
    return 0;
}
