"""simtlab_torch - the course's kernels as PyTorch ops (lesson 5, "The stack a
PyTorch op passes through").

    import simtlab_torch as st
    y = st.scale(x)                           # lesson 2: y = 2x (float32 or float64)
    o = st.attention(q, k, v, causal=False)   # lesson 4's forward ...
    o.backward(do)                            # ... and lesson 7's backward

The C++/CUDA extension is built from the SAME kernel files the lessons run on
the simulator (lessons/02_scale/scale.cu, lessons/04_attention/attention.cu,
lessons/07_backward/backward.cu) plus the bindings in ops.cpp, by
torch.utils.cpp_extension.load (JIT: ninja runs nvcc on the .cu files and the
C++ compiler on the .cpp files, links a .so and imports it). The first call
builds it, in $SIMTLAB_TORCH_BUILD or ~/.cache/simtlab_torch/<versions>;
later processes reuse it, and ninja rebuilds only what changed. The GPU
architecture is torch's choice: $TORCH_CUDA_ARCH_LIST if set, else the
architectures of the visible GPUs (sm_90 on an H200).

Environment:
    SIMTLAB_TORCH_BUILD    build directory
    SIMTLAB_TORCH_VERBOSE  1: print the build's commands
    SIMTLAB_DQ             atomic (default) | pass: how the backward computes dQ
"""
import os
import shlex
import sys
import threading

import torch
from torch.autograd.function import once_differentiable

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.normpath(os.path.join(_HERE, "..", "..", ".."))  # the repository


def _repo(*parts):
    return os.path.join(_ROOT, *parts)


# Kernel files are the lessons' own; nothing is copied. ops.cpp includes the
# lessons' headers (attention.h, backward.h, scale.h); they and the kernel
# files include simt_cfg.h and kernel.h from sim/.
SOURCES = [
    os.path.join(_HERE, "ops.cpp"),
    os.path.join(_HERE, "lesson04_traffic.cpp"),  # lesson 4's traffic.c: attn_v2_tiles
    _repo("lessons", "02_scale", "scale.cu"),
    _repo("lessons", "04_attention", "attention.cu"),
    _repo("lessons", "07_backward", "backward.cu"),
]
INCLUDE_DIRS = [
    _repo("sim"),
    _repo("lessons", "02_scale"),
    _repo("lessons", "04_attention"),
    _repo("lessons", "07_backward"),
]
EXTENSION_NAME = "simtlab_torch_ext"

_ext = None
_ext_lock = threading.Lock()


def build_directory():
    """$SIMTLAB_TORCH_BUILD, else ~/.cache/simtlab_torch/py<ver>_torch<ver>_cu<ver>
    (one directory per Python, torch and CUDA, as torch's own default does)."""
    path = os.environ.get("SIMTLAB_TORCH_BUILD")
    if not path:
        tag = "py{}{}_torch{}_cu{}".format(
            *sys.version_info[:2], torch.__version__.split("+")[0], (torch.version.cuda or "none").replace(".", ""))
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = os.path.join(cache, "simtlab_torch", tag)
    os.makedirs(path, exist_ok=True)
    return path


def extension(verbose=None):
    """The compiled extension module (built on the first call of the process)."""
    global _ext
    with _ext_lock:
        if _ext is None:
            missing = [s for s in SOURCES if not os.path.exists(s)]
            if missing:
                raise FileNotFoundError("simtlab_torch: missing source(s) " + ", ".join(missing))
            if verbose is None:
                verbose = os.environ.get("SIMTLAB_TORCH_VERBOSE", "0") not in ("", "0")
            from torch.utils.cpp_extension import load

            # The lessons' headers are all included with quotes ("kernel.h",
            # "attention.h"). For the C++ compiler their directories go on the
            # quote-only search path (-iquote): with -I, sim/memory.h would stand
            # in for the C library's <memory.h> should a torch or Python header
            # include it. nvcc gets -I, as in the lessons' CMake build (the kernel
            # files include only C and CUDA headers). The ninja file pastes flags
            # into a shell command: quote the paths.
            cflags = ["-O2"] + [shlex.quote("-iquote" + d) for d in INCLUDE_DIRS]
            # -lineinfo: ncu and compute-sanitizer name the .cu lines, as in the lessons' CMake build
            cuda_cflags = ["-O3", "-lineinfo"] + [shlex.quote("-I" + d) for d in INCLUDE_DIRS]
            _ext = load(
                name=EXTENSION_NAME,
                sources=SOURCES,
                extra_cflags=cflags,
                extra_cuda_cflags=cuda_cflags,
                build_directory=build_directory(),
                verbose=verbose,
            )
    return _ext


# ---- lesson 2: scale ---------------------------------------------------------------
class ScaleFunction(torch.autograd.Function):
    """y = 2x. dy/dx = 2, so the backward is the same kernel on the gradient:
    written with ScaleFunction itself, it is differentiable again (gradgradcheck)."""

    @staticmethod
    def forward(ctx, x):
        return extension().scale(x)

    @staticmethod
    def backward(ctx, grad):
        # autograd's gradients are often not contiguous (y.sum().backward()
        # gives an expanded tensor of ones, all strides 0); the kernel reads x[idx]
        return ScaleFunction.apply(grad.contiguous())


def scale(x):
    """y = 2x through lesson 2's kernel (float32: scale_v1, float64: scale_v1_f64)."""
    return ScaleFunction.apply(x)


# ---- lessons 4 and 7: attention ------------------------------------------------------
def dq_strategy():
    """How the backward computes dQ, from $SIMTLAB_DQ: 'atomic' (each key
    block adds its share to dQ with atomicAdd; dQ zeroed first) or 'pass' (the
    main kernel skips dQ and a second kernel, one block per query tile, writes it)."""
    s = os.environ.get("SIMTLAB_DQ", "atomic")
    if s not in ("atomic", "pass"):
        raise ValueError(f"SIMTLAB_DQ={s!r}: expected 'atomic' (dQ by atomicAdd in the main kernel) "
                         "or 'pass' (a separate dQ kernel)")
    return s


