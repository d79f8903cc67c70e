#!/usr/bin/env bash
# scripts/gpu/val_sims.sh - on the device machine (16 cores): the simulator's side of runs that
# take half an hour on a 2-core machine: the time model's full-grid launches (scripts/gpu/timemodel.sh,
# part B: lesson 4 at --batch 4 --heads 16), or the sweep's large runs. Runs FIRST..LAST of VAL_RUNS
# (a lessons-runs.txt, its "none" lines), PAR at a time with 16 / PAR workers each (PAR=8 for the
# sweep's N = 4096 and 8192: flash v1's grid has 2 blocks, more workers would idle).
#   OUT=/dir VAL_RUNS=docs/gpu/timemodel-val/lessons-runs.txt [PAR=1] bash scripts/gpu/val_sims.sh [first] [last]
set -u
OUT=${OUT:-/tmp/simtlab-val}
D=$OUT/valsims
mkdir -p "$D"
first=${1:-0} last=${2:-999}
PAR=${PAR:-1}
n=0
SB=/tmp/simtlab-simbuild
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B $SB -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF >"$D/build.txt" 2>&1 &&
    cmake --build $SB -j16 --target lesson >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
fi
while read -r cc i rc _ args; do
  [ "$cc" = none ] && [ "$i" -ge "$first" ] && [ "$i" -le "$last" ] || continue
  # shellcheck disable=SC2086
  set -- $(printf '%s' "$args" | sed 's/--mode cuda//; s/--repeats 0//; s/--no-counters//')
  (
    s=$(date +%s)
    OMP_NUM_THREADS=$((16 / PAR)) SIMTLAB_TIMEOUT=0 SIMTLAB_L2_COLD=1 timeout 540 $SB/lesson "$@" --mode sim --arch h200 \
      --json >"$D/sim-$i.json" 2>"$D/sim-$i.err"
    echo "sim $i rc=$? $(($(date +%s) - s)) s: $*" | tee -a "$D/log.txt"
  ) &
  n=$((n + 1))
  [ $((n % PAR)) -eq 0 ] && wait
done <"${VAL_RUNS:-docs/gpu/timemodel-val/lessons-runs.txt}"
wait
