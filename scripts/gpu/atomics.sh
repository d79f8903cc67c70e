#!/usr/bin/env bash
# scripts/gpu/atomics.sh - the parity tests (all of them, the atomics cases
# included) and what the profiler calls its atomic metrics, in one device call:
#   OUT=/some/dir scripts/gpu/atomics.sh    (Criterion carried in .dev/criterion)
set -u
OUT=${OUT:-/tmp/simtlab-gpu}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/simtlab-build
crit=$root/.dev/criterion
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  nvcc --version | tail -2
} >"$OUT/env.txt" 2>&1
cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$OUT/build.txt" 2>&1
cmake --build $B -j16 --target test_parity lesson >>"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; }
echo "build ok"
ncu --query-metrics --chip gh100 2>&1 | grep -E "global_op_(atom|red)|shared_op_atom" >"$OUT/atom-metrics.txt"
cat "$OUT/atom-metrics.txt" | head
LD_LIBRARY_PATH=$crit/lib timeout 400 $B/tests/test_parity --verbose -j1 >"$OUT/parity.txt" 2>&1
echo "parity rc=$?" >>"$OUT/parity.txt"
grep -E "histogram|FAIL|Synthesis|rc=" "$OUT/parity.txt" | head -60
