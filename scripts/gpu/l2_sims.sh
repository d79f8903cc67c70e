#!/usr/bin/env bash
# scripts/gpu/l2_sims.sh - on the device machine (16 cores): the ceilings of the
# time model (scripts/gpu/ceilings.cu) and the simulator's side of the large
# runs of docs/gpu/l2-run2 (lesson 4 at N = 4096 and 8192), which take minutes
# on a 2-core machine. Results under $OUT/sims: ceilings.txt, sim-<i>.json.
#   OUT=/dir scripts/gpu/l2_sims.sh [first-run] [last-run]
set -u
OUT=${OUT:-/tmp/simtlab-sims}
D=$OUT/sims
mkdir -p "$D"
first=${1:-16} last=${2:-23}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
nvcc -arch=sm_90 -O2 -o /tmp/ceilings scripts/gpu/ceilings.cu && /tmp/ceilings >"$D/ceilings.txt" 2>&1
cat "$D/ceilings.txt"
B=/tmp/simtlab-simbuild
cmake -S . -B $B -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF >"$D/build.txt" 2>&1 &&
  cmake --build $B -j16 --target lesson >>"$D/build.txt" 2>&1 || { tail -20 "$D/build.txt"; exit 1; }
echo "build ok"
while read -r cc i rc _ args; do
  [ "$cc" = none ] && [ "$i" -ge "$first" ] && [ "$i" -le "$last" ] || continue
  # shellcheck disable=SC2086
  set -- $(printf '%s' "$args" | sed 's/--mode cuda//; s/--repeats 0//; s/--no-counters//')
  s=$(date +%s)
  timeout 300 $B/lesson "$@" --mode sim --arch h200 --json >"$D/sim-$i.json" 2>"$D/sim-$i.err"
  echo "sim $i rc=$? $(( $(date +%s) - s )) s: $*"
done <docs/gpu/l2-run2/lessons-runs.txt
