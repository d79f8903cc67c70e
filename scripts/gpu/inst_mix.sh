#!/usr/bin/env bash
# scripts/gpu/inst_mix.sh - one device call for the time model's issue terms (issue 15):
# every lesson kernel of the compare sweep and of the full grids, under Nsight Compute with the
# sections that say what a kernel's warps issue and why they wait (InstructionStats: warp
# instructions per SASS opcode; WarpStateStats: stall reasons; SchedulerStats: issue slots;
# ComputeWorkloadAnalysis: pipe use; Occupancy; LaunchStats), each kernel on a flushed L2
# (--cache-control all, as docs/gpu/l2-run4). Timing is not taken from here (many passes).
#   OUT=/dir bash scripts/gpu/inst_mix.sh      (on the device machine, from the repository root)
# Results: $OUT/inst/env.txt, runs.txt (index, rc, command), inst-<i>.csv (ncu raw page, metric
# instances with their keys), build.txt; DEADLINE (s, default 400) stops starting new runs.
set -u
OUT=${OUT:-/tmp/simtlab-inst}
D=$OUT/inst
DEADLINE=${DEADLINE:-400}
mkdir -p "$D"
start=$(date +%s)
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"
B=/tmp/simtlab-build
export SIMTLAB_NO_COUNTERS=1 # ncu holds the profiler
: >"$D/build.txt"
gpu_build_lesson $B "$D/build.txt" || exit 1
echo "built at $(($(date +%s) - start)) s"
. scripts/gpu/sweep_runs.sh
runs=("${SWEEP_RUNS[@]}" "${FULL_GRID_RUNS[@]}")
S="--section InstructionStats --section WarpStateStats --section SchedulerStats --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats"
: >"$D/runs.txt"
i=0
for r in "${runs[@]}"; do
  if [ $(($(date +%s) - start)) -gt "$DEADLINE" ]; then
    echo "$i rc=skipped lesson $r (deadline)" >>"$D/runs.txt"
    i=$((i + 1))
    continue
  fi
  extra="--launch-count 12"
  case "$r" in 4*) extra="" ;; esac
  case "$r" in 4*) lx="--repeats 0 --no-counters" ;; *) lx="" ;; esac
  # shellcheck disable=SC2086
  timeout 120 ncu --cache-control all --clock-control none $S $extra -o /tmp/im$i -f \
    $B/lesson $r --mode cuda $lx >"$D/run-$i.txt" 2>&1
  rc=$?
  echo "$i rc=$rc lesson $r --mode cuda $lx" >>"$D/runs.txt"
  # instanced metrics (sass__inst_executed_per_opcode) with their keys; ncu versions without
  # `details` get `values`
  ncu --import /tmp/im$i.ncu-rep --csv --page raw --print-units base --print-metric-instances details \
    >"$D/inst-$i.csv" 2>>"$D/run-$i.txt" ||
    ncu --import /tmp/im$i.ncu-rep --csv --page raw --print-units base --print-metric-instances values \
      >"$D/inst-$i.csv" 2>>"$D/run-$i.txt"
  i=$((i + 1))
done
echo "done at $(($(date +%s) - start)) s"
cat "$D/runs.txt"
