"""simtlab_torch.check - is the PyTorch op right? On a machine with a CUDA GPU:

    cd lessons/05_torch_stack && python3 -m simtlab_torch.check

(a) scale (lesson 2): torch.autograd.gradcheck and gradgradcheck in float64
    (finite differences against the backward), and exact forward results in
    float32 and float64 (2x is exact in binary floating point).
(b) attention (lesson 4's forward, lesson 7's backward): o, the logsumexp
    m + ln l the forward saves, and dq, dk, dv, for both dQ strategies, are
    compared with torch.nn.functional.scaled_dot_product_attention computed
    in float64 (math backend on .double() inputs; its gradients by float64
    autograd) and with SDPA in fp32. A case passes when every tensor has
        max |ours - ref| <= 2e-4 * max(1, max |ref|)
    against both references. Inputs and dO are randn.

Why no gradcheck of attention: the kernels are fp32 only, and gradcheck's
central differences in fp32 are noise (rounding of ~1e-7 relative, divided by
a step eps ~1e-3, against gradients of ~1). The attention op's gradients are
instead checked against float64 autograd of SDPA: the exact gradient of the
same function, computed 10^9 times more precisely than fp32 can resolve.

Outputs the op allocates (at::empty) are filled with NaN during our calls
(torch.use_deterministic_algorithms + torch.utils.deterministic.
fill_uninitialized_memory), so an element a kernel never writes shows as NaN
and fails, instead of passing with whatever the caching allocator's reused
block held. One PASS/FAIL line per case; the exit status is 1 on any FAIL.
"""
import contextlib
import math
import os
import sys

if __package__ in (None, ""):  # run as a file: make `import simtlab_torch` work
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch
import torch.nn.functional as F
import torch.utils.deterministic  # noqa: F401 - fill_uninitialized_memory
from torch.nn.attention import SDPBackend, sdpa_kernel

import simtlab_torch as st

TOL = 2e-4  # relative to max(1, max |ref|), per tensor
failures = 0
passes = 0


def report(ok, what):
    global failures, passes
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if ok:
        passes += 1
    else:
        failures += 1


def max_err(x, ref):
    """max |x - ref| in float64; NaN if x holds a NaN (never `<= bound`)."""
    if ref.numel() == 0:
        return 0.0
    return (x.detach().double() - ref).abs().max().item()


def bound(ref):
    return TOL * max(1.0, ref.abs().max().item() if ref.numel() else 0.0)


@contextlib.contextmanager
def nan_filled_empty():
    """Inside: torch.empty / at::empty fill new tensors with NaN."""
    det, warn = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    fill = torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(det, warn_only=warn)
        torch.utils.deterministic.fill_uninitialized_memory = fill


def first_line(e):
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


# ---- (a) scale -------------------------------------------------------------------------
def check_scale(dev):
    for shape in ((1,), (7,), (3, 5), (2, 3, 257)):
        x = torch.randn(shape, dtype=torch.float64, device=dev, requires_grad=True)
        try:
            g = torch.autograd.gradcheck(st.scale, (x,), raise_exception=False)
            gg = torch.autograd.gradgradcheck(st.scale, (x,), raise_exception=False)
            detail = f"gradcheck {g}, gradgradcheck {gg}"
        except Exception as e:  # noqa: BLE001 - a launch error is a FAIL line, not a crash
            g = gg = False
            detail = first_line(e)
        report(g and gg, f"scale float64 {tuple(shape)}: {detail} "
                         "(eps 1e-6, atol 1e-5, rtol 1e-3: gradcheck's defaults)")
    n = 1_000_003  # not a multiple of the block (256): the guard matters
    for dtype in (torch.float32, torch.float64):
        x = torch.randn(n, dtype=dtype, device=dev)
        with nan_filled_empty():
            y = st.scale(x)
        report(torch.equal(y, 2 * x), f"scale {dtype} forward, n = {n}: y == 2x exactly")
    x = torch.randn(n, device=dev, requires_grad=True)
    with nan_filled_empty():
        st.scale(x).sum().backward()  # the gradient of sum is expanded (strides 0)
    report(torch.equal(x.grad, torch.full_like(x, 2.0)),
           f"scale float32 backward, n = {n}: x.grad == 2 (from an expanded gradient)")
    report(st.scale(torch.empty(0, device=dev)).numel() == 0, "scale of an empty tensor: an empty tensor, no launch")


# ---- (b) attention ----------------------------------------------------------------------
def reference(q, k, v, do, causal):
    """float64: SDPA's math backend and its autograd; the logsumexp of the scores."""
    qd, kd, vd = (t.double().requires_grad_() for t in (q, k, v))
    with sdpa_kernel(SDPBackend.MATH):
        o = F.scaled_dot_product_attention(qd, kd, vd, is_causal=causal)
    dq, dk, dv = torch.autograd.grad(o, (qd, kd, vd), do.double())
    N, d = q.shape[-2], q.shape[-1]
    s = (qd.detach() @ kd.detach().transpose(-1, -2)) / math.sqrt(d)
    if causal:
        s = s.masked_fill(torch.ones(N, N, dtype=torch.bool, device=q.device).triu(1), -math.inf)
    return {"o": o.detach(), "lse": torch.logsumexp(s, -1), "dq": dq, "dk": dk, "dv": dv}


