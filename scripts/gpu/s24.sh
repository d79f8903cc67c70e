#!/usr/bin/env bash
# scripts/gpu/s24.sh - session 24's device call (any card):
#  - the shim's new device code natively, each program's own check and digest line, to set beside
#    `simtlab run`'s (tests/run/simd_video.cu, half.cu, bf16.cu, curand.cu where present);
#  - racecheck on stores of one value to a shared word (same_value_probe.cu, modes 0-3) and on
#    threads whose elements share a word (its `parts` modes 0-2).
#   OUT=/dir bash scripts/gpu/s24.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/s24}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; date -u; } > "$OUT/env.txt"
for p in simd_video launch_kernel half bf16 curand; do
  src=tests/run/$p.cu
  [ -f "$src" ] || continue
  { echo "== $p: nvcc -O2 -arch=sm_90"; nvcc -O2 -arch=sm_90 -o /tmp/$p "$src" 2>&1 && { /tmp/$p; echo "rc=$?"; }; } > "$OUT/$p.txt" 2>&1
done
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/svp scripts/gpu/same_value_probe.cu > "$OUT/same_value.txt" 2>&1
for m in 0 1 2 3 "parts 0" "parts 1" "parts 2"; do
  { echo "== $m"; compute-sanitizer --tool racecheck --racecheck-report all /tmp/svp $m 2>&1 | grep -E "mode|RACECHECK SUMMARY|hazard|Race reported" | sort | uniq -c | head -20; } >> "$OUT/same_value.txt" 2>&1
done
cat "$OUT"/*.txt
