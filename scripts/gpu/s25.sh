#!/usr/bin/env bash
# scripts/gpu/s25.sh - session 25's device call (any card): detailed mode's warp requests now come
# from per-lane logs joined at the warp's flush (sim/access.c, "the log"), so its counts are
# checked against the chip again:
#  - test_parity, the simulator's warp-level counts against Nsight Compute's on the same kernels
#    (Criterion carried in .dev/criterion: scripts/gpu/carry-criterion.sh);
#  - counters/log_matches_table (the log against the table, on this machine's 16 workers);
#  - lesson 4 --mode compare --detail at the defaults and causal, and lesson 3's: every version's
#    sectors, wavefronts and bank conflicts beside the GPU's.
#   OUT=/dir bash scripts/gpu/s25.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/s25}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/b25
crit=$root/.dev/criterion
export OMP_NUM_THREADS=16
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; date -u; } > "$OUT/env.txt" 2>&1
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" > "$OUT/build.txt" 2>&1
timeout 280 cmake --build $B -j16 >> "$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
timeout 200 $B/tests/test_parity --verbose -j1 > "$OUT/parity.txt" 2>&1
echo "parity rc=$?" >> "$OUT/parity.txt"
timeout 60 $B/tests/test_counters -j1 --verbose --filter 'counters/log_matches_table' > "$OUT/log_matches_table.txt" 2>&1
echo "rc=$?" >> "$OUT/log_matches_table.txt"
for args in "4 --mode compare --detail --repeats 3" "4 --mode compare --detail --causal --n 512 --repeats 3" \
  "3 --mode compare --detail --rows 64 --cols 2048"; do
  echo "=== lesson $args"
  timeout 120 $B/lesson $args
  echo "=== rc=$?"
done > "$OUT/compare.txt" 2>&1
tail -3 "$OUT/parity.txt"
tail -2 "$OUT/log_matches_table.txt"
grep -E "^=== " "$OUT/compare.txt"
