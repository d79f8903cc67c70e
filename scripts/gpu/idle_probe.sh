#!/usr/bin/env bash
# scripts/gpu/idle_probe.sh - where flash v1's surplus DRAM reads come from (issue 15), two ways:
# 1. idle_probe.cu: kernels that touch no memory, 1 and 132 blocks, 2-40 ms, under Nsight Compute
#    on a flushed L2 (dram-idle.csv, l2-idle.csv): what DRAM reads while nothing is loaded.
# 2. lesson 4 --version v1 at N = 512, d = 64 with every L2 lookup-miss counter by source unit
#    this ncu knows (l2-v1-<r>.csv; the list in l2-metrics.txt): which unit's misses the surplus is.
#   OUT=/dir bash scripts/gpu/idle_probe.sh   (on the device machine, from the repository root)
# Everything lands in $OUT/idle; tar it (the device tool brings back 8 files at most).
set -u
OUT=${OUT:-/tmp/simtlab-idle}
D=$OUT/idle
REPS=${REPS:-3}
mkdir -p "$D"
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"
B=/tmp/simtlab-build
export SIMTLAB_NO_COUNTERS=1
nvcc -O2 -arch=sm_90 -I scripts/gpu -o /tmp/idle_probe scripts/gpu/idle_probe.cu >"$D/build.txt" 2>&1 || { cat "$D/build.txt"; exit 1; }
ncu --query-metrics --chip gh100 >"$D/query.txt" 2>&1
grep -oE '\blts__t_(sectors|requests)_(srcunit|srcnode)_[a-z0-9]+(_op_[a-z]+)?_lookup_miss\b' "$D/query.txt" | sort -u >"$D/l2-metrics.txt"
grep -oE '\blts__t_sectors(_op_[a-z]+)?_lookup_miss\b|\blts__d_sectors_fill[a-z_]*\b|\bdram__sectors_read\b' "$D/query.txt" | sort -u >>"$D/l2-metrics.txt"
ML2=$(sed 's/$/.sum/' "$D/l2-metrics.txt" | paste -sd,)
echo "L2 metrics: $ML2"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
CONF="1:2 1:10 1:20 1:40 132:2 132:10 132:40"
: >"$D/runs.txt"
# shellcheck disable=SC2086
timeout 300 ncu --cache-control all --clock-control none --metrics $M -o /tmp/idle-dram -f /tmp/idle_probe "$REPS" $CONF >"$D/dram-idle.txt" 2>&1
echo "dram-idle rc=$?" >>"$D/runs.txt"
ncu --import /tmp/idle-dram.ncu-rep --csv --page raw --print-units base >"$D/dram-idle.csv" 2>&1
# shellcheck disable=SC2086
timeout 300 ncu --cache-control all --clock-control none --metrics "$M,$ML2" -o /tmp/idle-l2 -f /tmp/idle_probe 2 1:10 132:10 >"$D/l2-idle.txt" 2>&1
rc=$?
echo "l2-idle rc=$rc" >>"$D/runs.txt"
if [ $rc != 0 ]; then # a name ncu lists but will not collect: keep the sector counters by source unit
  ML2=$(grep -E '^lts__t_sectors_srcunit_' "$D/l2-metrics.txt" | sed 's/$/.sum/' | paste -sd,)
  echo "retry with $ML2" >>"$D/runs.txt"
  # shellcheck disable=SC2086
  timeout 300 ncu --cache-control all --clock-control none --metrics "$M,$ML2" -o /tmp/idle-l2 -f /tmp/idle_probe 2 1:10 132:10 >"$D/l2-idle.txt" 2>&1
  echo "l2-idle rc=$?" >>"$D/runs.txt"
fi
ncu --import /tmp/idle-l2.ncu-rep --csv --page raw --print-units base >"$D/l2-idle.csv" 2>&1
[ -x $B/lesson ] || gpu_build_lesson $B "$D/build.txt" || exit 1
for r in $(seq 1 "$REPS"); do
  timeout 200 ncu --cache-control all --clock-control none --metrics "$M,$ML2" -k regex:attn_flash_v1 -o "/tmp/idle-v1-$r" -f \
    $B/lesson 4 --n 512 --d 64 --version v1 --mode cuda --repeats 0 --no-counters >"$D/l2-v1-$r.txt" 2>&1
  echo "l2-v1 $r rc=$?" >>"$D/runs.txt"
  ncu --import "/tmp/idle-v1-$r.ncu-rep" --csv --page raw --print-units base >"$D/l2-v1-$r.csv" 2>&1
done
cat "$D/runs.txt"
