/* tests/test_rewrite.c - the source rewrite of `simtlab run` (sim/run/rewrite.c):
 * every <<<>>> form a course writes, extern __shared__ at both scopes,
 * what must be left alone (strings, comments), line numbers kept, and the
 * unsupported features named with their line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "rewrite.h"

static rewrite_result rw(const char *src)
{
    rewrite_result r;
    int rc = cu_rewrite(src, strlen(src), "t.cu", &r);
    cr_assert_eq(rc, 0, "rewrite failed: %s", r.err);
    return r;
}

static int lines_of(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* the rewritten text has the #line directive and then exactly the source's lines */
static void same_lines(const char *src, const rewrite_result *r)
{
    cr_assert_eq(lines_of(r->text), lines_of(src) + 1, "line count changed:\n%s", r->text);
    cr_assert(!strncmp(r->text, "#line 1 \"t.cu\"\n", 15));
}

Test(rewrite, two_to_four_arguments)
{
    const char *src = "void f() {\n  k<<<g, b>>>(x, n);\n  k<<<g, b, s>>>(x);\n  k<<<dim3(1, 2), 256, 0, st>>>();\n}\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 3);
    cr_assert(strstr(r.text, "::simtlab::make_launch(\"k\", __FILE__, __LINE__, SIMTLAB_KCALL_(k), g, b)(x, n);"),
              "%s", r.text);
    cr_assert(strstr(r.text, "SIMTLAB_KCALL_(k), g, b, s)(x);"), "%s", r.text);
    cr_assert(strstr(r.text, "SIMTLAB_KCALL_(k), dim3(1, 2), 256, 0, st)();"), "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, templates_and_namespaces)
{
    const char *src = "void f() {\n  ns::k<float, 4><<<g, b>>>(x);\n  reduce<BLOCK> <<<n / 512, BLOCK>>>(x);\n  ::top<<<1, 1>>>();\n}\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 3);
    cr_assert(strstr(r.text, "make_launch(\"ns::k<float, 4>\", __FILE__, __LINE__, SIMTLAB_KCALL_(ns::k<float, 4>), g, b)(x)"),
              "%s", r.text);
    cr_assert(strstr(r.text, "make_launch(\"reduce<BLOCK>\""), "%s", r.text);
    cr_assert(strstr(r.text, "make_launch(\"::top\""), "%s", r.text);
    free(r.text);
}

/* a kernel's template arguments over several lines: its name in reports on one line, with one
 * space where the source had a line break and indentation */
Test(rewrite, template_arguments_over_lines)
{
    const char *src = "void f() {\n  kk<1,\n     2><<<1, 32>>>(d);\n}\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 1);
    cr_assert(strstr(r.text, "make_launch(\"kk<1, 2>\", __FILE__, __LINE__, SIMTLAB_KCALL_(kk<1, 2>)"),
              "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, configuration_over_lines)
{
    const char *src = "void f() {\n  k<<<grid,\n      block>>>(x);\n  after();\n}\n";
    rewrite_result r = rw(src);
    same_lines(src, &r);
    cr_assert(strstr(r.text, "grid,\n      block)(x);\n  after();"), "%s", r.text);
    free(r.text);
}

Test(rewrite, strings_and_comments_untouched)
{
    const char *src = "const char *s = \"k<<<1,1>>>()\"; // k<<<2,2>>>()\n/* k<<<3,3>>>() */ char c = '<';\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 0);
    cr_assert(strstr(r.text, src), "%s", r.text);
    free(r.text);
}

Test(rewrite, extern_shared_in_a_function)
{
    const char *src = "__global__ void k() {\n  extern __shared__ __align__(16) float buf[];\n  buf[0] = 1;\n}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "float (&buf)[] = *reinterpret_cast<float (*)[]>(sim_dynamic_shared());"), "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, extern_shared_at_file_scope)
{
    const char *src = "extern __shared__ int smem[];\n__global__ void k() { smem[1] = 2; }\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "static inline int (*simtlab_dynamic_shared_smem())[] { return reinterpret_cast<int (*)[]>"), "%s", r.text);
    cr_assert(strstr(r.text, "\n#define smem (*simtlab_dynamic_shared_smem())\n#line 2 \"t.cu\"\n__global__ void k SIMTLAB_DEV_FN ()"), "%s",
              r.text);
    free(r.text);
}

Test(rewrite, unsupported_features_named_with_their_line)
{
    const char *src = "#include <cuda_runtime.h>\nstatic cublasLtMatmulDesc_t desc;\n__global__ void child() {}\n"
                      "__global__ void parent() {\n  child<<<1, 1>>>();\n}\n"
                      "__device__ float t(float x) { return tex1Dfetch(texref, 0); }\n"
                      "void share(void *p) { cudaIpcMemHandle_t h; cudaIpcGetMemHandle(&h, p); }\n";
    rewrite_result r;
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:8: not supported by the simulator: CUDA IPC (cudaIpc*: memory shared between "
                            "processes) (cudaIpcMemHandle_t)"),
              "%s", r.err);
    cr_assert_null(r.text);
    cr_assert(strstr(r.err, "t.cu:2: not supported by the simulator: cuBLASLt's matrix multiplies (cublasLtMatmul; simtlab has "
                            "cuBLASLt's handles and cuBLAS's GEMM) (cublasLtMatmulDesc_t)"), "%s", r.err);
    cr_assert(strstr(r.err, "t.cu:5: not supported by the simulator: dynamic parallelism"), "%s", r.err);
    cr_assert(strstr(r.err, "t.cu:7: not supported by the simulator: textures and surfaces (tex1Dfetch)"), "%s", r.err);
    /* the driver API (survey 9: NVIDIA's cuda-vmm gave g++'s errors); a name that merely begins
     * like one of its types or functions is the program's own */
    const char *drv = "#include <cuda.h>\nint cuInitialized, CUresults;\n"
                      "void map(size_t n) {\n  CUdeviceptr p;\n  cuMemAddressReserve(&p, n, 0, 0, 0);\n}\n";
    cr_assert_eq(cu_rewrite(drv, strlen(drv), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:4: not supported by the simulator: the CUDA driver API (cuInit, cuMemCreate, "
                            "cuModuleLoad, cuLaunchKernel, ...) (CUdeviceptr)"),
              "%s", r.err);
    cr_assert(!strstr(r.err, "t.cu:2:"), "%s", r.err);
    /* graphs: stream capture and the explicit API's nodes are supported, a node's parameter setter
     * named */
    const char *graphs = "void g(cudaStream_t s) {\n  cudaGraph_t gr; cudaGraphExec_t x;\n"
                         "  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n  cudaStreamEndCapture(s, &gr);\n"
                         "  cudaGraphInstantiate(&x, gr, 0);\n  cudaGraphLaunch(x, s);\n"
                         "  cudaGraphNode_t nd; cudaGraphAddEmptyNode(&nd, gr, NULL, 0);\n"
                         "  cudaGraphExecMemsetNodeSetParams(x, nd, NULL);\n}\n";
    cr_assert_eq(cu_rewrite(graphs, strlen(graphs), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:8: not supported by the simulator: parts of the CUDA graph API (node parameters' "
                            "getters, setters but a kernel node's, child graph, event and memory nodes, "
                            "cudaGraphExecUpdate; graphs made by stream capture, and cudaGraphCreate with "
                            "cudaGraphAdd{Kernel,Memcpy,Memcpy1D,Memset,Host,Empty}Node, cudaGraphAddDependencies and "
                            "cudaGraph[Exec]KernelNodeSetParams, are supported) (cudaGraphExecMemsetNodeSetParams)"),
              "%s", r.err);
    cr_assert(!strstr(r.err, "t.cu:2:") && !strstr(r.err, "t.cu:3:") && !strstr(r.err, "t.cu:5:") &&
                  !strstr(r.err, "t.cu:7:"),
              "%s", r.err);
    /* a function of the program's own whose name begins like the graph API's (simpleCudaGraphs'
     * cudaGraphsManual): defined and called, not refused */
    const char *own = "cudaError_t cudaGraphsManual(int n) {\n  return cudaSuccess;\n}\n"
                      "int main() {\n  cudaGraphsManual(4);\n  return (int)cudaGraphsManual (2);\n}\n";
    cr_assert_eq(cu_rewrite(own, strlen(own), "t.cu", &r), 0, "%s", r.err);
    free(r.text);
    /* a mention in a comment, and a call after `&&`, are no definition: the refusal stays */
    const char *call = "// we call cudaGraphExecUpdate() to refresh it\nbool f(bool ok, cudaGraphExec_t x, cudaGraph_t g) {\n"
                       "  return ok && cudaGraphExecUpdate(x, g, 0);\n}\nbool h(bool ok) { bool r = ok && cudaGraphExecUpdate(0, 0, 0); return r; }\n";
    cr_assert_eq(cu_rewrite(call, strlen(call), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:3: not supported by the simulator: parts of the CUDA graph API"), "%s", r.err);
}

/* cuRAND: XORWOW, Philox and MRG32k3a, device and host API, pass (sim/run/include/curand_kernel.h,
 * curand.h); the MTGP32, MT19937 and Sobol generators and the discrete distributions are named */
Test(rewrite, curand_supported_generators_pass_the_others_named)
{
    const char *ok = "#include <curand.h>\n#include <curand_kernel.h>\n"
                     "__global__ void k(curandState *s, curandStatePhilox4_32_10_t *p, curandStateMRG32k3a_t *m, float *o) {\n"
                     "  curand_init(1234, threadIdx.x, 0, &s[threadIdx.x]);\n  o[threadIdx.x] = curand_uniform(&s[threadIdx.x]);\n}\n"
                     "void h(float *d) { curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);\n"
                     "  curandGenerateUniform(g, d, 16); curandDestroyGenerator(g); }\n";
    rewrite_result r = rw(ok);
    same_lines(ok, &r);
    free(r.text);
    const char *src = "#include <curand_kernel.h>\n#include <curand_mtgp32_host.h>\n"
                      "__global__ void k(curandStateMtgp32_t *s) {}\n"
                      "void h() { curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_QUASI_SOBOL32); }\n";
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:2: not supported by the simulator: cuRAND's MTGP32, MT19937 and Sobol generators and "
                            "discrete distributions (XORWOW, Philox4_32_10 and MRG32k3a are supported) (#include "
                            "<curand_mtgp32_host.h>)"),
              "%s", r.err);
    cr_assert_null(r.text);
}

/* Launches inside macros: the kernel's name continued to the next line before <<< (`k<(N)> \
 * <<<...>>>`), and a name the macro pastes (`fill_##tag##_kernel<<<...>>>`, LeetCUDA): the macro
 * stays one macro, its lines as many, the pasted name's string made after the pasting */
Test(rewrite, launches_in_macros)
{
    const char *src = "#define LAUNCH(N) \\\n    k<(N)> \\\n        <<<1, 4>>>(d);\n"
                      "#define DEFINE_FILL(tag, T) \\\n    void fill_##tag(T *d) { fill_##tag##_kernel<<<1, 4>>>(d); }\n";
    rewrite_result r = rw(src);
    /* the name made after the macro's substitution: LAUNCH(8) is "k<(8)>" (survey 17) */
    cr_assert(strstr(r.text, "::simtlab::make_launch(SIMTLAB_STR_(k<(N)>), __FILE__, __LINE__, SIMTLAB_KCALL_(k<(N)>), 1, 4) \\\n(d);"),
              "a continued name:\n%s", r.text);
    cr_assert(strstr(r.text, "make_launch(SIMTLAB_STR_(fill_##tag##_kernel), __FILE__, __LINE__, "
                             "SIMTLAB_KCALL_(fill_##tag##_kernel), 1, 4)(d);"),
              "a pasted name:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, cooperative_groups_in_a_block_pass_grid_wide_named)
{
    const char *ok = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
                     "#include <cooperative_groups/scan.h>\nnamespace cg = cooperative_groups;\n"
                     "__device__ int f(cg::thread_group g) { return g.thread_rank(); }\n"
                     "__global__ void k(int *x) {\n  cg::thread_group t = cg::tiled_partition(cg::this_thread_block(), 8);\n"
                     "  cg::coalesced_group c = cg::coalesced_threads();\n  __shared__ cg::block_tile_memory<256> m;\n"
                     "  x[0] = cg::reduce(c, f(t), cg::plus<int>());\n}\n";
    rewrite_result r = rw(ok);
    free(r.text);
    const char *grid = "#include <cooperative_groups.h>\n__device__ void r(int *p) { cooperative_groups::reduce_update_async(p); }\n"
                       "__global__ void k() {\n  auto g = cooperative_groups::this_grid();\n  g.sync();\n}\n"
                       "void go() { cudaLaunchCooperativeKernel((void *)k, 1, 1, 0); }\n";
    cr_assert_eq(cu_rewrite(grid, strlen(grid), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:2: not supported by the simulator: asynchronous reductions and scans of cooperative "
                            "groups (cg::reduce_update_async"),
              "%s", r.err);
    cr_assert(!strstr(r.err, "t.cu:4:") && strstr(r.err, "t.cu:7: not supported by the simulator: cooperative launches"),
              "%s", r.err);
}

/* half precision and bfloat16 are supported (cuda_fp16.h, cuda_bf16.h); fp8 is named, with its line */
Test(rewrite, half_and_bfloat16_pass_fp8_named)
{
    const char *ok = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n"
                     "__global__ void k(__half *h, half2 *p, __nv_bfloat16 *b) {\n"
                     "  h[0] = __float2half(__half2float(h[1]));\n  p[0] = __hadd2(p[0], p[1]);\n"
                     "  b[0] = __float2bfloat16(1.0f);\n}\n";
    rewrite_result r = rw(ok);
    cr_assert_eq(r.launches, 0);
    free(r.text);
    const char *fp8 = "#include <cuda_fp8.h>\n__global__ void k(float *f) {\n"
                      "  __nv_fp8_e4m3 x(f[0]);\n  f[0] = float(x);\n}\n";
    cr_assert_eq(cu_rewrite(fp8, strlen(fp8), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:3: not supported by the simulator: fp8 (__nv_fp8_e4m3, __nv_fp8_e5m2) (__nv_fp8_e4m3)"),
              "%s", r.err);
    cr_assert_null(r.text);
}

/* libcu++'s headers: one message, not "No such file"; but cuda/pipeline, which is here (NVIDIA's
 * globalToShmemAsyncCopy and the tensor-core samples use a thread's pipeline) */
Test(rewrite, libcudacxx_named)
{
    const char *src = "#include <cuda/atomic>\n__global__ void k() {}\n";
    rewrite_result r;
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:1: not supported by the simulator: libcu++ (cuda::atomic") &&
                  strstr(r.err, "#include <cuda/atomic>"),
              "%s", r.err);
    const char *pipe = "#include <cuda/pipeline>\n#include <cuda/barrier>\n#include <cooperative_groups/memcpy_async.h>\n"
                       "#include <cuda/std/type_traits>\n#include <cuda/std/limits>\n"
                       "__global__ void k(int *p) { *p = cuda::std::is_same<int, int>::value; }\n";
    r = rw(pipe);
    free(r.text);
}

Test(rewrite, host_launch_after_device_code_is_fine)
{
    const char *src = "__device__ int g;\n__global__ void k() { g = 1; }\nint main() { k<<<1, 1>>>(); }\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 1);
    free(r.text);
}

Test(rewrite, no_kernel_before_launch)
{
    const char *src = "void f() { (ptrs[0])<<<1, 1>>>(); }\n";
    rewrite_result r;
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:1: cannot tell which kernel this <<< launches"), "%s", r.err);
}

Test(rewrite, host_and_device_functions_marked)
{
    const char *src = "#include <vector>\n"
                      "template <class T> static T twice(T v) { return v + v; }\n"
                      "struct S {\n  int x;\n  S(int v) : x(v) {}\n  float operator()(float a) const { return a * x; }\n"
                      "  __device__ float dev(float a) const { return a; }\n};\n"
                      "S::S(const S &o) : x(o.x) {}\n"
                      "__global__ void k(float *p) { p[0] = 1; }\n"
                      "__host__ __device__ float hd(float x) { return x; }\n"
                      "int arr[] = {1, 2};\n"
                      "namespace ns { void f(int a) { } }\n"
                      "TEST_MACRO(foo) { }\n"
                      "int main(int argc, char **argv) { return twice(argc); }\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "static T twice SIMTLAB_HOST_FN (T v)"), "%s", r.text);
    /* members defined in a class are inline (one copy at link, no mark needed), and GCC takes no
     * attribute between a constructor's name and its parameters: no mark in a class */
    cr_assert(strstr(r.text, "  S(int v) : x(v)"), "%s", r.text);
    cr_assert(strstr(r.text, "float operator()(float a) const"), "%s", r.text);
    cr_assert(strstr(r.text, "void f SIMTLAB_HOST_FN (int a)"), "%s", r.text);
    cr_assert(strstr(r.text, "int main SIMTLAB_HOST_FN (int argc, char **argv)"), "%s", r.text);
    /* device code: SIMTLAB_DEV_FN (weak in the host pass), not the host mark */
    cr_assert(strstr(r.text, "__device__ float dev(float a)"), "device member:\n%s", r.text);
    cr_assert(strstr(r.text, "__global__ void k SIMTLAB_DEV_FN (float *p)"), "kernel:\n%s", r.text);
    cr_assert(strstr(r.text, "__host__ __device__ float hd SIMTLAB_DEV_FN (float x)"), "host-device function:\n%s", r.text);
    cr_assert(strstr(r.text, "S::S(const S &o)"), "out-of-class constructor marked:\n%s", r.text);
    cr_assert(strstr(r.text, "TEST_MACRO(foo)"), "macro marked:\n%s", r.text);
    cr_assert_eq(r.host_marks, 3);
    cr_assert_eq(r.dev_marks, 2);
    same_lines(src, &r);
    free(r.text);
}

/* a class template's constructor and destructor defined outside it (the CUDA samples'
 * Common/exception.h): no mark, which g++ refused in the single pass's [[gnu::no_sanitize_thread]]
 * ("names the constructor, not the type"); its other members keep theirs */
Test(rewrite, template_constructor_not_marked)
{
    const char *src = "template <class B> struct E : B { E(); ~E(); static void f(); };\n"
                      "template <class B>\nE<B>::E() : B() {}\n"
                      "template <class B>\nE< B >::~E() {}\n"
                      "template <class B>\nvoid E<B>::f() {}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "E<B>::E() : B() {}"), "constructor marked:\n%s", r.text);
    cr_assert(strstr(r.text, "E< B >::~E() {}"), "destructor marked:\n%s", r.text);
    cr_assert(strstr(r.text, "void E<B>::f SIMTLAB_HOST_FN ()"), "member not marked:\n%s", r.text);
    cr_assert_eq(r.host_marks, 1);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, device_marks_only_where_weak_may_go)
{
    const char *src = "static __device__ float a(float x) { return x; }\n"
                      "__device__ inline float b(float x) { return x; }\n"
                      "template <class T> __global__ void c(T *p) { }\n"
                      "__device__ __forceinline__ float d(float x) { return x; }\n"
                      "__device__ float e(float x) { return x; }\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.dev_marks, 1, "%s", r.text);
    cr_assert(strstr(r.text, "__device__ float e SIMTLAB_DEV_FN (float x)"), "%s", r.text);
    free(r.text);
}

Test(rewrite, visual_studio_spacing)
{
    /* Visual Studio's formatter writes "<< <" and ">> >"; nvcc takes them */
    const char *src = "void f() {\n  sum << <GRID, TB >> > (a, b);\n}\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.launches, 1);
    cr_assert(strstr(r.text, "make_launch(\"sum\", __FILE__, __LINE__, SIMTLAB_KCALL_(sum), GRID, TB ) (a, b);"),
              "%s", r.text);
    free(r.text);
}

Test(rewrite, extern_shared_qualifier_after_the_type)
{
    /* `extern float __shared__ smem[];` (NVIDIA's samples write it so) and an __align__ */
    const char *src = "__global__ void k() {\n  extern float __shared__ smem[];\n"
                      "  extern __shared__ __align__(16) char raw[];\n  smem[0] = raw[0];\n}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "float (&smem)[] = *reinterpret_cast<float (*)[]>(sim_dynamic_shared());"), "%s", r.text);
    cr_assert(strstr(r.text, "char (&raw)[] = *reinterpret_cast<char (*)[]>(sim_dynamic_shared());"), "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, malloc_and_free_in_device_code_use_the_device_heap)
{
    const char *src = "#include <cstdlib>\nstruct Pool { void free(int) {} };\n"
                      "__device__ void g(Pool &p) { p.free(1); }\n"
                      "__global__ void k(int **o) {\n  int *a = (int *)malloc(8);\n  o[0] = a;\n  std::free(a);\n"
                      "  void *b = ::malloc(4); free (b);\n  int *c = new (o[1]) int(3);\n}\n"
                      "int main() { void *h = malloc(3); free(h); }\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.heap_calls, 4, "device malloc/free calls renamed: %d", r.heap_calls);
    cr_assert(strstr(r.text, "(int *)simtlab_device_malloc(8)") && strstr(r.text, "std::simtlab_device_free(a)") &&
                  strstr(r.text, "::simtlab_device_malloc(4)") && strstr(r.text, "simtlab_device_free (b)"),
              "%s", r.text);
    cr_assert(strstr(r.text, "p.free(1)") && strstr(r.text, "void *h = malloc(3); free(h);"),
              "a member's free and host code's malloc/free stay: %s", r.text);
    cr_assert(strstr(r.text, "SIMTLAB_WANT_HEAP(__COUNTER__)"), "the heap registered: %s", r.text);
    free(r.text);
    const char *mac = "#define RELEASE(p) free(p) /* free(x) */\n#define free(q) my_free(q)\n#define S \"free(\"\n";
    r = rw(mac);
    cr_assert(strstr(r.text, "#define RELEASE(p) simtlab_device_free(p) /* free(x) */") &&
                  strstr(r.text, "#define free(q) my_free(q)") && strstr(r.text, "#define S \"free(\"") &&
                  r.heap_calls == 1,
              "a macro's body is renamed, not its name, comments or strings:\n%s", r.text);
    free(r.text);
    const char *ctor = "struct Buf { int *p; __device__ Buf(int n) : p((int *)malloc(n * 4)) {} };\n";
    r = rw(ctor);
    cr_assert(strstr(r.text, ": p((int *)simtlab_device_malloc(n * 4))") && r.heap_calls == 1,
              "a device constructor's initializer list:\n%s", r.text);
    free(r.text);
    const char *other = "template <class T> struct Arena { static void free(T *) {} };\n"
                        "__device__ long g(int *p) { Arena<int>::free(p); return clock() + std::clock(); }\n"
                        "long h() { return clock(); }\n";
    r = rw(other);
    cr_assert(strstr(r.text, "Arena<int>::free(p)") && strstr(r.text, "return simtlab_clock() + std::simtlab_clock()") &&
                  strstr(r.text, "long h SIMTLAB_HOST_FN () { return clock(); }"),
              "another scope's free stays, device clock() is renamed, host clock() is not:\n%s", r.text);
    cr_assert_eq(r.heap_calls, 0);
    free(r.text);
}

/* new in device code comes from the device heap (cuda_runtime.h's simtlab_device_heap; delete is
 * the program's operator delete, not rewritten); placement new, `operator new`, a deleted function
 * and host code stay as they are; `new (std::nothrow)` is refused, as nvcc refuses it */
Test(rewrite, device_new_delete)
{
    const char *src = "struct S { __device__ S(const S &) = delete; __device__ void *operator new(size_t n);\n"
                      "  __device__ void operator delete(void *p); };\n"
                      "__global__ void k(float **o, int *buf) {\n  o[0] = new float[4];\n  S *s = new S(1);\n"
                      "  new (buf) int(3);\n  ::new (&buf[1]) int(4);\n  delete s;\n  delete [] o[0];\n"
                      "  delete(o[1]);\n}\n"
                      "void h(float *p) { delete[] p; int *q = new int; delete q; }\n"
                      "struct B { int *p; __device__ B() : p(new int[2]) {} };\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "S(const S &) = delete;") && strstr(r.text, "void *operator new(size_t n)") &&
                  strstr(r.text, "void operator delete(void *p)"),
              "declarations stay:\n%s", r.text);
    cr_assert(strstr(r.text, "o[0] = new (simtlab_device_heap) float[4];") &&
                  strstr(r.text, "S *s = new (simtlab_device_heap) S(1);"),
              "new from the device heap:\n%s", r.text);
    cr_assert(strstr(r.text, "  new (buf) int(3);") && strstr(r.text, "::new (&buf[1]) int(4);"),
              "placement new stays:\n%s", r.text);
    cr_assert(strstr(r.text, "  delete s;\n  delete [] o[0];\n  delete(o[1]);"), "delete stays:\n%s", r.text);
    cr_assert(strstr(r.text, "{ delete[] p; int *q = new int; delete q; }"), "host code stays:\n%s", r.text);
    cr_assert(strstr(r.text, "__device__ B() : p(new (simtlab_device_heap) int[2]) {}"),
              "a device constructor's initializer list:\n%s", r.text);
    cr_assert_eq(r.heap_calls, 3, "each new wants the heap: %d", r.heap_calls);
    free(r.text);
    const char *nothrow = "__global__ void k(float **o) {\n  o[0] = new ( std :: nothrow ) float[4];\n}\n";
    cr_assert_eq(cu_rewrite(nothrow, strlen(nothrow), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:2: `new (std::nothrow)` in device code: nvcc refuses it"), "%s", r.err);
}

/* NVIDIA's interval sample: a class template with __device__ constructors (an attribute after a
 * constructor's name does not compile, in either pass) */
Test(rewrite, no_mark_inside_a_class)
{
    const char *src = "template <class T, int N> class stack {\n  T buf[N];\n  int tos;\npublic:\n"
                      "  __device__ stack() : tos(-1) {}\n  __device__ stack(T *b, int t) : tos(t) { (void)b; }\n"
                      "  __device__ T pop() { return buf[tos--]; }\n};\n"
                      "union U { int i; U(int v) : i(v) {} };\n"
                      "namespace n { struct V { V() {} }; float g(float x) { return x; } }\n";
    rewrite_result r = rw(src);
    cr_assert(!strstr(r.text, "SIMTLAB_DEV_FN") && strstr(r.text, "__device__ stack() : tos(-1)"), "%s", r.text);
    cr_assert(strstr(r.text, "U(int v) : i(v)") && strstr(r.text, "V() {}"), "%s", r.text);
    cr_assert(strstr(r.text, "float g SIMTLAB_HOST_FN (float x)"), "a namespace's function is still marked:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* keywords in comments and strings are not keywords: a `// ... struct ...` before a namespace
 * made it a class (no marks: the host pass's uninstrumented kernel ran, unchecked), a block
 * comment holding "template" before a kernel left it unmarked (review, session 17) */
Test(rewrite, keywords_in_comments_do_not_count)
{
    const char *src = "struct Pair { int a; }; // end of struct Pair\n"
                      "namespace soa { __global__ void k(float *a) { a[0] = 1; } }\n"
                      "/* a template for the others */\n__global__ void k2(float *a) { a[0] = 2; }\n"
                      "const char *s = \"class\"; void h(int x) { }\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "__global__ void k SIMTLAB_DEV_FN (float *a)"), "kernel in the namespace:\n%s", r.text);
    cr_assert(strstr(r.text, "__global__ void k2 SIMTLAB_DEV_FN (float *a)"), "kernel after the comment:\n%s", r.text);
    cr_assert(strstr(r.text, "void h SIMTLAB_HOST_FN (int x)"), "after a string:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* `dim3 blockDim(32), gridDim(1); k<<<gridDim, blockDim>>>(d);` (course code): in host code, in a
 * launch's configuration and after `.`, `->` or `S::` the built-ins' names are the program's own
 * (renamed past the shim's macros); kernels, __host__ __device__ functions, functions a macro
 * makes device code, #define lines and literals keep them */
Test(rewrite, builtin_names_in_host_code_are_the_programs)
{
    const char *src = "#define GID (blockIdx.x * blockDim.x + threadIdx.x)\n#define DEV __device__ __forceinline__\n"
                      "#define KERNEL __global__\nKERNEL void k2(int *o) { o[threadIdx.x] = 1; }\n"
                      "struct Cfg { dim3 gridDim; int n; };\n"
                      "__host__ __device__ unsigned width() { return blockDim.x; }\n"
                      "DEV unsigned lane() { return threadIdx.x % 32; }\n"
                      "__global__ void k(int *o, Cfg c, Cfg *p) {\n  o[GID] = gridDim.x + c.gridDim.x + p->gridDim.y + Cfg::gridDim;\n}\n"
                      "int main() {\n  int n = 100;\n  dim3 blockDim(32), gridDim(1);\n  Cfg c{gridDim, n};\n"
                      "  k<<<(n + blockDim.x - 1) / blockDim.x, blockDim>>>(d, c, &c);\n"
                      "  for (unsigned blockIdx = 0; blockIdx < c.gridDim.x; blockIdx++) printf(\"gridDim %d\", blockIdx);\n}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "#define GID (blockIdx.x * blockDim.x + threadIdx.x)\n"), "a #define:\n%s", r.text);
    cr_assert(strstr(r.text, "struct Cfg { dim3 simtlab_host_gridDim; int n; };"), "a member:\n%s", r.text);
    cr_assert(strstr(r.text, "width SIMTLAB_DEV_FN () { return blockDim.x; }"), "__host__ __device__:\n%s", r.text);
    cr_assert(strstr(r.text, "DEV unsigned lane() { return threadIdx.x % 32; }"), "a macro's inline device function:\n%s", r.text);
    cr_assert(strstr(r.text, "KERNEL void k2 SIMTLAB_DEV_FN (int *o) { o[threadIdx.x] = 1; }"), "a macro's kernel:\n%s", r.text);
    cr_assert(strstr(r.text, "o[GID] = gridDim.x + c.simtlab_host_gridDim.x + p->simtlab_host_gridDim.y + Cfg::simtlab_host_gridDim;"),
              "a kernel: the built-in, and members:\n%s", r.text);
    cr_assert(strstr(r.text, "dim3 simtlab_host_blockDim(32), simtlab_host_gridDim(1);\n  Cfg c{simtlab_host_gridDim, n};"),
              "host variables:\n%s", r.text);
    cr_assert(strstr(r.text, "SIMTLAB_KCALL_(k), (n + simtlab_host_blockDim.x - 1) / simtlab_host_blockDim.x, simtlab_host_blockDim)(d, c, &c);"),
              "the launch's configuration:\n%s", r.text);
    cr_assert(strstr(r.text, "for (unsigned simtlab_host_blockIdx = 0; simtlab_host_blockIdx < c.simtlab_host_gridDim.x; "
                             "simtlab_host_blockIdx++) printf(\"gridDim %d\", simtlab_host_blockIdx);"),
              "a loop variable, a string:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* A declaration that declares a built-in's name after another name, or with braces, declares it
 * too (`dim3 threads(16), blockIdx(4);`, `dim3 blockDim{32}, gridDim{2};`, a template type); a
 * comma that continues an argument list, a brace list or an expression does not. */
Test(rewrite, builtin_names_later_in_a_declaration)
{
    const char *src = "__global__ void k(int *o) { o[threadIdx.x] = blockDim.x; }\n"
                      "int f(int a, int b) { return a + b; }\n"
                      "struct Cfg { int a, b; };\n"
                      "int main() {\n  int n = 4, *d = 0;\n"
                      "  dim3 blockDim{32}, gridDim{2};\n"
                      "  dim3 threads(16), blockIdx(4);\n"
                      "  static const std::vector<int> v(3), threadIdx(2);\n"
                      "  k<<<gridDim, blockDim>>>(d);\n  k<<<blockIdx, threads>>>(d);\n"
                      "  Cfg c{n, (int)threadIdx.size()};\n  return f(n, 1), n;\n}\n"
                      "void g() { int x = 0; x = f(1, 2), x; }\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "dim3 simtlab_host_blockDim{32}, simtlab_host_gridDim{2};"), "braces:\n%s", r.text);
    cr_assert(strstr(r.text, "dim3 threads(16), simtlab_host_blockIdx(4);"), "after another name:\n%s", r.text);
    cr_assert(strstr(r.text, "static const std::vector<int> v(3), simtlab_host_threadIdx(2);"), "a template type:\n%s",
              r.text);
    cr_assert(strstr(r.text, "SIMTLAB_KCALL_(k), simtlab_host_gridDim, simtlab_host_blockDim)(d);"), "the first launch:\n%s", r.text);
    cr_assert(strstr(r.text, "SIMTLAB_KCALL_(k), simtlab_host_blockIdx, threads)(d);"), "the second launch:\n%s", r.text);
    cr_assert(strstr(r.text, "Cfg c{n, (int)simtlab_host_threadIdx.size()};"), "a use:\n%s", r.text);
    cr_assert(strstr(r.text, "o[threadIdx.x] = blockDim.x;"), "the kernel keeps the built-ins:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
    /* after a block, a comment (with a `;` and brackets in it) or a label */
    const char *after = "int main() {\n  for (int i = 0; i < 4; i++) { f(i); }\n  dim3 threads(16), blockIdx(4);\n"
                        "  // the launch's shape; see f(x)\n  dim3 t2{8}, gridDim{2};\n"
                        "  again: dim3 t3(1), blockDim(3);\n  return 0;\n}\n";
    r = rw(after);
    cr_assert(strstr(r.text, "dim3 threads(16), simtlab_host_blockIdx(4);"), "after a block:\n%s", r.text);
    cr_assert(strstr(r.text, "dim3 t2{8}, simtlab_host_gridDim{2};"), "after a comment:\n%s", r.text);
    cr_assert(strstr(r.text, "again: dim3 t3(1), simtlab_host_blockDim(3);"), "after a label:\n%s", r.text);
    free(r.text);
}

/* Only names host code declares are renamed: a device function whose __device__ comes from a
 * macro the rewriter cannot see (a header through -I) keeps its built-ins; a function's
 * parameters end with its body. */
Test(rewrite, builtin_names_only_where_declared)
{
    const char *src = "#include \"defs.h\"\n"
                      "DEV int tid() { return threadIdx.x + blockIdx.x*blockDim.x; }\n"
                      "void launch(dim3 gridDim, dim3 blockDim) { k<<<gridDim, blockDim>>>(); }\n"
                      "HD unsigned width() { return blockDim.x * gridDim.x; }\n"
                      "int main() { dim3 b(32); b.x = 2; return b.x > 1 ? 0 : threadIdx.x; }\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "() { return threadIdx.x + blockIdx.x*blockDim.x; }"), "%s", r.text);
    cr_assert(strstr(r.text, "(dim3 simtlab_host_gridDim, dim3 simtlab_host_blockDim)"), "parameters:\n%s", r.text);
    cr_assert(strstr(r.text, "), simtlab_host_gridDim, simtlab_host_blockDim)();"), "their launch:\n%s", r.text);
    cr_assert(strstr(r.text, "() { return blockDim.x * gridDim.x; }"), "after that body:\n%s", r.text);
    cr_assert(strstr(r.text, "return b.x > 1 ? 0 : threadIdx.x;"), "a use never declared:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* A header may name an unsupported feature in code the preprocessor drops (the CUDA samples'
 * helper_cuda.h: cuFFT's error names inside #ifdef _CUFFT_H_): not an error there; in a
 * source file it is. */
Test(rewrite, unsupported_names_in_headers_are_not_errors)
{
    const char *src = "#ifdef _CUFFT_H_\nstatic const char *name(cufftResult e) { return \"?\"; }\n#endif\n"
                      "__global__ void k(int *o) { o[threadIdx.x] = 1; }\nvoid go(int *d) { k<<<1, 32>>>(d); }\n";
    rewrite_result r;
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), -1, "a source file: %s", r.text ? r.text : "");
    cr_assert(strstr(r.err, "cuFFT"), "%s", r.err);
    cr_assert_eq(cu_rewrite_header(src, strlen(src), "t.cu", &r), 0, "a header: %s", r.err);
    cr_assert_eq(r.launches, 1);
    cr_assert(strstr(r.text, "::simtlab::make_launch(\"k\""), "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* `static __shared__ T s[32];` (NVIDIA's blockReduceSum): the shim's __shared__ has its own storage
 * class, so the `static` goes (spaces: the columns stay); other statics stay */
Test(rewrite, static_before_shared_dropped)
{
    const char *src = "static __shared__ int fs[4];\n"
                      "template <class T> __device__ T sum(T v) {\n  static __shared__ T s[32];\n"
                      "  __shared__ static int c;\n  static volatile __shared__ float w;\n  static const int N = 2;\n"
                      "  return s[0] + c + w + N;\n}\nstatic __device__ int g() { return 1; }\nstatic int h;\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "\n       __shared__ int fs[4];\n"), "file scope:\n%s", r.text);
    cr_assert(strstr(r.text, "\n         __shared__ T s[32];\n"), "%s", r.text);
    cr_assert(strstr(r.text, "\n  __shared__        int c;\n"), "%s", r.text);
    cr_assert(strstr(r.text, "\n         volatile __shared__ float w;\n"), "%s", r.text);
    cr_assert(strstr(r.text, "static const int N = 2;") && strstr(r.text, "static __device__ int g()") &&
                  strstr(r.text, "static int h;"),
              "other statics:\n%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* an extern __shared__ array is an lvalue of array type, as in CUDA: `(int *)&buf` is the shared
 * memory (it was the address of a local pointer), and at file or namespace scope `&smem` compiles */
Test(rewrite, extern_shared_is_an_array)
{
    const char *src = "extern __shared__ int smem[];\n__global__ void k() {\n"
                      "  extern __shared__ __align__(16) float tile[][33];\n  int *t = (int *)&smem;\n  tile[1][2] = t[0];\n}\n"
                      "namespace lib {\nextern __shared__ double nsm[];\n}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "float (&tile)[][33] = *reinterpret_cast<float (*)[][33]>(sim_dynamic_shared());"), "%s", r.text);
    cr_assert(strstr(r.text, "static inline int (*simtlab_dynamic_shared_smem())[] { return reinterpret_cast<int (*)[]>(sim_dynamic_shared()); }"),
              "%s", r.text);
    cr_assert(strstr(r.text, "#define smem (*simtlab_dynamic_shared_smem())\n"), "%s", r.text);
    /* a namespace's is not a function's local (a reference made once, before any launch) */
    cr_assert(strstr(r.text, "static inline double (*simtlab_dynamic_shared_nsm())[]") &&
                  strstr(r.text, "#define nsm (*simtlab_dynamic_shared_nsm())\n#line 9 \"t.cu\"\n}"),
              "namespace scope:\n%s", r.text);
    free(r.text);
}

/* A feature named only in a branch the preprocessor surely drops is not reported (llm.c's dev
 * kernels: #include <cudnn_frontend.h> inside #ifdef ENABLE_CUDNN, survey 11); it is when -D
 * defines the name, when the file defines it, or when the condition is more than one name. */
Test(rewrite, dropped_branches_are_not_reported)
{
    static const char *const dropped[] = {
        "#ifdef ENABLE_CUDNN\n#include <cudnn_frontend.h>\nvoid f() { cudnnHandle_t h; cudnnCreate(&h); }\n#endif\n",
        "#if 0\n__device__ float t(float x) { return tex1Dfetch(texref, 0); }\n#endif\n",
        "#if defined(USE_CUBLAS) // comment\n#include <thrust/sort.h>\n#endif\n",
        "#if !defined USE_FAST\n#else\n#include <thrust/sort.h>\n#endif\n",
        "#ifndef NO_CUBLAS\n#else\n#include <thrust/sort.h>\n#endif\n",
        "#if USE_CUBLAS\n#include <thrust/sort.h>\n#elif defined(USE_CUSPARSE)\n#include <mma.h>\n#endif\n",
        "#if 1\nint x;\n#else\n#include <thrust/sort.h>\n#endif\n",
        "#ifdef A\n#  ifdef B\n#  endif\n#include <cub/cub.cuh>\n#endif\n",
    };
    for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++) {
        char src[512];
        snprintf(src, sizeof src, "%s__global__ void k(int *o) { o[threadIdx.x] = 1; }\n", dropped[i]);
        rewrite_result r;
        cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), 0, "case %zu: %s", i, r.err);
        same_lines(src, &r);
        free(r.text);
    }
    static const struct {
        const char *src, *def, *what;
    } kept[] = {
        {"#ifdef ENABLE_CUDNN\n#include <cudnn_frontend.h>\ncudnnHandle_t h;\n#endif\n", "ENABLE_CUDNN", "t.cu:3: not supported by the simulator: cuDNN (cudnnHandle_t)"},
        {"#ifdef ENABLE_CUDNN\nstatic cudnnHandle_t h;\n#endif\n", "ENABLE_CUDNN=1", "t.cu:2: not supported by the simulator: cuDNN (cudnnHandle_t)"},
        {"#define USE_CUBLAS 1\n#if USE_CUBLAS\n#include <thrust/sort.h>\n#endif\n", NULL, "t.cu:3: not supported by the simulator: Thrust"},
        {"#if defined(A) || defined(B)\n#include <thrust/sort.h>\n#endif\n", NULL, "t.cu:2: not supported by the simulator: Thrust"},
        {"#ifdef __CUDACC_RTC__\n#include <thrust/sort.h>\n#endif\n", NULL, "t.cu:2: not supported by the simulator: Thrust"},
        {"#ifdef _CUFFT_H_\nvoid f(cufftResult e);\n#endif\n", NULL, "t.cu:2: not supported by the simulator: cuFFT"},
        {"#ifdef A\n#else\n#include <cub/cub.cuh>\n#endif\n", NULL, "t.cu:3: not supported by the simulator: CUB"},
        {"#if 0\n#elif 1\n#include <cub/cub.cuh>\n#endif\n", NULL, "t.cu:3: not supported by the simulator: CUB"},
        {"#ifdef A\n#endif\n#include <cub/cub.cuh>\n", NULL, "t.cu:3: not supported by the simulator: CUB"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof *kept; i++) {
        rewrite_result r;
        const char *defs[1] = {kept[i].def};
        cr_assert_eq(cu_rewrite_defs(kept[i].src, strlen(kept[i].src), "t.cu", defs, kept[i].def != NULL, &r), -1,
                     "case %zu was not reported", i);
        cr_assert(strstr(r.err, kept[i].what), "case %zu: %s", i, r.err);
    }
}

/* cuBLAS, cuFFT, cuSPARSE and cuDNN: including the header builds (SGEMM_CUDA's kernel headers
 * include <cublas_v2.h> and call nothing of it, survey 12); a name of cuFFT is refused (cuBLAS's
 * classic API is the shim's: cublas_api.h). */
Test(rewrite, library_include_alone_builds)
{
    const char *src = "#include <cublas_v2.h>\n#include <cufft.h>\n#include <cusparse.h>\n#include <cudnn.h>\n"
                      "__global__ void k(int *o) { o[threadIdx.x] = 1; }\n";
    rewrite_result r;
    cr_assert_eq(cu_rewrite(src, strlen(src), "t.cu", &r), 0, "%s", r.err);
    free(r.text);
    const char *use = "#include <cufft.h>\nvoid plan() { cufftHandle p; }\n";
    cr_assert_eq(cu_rewrite(use, strlen(use), "t.cu", &r), -1);
    cr_assert(strstr(r.err, "t.cu:2: not supported by the simulator: cuFFT (cufftHandle)"), "%s", r.err);
}

/* Atomics whose address a kernel's text proves warp-uniform are marked (rewrite_atomics.c): nvcc
 * aggregates them (a local assigned once from uniform values too). Those whose address depends on
 * the lane, on loaded data, or on a local assigned twice or whose address is taken are not, nor
 * atomics outside kernels, nor a parameter the kernel assigns. */
#define MARKED(call) "(sim_atomic_uniform_next(), " call ")"
Test(rewrite, uniform_atomics_marked)
{
    const char *src = "__device__ int g; __shared__ int fs[4];\n"
                      "template <int S, typename T>\n"
                      "__global__ void __launch_bounds__(256) k(int *c, unsigned long long *q, int n, T *t) {\n"
                      "  __shared__ int s[8][8];\n"
                      "  int v = atomicAdd(c, 1); atomicAdd(&c[blockIdx.x * n + 2], v);\n"
                      "  ::atomicMax(&s[blockIdx.y][S], v); atomicAdd(q, (unsigned long long)v);\n"
                      "  atomicOr(&g, 1u); atomicInc((unsigned *)&fs[0], 9u); atomicXor((unsigned *)&fs[1], 9u);\n"
                      "  atomicInc((unsigned *)&fs[2], 0xFFFFFFFFu); atomicInc((unsigned *)&fs[3], ~0u);\n"
                      "  /* atomicAdd(c, 1) in a comment */ atomicSub(c + gridDim.x, sizeof(T));\n"
                      "  const int b = blockIdx.x * n, b2 = b + 1; atomicAdd(&c[b2], 1);\n"
                      "  int *p = &c[blockIdx.x]; atomicAdd(p, 1);\n"
                      "  for (int j = 0; j < n; j++) atomicAdd(&c[j], v); for (unsigned k = n; k > 0; k >>= 1) atomicOr(&c[k], 1);\n"
                      "}\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.uniform_atomics, 13, "%s", r.text);
    /* atomicInc with the limit all ones is an add of 1 to nvcc: aggregated (docs/gpu/s33-h100) */
    cr_assert(strstr(r.text, MARKED("atomicInc((unsigned *)&fs[2], 0xFFFFFFFFu)")), "%s", r.text);
    cr_assert(strstr(r.text, MARKED("atomicInc((unsigned *)&fs[3], ~0u)")), "%s", r.text);
    cr_assert(strstr(r.text, "j++) " MARKED("atomicAdd(&c[j], v)")), "%s", r.text);
    cr_assert(strstr(r.text, MARKED("atomicAdd(p, 1)")), "%s", r.text);
    cr_assert(strstr(r.text, "b2 = b + 1; " MARKED("atomicAdd(&c[b2], 1)")), "%s", r.text);
    cr_assert(strstr(r.text, "int v = " MARKED("atomicAdd(c, 1)") "; " MARKED("atomicAdd(&c[blockIdx.x * n + 2], v)")),
              "%s", r.text);
    cr_assert(strstr(r.text, MARKED("::atomicMax(&s[blockIdx.y][S], v)")), "%s", r.text);
    cr_assert(strstr(r.text, MARKED("atomicOr(&g, 1u)")), "%s", r.text);
    cr_assert(strstr(r.text, " atomicInc((unsigned *)&fs[0], 9u)"), "atomicInc is not aggregated:\n%s", r.text);
    cr_assert(strstr(r.text, MARKED("atomicXor((unsigned *)&fs[1], 9u)")), "%s", r.text);
    cr_assert(strstr(r.text, "/* atomicAdd(c, 1) in a comment */ " MARKED("atomicSub(c + gridDim.x, sizeof(T))")),
              "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

Test(rewrite, lane_dependent_atomics_not_marked)
{
    const char *src = "__device__ void f(int *c) { atomicAdd(c, 1); }\n"
                      "__global__ void k(int *c, const int *in, int *m, float *x) {\n"
                      "  atomicAdd(&c[threadIdx.x % 4], 1); atomicAdd(&c[in[blockIdx.x]], 1);\n"
                      "  int t = threadIdx.x; atomicAdd(&c[t], 1); atomicAdd(*(&c), 1);\n"
                      "  int k = in[blockIdx.x]; atomicAdd(&c[k], 1); int j = blockIdx.x; j += 1; atomicAdd(&c[j], 1);\n"
                      "  int a = blockIdx.x; f(&a); atomicAdd(&c[a], 1); int u = t + 1; atomicAdd(&c[u], 1);\n"
                      "  m += threadIdx.x; atomicAdd(m, 1); atomicExch(c, 1); atomicCAS(c, 0, 1);\n"
                      "  atomicAdd(c, atomicAdd(&c[threadIdx.x], 1)); s.atomicAdd(c, 1); ns::atomicAdd(c, 1);\n"
                      "  atomicAdd(&c[blockIdx.x] + threadIdx.x, 1);\n"
                      "  for (int j = threadIdx.x; j < 9; j++) atomicAdd(&c[j], 1); for (int i = 0; i < 9; i++) { i += t; atomicAdd(&c[i], 1); }\n"
                      "  for (int q = 0; q < in[0]; q++) atomicAdd(&c[q], 1);\n"
                      "}\n"
                      "void host(int *c) { atomicAdd(c, 1); }\n";
    rewrite_result r = rw(src);
    cr_assert_eq(r.uniform_atomics, 0, "%s", r.text);
    cr_assert(!strstr(r.text, "sim_atomic_uniform_next"), "%s", r.text);
    free(r.text);
}

/* A file with CR LF line ends (CImg.h, HeCBench bm3d): a backslash before "\r\n" continues a
 * #define as before "\n", so the define's body is not code (it got SIMTLAB_HOST_FN marks); and a
 * function-like macro invoked at namespace scope without a `;` before a definition is not taken
 * for the definition's name. */
Test(rewrite, crlf_continuations_and_macro_invocations)
{
    const char *src = "namespace n {\r\n"
                      "#define SET(x) { \\\r\n"
                      "  if (x >= 1) fill(x) { y = 2; } \\\r\n"
                      "}\r\n"
                      "#define mk_ops(typ) \\\r\n"
                      "  inline int op(typ v) { return (int)v; }\r\n"
                      "  mk_ops(bool)\r\n"
                      "  mk_ops(char)\r\n"
                      "  inline int g(int v) { return v; }\r\n"
                      "}\r\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "if (x >= 1) fill(x) { y = 2; }"), "define body marked:\n%s", r.text);
    cr_assert(strstr(r.text, "  mk_ops(bool)\r\n  mk_ops(char)\r\n"), "macro invocation marked:\n%s", r.text);
    cr_assert_eq(r.host_marks, 0, "%s", r.text);
    same_lines(src, &r);
    free(r.text);
}

/* allocation calls get their pointer argument's text for the allocation's name in reports
 * (rewrite_atomics.c name_allocations): calls only, `::` ones too; not a member's, another scope's
 * or a declaration */
Test(rewrite, allocation_names)
{
    const char *src = "struct Pool { cudaError_t cudaMalloc(void **p, size_t n); };\n"
                      "cudaError_t Pool::cudaMalloc(void **p, size_t n) { return ::cudaMalloc(p, n); }\n"
                      "int main() {\n"
                      "  float *d_A; Pool q; void *v;\n"
                      "  cudaMalloc(&d_A, 64); ::cudaMallocManaged((void **)&v,\n      64);\n"
                      "  q.cudaMalloc(&v, 8); CHECK(cudaMalloc<float>(&d_A, 4));\n"
                      "  return cudaMallocPitch(&v, &pitch, 4, 4) != 0;\n"
                      "}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "struct Pool { cudaError_t cudaMalloc(void **p, size_t n); };"), "%s", r.text);
    cr_assert(strstr(r.text, "(void **p, size_t n) { return (simtlab_alloc_name(\"p\"), ::cudaMalloc(p, n)); }"), "%s",
              r.text);
    cr_assert(strstr(r.text, "(simtlab_alloc_name(\"&d_A\"), cudaMalloc(&d_A, 64));"), "%s", r.text);
    cr_assert(strstr(r.text, "(simtlab_alloc_name(\"(void **)&v\"), ::cudaMallocManaged((void **)&v,\n      64));"),
              "%s", r.text);
    cr_assert(strstr(r.text, "q.cudaMalloc(&v, 8); CHECK(cudaMalloc<float>(&d_A, 4));"), "%s", r.text);
    cr_assert(strstr(r.text, "return (simtlab_alloc_name(\"&v\"), cudaMallocPitch(&v, &pitch, 4, 4)) != 0;"), "%s",
              r.text);
    same_lines(src, &r);
    free(r.text);
}

/* inline PTX of the cp.async family becomes simtlab_ptx_asm (sim/run/ptx.c): in a kernel and in a
 * macro over continuation lines, comments dropped, the lines kept; other PTX (and an asm with
 * outputs) stays, and in device code is reported */
/* cudaLaunchKernel((void *)k, ...): the cast to void * of a kernel's name dropped, so that the shim's
 * typed overload takes the call; anything else in the first argument left as it is */
Test(rewrite, launch_void_cast)
{
    const char *src = "__global__ void k(int *p) {}\nnamespace ns { template <class T, int N> __global__ void t(T *p) {} }\n"
                      "int main() {\n  void *a[1];\n"
                      "  cudaLaunchKernel((void *)k, 1, 1, a, 0, 0);\n"
                      "  cudaLaunchKernel( ( const void* ) &ns::t<float, 4>, 1, 1, a);\n"
                      "  cudaLaunchKernel((void *)pick(), 1, 1, a);\n"
                      "  obj.cudaLaunchKernel((void *)k, 1, 1, a);\n"
                      "  cudaLaunchKernel((void **)k, 1, 1, a);\n"
                      "  cudaLaunchKernel(reinterpret_cast<const void *>(&ns::t<int, 2>), 1, 1, a);\n}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "  cudaLaunchKernel(k, 1, 1, a, 0, 0);"), "%s", r.text);
    cr_assert(strstr(r.text, "  cudaLaunchKernel(&ns::t<float, 4>, 1, 1, a);"), "%s", r.text);
    cr_assert(strstr(r.text, "  cudaLaunchKernel((void *)pick(), 1, 1, a);"), "%s", r.text);
    cr_assert(strstr(r.text, "  obj.cudaLaunchKernel((void *)k, 1, 1, a);"), "%s", r.text);
    cr_assert(strstr(r.text, "  cudaLaunchKernel((void **)k, 1, 1, a);"), "%s", r.text);
    cr_assert(strstr(r.text, "  cudaLaunchKernel(&ns::t<int, 2>, 1, 1, a);"), "%s", r.text);
    same_lines(src, &r);
    /* a cast on a line of its own: the lines after it keep their numbers */
    const char *spread = "__global__ void k(int *p) {}\nint main() {\n  void *a[1];\n  cudaLaunchKernel(\n"
                         "      (void *)k\n      , 1, 1, a);\n  return 0;\n}\n";
    rewrite_result rs = rw(spread);
    same_lines(spread, &rs);
    cr_assert(strstr(rs.text, "cudaLaunchKernel(k"), "%s", rs.text);
    free(rs.text);
    free(r.text);
    /* a kernel node's func: `p.func = (void *)k;` goes through the shim's simtlab_node_func, which
     * keeps a kernel's type; another member or a call keeps its cast */
    const char *node = "__global__ void k(int *p) {}\nvoid f(cudaKernelNodeParams p, cudaKernelNodeParams *q) {\n"
                       "  p.func = (void *)k;\n  q->func = (void*)ns::k<int>;\n  p.other = (void *)k;\n"
                       "  p.func = (void *)make();\n  p.gridDim = dim3(4);\n}\n";
    rewrite_result r2 = rw(node);
    cr_assert(strstr(r2.text, "  p.func = simtlab_node_func(k);"), "%s", r2.text);
    cr_assert(strstr(r2.text, "  q->func = simtlab_node_func(ns::k<int>);"), "%s", r2.text);
    cr_assert(strstr(r2.text, "  p.other = (void *)k;"), "%s", r2.text);
    cr_assert(strstr(r2.text, "  p.func = (void *)make();"), "%s", r2.text);
    cr_assert(strstr(r2.text, "  p.simtlab_host_gridDim = dim3(4);"), "%s", r2.text);
    same_lines(node, &r2);
    free(r2.text);
    /* a file without kernel nodes: another struct's func member is the program's business */
    const char *task = "struct Task { void *func; };\nvoid w(void *);\nvoid f(Task t) {\n  t.func = (void *)w;\n}\n";
    rewrite_result r3 = rw(task);
    cr_assert(strstr(r3.text, "  t.func = (void *)w;"), "%s", r3.text);
    free(r3.text);
}

Test(rewrite, ptx_cp_async)
{
    const char *src =
        "#define CP(d, s, n) asm volatile(\"cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\\n\" \\\n"
        "    ::\"r\"(d), \"l\"(s), \"n\"(n))\n"
        "__global__ void k(const float *x, unsigned d) {\n"
        "  asm volatile(\"cp.async.ca.shared.global [%0], [%1], 4, %2;\\n\" /* zfill */\n"
        "               \"cp.async.wait_all;\" :: \"r\"(d), \"l\"(x + (1 > 0 ? 1 : 0)), \"r\"(4) : \"memory\");\n"
        "  __asm__ __volatile__(\"cp.async.wait_group %0;\" :: \"n\"(1));\n"
        "  CP(d, x, 16);\n"
        "  asm volatile(\"cp.async.wait_all;\");\n"
        "}\n";
    rewrite_result r = rw(src);
    cr_assert(strstr(r.text, "#define CP(d, s, n) simtlab_ptx_asm(\"cp.async.cg.shared.global.L2::128B [%0], [%1], "
                             "%2;\\n\""),
              "%s", r.text);
    cr_assert(strstr(r.text, ", 3, simtlab_ptx_bits(d), simtlab_ptx_bits(s), simtlab_ptx_bits(n)) \\\n\n"
                             "__global__"),
              "%s", r.text);
    cr_assert(strstr(r.text, "  simtlab_ptx_asm(\"cp.async.ca.shared.global [%0], [%1], 4, %2;\\n\""), "%s", r.text);
    cr_assert(strstr(r.text, "\"cp.async.wait_all;\" , 3, simtlab_ptx_bits(d), simtlab_ptx_bits(x + (1 > 0 ? 1 : "
                             "0)), simtlab_ptx_bits(4))\n;"),
              "%s", r.text);
    cr_assert(strstr(r.text, "simtlab_ptx_asm(\"cp.async.wait_group %0;\" , 1, simtlab_ptx_bits(1));"), "%s", r.text);
    cr_assert(strstr(r.text, "simtlab_ptx_asm(\"cp.async.wait_all;\", 0);"), "%s", r.text); /* a basic asm */
    same_lines(src, &r);
    free(r.text);

    /* ldmatrix and mma have outputs: their addresses and sizes first, the call's file and line */
    const char *io = "__global__ void k(unsigned p) {\n  unsigned r[2]; float c = 1;\n"
                     "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\" : \"=r\"(r[0]), "
                     "\"=r\"(r[1]) : \"r\"(p));\n}\n";
    rewrite_result r3 = rw(io);
    cr_assert(strstr(r3.text, "simtlab_ptx_asm_io(__FILE__, __LINE__, \"ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, "
                              "%1}, [%2];\" , 2, 1, (void *)&(r[0]), sizeof(r[0]), (void *)&(r[1]), sizeof(r[1]), "
                              "simtlab_ptx_bits(p));"),
              "%s", r3.text);
    free(r3.text);

    /* CUTLASS's guarded copy: a `.reg .pred` block around a predicated cp.async is translated (on one
     * line too); a predicate on anything but a copy, or other PTX in the block, is not */
    const char *pred = "__global__ void k(unsigned d, const float *x, int ok) {\n"
                       "  asm volatile(\"{\\n  .reg .pred p;\\n  setp.ne.b32 p, %0, 0;\\n\"\n"
                       "               \"  @p cp.async.cg.shared.global [%1], [%2], %3;\\n}\\n\" ::\"r\"(ok), \"r\"(d), "
                       "\"l\"(x), \"n\"(16));\n"
                       "  asm volatile(\"{ .reg .pred q; setp.eq.s32 q, %0, 0; @!q cp.async.ca.shared.global [%1], [%2], 4; }\" "
                       "::\"r\"(ok), \"r\"(d), \"l\"(x));\n}\n";
    rewrite_result r4 = rw(pred);
    cr_assert(strstr(r4.text, "  simtlab_ptx_asm(\"{\\n  .reg .pred p;\\n  setp.ne.b32 p, %0, 0;\\n\""), "%s", r4.text);
    cr_assert(strstr(r4.text, "simtlab_ptx_asm(\"{ .reg .pred q; setp.eq.s32 q, %0, 0; @!q cp.async.ca.shared.global"),
              "%s", r4.text);
    same_lines(pred, &r4);
    free(r4.text);
    /* ld, st and mov: CUTLASS's guarded load (a block with outputs), a store (no outputs, still the
     * io form: its reports name the asm's line), an asm with outputs only, a volatile load not read */
    const char *ldst = "__global__ void k(const float *x, float *y, int ok) {\n  unsigned a = 0; float one;\n"
                       "  asm volatile(\"{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b32 %0, %3; @p ld.global.L2::128B.u32 "
                       "%0, [%1]; }\" : \"=r\"(a) : \"l\"(x), \"r\"(ok), \"r\"(a));\n"
                       "  asm volatile(\"st.global.v2.f32 [%0], {%1, %2};\" :: \"l\"(y), \"f\"(1.0f), \"f\"(2.0f));\n"
                       "  asm(\"mov.f32 %0, 0f3F800000;\" : \"=f\"(one));\n}\n";
    rewrite_result r5 = rw(ldst);
    cr_assert(strstr(r5.text, "simtlab_ptx_asm_io(__FILE__, __LINE__, \"{ .reg .pred p; setp.ne.b32 p, %2, 0; mov.b32 %0, "
                              "%3; @p ld.global.L2::128B.u32 %0, [%1]; }\" , 1, 3, (void *)&(a), sizeof(a), "
                              "simtlab_ptx_bits(x), simtlab_ptx_bits(ok), simtlab_ptx_bits(a));"),
              "%s", r5.text);
    cr_assert(strstr(r5.text, "simtlab_ptx_asm_io(__FILE__, __LINE__, \"st.global.v2.f32 [%0], {%1, %2};\" , 0, 3, "
                              "simtlab_ptx_bits(y), simtlab_ptx_bits(1.0f), simtlab_ptx_bits(2.0f));"),
              "%s", r5.text);
    cr_assert(strstr(r5.text, "simtlab_ptx_asm_io(__FILE__, __LINE__, \"mov.f32 %0, 0f3F800000;\" , 1, 0, (void *)&(one), "
                              "sizeof(one));"),
              "%s", r5.text);
    same_lines(ldst, &r5);
    free(r5.text);
    /* a template with #if between its literals (YHs' ldg32_nc): every branch read, the directives
     * kept at their lines' starts, the lines numbered as before */
    const char *pp = "__device__ void ld(float &r, const void *p, bool g) {\n  asm volatile(\n"
                     "    \"{.reg .pred p; setp.ne.b32 p, %2, 0;\\n\"\n#if __CUDA_ARCH__ >= 750\n"
                     "    \" @p ld.global.nc.L2::128B.f32 %0, [%1];}\\n\"\n#else\n"
                     "    \" @p ld.global.nc.f32 %0, [%1];}\\n\"\n#endif\n"
                     "    : \"=f\"(r) : \"l\"(p), \"r\"((int)g));\n}\nint after;\n";
    rewrite_result r7 = rw(pp);
    cr_assert(strstr(r7.text, "simtlab_ptx_asm_io(__FILE__, __LINE__, \n    \"{.reg .pred p;"), "%s", r7.text);
    cr_assert(strstr(r7.text, "\n#if __CUDA_ARCH__ >= 750\n") && strstr(r7.text, "\n#else\n") &&
                  strstr(r7.text, "\n#endif\n"),
              "%s", r7.text);
    same_lines(pp, &r7);
    free(r7.text);
    const char *vol = "__global__ void k(const unsigned *p, unsigned *o) {\n  asm volatile(\"ld.volatile.global.u32 %0, "
                      "[%1];\" : \"=r\"(o[0]) : \"l\"(p));\n}\n";
    rewrite_result r6;
    cr_assert_eq(cu_rewrite(vol, strlen(vol), "t.cu", &r6), -1, "ld.volatile is not read");
    /* cvta's .u32 forms: ptxas refuses them (no 32-bit addressing), and so does the rewriter */
    const char *c32 = "__global__ void k(unsigned p, unsigned *o) {\n  asm(\"cvta.to.shared.u32 %0, %1;\" : \"=r\"(o[0]) "
                      ": \"r\"(p));\n}\n";
    cr_assert_eq(cu_rewrite(c32, strlen(c32), "t.cu", &r6), -1, "cvta.to.shared.u32 is not read");
    const char *const refused[] = {
        "__global__ void k(unsigned p, unsigned *o) {\n  asm volatile(\"{ .reg .pred q; setp.ne.b32 q, %1, 0; @q "
        "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1]; }\" : \"=r\"(o[0]) : \"r\"(p));\n}\n",
        "__global__ void k(unsigned d) {\n  asm volatile(\"{ .reg .pred q; setp.ne.b32 q, %0, 0; @q mov.u32 %0, 1; }\" "
        ":: \"r\"(d));\n}\n",
        /* an ld with no output to load into */
        "__global__ void k(const unsigned *p) {\n  asm volatile(\"ld.global.u32 %0, [%0];\" :: \"l\"(p));\n}\n",
        /* setp of a type the runtime does not read */
        "__global__ void k(unsigned d, unsigned s, const float *x) {\n  asm volatile(\"{ .reg .pred q; setp.ne.f32 q, %0, "
        "0; @q cp.async.ca.shared.global [%1], [%2], 4; }\" :: \"r\"(d), \"r\"(s), \"l\"(x));\n}\n"};
    for (int i = 0; i < 4; i++) {
        rewrite_result rr;
        cr_assert_eq(cu_rewrite(refused[i], strlen(refused[i]), "t.cu", &rr), -1, "case refused %d", i);
        cr_assert(strstr(rr.err, "inline PTX (asm) other than cp.async"), "case refused %d: %s", i, rr.err);
    }

    const char *other = "__global__ void k(int *o) {\n  unsigned l;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l));\n}\n";
    rewrite_result r2;
    cr_assert_eq(cu_rewrite(other, strlen(other), "t.cu", &r2), -1);
    cr_assert(strstr(r2.err, "t.cu:3: not supported by the simulator: inline PTX (asm) other than cp.async, ldmatrix, mma.sync, ld, st and mov"), "%s", r2.err);
}
