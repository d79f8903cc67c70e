/* lessons/05_torch_stack/simtlab_torch/ops.cpp - the C++ half of the PyTorch op.
 *
 * Python (simtlab_torch/__init__.py) calls these functions through pybind11;
 * they check the tensors, allocate the outputs with ATen (PyTorch's caching
 * allocator, lesson 5 part (b)), fill a simt_cfg and call the kernels'
 * launchers: the same `k_launch_cuda(&cfg, ...)` functions the lessons'
 * drivers call in --mode cuda, compiled from the same .cu files.
 *
 *   scale(x)                                   lesson 2: y = 2x (float32, float64)
 *   attention_forward(q, k, v, causal)         lesson 4: flash v2 -> (o, l, m)
 *   attention_backward(q, k, v, o, l, m, do,   lesson 7: flash backward v2 -> (dq, dk, dv)
 *                      causal, dq_atomic)
 *   attention_tiles(N, d)                      the tiles and shared memory both use
 *
 * Every launch goes to PyTorch's current stream (cfg.stream), so the kernels
 * are ordered with the ATen ops around them (torch.cuda.stream(s), CUDA
 * graphs and the autograd engine's backward streams all work), and every
 * launcher's return value (a cudaError_t) is checked.
 */
#include <torch/extension.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <tuple>

#include "attention.h" /* lessons/04_attention: attn_flash_v2_d*, attn_v2_tiles */
#include "backward.h"  /* lessons/07_backward: attn_bwd_v2_* */
#include "scale.h"     /* lessons/02_scale: scale_v1, scale_v1_f64 */

namespace {

/* The forward's tile choice is lesson 4's default: K_j and V_j tiles that fit
 * 48 KB of shared memory (attn_v2_tiles, lesson 4's --sram). */
constexpr long long kForwardSram = 48 * 1024;
/* lesson 2's block size; lesson 7's pre-pass: one warp per row, 8 rows a block */
constexpr int kScaleThreads = 256;
constexpr int kPreThreads = 256;
constexpr int kPreRowsPerBlock = kPreThreads / 32;
/* CUDA's limit on gridDim.y (and .z): the kernels put one head per blockIdx.y */
constexpr int64_t kMaxGridY = 65535;

/* A launch configuration on PyTorch's current stream of the current device
 * (the CUDAGuard in each op made the tensors' device current). */
simt_cfg make_cfg(int64_t gx, int64_t gy, int threads, uint64_t shared_bytes)
{
    simt_cfg c{};
    c.grid = {(unsigned)gx, (unsigned)gy, 1u};
    c.block = {(unsigned)threads, 1u, 1u};
    c.shared_bytes = (size_t)shared_bytes;
    c.stream = (void *)at::cuda::getCurrentCUDAStream().stream();
    return c;
}

/* A launcher returns cudaPeekAtLastError() after its <<<>>>: a bad
 * configuration, too much shared memory, or no machine code for this GPU
 * (the extension built for another arch) shows here. Errors while the
 * kernel runs (an illegal address) come later, at the next synchronising
 * call; CUDA_LAUNCH_BLOCKING=1 makes them show at the launch. */
void check_launch(int rc, const char *kernel)
{
    if (rc != 0) {
        (void)cudaGetLastError(); /* reported here: not again by the next PyTorch op */
        TORCH_CHECK(false, "simtlab_torch: launching ", kernel, " failed: ", cudaGetErrorString((cudaError_t)rc),
                    " (cudaError_t ", rc, ")");
    }
}

/* ---- lesson 2: scale ------------------------------------------------------- */
/* One overload per dtype, so that AT_DISPATCH's scalar_t picks the kernel. */
int scale_launch(const simt_cfg *c, float *y, const float *x, int n) { return scale_v1_launch_cuda(c, y, x, n); }
int scale_launch(const simt_cfg *c, double *y, const double *x, int n)
{
    return scale_v1_f64_launch_cuda(c, y, x, n);
}

at::Tensor scale(const at::Tensor &x)
{
    TORCH_CHECK(x.is_cuda(), "simtlab_torch.scale: x is on ", x.device(),
                "; lesson 2's kernel runs on a CUDA device: pass x.cuda()");
    TORCH_CHECK(x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble, "simtlab_torch.scale: x is ",
                x.scalar_type(), "; lesson 2 has kernels for float32 (scale_v1) and float64 (scale_v1_f64) only: ",
                "pass x.float() or x.double()");
    TORCH_CHECK(x.is_contiguous(), "simtlab_torch.scale: x is not contiguous (sizes ", x.sizes(), ", strides ",
                x.strides(), "); the kernel reads x[idx] for idx < n: pass x.contiguous()");
    TORCH_CHECK(x.numel() <= INT_MAX, "simtlab_torch.scale: x has ", x.numel(),
                " elements; the kernel's n is an int (at most ", INT_MAX, "): split x into chunks");
    const c10::cuda::CUDAGuard guard(x.device());
    at::Tensor y = at::empty(x.sizes(), x.options());
    const int n = (int)x.numel();
    if (n == 0)
        return y; /* a grid of 0 blocks is not a valid launch */
    const simt_cfg cfg = make_cfg(((int64_t)n + kScaleThreads - 1) / kScaleThreads, 1, kScaleThreads, 0);
    int rc = 0;
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "simtlab_torch.scale", [&] {
        rc = scale_launch(&cfg, y.data_ptr<scalar_t>(), x.data_ptr<scalar_t>(), n);
    });
    check_launch(rc, x.scalar_type() == at::kFloat ? "scale_v1" : "scale_v1_f64");
    return y;
}

