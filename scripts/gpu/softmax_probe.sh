#!/usr/bin/env bash
# scripts/gpu/softmax_probe.sh - one device call for issue 15's last DRAM misses:
# 1. scripts/gpu/softmax_probe.cu (standard softmax's passes, writes, row length, blocks an SM)
#    under Nsight Compute on a flushed L2, REPS times with the one-pass DRAM metrics
#    (probe-dram-<r>.csv) and once with L2's own sector counters (probe-l2.csv);
# 2. how much the chip's DRAM counts of a small kernel vary between identical launches: lesson 4's
#    flash v1 shapes that miss by 12-17 %, REPS times each (v1-<shape>-<r>.csv).
#   OUT=/dir bash scripts/gpu/softmax_probe.sh   (on the device machine, from the repository root)
# Everything lands in $OUT/sp; tar it (the device tool brings back 8 files at most).
set -u
OUT=${OUT:-/tmp/simtlab-sp}
D=$OUT/sp
REPS=${REPS:-3}
mkdir -p "$D"
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
ML2=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
nvcc -arch=sm_90 -O2 -Iscripts/gpu -o /tmp/softmax_probe scripts/gpu/softmax_probe.cu >"$D/probe-build.txt" 2>&1 ||
  { cat "$D/probe-build.txt"; exit 1; }
/tmp/softmax_probe >"$D/probe-plain.txt" 2>&1
echo "probe plain rc=$?"
for r in $(seq 1 "$REPS"); do
  timeout 200 ncu --cache-control all --clock-control none --metrics $M -o /tmp/spd$r -f /tmp/softmax_probe \
    >"$D/probe-manifest-$r.txt" 2>&1
  echo "probe dram $r rc=$?"
  ncu --import /tmp/spd$r.ncu-rep --csv --page raw --print-units base >"$D/probe-dram-$r.csv" 2>&1
done
timeout 200 ncu --cache-control all --clock-control none --metrics $ML2 -o /tmp/spl2 -f /tmp/softmax_probe \
  >"$D/probe-manifest-l2.txt" 2>&1
echo "probe l2 rc=$?"
ncu --import /tmp/spl2.ncu-rep --csv --page raw --print-units base >"$D/probe-l2.csv" 2>&1

B=/tmp/simtlab-build
export SIMTLAB_NO_COUNTERS=1
[ -x $B/lesson ] || gpu_build_lesson $B "$D/build.txt" || exit 1
shapes=("--n 512 --d 64" "--n 1024 --d 64 --causal" "--n 1024 --d 64 --batch 4 --heads 16" "--n 512 --d 128")
i=0
for s in "${shapes[@]}"; do
  for r in $(seq 1 "$REPS"); do
    # shellcheck disable=SC2086
    timeout 120 ncu --cache-control all --clock-control none --metrics $M -o /tmp/v1-$i-$r -f \
      $B/lesson 4 $s --version v1 --mode cuda --repeats 0 --no-counters >"$D/v1-$i-$r.txt" 2>&1
    echo "$i $r rc=$? lesson 4 $s --version v1" >>"$D/v1-runs.txt"
    ncu --import /tmp/v1-$i-$r.ncu-rep --csv --page raw --print-units base >"$D/v1-$i-$r.csv" 2>&1
  done
  i=$((i + 1))
done
cat "$D/v1-runs.txt"
