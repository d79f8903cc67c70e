"""scripts/gpu/sdpa.py - PyTorch's fp32 scaled_dot_product_attention, EFFICIENT
backend, at the shapes lesson 4 times (B=4, H=16, d=64): the GPU baseline of
docs/parity-h200.md. CUDA events, 3 warm-ups, median of 10, L2 flushed."""
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")
flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
print("torch", torch.__version__, torch.cuda.get_device_name(0))
for n in (1024, 2048, 4096):
    B, H, d = 4, 16, 64
    q, k, v = (torch.rand(B, H, n, d, device=dev) * 2 - 1 for _ in range(3))
    with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
        o = torch.nn.functional.scaled_dot_product_attention(q, k, v)
        ref = torch.softmax((q.double() @ k.double().transpose(-1, -2)) / d ** 0.5, -1) @ v.double()
        err = (o.double() - ref).abs().max().item()
        times = []
        for i in range(13):
            flush.zero_()
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            torch.nn.functional.scaled_dot_product_attention(q, k, v)
            b.record()
            torch.cuda.synchronize()
            if i >= 3:
                times.append(a.elapsed_time(b))
    times.sort()
    ms = (times[4] + times[5]) / 2
    flops = 4.0 * n * n * d * B * H
    print(f"sdpa efficient fp32 N={n}: {ms:.3f} ms, {flops / ms / 1e9:.1f} TFLOP/s, max abs err {err:.2e}")
