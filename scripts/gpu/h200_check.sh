#!/usr/bin/env bash
# scripts/gpu/h200_check.sh - the GPU checks of session 22 in one device call (carry .dev:
# scripts/gpu/carry-criterion.sh first):
# 1. tests/run/warp_sync.cu built by nvcc and run natively: does the chip sum a warp's
#    `d[t] += v[t + k]` (plain store, volatile load) right? The simulator now does (vol_arm).
# 2. test_parity --verbose (parity.txt): L1 sectors, wavefronts, atomics, the time model's launches.
# 3. lesson 4 --mode compare at its defaults (compare.txt: the "L2 hit model/hw" column, CUPTI).
# 4. scripts/gpu/run_examples.sh (simtlab run --mode compare of examples/, ncu).
# Results under $OUT; env.txt names the card.
set -u
OUT=${OUT:-/tmp/simtlab-check}
mkdir -p "$OUT"
root=$(pwd)
. "$(dirname "$0")/env.sh"
gpu_env >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
nvcc -arch=sm_90 -O2 -o /tmp/warp_sync tests/run/warp_sync.cu >"$OUT/warp_sync.txt" 2>&1 && /tmp/warp_sync >>"$OUT/warp_sync.txt" 2>&1
echo "warp_sync native rc=$?" | tee -a "$OUT/warp_sync.txt"
B=/tmp/simtlab-build
crit=$root/.dev/criterion
cmake -S "$root" -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" >"$OUT/build.txt" 2>&1
cmake --build $B -j16 --target lesson test_parity >>"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
echo "build ok"
LD_LIBRARY_PATH=$crit/lib OMP_NUM_THREADS=8 timeout 300 $B/tests/test_parity --verbose -j1 >"$OUT/parity.txt" 2>&1
echo "parity rc=$?" | tee -a "$OUT/parity.txt"
tail -2 "$OUT/parity.txt"
OMP_NUM_THREADS=16 timeout 120 $B/lesson 4 --mode compare >"$OUT/compare.txt" 2>&1
echo "compare rc=$?" | tee -a "$OUT/compare.txt"
OUT=$OUT timeout 200 bash scripts/gpu/run_examples.sh 2>&1 | tail -12
