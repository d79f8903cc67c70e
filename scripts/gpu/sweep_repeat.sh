#!/usr/bin/env bash
# scripts/gpu/sweep_repeat.sh - issue 15's flushed DRAM sweep (scripts/gpu/l2.sh, CCS=all, the
# one-pass DRAM set) REPS more times on the H200, so that each launch's chip figure can be a
# median of runs and not one run (session 22: flash v1 at N 512, d 64 causal moves 1.08-1.42 MB
# over six runs). Only on an H200 (else it prints the card and stops) unless ANY_CARD=1.
# Results: $OUT/sweeps.tgz with rep-<r>/l2/ (lessons-all.csv, lessons-runs.txt, env.txt).
#   OUT=/dir REPS=2 bash scripts/gpu/sweep_repeat.sh    (on the device machine, repository root)
set -u
OUT=${OUT:-/tmp/simtlab-sweeps}
REPS=${REPS:-2}
mkdir -p "$OUT"
. "$(dirname "$0")/env.sh"
gpu_require_h200 || exit 3
W=/tmp/sweeps
t0=$(date +%s)
for r in $(seq 1 "$REPS"); do
  CCS=all SKIP_PROBE=1 OUT=$W/rep-$r timeout 270 bash scripts/gpu/l2.sh | tail -2
  echo "rep $r rc=$? at $(($(date +%s) - t0)) s"
  rm -f $W/rep-$r/l2/run-*.txt
  tar czf "$OUT/sweeps.tgz" -C $W .
done