def sdpa_fp32(q, k, v, do, causal):
    """fp32 SDPA with PyTorch's own choice of backend, and its autograd."""
    q3, k3, v3 = (t.clone().requires_grad_() for t in (q, k, v))
    o = F.scaled_dot_product_attention(q3, k3, v3, is_causal=causal)
    dq, dk, dv = torch.autograd.grad(o, (q3, k3, v3), do)
    return {"o": o.detach(), "dq": dq, "dk": dk, "dv": dv}


def ours(q, k, v, do, causal):
    """Through autograd (dQ as $SIMTLAB_DQ says), then both dQ strategies directly."""
    qo, ko, vo = (t.clone().requires_grad_() for t in (q, k, v))
    with nan_filled_empty():
        o = st.attention(qo, ko, vo, causal=causal)
        dq, dk, dv = torch.autograd.grad(o, (qo, ko, vo), do)
        o2, l, m = st.attention_forward(q, k, v, causal)
        atomic = st.attention_backward(q, k, v, o2, l, m, do, causal, dq_atomic=True)
        dpass = st.attention_backward(q, k, v, o2, l, m, do, causal, dq_atomic=False)
    r = {"o": o, "lse": m.double() + l.double().log(), "dq": dq, "dk": dk, "dv": dv}
    for tag, grads in (("atomic", atomic), ("pass", dpass)):
        for name, g in zip(("dq", "dk", "dv"), grads):
            r[f"{name}_{tag}"] = g
    return r


def check_attention_case(dev, B, H, N, d, causal):
    q, k, v, do = (torch.randn(B, H, N, d, device=dev) for _ in range(4))
    name = f"attention B={B} H={H} N={N} d={d} causal={int(causal)}"
    try:
        ref = reference(q, k, v, do, causal)
        got = ours(q, k, v, do, causal)
        s32 = sdpa_fp32(q, k, v, do, causal)
    except Exception as e:  # noqa: BLE001
        report(False, f"{name}: {first_line(e)}")
        return
    worst, worst_what = 0.0, ""

    def cmp(label, x, r):
        nonlocal worst, worst_what
        e = max_err(x, r)
        ratio = e / bound(r) if e == e else math.inf  # NaN: an unwritten element
        if not ratio <= worst:
            worst, worst_what = ratio, label
        return e

    vs64 = " ".join(f"{t} {cmp(t + ' vs float64', got[t], ref[t]):.1e}" for t in ("o", "lse", "dq", "dk", "dv"))
    strat = " ".join(
        f"{t}_{s} {cmp(t + '_' + s + ' vs float64', got[t + '_' + s], ref[t]):.1e}"
        for s in ("atomic", "pass") for t in ("dq", "dk", "dv"))
    # against fp32 SDPA, with the float64 reference's bound
    vs32 = " ".join(f"{t} {max_err(got[t], s32[t].double()):.1e}" for t in ("o", "dq", "dk", "dv"))
    for t in ("o", "dq", "dk", "dv"):
        e = max_err(got[t], s32[t].double())
        ratio = e / bound(ref[t]) if e == e else math.inf
        if not ratio <= worst:
            worst, worst_what = ratio, t + " vs SDPA fp32"
    sdpa_own = max(max_err(s32[t], ref[t]) / bound(ref[t]) for t in ("o", "dq", "dk", "dv"))
    parts = [f"max|err| vs float64: {vs64}; {strat}", f"vs SDPA fp32: {vs32}",
             f"worst err/bound {worst:.3f} ({worst_what}); SDPA fp32's own vs float64 {sdpa_own:.3f}"]
    report(worst <= 1.0, f"{name}: " + "; ".join(parts))


def attention_cases():
    for B, H in ((1, 1), (2, 3)):
        for N in (1, 17, 64, 100, 257):
            for d in (16, 32, 64, 128):
                for causal in (False, True):
                    yield B, H, N, d, causal
    # longer rows: many key tiles (and many atomic adds into each dQ row)
    yield from ((1, 2, 1000, 64, False), (1, 2, 1000, 64, True), (2, 2, 513, 128, True),
                (1, 1, 2048, 32, False), (1, 2, 4096, 64, True), (1, 1, 4096, 16, False))


def check_saved(dev):
    """The forward keeps O(N d) a head for the backward, never P (N x N)."""
    B, H, N, d = 2, 3, 257, 64
    q, k, v = (torch.randn(B, H, N, d, device=dev, requires_grad=True) for _ in range(3))
    o = st.attention(q, k, v)
    saved = o.grad_fn.saved_tensors
    shapes = [tuple(t.shape) for t in saved]
    ok = shapes == [(B, H, N, d)] * 4 + [(B, H, N)] * 2
    floats = sum(t.numel() for t in saved)
    report(ok, f"saved for backward: {shapes} (q, k, v, o, l, m) = {floats} floats; "
               f"P alone would be B*H*N*N = {B * H * N * N} floats")