/* ---- lessons 4 and 7: attention ---------------------------------------------- */
/* A (B, H, N, d) or (B, H, N) fp32 CUDA tensor, contiguous, on `like`'s device,
 * with `like`'s leading sizes. op names the function for the message. */
void check_tensor(const char *op, const at::Tensor &t, const char *name, const at::Tensor &like, int dims)
{
    TORCH_CHECK(t.is_cuda(), op, ": ", name, " is on ", t.device(),
                "; the kernels run on a CUDA device: pass ", name, ".cuda()");
    TORCH_CHECK(t.device() == like.device(), op, ": ", name, " is on ", t.device(), " but q is on ", like.device(),
                ": move all tensors to one device");
    TORCH_CHECK(t.scalar_type() == at::kFloat, op, ": ", name, " is ", t.scalar_type(),
                "; lessons 4 and 7's kernels are fp32 only: pass ", name, ".float()");
    TORCH_CHECK(t.dim() == dims, op, ": ", name, " has shape ", t.sizes(), "; expected ",
                dims == 4 ? "(B, H, N, d)" : "(B, H, N)");
    for (int i = 0; i < dims; i++)
        TORCH_CHECK(t.size(i) == like.size(i), op, ": ", name, " has shape ", t.sizes(), " but q has ", like.sizes(),
                    dims == 4 ? ": q, k, v (and o, do) must have the same shape (B, H, N, d)"
                              : ": l and m must have shape (B, H, N) of q's (B, H, N, d)");
    TORCH_CHECK(t.is_contiguous(), op, ": ", name, " is not contiguous (sizes ", t.sizes(), ", strides ", t.strides(),
                "); the kernels index it row-major, head after head: pass ", name, ".contiguous()");
    /* every row of Q, K, V, O starts at a multiple of d floats (d is a
     * multiple of 16), so an aligned base makes every float4 access aligned */
    TORCH_CHECK((uintptr_t)t.data_ptr() % 16 == 0, op, ": ", name, "'s data is not 16-byte aligned (storage offset ",
                t.storage_offset(), " elements); the kernels load float4s: pass ", name, ".clone()");
}

/* Limits that the kernels' index arithmetic and the grid impose. */
void check_shape(const char *op, int64_t B, int64_t H, int64_t N, int64_t d)
{
    TORCH_CHECK(d == 16 || d == 32 || d == 64 || d == 128, op, ": head dimension d = ", d,
                "; the kernels are compiled for d in {16, 32, 64, 128} (one entry point each): pad q, k, v with ",
                "zeros to the next of these and multiply q by sqrt(d_padded / d) to keep the scale 1/sqrt(d)");
    TORCH_CHECK(B * H <= kMaxGridY, op, ": B*H = ", B * H, " heads; a grid has one block row per head and CUDA allows ",
                kMaxGridY, " (gridDim.y): split the batch into calls of at most ", kMaxGridY, " heads");
    TORCH_CHECK(N * d <= INT_MAX, op, ": N*d = ", N * d, " elements a head; the kernels take N as an int and index ",
                "within a head with ints (at most ", INT_MAX, "): use a shorter sequence");
}

