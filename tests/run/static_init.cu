// tests/run/static_init.cu - a .cu file's static initialisers run once: simtlab run compiles the
// file twice (the device pass, with the kernels' hooks, and the host pass), and only the host
// pass's initialisers may run. Before, the device pass's ran too: a global object was constructed
// twice (gflags' DEFINE_* aborted: "something wrong with flag ... linked both statically and
// dynamically") and a file-local static had a second copy. A constructor that counts itself, one
// that keeps its address, and a kernel that uses a __device__ variable the host sets.
#include <cstdio>
#include <vector>

int constructed = 0;
static int local_count = 0;
static const void *first_this = nullptr;
std::vector<int> table(3, 7); // a library type's constructor too

struct Counter {
    int id;
    Counter() : id(++constructed)
    {
        ++local_count;
        if (!first_this)
            first_this = this;
    }
};
Counter counter;

__device__ int scale;

__global__ void k(int *out) { out[threadIdx.x] = scale * (int)threadIdx.x; }

int main()
{
    int h = 3, *d, r[4];
    cudaMemcpyToSymbol(scale, &h, sizeof h);
    cudaMalloc(&d, sizeof r);
    k<<<1, 4>>>(d);
    cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost);
    const bool once = constructed == 1 && local_count == 1 && counter.id == 1 && first_this == &counter;
    printf("static_init: constructed %d, local %d, table %zu x %d, kernel %d %d %d %d: %s\n", constructed,
           local_count, table.size(), table[0], r[0], r[1], r[2], r[3],
           once && table.size() == 3 && r[3] == 9 ? "once" : "WRONG");
    return 0;
}
