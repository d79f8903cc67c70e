#!/usr/bin/env bash
# scripts/gpu/all_sims.sh - on the device machine (16 cores), one call: the simulator's side of the
# whole L2 sweep (the 30 runs of docs/gpu/l2-run4, 8 at once with 2 workers each, the longest
# first) and, at low priority beside them, of the time model's 8 full-grid runs
# (docs/gpu/timemodel-val, one at a time with 16 workers). Results: $OUT/sweep/sim-<i>.json and
# $OUT/val/sim-<i>.json, with a log; packed into $OUT/sims.tgz when TAR=1 (a device call brings
# back 8 files at most). DEADLINE (seconds, default 560) stops what is still running so the
# results get packed. Elsewhere: PAR (sweep runs at once, default 8), SWEEP_W (workers each,
# default 2), VAL_W (workers of each full-grid run, default 16), JOBS (build, default 16), ONLY
# (sweep or val: that part alone), ARCH (the preset, default h200; sm_90 for an H100's runs); on a
# 2-core machine PAR=1 SWEEP_W=2 VAL_W=2 JOBS=2 DEADLINE=9000 takes about 100 min (session 17).
set -u
OUT=${OUT:-/tmp/simtlab-all}
SB=/tmp/simtlab-simbuild
DEADLINE=${DEADLINE:-560}
PAR=${PAR:-8} SWEEP_W=${SWEEP_W:-2} VAL_W=${VAL_W:-16} JOBS=${JOBS:-16} ARCH=${ARCH:-h200}
case "${ONLY:-}" in
  "" | sweep | val) ;;
  *) echo "all_sims.sh: ONLY='$ONLY': give sweep, val, or nothing for both" >&2; exit 2 ;;
esac
mkdir -p "$OUT/sweep" "$OUT/val"
# a part run again starts a fresh log (a stale failure line would fail the check at the end)
[ "${ONLY:-}" = val ] || : >"$OUT/sweep/log.txt"
[ "${ONLY:-}" = sweep ] || : >"$OUT/val/log.txt"
cmake -S . -B $SB -DSIMTLAB_CUDA=OFF -DSIMTLAB_TESTS=OFF >"$OUT/build.txt" 2>&1 &&
  cmake --build $SB -j"$JOBS" --target lesson >>"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 1; }
t0=$(date +%s)
left() { echo $((DEADLINE - ($(date +%s) - t0))); }
one() { # one <dir> <workers> <index> <lesson args...>
  local dir=$1 w=$2 i=$3 s l
  shift 3
  s=$(date +%s) l=$(left)
  [ "$l" -gt 5 ] || { echo "sim $i not run: past the deadline: $*" >>"$dir/log.txt"; return; }
  OMP_NUM_THREADS=$w SIMTLAB_TIMEOUT=0 SIMTLAB_L2_COLD=1 timeout "$l" $SB/lesson "$@" --mode sim --arch "$ARCH" \
    --json >"$dir/sim-$i.json" 2>"$dir/sim-$i.err"
  echo "sim $i rc=$? $(($(date +%s) - s)) s: $*" >>"$dir/log.txt"
}
export -f one left
export SB t0 DEADLINE ARCH
runs() { # the "none" runs of a runs file, as "<index> <args>", args without the GPU options
  grep '^none ' "$1" | while read -r _ i _ _ args; do
    printf '%s %s\n' "$i" "$(printf '%s' "$args" | sed 's/--mode cuda//; s/--repeats 0//; s/--no-counters//')"
  done
}
# the sweep, longest first (N = 8192, 4096, then the rest in order)
runs docs/gpu/l2-run4/lessons-runs.txt | awk '{ n = 0; for (k = 3; k <= NF; k++) if ($k == "--n") n = $(k + 1);
  print ($2 == 4 && n >= 4096 ? n : 0), $0 }' | sort -k1,1nr -s | cut -d' ' -f2- >"$OUT/sweep/order.txt"
[ "${ONLY:-}" = val ] || (while read -r i args; do
  # shellcheck disable=SC2086
  printf '%s\0' "one $OUT/sweep $SWEEP_W $i $args"
done <"$OUT/sweep/order.txt") | xargs -0 -P "$PAR" -I{} bash -c '{}' &
[ "${ONLY:-}" = sweep ] || (runs docs/gpu/timemodel-val/lessons-runs.txt | while read -r i args; do
  # shellcheck disable=SC2086
  nice -n 19 bash -c "one $OUT/val $VAL_W $i $args"
done) &
wait
if [ "${TAR:-0}" = 1 ]; then
  tar -C "$OUT" -czf "$OUT/sims.tgz" sweep val build.txt
fi
# a run stopped by the deadline (rc=124) or failed left a JSON that is not a result: say which
bad=$(cat "$OUT/sweep/log.txt" "$OUT/val/log.txt" 2>/dev/null | grep -v ' rc=0 ')
if [ -n "$bad" ]; then
  printf 'all_sims.sh: these runs did not finish; run them again before copying their JSON:\n%s\n' "$bad" >&2
  exit 1
fi
