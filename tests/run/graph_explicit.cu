// tests/run/graph_explicit.cu - a CUDA graph built node by node (the explicit API, as NVIDIA's
// simpleCudaGraphs builds one), under `simtlab run` (tests/scripts/run_case.cmake, case
// graph_explicit); builds with nvcc too, and checks itself on a GPU.
//   ./graph_explicit           the graph: x copied in (cudaGraphAddMemcpyNode1D), y set to 1.0f
//                              (a memset node of 4-byte elements), y = 2 x + y (a kernel node, its
//                              func assigned as `(void *)saxpy`), y *= 3 (a template kernel node
//                              assigned typed), a host node counting, y copied out (a 3D-parameter
//                              memcpy node added FIRST, ordered by cudaGraphAddDependencies), an
//                              empty node; launched 3 times with new x each time, then with new
//                              saxpy parameters (cudaGraphExecKernelNodeSetParams), then a clone
//                              made after new scale parameters (cudaGraphKernelNodeSetParams);
//                              node types and root nodes checked
//   ./graph_explicit untyped   a void * variable as func: the node is refused
//   ./graph_explicit cycle     A -> B and B -> A: cudaGraphInstantiate refuses the graph
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define N 1024

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

template <class T>
__global__ void scale(T *y, T s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] *= s;
}

static int host_calls;
static void CUDART_CB count(void *p) { ++*(int *)p; }

#define CHECK(call)                                                                                    \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            printf("graph_explicit: %s at line %d: %s\n", #call, __LINE__, cudaGetErrorName(e_));      \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