/* The forward's tiles for (N, d): rows a block owns, keys a K/V tile holds, threads a block. */
struct ForwardTiles {
    int br, bc, threads;
};

ForwardTiles forward_tiles(int64_t N, int64_t d)
{
    ForwardTiles t;
    const int rc = attn_v2_tiles(kForwardSram, (int)N, (int)d, &t.br, &t.bc, &t.threads);
    TORCH_CHECK(rc == 0, "simtlab_torch: attn_v2_tiles(", kForwardSram, ", N = ", N, ", d = ", d,
                ") found no tiles (", rc, ")");
    return t;
}

int forward_launch(int64_t d, const simt_cfg *c, float *O, float *l, float *m, const float *Q, const float *K,
                   const float *V, int N, int Bc, float scale, int causal, int whole)
{
    /* part = NULL, splits = 1: every row tile runs whole, in one block (no
     * split of the last wave, so no merge kernel and no partials buffer) */
    switch (d) {
    case 16: return attn_flash_v2_d16_launch_cuda(c, O, l, m, nullptr, Q, K, V, N, Bc, scale, causal, whole, 1);
    case 32: return attn_flash_v2_d32_launch_cuda(c, O, l, m, nullptr, Q, K, V, N, Bc, scale, causal, whole, 1);
    case 64: return attn_flash_v2_d64_launch_cuda(c, O, l, m, nullptr, Q, K, V, N, Bc, scale, causal, whole, 1);
    default: return attn_flash_v2_d128_launch_cuda(c, O, l, m, nullptr, Q, K, V, N, Bc, scale, causal, whole, 1);
    }
}

/* scale = 1/sqrt(d), as lesson 4's driver computes it */
float softmax_scale(int64_t d) { return (float)(1.0 / std::sqrt((double)d)); }

std::tuple<at::Tensor, at::Tensor, at::Tensor> attention_forward(const at::Tensor &q, const at::Tensor &k,
                                                                 const at::Tensor &v, bool causal)
{
    const char *op = "simtlab_torch.attention (forward)";
    check_tensor(op, q, "q", q, 4);
    check_tensor(op, k, "k", q, 4);
    check_tensor(op, v, "v", q, 4);
    const int64_t B = q.size(0), H = q.size(1), N = q.size(2), d = q.size(3);
    check_shape(op, B, H, N, d);
    const c10::cuda::CUDAGuard guard(q.device());
    /* LESSON: the outputs come from the caching allocator, on this stream:
     * O (B, H, N, d) and the row statistics l, m (B, H, N): the softmax's sum
     * and maximum, all the backward needs besides Q, K, V, O. */
    at::Tensor o = at::empty({B, H, N, d}, q.options());
    at::Tensor l = at::empty({B, H, N}, q.options());
    at::Tensor m = at::empty({B, H, N}, q.options());
    if (q.numel() == 0)
        return {o, l, m};
    const ForwardTiles t = forward_tiles(N, d);
    const int64_t T = (N + t.br - 1) / t.br; /* row tiles a head */
    TORCH_CHECK(B * H * T <= INT_MAX, op, ": ", B * H * T, " row tiles; the kernel numbers them with an int: ",
                "split the batch into calls");
    /* grid (row tiles, heads): a block owns Br rows of one head and walks all keys */
    const simt_cfg cfg = make_cfg(T, B * H, t.threads, attn_flash_v2_shared_bytes((int)d, t.bc));
    const int rc = forward_launch(d, &cfg, o.data_ptr<float>(), l.data_ptr<float>(), m.data_ptr<float>(),
                                  q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), (int)N, t.bc,
                                  softmax_scale(d), causal ? 1 : 0, (int)(B * H * T));
    check_launch(rc, "attn_flash_v2");
    return {o, l, m};
}

