// tests/run/graph_capture.cu - CUDA graphs made by stream capture: a capture over two streams
// (a fork and a join through events) of a memset, three kernels, a copy and a host function;
// nothing runs while capturing; the graph has the six nodes; launched three times it computes
// the same each time, with the arguments' values at capture; the capture's errors are CUDA's
// (the default stream, a synchronize that invalidates the capture, ending on a joined stream,
// ending with no capture, work on the legacy stream during a capture). Builds with nvcc as it is.
// `graph_capture alloc`: the simulator's refusal of cudaMallocAsync in a capture (a GPU records it). Prints "graph_capture: correct" or the
// first mismatch (exit 1).
#include <cstdio>
#include <cstring>

#define CHECK(call, want)                                                                                          \
    do {                                                                                                           \
        cudaError_t e_ = (call);                                                                                   \
        if (e_ != (want)) {                                                                                        \
            printf("graph_capture: line %d: %s gave %s, want %s\n", __LINE__, #call, cudaGetErrorName(e_),         \
                   cudaGetErrorName(want));                                                                        \
            return 1;                                                                                              \
        }                                                                                                          \
    } while (0)

__global__ void add(int *x, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += v;
}
__global__ void scale(int *y, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = i * v;
}
__global__ void combine(int *out, const int *x, const int *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i];
}
static int host_calls;
static void count_call(void *p) { ++*(int *)p; }

int main(int argc, char **argv)
{
    const int n = 1000;
    int *x, *y, *y2, *out, h[n];
    cudaMalloc(&x, n * sizeof(int));
    cudaMalloc(&y, n * sizeof(int));
    cudaMalloc(&y2, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(out, 0xff, n * sizeof(int)); // -1: nothing written yet
    cudaStream_t s1, s2;
    cudaEvent_t fork, join;
    cudaStreamCreate(&s1);
    cudaStreamCreate(&s2);
    cudaEventCreate(&fork);
    cudaEventCreate(&join);

    cudaStreamCaptureStatus st;
    int v = 3;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK(cudaStreamIsCapturing(s1, &st), cudaSuccess);
    if (st != cudaStreamCaptureStatusActive) {
        printf("graph_capture: s1 is not capturing (%d)\n", (int)st);
        return 1;
    }
    CHECK(cudaMemsetAsync(x, 0, n * sizeof(int), s1), cudaSuccess);
    add<<<(n + 255) / 256, 256, 0, s1>>>(x, v, n);
    CHECK(cudaEventRecord(fork, s1), cudaSuccess);
    CHECK(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess); // s2 joins the capture
    scale<<<(n + 127) / 128, 128, 0, s2>>>(y, v + 1, n);
    CHECK(cudaMemcpyAsync(y2, y, n * sizeof(int), cudaMemcpyDeviceToDevice, s2), cudaSuccess);
    CHECK(cudaEventRecord(join, s2), cudaSuccess);
    CHECK(cudaStreamWaitEvent(s1, join, 0), cudaSuccess);
    combine<<<(n + 255) / 256, 256, 0, s1>>>(out, x, y2, n);
    CHECK(cudaLaunchHostFunc(s1, count_call, &host_calls), cudaSuccess);
    v = 100; // the graph keeps the values the launches were given
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s1, &graph), cudaSuccess);
    CHECK(cudaStreamIsCapturing(s1, &st), cudaSuccess);
    if (st != cudaStreamCaptureStatusNone) {
        printf("graph_capture: s1 still capturing after the end (%d)\n", (int)st);
        return 1;
    }
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    if (h[0] != -1 || h[n - 1] != -1 || host_calls != 0) {
        printf("graph_capture: work ran while captured: out[0] %d, %d host calls\n", h[0], host_calls);
        return 1;
    }
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nodes), cudaSuccess);
    if (nodes != 6) {
        printf("graph_capture: %zu nodes, want 6 (memset, 3 kernels, copy, host function)\n", nodes);
        return 1;
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0), cudaSuccess); // CUDA 11's form
    for (int round = 1; round <= 3; round++) {
        cudaMemset(out, 0xff, n * sizeof(int));
        CHECK(cudaGraphLaunch(exec, s1), cudaSuccess);
        CHECK(cudaStreamSynchronize(s1), cudaSuccess);
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n; i++)
            if (h[i] != 3 + 4 * i) {
                printf("graph_capture: launch %d, out[%d] = %d, want %d\n", round, i, h[i], 3 + 4 * i);
                return 1;
            }
        if (host_calls != round) {
            printf("graph_capture: launch %d, %d host calls\n", round, host_calls);
            return 1;
        }
    }
    CHECK(cudaGraphExecDestroy(exec), cudaSuccess);
    CHECK(cudaGraphDestroy(graph), cudaSuccess);

    // the capture's errors
    CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
    (void)cudaGetLastError();
    CHECK(cudaStreamEndCapture(s1, &graph), cudaErrorIllegalState);
    (void)cudaGetLastError();
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK(cudaStreamIsCapturing(s2, &st), cudaSuccess); // s2 joined the first capture only
    if (st != cudaStreamCaptureStatusNone) {
        printf("graph_capture: s2 is in the new capture of s1 (%d)\n", (int)st);
        return 1;
    }
    add<<<1, 32, 0, s1>>>(x, 1, 32);
    CHECK(cudaStreamSynchronize(s1), cudaErrorStreamCaptureUnsupported);
    (void)cudaGetLastError();
    CHECK(cudaStreamIsCapturing(s1, &st), cudaSuccess);
    if (st != cudaStreamCaptureStatusInvalidated) {
        printf("graph_capture: the synchronize did not invalidate the capture (%d)\n", (int)st);
        return 1;
    }
    CHECK(cudaStreamEndCapture(s1, &graph), cudaErrorStreamCaptureInvalidated);
    (void)cudaGetLastError();
    if (graph != NULL) {
        printf("graph_capture: an invalidated capture gave a graph\n");
        return 1;
    }
    // ending on a stream that only joined: an error, and the capture invalidated (as on the H100)
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    CHECK(cudaEventRecord(fork, s1), cudaSuccess);
    CHECK(cudaStreamWaitEvent(s2, fork, 0), cudaSuccess);
    CHECK(cudaStreamEndCapture(s2, &graph), cudaErrorStreamCaptureUnmatched);
    (void)cudaGetLastError();
    CHECK(cudaStreamEndCapture(s1, &graph), cudaErrorStreamCaptureInvalidated);
    (void)cudaGetLastError();
    // work on the legacy stream while a blocking stream captures: an implicit synchronization
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
    add<<<1, 32>>>(x, 1, 32);
    CHECK(cudaGetLastError(), cudaErrorStreamCaptureImplicit);
    CHECK(cudaStreamEndCapture(s1, &graph), cudaErrorStreamCaptureInvalidated);
    (void)cudaGetLastError();
    if (argc > 1 && !strcmp(argv[1], "alloc")) { // the simulator's refusal (a GPU records an allocation node)
        CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal), cudaSuccess);
        int *t;
        CHECK(cudaMallocAsync(&t, 64, s1), cudaErrorStreamCaptureUnsupported);
        (void)cudaGetLastError();
        CHECK(cudaStreamEndCapture(s1, &graph), cudaErrorStreamCaptureInvalidated);
        (void)cudaGetLastError();
    }
    CHECK(cudaDeviceSynchronize(), cudaSuccess);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaFree(x);
    cudaFree(y);
    cudaFree(y2);
    cudaFree(out);
    printf("graph_capture: correct\n");
    return 0;
}