static cudaError_t add_edge(cudaGraph_t g, cudaGraphNode_t from, cudaGraphNode_t to)
{
#if CUDART_VERSION >= 13000 // CUDA 13 takes edge data
    return cudaGraphAddDependencies(g, &from, &to, nullptr, 1);
#else
    return cudaGraphAddDependencies(g, &from, &to, 1);
#endif
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    static float hx[N], hy[N];
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, N * sizeof(float)));
    CHECK(cudaMalloc(&dy, N * sizeof(float)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    int n = N;
    float a = 2.0f, three = 3.0f;

    if (!strcmp(mode, "untyped")) {
        void *f = (void *)saxpy;
        void *args[] = {&a, &dx, &dy, &n};
        cudaKernelNodeParams kp = {0};
        kp.func = f;
        kp.gridDim = dim3(N / 256);
        kp.blockDim = dim3(256);
        kp.kernelParams = args;
        cudaGraphNode_t k;
        cudaError_t e = cudaGraphAddKernelNode(&k, g, nullptr, 0, &kp); // MARK:untyped
        printf("graph_explicit untyped: %s\n", cudaGetErrorName(e));
        return e == cudaSuccess ? 0 : 2;
    }
    if (!strcmp(mode, "cycle")) {
        cudaGraphNode_t p, q;
        CHECK(cudaGraphAddEmptyNode(&p, g, nullptr, 0));
        CHECK(cudaGraphAddEmptyNode(&q, g, &p, 1));
        CHECK(add_edge(g, q, p));
        cudaGraphExec_t x;
        cudaError_t e = cudaGraphInstantiate(&x, g, 0);
        printf("graph_explicit cycle: %s\n", cudaGetErrorName(e));
        return e == cudaSuccess ? 0 : 2;
    }

    // the copy out first, with no dependency yet: the edge added last puts it after the host node
    cudaMemcpy3DParms out = {0};
    out.srcPtr = make_cudaPitchedPtr(dy, N * sizeof(float), N, 1);
    out.dstPtr = make_cudaPitchedPtr(hy, N * sizeof(float), N, 1);
    out.extent = make_cudaExtent(N * sizeof(float), 1, 1);
    out.kind = cudaMemcpyDeviceToHost;
    cudaGraphNode_t copy_out, copy_in, set, k1, k2, host, empty;
    CHECK(cudaGraphAddMemcpyNode(&copy_out, g, nullptr, 0, &out));
    CHECK(cudaGraphAddMemcpyNode1D(&copy_in, g, nullptr, 0, dx, hx, N * sizeof(float), cudaMemcpyHostToDevice));
    cudaMemsetParams ms = {0};
    ms.dst = dy;
    ms.value = 0x3f800000u; // 1.0f
    ms.elementSize = 4;
    ms.width = N;
    ms.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g, nullptr, 0, &ms));

    void *args1[] = {&a, &dx, &dy, &n};
    cudaKernelNodeParams kp = {0};
    kp.func = (void *)saxpy; // as simpleCudaGraphs writes it
    kp.gridDim = dim3(N / 256);
    kp.blockDim = dim3(256);
    kp.sharedMemBytes = 0;
    kp.kernelParams = args1;
    kp.extra = NULL;
    cudaGraphNode_t before_k1[] = {copy_in, set};
    CHECK(cudaGraphAddKernelNode(&k1, g, before_k1, 2, &kp));
    a = 5.0f; // after the node was added: it has its copy of 2.0f

    void *args2[] = {&dy, &three, &n};
    cudaKernelNodeParams kp2 = {0};
    kp2.func = (void *)scale<float>;
    kp2.gridDim = dim3(N / 128);
    kp2.blockDim = dim3(128);
    kp2.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp2));

    cudaHostNodeParams hp = {0};
    hp.fn = count;
    hp.userData = &host_calls;
    CHECK(cudaGraphAddHostNode(&host, g, &k2, 1, &hp));
    CHECK(add_edge(g, host, copy_out));
    CHECK(cudaGraphAddEmptyNode(&empty, g, &copy_out, 1));

    size_t nn = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nn));
    CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
    cudaGraphNodeType t1, t2, t3, t4;
    CHECK(cudaGraphNodeGetType(k1, &t1));
    CHECK(cudaGraphNodeGetType(copy_out, &t2));
    CHECK(cudaGraphNodeGetType(set, &t3));
    CHECK(cudaGraphNodeGetType(empty, &t4));
    int bad = nn != 7 || roots != 2 || t1 != cudaGraphNodeTypeKernel || t2 != cudaGraphNodeTypeMemcpy ||
              t3 != cudaGraphNodeTypeMemset || t4 != cudaGraphNodeTypeEmpty;
    if (bad)
        printf("graph_explicit: %zu nodes, %zu roots, types %d %d %d %d\n", nn, roots, (int)t1, (int)t2, (int)t3,
               (int)t4);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++)
            hx[i] = (float)(i % 97) - 40.0f + r;
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < N; i++)
            bad |= hy[i] != 3.0f * (2.0f * hx[i] + 1.0f);
    }
    // new parameters: the exec's saxpy with a = 4 (the graph keeps 2), the graph's scale by 5 (the
    // exec keeps 3): a clone made after it scales by 5, with a = 2
    a = 4.0f;
    CHECK(cudaGraphExecKernelNodeSetParams(x, k1, &kp));
    for (int i = 0; i < N; i++)
        hx[i] = 0.25f * i;
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
        bad |= hy[i] != 3.0f * (4.0f * hx[i] + 1.0f);
    a = 2.0f;
    float five = 5.0f;
    void *args3[] = {&dy, &five, &n};
    kp2.kernelParams = args3;
    CHECK(cudaGraphKernelNodeSetParams(k2, &kp2));
    cudaGraph_t c;
    cudaGraphExec_t cx;
    CHECK(cudaGraphClone(&c, g));
    CHECK(cudaGraphInstantiate(&cx, c, 0));
    for (int i = 0; i < N; i++)
        hx[i] = 0.5f * i;
    memset(hy, 0, sizeof hy);
    CHECK(cudaGraphLaunch(cx, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
        bad |= hy[i] != 5.0f * (2.0f * hx[i] + 1.0f);
    bad |= host_calls != 5;
    CHECK(cudaGraphExecDestroy(cx));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(c));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    if (bad) {
        printf("graph_explicit: wrong (host node ran %d times)\n", host_calls);
        return 1;
    }
    printf("graph_explicit: correct\n");
    return 0;
}
