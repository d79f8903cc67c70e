#!/usr/bin/env bash
# scripts/l2_sim_runs.sh GPU_DIR SIM_DIR [max-run-index] [none|all] [skip-from skip-to] - the
# simulator's side of scripts/l2_parity.py: every lesson command of
# GPU_DIR/lessons-runs.txt (the "none" runs of scripts/gpu/l2.sh, or "all")
# again with --mode sim --arch h200 --json, into SIM_DIR/sim-<i>.json. Runs
# whose index is above max-run-index, or from skip-from to skip-to, are skipped
# (scripts/gpu/l2_sims.sh runs the large ones on the device machine). SIMTLAB_L2_COLD=1 in the
# environment gives the lesson cold starts (as --cache-control all).
set -u
gdir=$1 sdir=$2 max=${3:-999} want=${4:-none} skip0=${5:--1} skip1=${6:--1}
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
L=${SIMTLAB_LESSON:-$here/build/lesson}
mkdir -p "$sdir"
while read -r cc i rc _ args; do
  [ "$cc" = "$want" ] || continue
  [ "$i" -le "$max" ] || continue
  [ "$i" -ge "$skip0" ] && [ "$i" -le "$skip1" ] && continue
  # shellcheck disable=SC2086
  set -- $(printf '%s' "$args" | sed 's/--mode cuda//; s/--repeats 0//; s/--no-counters//')
  "$L" "$@" --mode sim --arch h200 --json >"$sdir/sim-$i.json" 2>"$sdir/sim-$i.err" ||
    echo "run $i ($*): exit $?" >&2
done <"$gdir/lessons-runs.txt"
