#!/usr/bin/env bash
# scripts/gpu/s38b.sh - session 38's second device call: NVIDIA's tensor-core samples under
# `simtlab run --mode compare --detail` (the wmma layout and load plan on programs of others).
# The samples are not in the repository: a session puts them, with M/N/K_TILES cut to 16 (256 x
# 256 x 256: the simulator's minutes become seconds) and the Common headers they include, in
# .dev/tcg (git-ignored) and carries it. Needs s38.sh's build in /tmp/bs38 (the same warm machine).
#   OUT=/dir bash scripts/gpu/s38b.sh
set -u
. "$(dirname "$0")/env.sh"
D=${OUT:?}/s38b
gpu_outdir "$D"
B=/tmp/bs38
[ -x $B/simtlab-run ] || { echo "no build in $B: run scripts/gpu/s38.sh first"; exit 1; }
export OMP_NUM_THREADS=16
one() { # NAME SAMPLE [args]
  local n=$1 s=$2
  shift 2
  SIMTLAB_RUN_CACHE=/tmp/rc38 timeout 200 $B/simtlab-run .dev/tcg/$s.cu -I .dev/tcg/Common --mode compare --detail \
    -- "$@" >/tmp/s38b_one.txt 2>&1
  local rc=$?
  { echo "=== $n ($s $*) rc=$rc"; cat /tmp/s38b_one.txt; } >>"$D/samples.txt" # one file: $OUT brings few back
  echo "$n rc=$rc"
  grep -E "Result|PASS|FAIL|differ|agree|error" /tmp/s38b_one.txt | head -8
}
one cuda cudaTensorCoreGemm
one imma immaTensorCoreGemm
for k in 0 1 2; do
  one bf16_k$k bf16TensorCoreGemm -kernel=$k
  one tf32_k$k tf32TensorCoreGemm -kernel=$k
done
for k in 0 1 2 3; do
  one dmma_k$k dmmaTensorCoreGemm -kernel=$k
done
