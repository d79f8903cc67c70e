#!/usr/bin/env bash
# scripts/gpu/s26.sh - session 26's device call (any card): the kernel units are now assembled by
# simtlab-as (sim/inline_as.c), which inlines the hooks' shared-memory counting; on the device
# machine's own gcc and binutils:
#  - the configuration, and the test inline_as (its rewriting, and that the lessons' kernels were
#    assembled by it);
#  - test_parity (Criterion carried in .dev/criterion: scripts/gpu/carry-criterion.sh): the
#    simulator's counts against the chip's, built through the new assembler;
#  - lesson 4 --mode compare at the defaults (counting mode) and --detail.
#   OUT=/dir [S26_CC=/usr/bin/gcc] bash scripts/gpu/s26.sh    (on the device machine, repository root)
# The device machine's environment sets CC=/opt/gcc/bin/gcc, a gcc configured with its own
# assembler (it ignores -B: inline hooks off, configure says so); S26_CC picks another.
set -u
OUT=${OUT:-/tmp/s26}
mkdir -p "$OUT"
root=$(pwd)
B=/tmp/b26
crit=$root/.dev/criterion
export OMP_NUM_THREADS=16
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; "${S26_CC:-${CC:-gcc}}" --version | head -1;
  as --version | head -1; date -u; } > "$OUT/env.txt" 2>&1
[ -n "${S26_CC:-}" ] && export CC=$S26_CC
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
  -DCRITERION_INCLUDE_DIR="$crit/include" -DCRITERION_LIBRARY="$crit/lib/libcriterion.so" > "$OUT/build.txt" 2>&1
timeout 280 cmake --build $B -j16 >> "$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
grep -A9 "simtlab configuration" "$OUT/build.txt" > "$OUT/config.txt"
echo "build ok $(date -u +%T)"
export LD_LIBRARY_PATH=$crit/lib
(cd $B && ctest -R inline_as --output-on-failure) > "$OUT/inline_as.txt" 2>&1
echo "inline_as rc=$?" >> "$OUT/inline_as.txt"
timeout 200 $B/tests/test_parity --verbose -j1 > "$OUT/parity.txt" 2>&1
echo "parity rc=$?" >> "$OUT/parity.txt"
for args in "4 --mode compare --repeats 3" "4 --mode compare --detail --repeats 3"; do
  echo "=== lesson $args"
  timeout 120 $B/lesson $args
  echo "=== rc=$?"
done > "$OUT/compare.txt" 2>&1
cat "$OUT/config.txt"
tail -2 "$OUT/inline_as.txt"
tail -2 "$OUT/parity.txt"
grep -E "^=== " "$OUT/compare.txt"
