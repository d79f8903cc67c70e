#!/usr/bin/env bash
# scripts/gpu/backward.sh - lesson 7 (attention backward) on the GPU, in one call.
# Builds with the CUDA backend; runs lesson 7 in --mode compare --detail (every
# backward kernel's L1 sectors, shared wavefronts and bank conflicts beside the
# simulator's: compare.txt), compute-sanitizer memcheck / racecheck / synccheck
# on every kernel (sanitizer.txt), the timings of issue 16 (B=4, H=16, N=4096,
# d=64, fp32: standard vs flash v2 with each dQ strategy; timing.txt), and,
# when PyTorch is there, the PyTorch op (scripts/gpu/torch_op.sh: torch-*.txt).
# Stages outside `all`: `parity` builds the tests too (Criterion carried in
# .dev/criterion: scripts/gpu/carry-criterion.sh) and runs the parity/backward
# suite (parity-bwd.txt); `profile` runs Nsight Compute's full set with source
# counters on attn_bwd_v2_d64 at B=4 H=16 N=4096 and on PyTorch's fp32
# EFFICIENT backward kernel at the same shape (profile-*.txt: details, and
# the SASS with stall samples per instruction).
# Stages run in the order given (all = compare sanitizer timing torch), each
# writing its files to $OUT as it ends, so a call cut short keeps what ran.
# Run from the repository root on the device machine:
#   OUT=/some/dir [DQ=atomic] [BENCH_ARGS='--n 4096'] scripts/gpu/backward.sh [all|compare|sanitizer|timing|torch|parity|profile]...
set -u
OUT=${OUT:-/tmp/simtlab-bwd}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/simtlab-build
L=$B/lesson
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}

. "$(dirname "$0")/env.sh"
gpu_env >"$OUT/env.txt" 2>&1

crit=$root/.dev/criterion
case " $* " in
*" parity "*)
  cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$OUT/build.txt" 2>&1
  cmake --build $B -j16 --target lesson test_parity >>"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; } ;;
*)
  cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DSIMTLAB_TESTS=OFF >"$OUT/build.txt" 2>&1
  cmake --build $B -j16 --target lesson >>"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; } ;;
esac
echo "build ok"

run() { echo "=== $*"; timeout 300 "$@"; echo "=== rc=$?"; }

stage_compare() {
  {
    run $L 7 --mode compare --detail --n 256 --repeats 3
    run $L 7 --mode compare --detail --n 300 --d 32 --causal --repeats 3
    run $L 7 --mode compare --detail --n 200 --d 128 --batch 2 --repeats 3
    run $L 7 --mode compare --detail --n 257 --d 16 --causal --version v2 --dq pass --repeats 3
    run $L 7 --mode compare --detail --n 1000 --d 64 --causal --version standard,v2 --repeats 3
    run $L 7 --mode compare --n 1024 --heads 2 --repeats 3 --json
  } >"$OUT/compare.txt" 2>&1
  # parity: every "sim/hw" pair equal ("=") in the compare tables; "!" marks a difference
  grep -cE "^\s+attn_bwd\S+\s+[0-9]+ = [0-9]+\s+[0-9]+ = [0-9]+" "$OUT/compare.txt" | sed 's/^/kernels with equal ld and st sectors: /'
  grep -E "^\s+attn_bwd\S+ .* ! " "$OUT/compare.txt" | head -20
  grep -E "^=== |^PASS|^FAIL" "$OUT/compare.txt" | tail -14
}

stage_sanitizer() {
  {
    for tool in memcheck racecheck; do
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 130 --no-counters --repeats 0
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 200 --d 128 --causal --no-counters --repeats 0
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 100 --d 32 --causal --version v2 --dq pass --no-counters --repeats 0
    done
    run compute-sanitizer --tool synccheck --error-exitcode 9 $L 7 --mode cuda --n 130 --causal --no-counters --repeats 0
  } >"$OUT/sanitizer.txt" 2>&1
  grep -E "ERROR SUMMARY|=== rc" "$OUT/sanitizer.txt" | head -30
}

stage_timing() {
  {
    for dq in ${DQ:-atomic pass}; do
      run $L 7 --mode cuda --batch 4 --heads 16 --n 4096 --d 64 --version standard,v2 --dq $dq --no-counters --repeats 10
    done
    run $L 7 --mode cuda --batch 4 --heads 16 --n 4096 --d 64 --causal --version standard,v2 --no-counters --repeats 10
  } >"$OUT/timing.txt" 2>&1
  grep -E "^=== |^    (standard|v2) +[0-9.]+ [KMG]B|-> (PASS|FAIL)" "$OUT/timing.txt"
}

stage_torch() {
  [ -x "$root/scripts/gpu/torch_op.sh" ] || return 0
  OUT="$OUT" "$root/scripts/gpu/torch_op.sh"
}

stage_parity() {
  LD_LIBRARY_PATH=$crit/lib timeout 400 $B/tests/test_parity --verbose -j1 --filter 'parity/backward*' >"$OUT/parity-bwd.txt" 2>&1
  echo "parity rc=$?" >>"$OUT/parity-bwd.txt"
  grep -E "^\[(FAIL|PASS|====)\]|rc=|Assertion|failed" "$OUT/parity-bwd.txt" | tail -12
}

stage_profile() {
  args=(7 --mode cuda --batch 4 --heads 16 --n 4096 --d 64 --version v2 --no-counters --repeats 0)
  timeout 300 ncu --kernel-name regex:attn_bwd_v2_d64 --launch-count 1 --set full --import-source yes \
    -o /tmp/bwdprof -f $L "${args[@]}" >"$OUT/profile-run.txt" 2>&1
  echo "ncu ours rc=$?"
  ncu -i /tmp/bwdprof.ncu-rep --page details >"$OUT/profile-ours.txt" 2>&1
  ncu -i /tmp/bwdprof.ncu-rep --page source --csv --print-source sass >"$OUT/profile-ours-sass.csv" 2>&1
  cat >/tmp/sdpa_bwd.py <<'PY'
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
torch.manual_seed(0)
q, k, v = (torch.rand(4, 16, 4096, 64, device="cuda", dtype=torch.float32, requires_grad=True) for _ in range(3))
with sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION):
    o = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    o.backward(torch.rand_like(o))
torch.cuda.synchronize()
print("ok")
PY
  timeout 300 ncu --kernel-name regex:'fmha.*[Bb]ackward|fmha_cutlassB' --launch-count 1 --set full \
    -o /tmp/torchprof -f python3 /tmp/sdpa_bwd.py >"$OUT/profile-torch-run.txt" 2>&1
  echo "ncu torch rc=$?"
  ncu -i /tmp/torchprof.ncu-rep --page details >"$OUT/profile-torch.txt" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Executed Ipc A|Issue Slots Busy|Block Limit" \
    "$OUT/profile-ours.txt" "$OUT/profile-torch.txt" | head -40
}

[ $# -eq 0 ] && set -- all
for st in "$@"; do
  if [ "$st" = all ]; then
    stage_compare; stage_sanitizer; stage_timing; stage_torch
  elif declare -F "stage_$st" >/dev/null; then
    echo "== $st $(date -u +%H:%M:%S)"
    "stage_$st"
  else
    echo "backward.sh: unknown stage '$st' (all, compare, sanitizer, timing, torch, parity, profile)" >&2
    exit 2
  fi
done
