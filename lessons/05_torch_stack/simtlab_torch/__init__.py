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
        dq, dk, dv = extension().attention_backward(q, k, v, o, l, m, do.contiguous(), ctx.causal,
                                                    dq_strategy() == "atomic")
        return dq, dk, dv, None  # None: causal is not a tensor


def attention(q, k, v, causal=False):
    """Lesson 4's FlashAttention-2 forward, lesson 7's flash backward v2 under
    autograd. q, k, v: contiguous fp32 CUDA tensors (B, H, N, d), d in
    {16, 32, 64, 128}; scale 1/sqrt(d); causal: query i sees keys j <= i."""
    return AttentionFunction.apply(q, k, v, bool(causal))


def attention_forward(q, k, v, causal=False):
    """(o, l, m) without autograd: l, m (B, H, N) are each row's softmax sum and maximum."""
    return extension().attention_forward(q, k, v, bool(causal))


def attention_backward(q, k, v, o, l, m, do, causal=False, dq_atomic=True):
    """(dq, dk, dv) without autograd, from what attention_forward returned."""
    return extension().attention_backward(q, k, v, o, l, m, do, bool(causal), bool(dq_atomic))


def attention_tiles(N, d):
    """The tiles and shared memory the forward and backward launch with at (N, d)."""
    return extension().attention_tiles(N, d)


__all__ = ["scale", "attention", "attention_forward", "attention_backward", "attention_tiles", "extension",
           "dq_strategy", "ScaleFunction", "AttentionFunction", "build_directory"]
