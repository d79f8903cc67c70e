"""simtlab_torch.bench - our attention backward against PyTorch's fp32 EFFICIENT attention.

    cd lessons/05_torch_stack && python3 -m simtlab_torch.bench [--n 1024 2048 4096] [--causal]

At B=4, H=16, d=64, fp32, TF32 off (torch.backends.cuda.matmul.allow_tf32 =
False), for each N, times these contenders:
    ours bwd (dQ atomic)   the extension's backward alone, on the forward's saved o, l, m
    ours bwd (dQ pass)     the same with the separate dQ kernel
    ours fwd               simtlab_torch.attention (autograd records, saves q k v o l m)
    ours fwd+bwd           o = simtlab_torch.attention(q, k, v); o.backward(do)
    sdpa fwd               F.scaled_dot_product_attention under SDPBackend.EFFICIENT_ATTENTION
    sdpa fwd+bwd           the same, then o.backward(do)
PyTorch's backward alone is not a Python call, so it is reported as
median(fwd+bwd) - median(fwd), and ours through autograd the same way. Ours
"alone" is the whole of attention_backward: the zeroing of dQ (atomic), the
pre-pass, the main kernel (and the dQ pass), and the allocations.

Method: warm-up (3 calls each), then --rounds rounds; each round times every
contender once, in an order rotated by one each round (no contender always
runs first, or right after the same other one), with the L2 cache flushed
before every timed call (zero_() of a 256 MiB buffer, larger than the H200's
60 MB L2); CUDA events around the call alone. Gradients are set to None
before each fwd+bwd call (outside the events), so backward allocates them
rather than adding into old ones. Medians are printed, with the min and max.
"""
import argparse
import os
import statistics
import sys

if __package__ in (None, ""):  # run as a file: make `import simtlab_torch` work
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import simtlab_torch as st


def flops(B, H, N, d, causal, per_pair):
    """per_pair FLOPs for each visible (query, key) pair: 4 d forward
    (QK^T and PV), 10 d flash backward (S recomputed, dP, dV, dQ, dK)."""
    pairs = N * (N + 1) / 2 if causal else N * N
    return per_pair * d * pairs * B * H