int backward_launch(int64_t d, const simt_cfg *c, float *dQ, float *dK, float *dV, const float *Q, const float *K,
                    const float *V, const float *dO, const float *L, const float *D, int N, float scale, int causal,
                    int dq_atomic)
{
    switch (d) {
    case 16: return attn_bwd_v2_d16_launch_cuda(c, dQ, dK, dV, Q, K, V, dO, L, D, N, scale, causal, dq_atomic);
    case 32: return attn_bwd_v2_d32_launch_cuda(c, dQ, dK, dV, Q, K, V, dO, L, D, N, scale, causal, dq_atomic);
    case 64: return attn_bwd_v2_d64_launch_cuda(c, dQ, dK, dV, Q, K, V, dO, L, D, N, scale, causal, dq_atomic);
    default: return attn_bwd_v2_d128_launch_cuda(c, dQ, dK, dV, Q, K, V, dO, L, D, N, scale, causal, dq_atomic);
    }
}

int dq_pass_launch(int64_t d, const simt_cfg *c, float *dQ, const float *Q, const float *K, const float *V,
                   const float *dO, const float *L, const float *D, int N, float scale, int causal)
{
    switch (d) {
    case 16: return attn_bwd_v2_dq_d16_launch_cuda(c, dQ, Q, K, V, dO, L, D, N, scale, causal);
    case 32: return attn_bwd_v2_dq_d32_launch_cuda(c, dQ, Q, K, V, dO, L, D, N, scale, causal);
    case 64: return attn_bwd_v2_dq_d64_launch_cuda(c, dQ, Q, K, V, dO, L, D, N, scale, causal);
    default: return attn_bwd_v2_dq_d128_launch_cuda(c, dQ, Q, K, V, dO, L, D, N, scale, causal);
    }
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> attention_backward(const at::Tensor &q, const at::Tensor &k,
                                                                  const at::Tensor &v, const at::Tensor &o,
                                                                  const at::Tensor &l, const at::Tensor &m,
                                                                  const at::Tensor &dout, bool causal, bool dq_atomic)
{
    const char *op = "simtlab_torch.attention (backward)";
    check_tensor(op, q, "q", q, 4);
    check_tensor(op, k, "k", q, 4);
    check_tensor(op, v, "v", q, 4);
    check_tensor(op, o, "o", q, 4);
    check_tensor(op, dout, "do", q, 4);
    check_tensor(op, l, "l", q, 3);
    check_tensor(op, m, "m", q, 3);
    const int64_t B = q.size(0), H = q.size(1), N = q.size(2), d = q.size(3);
    check_shape(op, B, H, N, d);
    const c10::cuda::CUDAGuard guard(q.device());
    /* with atomics every key block adds its share of dQ_i: dQ starts at 0
     * (at::zeros: a fill kernel on the same stream, before ours) */
    at::Tensor dq = dq_atomic ? at::zeros({B, H, N, d}, q.options()) : at::empty({B, H, N, d}, q.options());
    at::Tensor dk = at::empty({B, H, N, d}, q.options());
    at::Tensor dv = at::empty({B, H, N, d}, q.options());
    if (q.numel() == 0)
        return {dq, dk, dv};
    const uint64_t shared = bwd_v2_shared_bytes((int)d);
    const uint64_t optin = at::cuda::getCurrentDeviceProperties()->sharedMemPerBlockOptin;
    TORCH_CHECK(shared <= optin, op, ": the backward at d = ", d, " needs ", shared,
                " bytes of shared memory a block; this GPU allows ", optin, " (sharedMemPerBlockOptin): use a ",
                "smaller d or a GPU with more shared memory (sm_80: 163 KB, sm_90: 227 KB)");
    /* LESSON: the backward's own scratch: L = m + ln l (the logsumexp) and
     * D = rowsum(dO * O), B*H*N floats each, never an N x N matrix */
    at::Tensor L = at::empty({B, H, N}, q.options());
    at::Tensor D = at::empty({B, H, N}, q.options());
    const float scale = softmax_scale(d);
    const int c = causal ? 1 : 0;
    const long long rows = (long long)(B * H * N);
    const simt_cfg pre = make_cfg((rows + kPreRowsPerBlock - 1) / kPreRowsPerBlock, 1, kPreThreads, 0);
    check_launch(attn_bwd_v2_pre_launch_cuda(&pre, L.data_ptr<float>(), D.data_ptr<float>(), o.data_ptr<float>(),
                                             dout.data_ptr<float>(), l.data_ptr<float>(), m.data_ptr<float>(), rows,
                                             (int)d),
                 "attn_bwd_v2_pre");
    /* the main kernel: a block owns BWD_V2_BC keys of one head (dK_j, dV_j) */
    const simt_cfg kv = make_cfg((N + BWD_V2_BC - 1) / BWD_V2_BC, B * H, BWD_V2_THREADS, shared);
    check_launch(backward_launch(d, &kv, dq.data_ptr<float>(), dk.data_ptr<float>(), dv.data_ptr<float>(),
                                 q.data_ptr<float>(), k.data_ptr<float>(), v.data_ptr<float>(), dout.data_ptr<float>(),
                                 L.data_ptr<float>(), D.data_ptr<float>(), (int)N, scale, c, dq_atomic ? 1 : 0),
                 "attn_bwd_v2");
    if (!dq_atomic) {
        /* the dQ pass: a block owns BWD_V2_BR query rows and walks the keys */
        const simt_cfg qp = make_cfg((N + BWD_V2_BR - 1) / BWD_V2_BR, B * H, BWD_V2_THREADS, shared);
        check_launch(dq_pass_launch(d, &qp, dq.data_ptr<float>(), q.data_ptr<float>(), k.data_ptr<float>(),
                                    v.data_ptr<float>(), dout.data_ptr<float>(), L.data_ptr<float>(),
                                    D.data_ptr<float>(), (int)N, scale, c),
                     "attn_bwd_v2_dq");
    }
    return {dq, dk, dv};
}

/* What a launch at (N, d) uses: for the README's questions and bench.py's header. */
pybind11::dict attention_tiles(int64_t N, int64_t d)
{
    check_shape("simtlab_torch.attention_tiles", 1, 1, N, d);
    const ForwardTiles t = forward_tiles(N, d);
    pybind11::dict r;
    r["forward_br"] = t.br;
    r["forward_bc"] = t.bc;
    r["forward_threads"] = t.threads;
    r["forward_shared_bytes"] = attn_flash_v2_shared_bytes((int)d, t.bc);
    r["backward_br"] = BWD_V2_BR;
    r["backward_bc"] = BWD_V2_BC;
    r["backward_threads"] = BWD_V2_THREADS;
    r["backward_shared_bytes"] = bwd_v2_shared_bytes((int)d);
    return r;
}

} // namespace

