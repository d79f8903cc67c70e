#!/usr/bin/env bash
# scripts/gpu/backward.sh - lesson 7 (attention backward) on the GPU, in one call.
# Builds with the CUDA backend; runs lesson 7 in --mode compare --detail (every
# backward kernel's L1 sectors, shared wavefronts and bank conflicts beside the
# simulator's: compare.txt), compute-sanitizer memcheck / racecheck / synccheck
# on every kernel (sanitizer.txt), the timings of issue 16 (B=4, H=16, N=4096,
# d=64, fp32: standard vs flash v2 with each dQ strategy; timing.txt), and,
# when PyTorch is there, the PyTorch op (scripts/gpu/torch_op.sh: torch-*.txt).
# Run from the repository root on the device machine:
#   OUT=/some/dir scripts/gpu/backward.sh [all|compare|timing|torch]
set -u
stage=${1:-all}
OUT=${OUT:-/tmp/simtlab-bwd}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/simtlab-build
L=$B/lesson
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}

{
  date -u +"%Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -2
} >"$OUT/env.txt" 2>&1

cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DSIMTLAB_TESTS=OFF >"$OUT/build.txt" 2>&1
cmake --build $B -j16 --target lesson >>"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; }
echo "build ok"

run() { echo "=== $*"; timeout 300 "$@"; echo "=== rc=$?"; }

if [ "$stage" = all ] || [ "$stage" = compare ]; then
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
  {
    for tool in memcheck racecheck; do
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 130 --no-counters --repeats 0
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 200 --d 128 --causal --no-counters --repeats 0
      run compute-sanitizer --tool $tool --error-exitcode 9 $L 7 --mode cuda --n 100 --d 32 --causal --version v2 --dq pass --no-counters --repeats 0
    done
    run compute-sanitizer --tool synccheck --error-exitcode 9 $L 7 --mode cuda --n 130 --causal --no-counters --repeats 0
  } >"$OUT/sanitizer.txt" 2>&1
  grep -E "ERROR SUMMARY|=== rc" "$OUT/sanitizer.txt" | head -30
fi

if [ "$stage" = all ] || [ "$stage" = timing ]; then
  {
    for dq in atomic pass; do
      run $L 7 --mode cuda --batch 4 --heads 16 --n 4096 --d 64 --version standard,v2 --dq $dq --no-counters --repeats 10
    done
    run $L 7 --mode cuda --batch 4 --heads 16 --n 4096 --d 64 --causal --version standard,v2 --no-counters --repeats 10
  } >"$OUT/timing.txt" 2>&1
  grep -E "^=== |^    (standard|v2) +[0-9.]+ [KMG]B|-> (PASS|FAIL)" "$OUT/timing.txt"
fi

if { [ "$stage" = all ] || [ "$stage" = torch ]; } && [ -x "$root/scripts/gpu/torch_op.sh" ]; then
  OUT="$OUT" "$root/scripts/gpu/torch_op.sh"
fi