def bench_shape(B, H, N, d, causal, rounds, flush, dev):
    q0, k0, v0, do = (torch.randn(B, H, N, d, device=dev) for _ in range(4))
    # leaves for the autograd contenders (ours and PyTorch's use their own copies)
    ql, kl, vl = (t.clone().requires_grad_() for t in (q0, k0, v0))
    qs, ks, vs = (t.clone().requires_grad_() for t in (q0, k0, v0))
    o_saved, l_saved, m_saved = st.attention_forward(q0, k0, v0, causal)

    def clear(*ts):
        for t in ts:
            t.grad = None

    def ours_fwd_bwd():
        st.attention(ql, kl, vl, causal).backward(do)

    def sdpa_fwd_bwd():
        F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal).backward(do)

    # name -> (prepare: outside the events, run: timed)
    contenders = {
        "ours bwd (dQ atomic)": (None, lambda: st.attention_backward(q0, k0, v0, o_saved, l_saved, m_saved, do,
                                                                     causal, dq_atomic=True)),
        "ours bwd (dQ pass)": (None, lambda: st.attention_backward(q0, k0, v0, o_saved, l_saved, m_saved, do,
                                                                   causal, dq_atomic=False)),
        "ours fwd": (None, lambda: st.attention(ql, kl, vl, causal)),
        "ours fwd+bwd": (lambda: clear(ql, kl, vl), ours_fwd_bwd),
        "sdpa fwd": (None, lambda: F.scaled_dot_product_attention(qs, ks, vs, is_causal=causal)),
        "sdpa fwd+bwd": (lambda: clear(qs, ks, vs), sdpa_fwd_bwd),
    }
    names = list(contenders)
    times = {n: [] for n in names}
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def timed(name):
        prepare, run = contenders[name]
        if prepare:
            prepare()
        flush.zero_()
        start.record()
        run()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    for name in names:  # warm-up: module loading, cudaFuncSetAttribute, the allocator's blocks
        for _ in range(3):
            timed(name)
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for name in order:
            times[name].append(timed(name))

    # a sanity check at this shape: ours against PyTorch's efficient kernel (not a pass/fail)
    clear(ql, kl, vl, qs, ks, vs)
    ours_fwd_bwd()
    sdpa_fwd_bwd()
    o_ours = st.attention(ql.detach(), kl.detach(), vl.detach(), causal)
    o_sdpa = F.scaled_dot_product_attention(qs.detach(), ks.detach(), vs.detach(), is_causal=causal)
    diffs = {"o": (o_ours - o_sdpa).abs().max().item()}
    for n, a, b in (("dq", ql, qs), ("dk", kl, ks), ("dv", vl, vs)):
        diffs[n] = (a.grad - b.grad).abs().max().item()

    med = {n: statistics.median(times[n]) for n in names}
    med["ours bwd (autograd) = fwd+bwd - fwd"] = med["ours fwd+bwd"] - med["ours fwd"]
    med["sdpa bwd = fwd+bwd - fwd"] = med["sdpa fwd+bwd"] - med["sdpa fwd"]
    f_fwd, f_bwd = flops(B, H, N, d, causal, 4), flops(B, H, N, d, causal, 10)
    work = {"ours bwd (dQ atomic)": f_bwd, "ours bwd (dQ pass)": f_bwd, "ours fwd": f_fwd,
            "ours fwd+bwd": f_fwd + f_bwd, "sdpa fwd": f_fwd, "sdpa fwd+bwd": f_fwd + f_bwd,
            "ours bwd (autograd) = fwd+bwd - fwd": f_bwd, "sdpa bwd = fwd+bwd - fwd": f_bwd}

    tiles = st.attention_tiles(N, d)
    print(f"\nB={B} H={H} N={N} d={d} causal={int(causal)} fp32, TF32 off; {rounds} rounds, L2 flushed before each "
          f"call; forward tiles Br={tiles['forward_br']} Bc={tiles['forward_bc']} "
          f"({tiles['forward_threads']} threads), backward Br={tiles['backward_br']} Bc={tiles['backward_bc']} "
          f"({tiles['backward_threads']} threads, {tiles['backward_shared_bytes'] / 1024:.1f} KB shared)")
    print(f"  {'contender':40s} {'median ms':>10s} {'min':>8s} {'max':>8s} {'TFLOP/s':>8s}")
    for n, ms in med.items():
        lo, hi = (f"{min(times[n]):8.3f}", f"{max(times[n]):8.3f}") if n in times else ("", "")
        print(f"  {n:40s} {ms:10.3f} {lo:>8s} {hi:>8s} {work[n] / ms / 1e9:8.1f}")
    print("  (TFLOP/s: 4 d FLOPs a visible (query, key) pair forward, 10 d backward, as FlashAttention-2 counts;"
          " the dQ pass computes S and dP twice, 14 d, but is credited the same 10 d)")
    print("  ours vs sdpa efficient, max |diff|: " + ", ".join(f"{n} {e:.1e}" for n, e in diffs.items()))
    sb = med["sdpa bwd = fwd+bwd - fwd"]
    print(f"summary N={N} causal={int(causal)}: ours_bwd / pytorch_efficient_bwd = "
          f"{med['ours bwd (dQ atomic)'] / sb:.2f} (dQ atomic), {med['ours bwd (dQ pass)'] / sb:.2f} (dQ pass), "
          f"{med['ours bwd (autograd) = fwd+bwd - fwd'] / sb:.2f} (autograd, SIMTLAB_DQ={st.dq_strategy()}); "
          f"ours_fwd / pytorch_efficient_fwd = {med['ours fwd'] / med['sdpa fwd']:.2f}; "
          f"ours_fwd_bwd / pytorch_efficient_fwd_bwd = {med['ours fwd+bwd'] / med['sdpa fwd+bwd']:.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[1024, 2048, 4096], help="sequence lengths")
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=16)
    ap.add_argument("--d", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--causal", action="store_true", help="causal attention (default: not)")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: the benchmark needs a GPU")
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.manual_seed(0)
    dev = torch.device("cuda")
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}), {torch.cuda.get_device_name(dev)}")
    st.extension()
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    # only the EFFICIENT backend for PyTorch's calls (an error if it cannot run a shape);
    # our op does not go through SDPA, so the setting does not touch it
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
        for n in a.n:
            bench_shape(a.batch, a.heads, n, a.d, a.causal, a.rounds, flush, dev)
    return 0


if __name__ == "__main__":
    sys.exit(main())
