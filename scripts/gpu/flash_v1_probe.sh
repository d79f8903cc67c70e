#!/usr/bin/env bash
# scripts/gpu/flash_v1_probe.sh - where flash v1's extra DRAM reads at d = 64 come from (issue 15:
# at N = 512 the H200 reads 1.26-1.33 MB where Q, K, V and O once are 1.05 MB; at d = 128 the
# surplus is smaller). lesson 4 --version v1 at N = 512, d = 64 and d = 128, REPS times each under
# Nsight Compute on a flushed L2: the one-pass DRAM set (dram-<s>-<r>.csv) and L2's sector counters
# by what L1 sent (l2-<s>-<r>.csv: reads, read misses, writes, write misses).
#   OUT=/dir bash scripts/gpu/flash_v1_probe.sh   (on the device machine, from the repository root)
# SHAPES: other shapes, separated by '|' (session 20, for the owed run of issue 15: the full grid's
# spread, `SHAPES="--n 1024 --d 64 --batch 4 --heads 16" REPS=5`); the l2 set also counts the
# L2 fabric's lookup misses (what the other partition could not serve; names from
# docs/gpu/idle-probe/l2-metrics.txt). Everything lands in $OUT/v1p; tar it (the device tool brings
# back 8 files at most).
set -u
OUT=${OUT:-/tmp/simtlab-v1p}
D=$OUT/v1p
REPS=${REPS:-5}
mkdir -p "$D"
. "$(dirname "$0")/env.sh"
gpu_env >"$D/env.txt" 2>&1
cat "$D/env.txt"
B=/tmp/simtlab-build
export SIMTLAB_NO_COUNTERS=1
[ -x $B/lesson ] || gpu_build_lesson $B "$D/build.txt" || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
ML2=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_op_write_lookup_miss.sum
if [ -n "${SHAPES:-}" ]; then
  IFS='|' read -r -a shapes <<<"$SHAPES"
else
  shapes=("--n 512 --d 64" "--n 512 --d 128")
fi
: >"$D/runs.txt"
i=0
for s in "${shapes[@]}"; do
  for r in $(seq 1 "$REPS"); do
    for set in dram l2; do
      m=$M
      [ $set = l2 ] && m=$ML2
      # shellcheck disable=SC2086
      timeout 120 ncu --cache-control all --clock-control none --metrics $m -k regex:attn_flash_v1 -o "/tmp/v1p-$set-$i-$r" -f \
        $B/lesson 4 $s --version v1 --mode cuda --repeats 0 --no-counters >"$D/$set-$i-$r.txt" 2>&1
      echo "$set $i $r rc=$? lesson 4 $s --version v1" >>"$D/runs.txt"
      ncu --import "/tmp/v1p-$set-$i-$r.ncu-rep" --csv --page raw --print-units base >"$D/$set-$i-$r.csv" 2>&1
    done
  done
  i=$((i + 1))
done
cat "$D/runs.txt"