/* TORCH_EXTENSION_NAME is the name given to torch.utils.cpp_extension.load
 * ("simtlab_torch_ext"): Python imports the .so as that module. */
PYBIND11_MODULE(TORCH_EXTENSION_NAME, mod)
{
    namespace py = pybind11;
    mod.doc() = "simtlab's lesson kernels as PyTorch ops (lessons/05_torch_stack/simtlab_torch)";
    mod.def("scale", &scale, "y = 2x: lesson 2's scale_v1 (float32) or scale_v1_f64 (float64)", py::arg("x"));
    mod.def("attention_forward", &attention_forward,
            "lesson 4's FlashAttention-2 forward: (o, l, m) of q, k, v (B, H, N, d) fp32, scale 1/sqrt(d)",
            py::arg("q"), py::arg("k"), py::arg("v"), py::arg("causal") = false);
    mod.def("attention_backward", &attention_backward,
            "lesson 7's flash backward v2: (dq, dk, dv) from q, k, v, o, l, m and do; dq_atomic: dQ by atomicAdd "
            "in the main kernel (True) or by a separate dQ pass (False)",
            py::arg("q"), py::arg("k"), py::arg("v"), py::arg("o"), py::arg("l"), py::arg("m"), py::arg("do"),
            py::arg("causal") = false, py::arg("dq_atomic") = true);
    mod.def("attention_tiles", &attention_tiles, "the forward's and backward's tiles and shared memory at (N, d)",
            py::arg("N"), py::arg("d"));
}
