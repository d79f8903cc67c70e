#!/usr/bin/env bash
# scripts/gpu/l2.sh - the H200's L2 and DRAM counters for issue 15, in one call.
#   OUT=/dir scripts/gpu/l2.sh        (on the device machine, from the repository root)
# 1. l2_probe.cu under Nsight Compute, caches left alone between launches:
#    capacity, write-back, fetch size (l2-probe.csv + l2-probe-manifest.txt).
# 2. Every lesson kernel of the DRAM sweep (lesson 4: N 256..8192, d 64 and
#    128, causal and not; lessons 2, 3, 6 at their defaults) in --mode cuda
#    with --repeats 0, profiled by ncu twice: --cache-control none (the program
#    as it runs: what earlier kernels and copies left in L2 stays) and
#    --cache-control all (each kernel on a flushed L2). One pass of metrics, so
#    ncu neither saves nor restores memory between passes.
#    Results: lessons-none.csv, lessons-all.csv (ncu raw pages) with a line per
#    run in lessons-runs.txt saying which command made which process.
# Everything is under $OUT/l2; tar it (the device tool brings back few files):
#   timeout 540 bash scripts/gpu/l2.sh; tar czf $OUT/l2.tgz -C $OUT l2
set -u
OUT=${OUT:-/tmp/simtlab-l2}
mkdir -p "$OUT/l2"
D=$OUT/l2
root=$(pwd)
B=/tmp/simtlab-build
L=$B/lesson
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
export SIMTLAB_NO_COUNTERS=1 # ncu holds the profiler: no CUPTI in the lessons
# METRICS: few enough for one pass (ncu replays a kernel when they need more,
# restoring the memory it writes, which leaves that memory in L2: run 1 of
# docs/gpu/l2-run1 had 3 passes); the default is the one-pass set.
M=${METRICS:-dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum}
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"

# SKIP_PROBE=1: lessons only; CCS="all": only the flushed-L2 pass, over every run
CCS=${CCS:-none all}
if [ "${SKIP_PROBE:-0}" != 1 ]; then
nvcc -arch=sm_90 -O2 -o /tmp/l2_probe scripts/gpu/l2_probe.cu >"$D/probe-build.txt" 2>&1 || { cat "$D/probe-build.txt"; exit 1; }
/tmp/l2_probe >"$D/l2-probe-plain.txt" 2>&1
timeout 300 ncu --cache-control none --clock-control none --metrics $M -o /tmp/probe -f /tmp/l2_probe \
  >"$D/l2-probe-manifest.txt" 2>"$D/l2-probe-ncu.txt"
echo "probe rc=$?"
ncu --import /tmp/probe.ncu-rep --csv --page raw --print-units base >"$D/l2-probe.csv" 2>>"$D/l2-probe-ncu.txt"
grep -c . "$D/l2-probe.csv"
fi

echo "== build" >"$D/build.txt"
gpu_build_lesson $B "$D/build.txt" || exit 1
echo "build ok"

. "$root/scripts/gpu/sweep_runs.sh"
runs=("${SWEEP_RUNS[@]}")
# --cache-control all (each kernel on a flushed L2) for a subset
sub=("4 --n 1024 --d 64" "4 --n 4096 --d 64" "4 --n 8192 --d 64" "4 --n 8192 --d 128 --causal" "2 --n 16777216" "3 --rows 4096 --cols 4096")
for cc in $CCS; do
  : >"$D/lessons-$cc.csv"
  i=0
  if [ $cc = all ] && [ "$CCS" != all ]; then set -- "${sub[@]}"; else set -- "${runs[@]}"; fi
  for r in "$@"; do
    extra=""
    case "$r" in 4*) extra="--repeats 0 --no-counters" ;; esac
    # shellcheck disable=SC2086
    timeout 240 ncu --cache-control $cc --clock-control none --metrics $M -o /tmp/l$i -f \
      $L $r --mode cuda $extra >"$D/run-$cc-$i.txt" 2>&1
    rc=$?
    echo "$cc $i rc=$rc lesson $r --mode cuda $extra" >>"$D/lessons-runs.txt"
    ncu --import /tmp/l$i.ncu-rep --csv --page raw --print-units base 2>/dev/null |
      sed "s/^/\"$i\",/" >>"$D/lessons-$cc.csv"
    i=$((i + 1))
  done
  echo "lessons $cc done"
done
grep -h "passes\|PASS\|FAIL" "$D"/run-none-0.txt | head -5
