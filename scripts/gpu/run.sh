#!/usr/bin/env bash
# scripts/gpu/run.sh - everything simtlab asks of a GPU, in one call.
# Builds with the CUDA backend, runs the lessons in --mode compare, the parity
# tests, compute-sanitizer memcheck/racecheck on every lesson kernel, and the
# timings of docs/parity-h200.md (lesson 4 at B=4, H=16, d=64 against
# PyTorch's fp32 scaled_dot_product_attention, EFFICIENT backend).
# Run from the repository root, on the device machine (see docs/NOTES.md):
#   OUT=/some/dir scripts/gpu/run.sh [all|lessons]   (Criterion carried in .dev/criterion)
# `lessons` builds and runs only lessons 1, 5 and 6 in --mode cuda (lessons-cuda.txt);
# `timing` only the lesson 4 / PyTorch timings (timing.txt).
set -u
stage=${1:-all}
OUT=${OUT:-/tmp/simtlab-gpu}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/simtlab-build
L=$B/lesson
crit=$root/.dev/criterion
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}

. "$(dirname "$0")/env.sh"
{
  gpu_env
  uname -r
} >"$OUT/env.txt" 2>&1

echo "== build" >"$OUT/build.txt"
cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >>"$OUT/build.txt" 2>&1
cmake --build $B -j16 >>"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; }
echo "build ok"

run() { echo "=== $*"; timeout 300 "$@"; echo "=== rc=$?"; }
timing() {
  {
    for n in 1024 2048 4096; do
      run $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n $n --no-counters --repeats 10 --json
    done
    # the last wave: v2 without the split, and 60 heads (exactly 5 waves of 264 blocks)
    run $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 10 --version v2 --v2-splits 1
    run $L 4 --mode cuda --batch 4 --heads 15 --d 64 --n 4096 --no-counters --repeats 10 --version v2 --v2-splits 1
    # larger K/V tiles (Bc = 192 keys, two blocks an SM still fit)
    run $L 4 --mode cuda --batch 4 --heads 16 --d 64 --n 4096 --no-counters --repeats 10 --version v2 --sram 96k
    echo "=== sdpa"
    python3 "$root/scripts/gpu/sdpa.py"
  } >"$OUT/timing.txt" 2>&1
  grep -E 'sdpa' "$OUT/timing.txt" | tail -4
}
if [ "$stage" = timing ]; then timing; exit 0; fi
{
  run $L 1 --mode cuda
  run $L 5 --mode cuda
  run $L 6 --mode cuda
  run $L 6 --mode compare
} >"$OUT/lessons-cuda.txt" 2>&1
grep -E "^=== |PASS|FAIL" "$OUT/lessons-cuda.txt" | tail -20
[ "$stage" = lessons ] && exit 0
{
  run $L 2 --mode compare --n 1000000
  run $L 2 --mode compare --n 1000 --block 128
  run $L 3 --mode compare --rows 64 --cols 2048
  run $L 4 --mode compare --n 256 --repeats 3
  run $L 4 --mode compare --n 1000 --d 64 --causal --repeats 3
  run $L 4 --mode compare --n 512 --d 128 --repeats 3
  run $L 4 --mode compare --n 130 --d 32 --batch 2 --repeats 3
  run $L 4 --mode compare --n 1024 --json --repeats 3
  run $L 4 --mode compare --n 500 --causal --version v2 --v2-splits 3 --repeats 3
} >"$OUT/compare.txt" 2>&1
echo "compare done"

LD_LIBRARY_PATH=$crit/lib timeout 400 $B/tests/test_parity --verbose -j1 >"$OUT/parity.txt" 2>&1
echo "parity rc=$?" >>"$OUT/parity.txt"
tail -3 "$OUT/parity.txt"

{
  for tool in memcheck racecheck; do
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 2 --mode cuda --n 100000
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 3 --mode cuda --rows 8 --cols 1000
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 4 --mode cuda --n 130 --no-counters --repeats 0
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 4 --mode cuda --n 200 --d 128 --causal --no-counters --repeats 0
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 4 --mode cuda --n 300 --causal --version v2 --v2-splits 3 --no-counters --repeats 0
  done
  run compute-sanitizer --tool synccheck --error-exitcode 9 $L 4 --mode cuda --n 130 --no-counters --repeats 0
  for tool in memcheck racecheck; do
    run compute-sanitizer --tool $tool --error-exitcode 9 $L 6 --mode cuda --n 5000 --rows 64 --cols 781
  done
} >"$OUT/sanitizer.txt" 2>&1
grep -E "ERROR SUMMARY|=== rc" "$OUT/sanitizer.txt" | head -30

timing
