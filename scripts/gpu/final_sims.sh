#!/usr/bin/env bash
# scripts/gpu/final_sims.sh - on the device machine (16 cores), one call: the simulator's side of
# the sweep's large runs (lesson 4 at N = 4096 and 8192: runs 16-23 of docs/gpu/l2-run4, 8 at once
# with 2 workers each) and, at low priority beside them, of the time model's full-grid launches
# (docs/gpu/timemodel-val, one at a time with 16 workers). Results: $OUT/valsims (the sweep's) and
# $OUT/val/valsims (the full grids').
set -u
OUT=${OUT:-/tmp/simtlab-final}
SB=/tmp/simtlab-simbuild
mkdir -p "$OUT/val"
cmake -S . -B $SB -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF >"$OUT/build.txt" 2>&1 &&
  cmake --build $SB -j16 --target lesson >>"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
SKIP_BUILD=1 OUT=$OUT/val VAL_RUNS=docs/gpu/timemodel-val/lessons-runs.txt PAR=1 nice -n 19 bash scripts/gpu/val_sims.sh 0 7 &
SKIP_BUILD=1 OUT=$OUT VAL_RUNS=docs/gpu/l2-run4/lessons-runs.txt PAR=8 bash scripts/gpu/val_sims.sh 16 23
wait