class AttentionFunction(torch.autograd.Function):
    """softmax(q k^T / sqrt(d)) v, per (batch, head); fp32 (B, H, N, d), d in {16, 32, 64, 128}."""

    @staticmethod
    def forward(ctx, q, k, v, causal):
        o, l, m = extension().attention_forward(q, k, v, causal)
        # LESSON: what the forward keeps for the backward: q, k, v, o and the
        # row statistics l, m: O(N d) floats a head. Not P (N x N a head):
        # the backward recomputes it tile by tile from l and m.
        ctx.save_for_backward(q, k, v, o, l, m)
        ctx.causal = causal
        return o

    @staticmethod
    @once_differentiable  # the kernels' backward is not itself differentiable
    def backward(ctx, do):
        q, k, v, o, l, m = ctx.saved_tensors
        # autograd may hand over a contiguous view at an offset (the backward of cat narrows
        # it): the kernels load float4s, so give them a 16-byte aligned copy then
        do = do.contiguous()
        if do.data_ptr() % 16:
            do = do.clone()
        dq, dk, dv = extension().attention_backward(q, k, v, o, l, m, do, ctx.causal,
                                                    dq_strategy() == "atomic")
        return dq, dk, dv, None  # None: causal is not a tensor


def _check_inputs(op, named):
    """The C++ op checks these too; checking them here first gives the same
    messages as Python exceptions. (On the H200 build of 2026-12-03 a failed
    TORCH_CHECK inside the attention ops' C++ helpers crashed the process
    instead of raising: docs/NOTES.md. Until that is understood, bad input is
    refused here, before it reaches C++.)"""
    q = named[0][1]
    for name, t in named:
        dims = 3 if name in ("l", "m") else 4
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{op}: {name} is a {type(t).__name__}, not a torch.Tensor")
        if not t.is_cuda:
            raise ValueError(f"{op}: {name} is on {t.device}; the kernels run on a CUDA device: pass {name}.cuda()")
        if t.device != q.device:
            raise ValueError(f"{op}: {name} is on {t.device} but q is on {q.device}: move all tensors to one device")
        if t.dtype != torch.float32:
            kind = {torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16"}.get(t.dtype, str(t.dtype))
            raise ValueError(f"{op}: {name} is {kind}; lessons 4 and 7's kernels are fp32 only: pass {name}.float()")
        want = q.shape if dims == 4 else q.shape[:3]
        if t.dim() != dims or (q.dim() == 4 and t.shape != want):
            raise ValueError(f"{op}: {name} has shape {tuple(t.shape)} but q has {tuple(q.shape)}: q, k, v (and o, do) "
                             "must have the same shape (B, H, N, d), l and m (B, H, N)")
        if not t.is_contiguous():
            raise ValueError(f"{op}: {name} is not contiguous (strides {t.stride()}); the kernels index it row-major, "
                             f"head after head: pass {name}.contiguous()")
        if t.data_ptr() % 16:
            raise ValueError(f"{op}: {name}'s data is not 16-byte aligned (storage offset {t.storage_offset()} "
                             f"elements); the kernels load float4s: pass {name}.clone()")
    if q.dim() != 4:
        raise ValueError(f"{op}: q has shape {tuple(q.shape)}; expected (B, H, N, d)")
    B, H, N, d = q.shape
    if d not in (16, 32, 64, 128):
        raise ValueError(f"{op}: head dimension d = {d}; the kernels are compiled for d in {{16, 32, 64, 128}} (one "
                         "entry point each): pad q, k, v with zeros to the next of these and multiply q by "
                         "sqrt(d_padded / d) to keep the scale 1/sqrt(d)")
    if B * H > 65535:
        raise ValueError(f"{op}: B*H = {B * H} heads; a grid has one block row per head and CUDA allows 65535 "
                         "(gridDim.y): split the batch into calls of at most 65535 heads")


def attention(q, k, v, causal=False):
    """Lesson 4's FlashAttention-2 forward, lesson 7's flash backward v2 under
    autograd. q, k, v: contiguous fp32 CUDA tensors (B, H, N, d), d in
    {16, 32, 64, 128}; scale 1/sqrt(d); causal: query i sees keys j <= i."""
    _check_inputs("simtlab_torch.attention (forward)", [("q", q), ("k", k), ("v", v)])
    return AttentionFunction.apply(q, k, v, bool(causal))


def attention_forward(q, k, v, causal=False):
    """(o, l, m) without autograd: l, m (B, H, N) are each row's softmax sum and maximum."""
    _check_inputs("simtlab_torch.attention (forward)", [("q", q), ("k", k), ("v", v)])
    return extension().attention_forward(q, k, v, bool(causal))


def attention_backward(q, k, v, o, l, m, do, causal=False, dq_atomic=True):
    """(dq, dk, dv) without autograd, from what attention_forward returned."""
    _check_inputs("simtlab_torch.attention (backward)",
                  [("q", q), ("k", k), ("v", v), ("o", o), ("l", l), ("m", m), ("do", do)])
    return extension().attention_backward(q, k, v, o, l, m, do, bool(causal), bool(dq_atomic))


def attention_tiles(N, d):
    """The tiles and shared memory the forward and backward launch with at (N, d)."""
    return extension().attention_tiles(N, d)


__all__ = ["scale", "attention", "attention_forward", "attention_backward", "attention_tiles", "extension",
           "dq_strategy", "ScaleFunction", "AttentionFunction", "build_directory"]
