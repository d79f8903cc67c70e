#!/usr/bin/env bash
# scripts/gpu/s23.sh - session 23's device call: the partial-warp probe (any card; survey 6's
# question, docs/NOTES.md) and, on an H200 only, one more flushed DRAM sweep (sweep_repeat.sh).
#   OUT=/dir bash scripts/gpu/s23.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/s23}
mkdir -p "$OUT"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > "$OUT/env.txt"
nvcc -arch=sm_90 -o /tmp/pw scripts/gpu/partial_warp_probe.cu > "$OUT/pw.txt" 2>&1
{ /tmp/pw; echo "rc=$?"; compute-sanitizer --tool synccheck /tmp/pw; echo "rc=$?";
  compute-sanitizer --tool memcheck /tmp/pw; echo "rc=$?"; } >> "$OUT/pw.txt" 2>&1
cat "$OUT/pw.txt"
OUT=$OUT REPS=1 bash scripts/gpu/sweep_repeat.sh