def check_graph(dev):
    """A CUDA graph captures only work launched on the capturing stream: a
    launcher that ignored cfg.stream (the legacy default stream) would fail
    the capture. The replay must give the eager result, bit for bit."""
    q, k, v = (torch.randn(1, 2, 300, 64, device=dev) for _ in range(3))
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up off the default stream, as torch.cuda.graph asks
        st.attention_forward(q, k, v)
    torch.cuda.current_stream().wait_stream(side)
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            o, _, _ = st.attention_forward(q, k, v)
        for t in (q, k, v):
            t.copy_(torch.randn_like(t))
        g.replay()
        eager = st.attention_forward(q, k, v)[0]
        torch.cuda.synchronize()
        e = max_err(o, eager.double())
        report(e == 0.0, f"stream: the forward, captured in a CUDA graph on PyTorch's current stream, "
                         f"replays to the eager result (max |diff| {e:.1e})")
    except Exception as e:  # noqa: BLE001
        report(False, f"stream: capturing the forward in a CUDA graph failed: {first_line(e)}")


def check_graph_backward_info(dev):
    """Not a pass/fail case: can the backward (at::zeros, three kernels, and the
    launcher's cudaFuncSetAttribute for > 48 KB of shared memory) be captured?"""
    q, k, v, do = (torch.randn(1, 2, 300, 64, device=dev) for _ in range(4))
    o, l, m = st.attention_forward(q, k, v)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        st.attention_backward(q, k, v, o, l, m, do)
    torch.cuda.current_stream().wait_stream(side)
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            dq, dk, dv = st.attention_backward(q, k, v, o, l, m, do)
        g.replay()
        eager = st.attention_backward(q, k, v, o, l, m, do)
        torch.cuda.synchronize()
        e = max(max_err(a, b.double()) for a, b in zip((dq, dk, dv), eager))
        print(f"INFO the backward captured in a CUDA graph replays; max |diff| to eager {e:.1e} "
              "(dQ by atomics: the order of the adds may differ)", flush=True)
    except Exception as e:  # noqa: BLE001
        print(f"INFO the backward could not be captured in a CUDA graph: {first_line(e)}", flush=True)


def expect_error(what, fn, *needles):
    try:
        fn()
    except (RuntimeError, ValueError) as e:
        msg = first_line(e)
        report(all(n in str(e) for n in needles), f"error, {what}: {msg}")
        return
    report(False, f"error, {what}: no error was raised")


def check_errors(dev):
    r = lambda *s, **kw: torch.randn(*s, device=dev, **kw)  # noqa: E731
    q = r(1, 2, 17, 64)
    expect_error("scale of float16", lambda: st.scale(torch.ones(4, dtype=torch.float16, device=dev)),
                 "Half", "float32")
    expect_error("scale of a CPU tensor", lambda: st.scale(torch.ones(4)), "cpu")
    expect_error("d = 48", lambda: st.attention(*(r(1, 2, 17, 48) for _ in range(3))), "d = 48", "{16, 32, 64, 128}")
    expect_error("float64 inputs", lambda: st.attention(q.double(), q.double(), q.double()), "Double", "fp32")
    expect_error("CPU inputs", lambda: st.attention(q.cpu(), q.cpu(), q.cpu()), "cpu")
    nc = r(1, 17, 2, 64).transpose(1, 2)  # (1, 2, 17, 64) as a view: not contiguous
    expect_error("non-contiguous q", lambda: st.attention(nc, q, q), "contiguous")
    expect_error("k of another shape", lambda: st.attention(q, r(1, 2, 18, 64), q), "same shape")
    odd = r(2 * 17 * 64 + 1)[1:].view(1, 2, 17, 64)  # contiguous, 4 bytes past an aligned address
    expect_error("misaligned q", lambda: st.attention(odd, q, q), "16-byte aligned")
    many = torch.empty(1, 65536, 1, 16, device=dev)
    expect_error("B*H = 65536", lambda: st.attention(many, many, many), "65535")


def main():
    if not torch.cuda.is_available():
        print("FAIL no CUDA device: simtlab_torch runs the lessons' kernels on a GPU")
        return 2
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 SDPA and the reference's matmuls in full fp32
    dev = torch.device("cuda")
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}), {torch.cuda.get_device_name(dev)}")
    st.extension()
    print(f"extension built in {st.build_directory()}")
    print(f"tolerance: per tensor, max |ours - ref| <= {TOL:g} * max(1, max |ref|), ref = SDPA in float64 "
          f"(math backend, float64 autograd) and SDPA in fp32; lse = m + ln l; dq_atomic/dq_pass: the two dQ "
          f"strategies; autograd uses SIMTLAB_DQ={st.dq_strategy()}")
    check_scale(dev)
    check_saved(dev)
    for case in attention_cases():
        check_attention_case(dev, *case)
    check_graph(dev)
    check_errors(dev)
    check_graph_backward_info(dev)  # last: a failed capture should not disturb the cases above
    print(f"{passes} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
