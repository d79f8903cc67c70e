#!/usr/bin/env bash
# scripts/gpu/half_parity.sh - on a GPU machine (the device tool), from the repository root:
# builds the half-precision and bfloat16 test programs with nvcc -O2 -arch=sm_90, runs them, and
# writes under $OUT (default /tmp/half-parity):
#   env.txt              the card, driver and nvcc
#   <name>.build.txt     nvcc's output
#   <name>.gpu.txt       the program's output on the GPU (rc in its last line)
#   summary.txt          each digest line beside the simulator's (tests/run/half.digests): "same"
#                        or "DIFFERS"; the exact parts (f16, bf16, the last line) should be the same,
#                        attention and math may differ in a last bit (the program says why)
#   OUT=/some/dir scripts/gpu/half_parity.sh
set -u
OUT=${OUT:-/tmp/half-parity}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
PROGRAMS="tests/run/half.cu" # tests/run/half.cu covers __half and __nv_bfloat16 both
{
  date -u +"%Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
  nvcc --version | tail -2
} >"$OUT/env.txt" 2>&1
: >"$OUT/summary.txt"
# the digest lines' part (f16, bf16, attention, math; "all" for the last line) and hash
digests() { awk '/^half: digest / { if (length($3) == 16) print "all", $3; else print $3, $4 }' "$1"; }
# compare <the simulator's digests> <the GPU's output>: a line a part
compare() {
  digests "$2" >/tmp/half-parity-got.txt
  digests "$1" | while read -r key hash; do
    got=$(awk -v k="$key" '$1 == k { print $2 }' /tmp/half-parity-got.txt)
    echo "  $key: $([ "$got" = "$hash" ] && echo same || echo DIFFERS) (simulator $hash, GPU ${got:-none})"
  done
}
for src in $PROGRAMS; do
  name=$(basename "$src" .cu)
  bin=/tmp/half-parity-$name
  if ! nvcc -O2 -arch=sm_90 -o "$bin" "$src" >"$OUT/$name.build.txt" 2>&1; then
    echo "$name: nvcc failed (see $name.build.txt)" | tee -a "$OUT/summary.txt"
    tail -20 "$OUT/$name.build.txt"
    continue
  fi
  timeout 300 "$bin" >"$OUT/$name.gpu.txt" 2>&1
  rc=$?
  echo "rc=$rc" >>"$OUT/$name.gpu.txt"
  echo "$name: rc=$rc, $(grep -E "^half: (correct|WRONG)$" "$OUT/$name.gpu.txt" | tail -1)" | tee -a "$OUT/summary.txt"
  want=tests/run/$name.digests
  [ -f "$want" ] && compare "$want" "$OUT/$name.gpu.txt" | tee -a "$OUT/summary.txt"
  grep -E "WRONG" "$OUT/$name.gpu.txt" | head -20 | tee -a "$OUT/summary.txt"
done
