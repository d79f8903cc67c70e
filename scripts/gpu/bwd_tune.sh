#!/usr/bin/env bash
# scripts/gpu/bwd_tune.sh - lesson 7's v2 backward kernel in variants, on the GPU, in one call.
# Each variant is backward.cu built with nvcc and its own -D tuning knobs
# (BWD_V2_MIN_BLOCKS, BWD_V2_FAST_EXP; a variant may also name another copy
# of backward.cu with FILE=path, e.g. one from git history). All are timed by
# scripts/gpu/bwd_tune.cu in ROUNDS interleaved rounds (every variant once a
# round, REPS launches each), then compared with the first variant's dQ, dK,
# dV (max relative difference of a sample: a variant must compute the same),
# counted by ncu (instructions executed, duration, the short-scoreboard
# stall), and set beside PyTorch's fp32 EFFICIENT backward at the same shape
# (fwd+bwd minus fwd, medians of 20 rounds with the L2 flushed, as
# simtlab_torch.bench measures it), timed before and after the rounds.
# Run from the repository root on the device machine:
#   OUT=/dir [ROUNDS=5] [REPS=5] scripts/gpu/bwd_tune.sh 'name:-DKNOB=v ...' ...
# Results in $OUT (few files: the device tool brings back a limited number):
# tune.txt, rounds.txt, ncu.txt, registers.txt, env.txt, builds.tgz (nvcc logs).
set -u
OUT=${OUT:-/tmp/simtlab-tune}
ROUNDS=${ROUNDS:-5}
REPS=${REPS:-5}
mkdir -p "$OUT"
root=$(pwd)
W=/tmp/bwd-tune
mkdir -p $W
. "$(dirname "$0")/env.sh"
gpu_env >"$OUT/env.txt" 2>&1
names=()
for spec in "$@"; do
  name=${spec%%:*} flags=${spec#*:}
  file=$root/lessons/07_backward/backward.cu
  case "$flags" in
  FILE=*) f1=${flags%% *}; file=$root/${f1#FILE=}; if [ "$f1" = "$flags" ]; then flags=""; else flags=${flags#* }; fi ;;
  esac
  names+=("$name")
  # shellcheck disable=SC2086
  (nvcc -arch=sm_90 -O3 -std=c++17 -lineinfo -I"$root/sim" -I"$root/lessons/07_backward" -I"$root/lessons/common" \
     $flags -Xptxas -v "$root/scripts/gpu/bwd_tune.cu" "$file" -o "$W/bt-$name" >"$W/build-$name.txt" 2>&1 ||
     echo "build of $name failed" >>"$W/build-$name.txt") &
done
wait
for n in "${names[@]}"; do
  printf '%-10s %s\n' "$n" "$(grep -A3 "Compiling entry function '_Z15attn_bwd_v2_d64" "$W/build-$n.txt" | grep -oE '[0-9]+ bytes spill stores|Used [0-9]+ registers' | tr '\n' ' ')"
done | tee "$OUT/registers.txt"
tar czf "$OUT/builds.tgz" -C $W $(cd $W && ls build-*.txt)

torch_bwd() { # PyTorch's fp32 EFFICIENT backward at the same shape: fwd+bwd - fwd
  timeout 300 python3 - <<'PY'
import statistics, torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
q, k, v, do = (torch.randn(4, 16, 4096, 64, device="cuda") for _ in range(4))
qs, ks, vs = (t.clone().requires_grad_() for t in (q, k, v))
flush = torch.empty(64 * 1024 * 1024, device="cuda")
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
def timed(f):
    qs.grad = ks.grad = vs.grad = None
    flush.zero_(); s.record(); f(); e.record(); e.synchronize()
    return s.elapsed_time(e)
with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
    fwd = lambda: F.scaled_dot_product_attention(qs, ks, vs)
    fb = lambda: F.scaled_dot_product_attention(qs, ks, vs).backward(do)
    for _ in range(3): timed(fwd); timed(fb)
    tf, tb = [], []
    for r in range(20):
        tf.append(timed(fwd)); tb.append(timed(fb))
print(f"torch_efficient_bwd {statistics.median(tb) - statistics.median(tf):.4f} (fwd+bwd {statistics.median(tb):.4f}, fwd {statistics.median(tf):.4f})")
PY
}
{
  echo "== PyTorch before"
  torch_bwd
  echo "== rounds ($ROUNDS x $REPS launches per variant): tag median_ms min_ms"
  for r in $(seq 1 "$ROUNDS"); do
    for n in "${names[@]}"; do
      [ -x "$W/bt-$n" ] && timeout 120 "$W/bt-$n" "$n" "$REPS" "$W/sample-$n.bin"
    done
  done
  echo "== PyTorch after"
  torch_bwd
} 2>&1 | tee "$OUT/rounds.txt"
python3 - "$W" "$OUT/rounds.txt" "${names[@]}" <<'PY' | tee "$OUT/tune.txt"
import sys, statistics, numpy as np
w, rounds, names = sys.argv[1], sys.argv[2], sys.argv[3:]
t = {n: [] for n in names}; torch = []
for line in open(rounds):
    p = line.split()
    if p and p[0] in t: t[p[0]].append(float(p[1]))
    if p and p[0] == "torch_efficient_bwd": torch.append(float(p[1]))
ref = np.fromfile(f"{w}/sample-{names[0]}.bin", dtype=np.float32)
tb = statistics.median(torch) if torch else float("nan")
print(f"PyTorch EFFICIENT bwd (fwd+bwd - fwd): {', '.join(f'{x:.3f}' for x in torch)} ms")
print(f"{'variant':10s} {'median of round medians':>24s} {'vs first':>9s} {'vs torch':>9s} {'max rel diff vs first':>22s}")
for n in names:
    if not t[n]: print(f"{n:10s} no result"); continue
    m = statistics.median(t[n])
    try:
        x = np.fromfile(f"{w}/sample-{n}.bin", dtype=np.float32)
        diff = float(np.max(np.abs(x - ref)) / np.max(np.abs(ref)))
    except Exception as ex:
        diff = float("nan")
    print(f"{n:10s} {m:24.3f} {m / statistics.median(t[names[0]]):9.3f} {m / tb:9.3f} {diff:22.2e}")
PY
for n in "${names[@]}"; do
  [ -x "$W/bt-$n" ] || continue
  timeout 120 ncu --kernel-name regex:attn_bwd_v2_d64 --launch-count 1 \
    --metrics smsp__inst_executed.sum,gpu__time_duration.sum,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active \
    "$W/bt-$n" "$n" 1 2>&1 | grep -E "smsp__|gpu__time" | sed "s/^/$n /"
done | tee "$OUT/ncu.txt"
