#!/usr/bin/env bash
# scripts/gpu/s33c.sh - session 33's third device call: compare mode after the session's fixes:
# tests/run/atomic_aggregate.cu (k_many: atomicInc with ~0u now aggregated, expect every counter
# to agree), tests/run/global_race.cu (the clean kernel's requests no longer split at a volatile
# store's lockstep: expect 20/19 sectors on both sides), tests/run/warp_sync.cu (volatile
# warp-synchronous reductions: the lockstep no longer flushes the warp's requests; its counters
# against the chip's), scripts/gpu/inc_dec_probe.cu, tests/run/cublas.cu (compare mode's pairing
# around cuBLAS calls, by place). Nothing to carry. $OUT/s33c/all.txt.
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s33c
gpu_outdir "$D"
b=/tmp/b-s33c
cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
{
  cat "$D/env.txt"
  for f in tests/run/atomic_aggregate.cu tests/run/global_race.cu tests/run/warp_sync.cu scripts/gpu/inc_dec_probe.cu tests/run/cublas.cu; do
    echo "=== $f --mode compare"
    timeout 150 $b/simtlab-run "$f" --mode compare 2>&1
    echo "rc=$?"
  done
} >"$D/all.txt" 2>&1
grep -h "^=== \|rc=\|differs\|launch [0-9]*:\|agrees" "$D/all.txt" | head -80
