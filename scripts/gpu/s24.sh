#!/usr/bin/env bash
# scripts/gpu/s24.sh - session 24's device call (any card):
#  - the shim's new device code natively, each program's own check and digest line, beside
#    `simtlab run`'s of the same programs (simd_video.cu, launch_kernel.cu, curand.cu; half.cu
#    through half_parity.sh, curand through curand_parity.sh where present);
#  - racecheck on stores of one value to a shared word (same_value_probe.cu, modes 0-3) and on
#    threads whose elements share a word (its `parts` modes 0-2).
#   OUT=/dir bash scripts/gpu/s24.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/s24}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; date -u; } > "$OUT/env.txt"
for p in simd_video dpx launch_kernel curand; do
  src=tests/run/$p.cu
  [ -f "$src" ] || continue
  { echo "== $p: nvcc -O2 -arch=sm_90"; nvcc -O2 -arch=sm_90 -o /tmp/$p "$src" 2>&1 && { /tmp/$p; echo "rc=$?"; }; } > "$OUT/$p.txt" 2>&1
done
nvcc -O2 -arch=sm_90 -lineinfo -o /tmp/svp scripts/gpu/same_value_probe.cu > "$OUT/same_value.txt" 2>&1
for m in 0 1 2 3 "parts 0" "parts 1" "parts 2"; do
  { echo "== $m"; compute-sanitizer --tool racecheck --racecheck-report all /tmp/svp $m 2>&1 | grep -E "mode|RACECHECK SUMMARY|hazard|Race reported" | sort | uniq -c | head -20; } >> "$OUT/same_value.txt" 2>&1
done
OUT=$OUT/half bash scripts/gpu/half_parity.sh > /dev/null 2>&1
[ -f scripts/gpu/curand_parity.sh ] && OUT=$OUT bash scripts/gpu/curand_parity.sh > /dev/null 2>&1
# the simulator's digests of the same programs, for the side by side (same build, this machine)
cmake -S . -B /tmp/b24 -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/b24.log 2>&1 &&
  cmake --build /tmp/b24 -j16 --target simtlab-run >> /tmp/b24.log 2>&1 &&
  for p in simd_video dpx launch_kernel curand; do
    [ -f tests/run/$p.cu ] && /tmp/b24/simtlab-run tests/run/$p.cu > "$OUT/$p.sim.txt" 2>&1
  done
cat "$OUT"/*.txt "$OUT"/half/summary.txt "$OUT"/curand/*.txt 2>/dev/null | grep -v "^   " 
