#!/usr/bin/env bash
# scripts/gpu/s33b.sh - session 33's second device call: s33.sh's outputs in one file (the first
# call's came back only in part), and scripts/gpu/inc_dec_probe.cu in compare mode. Nothing to
# carry. $OUT/s33b/all.txt.
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s33b
gpu_outdir "$D"
b=/tmp/b-s32b
if [ ! -x $b/simtlab-run ]; then
  cmake -S . -B $b -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$D/configure.txt" 2>&1
fi
cmake --build $b -j16 --target simtlab-run >"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; exit 1; }
{
  cat "$D/env.txt"
  echo "=== inc_dec_probe --mode compare"
  timeout 150 $b/simtlab-run scripts/gpu/inc_dec_probe.cu --mode compare 2>&1
  echo "rc=$?"
  echo "=== tests/run/cublas.cu --mode compare"
  timeout 250 $b/simtlab-run tests/run/cublas.cu --mode compare 2>&1
  echo "rc=$?"
} >"$D/all.txt" 2>&1
grep -h "inc_dec_probe:\|launch [0-9]*:\|launches\|global atomic sectors\|rc=" "$D/all.txt" | head -40
