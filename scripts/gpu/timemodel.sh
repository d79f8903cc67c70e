#!/usr/bin/env bash
# scripts/gpu/timemodel.sh - one device call for issue 15's time model (sim/timemodel.c).
#   OUT=/dir bash scripts/gpu/timemodel.sh      (on the device machine, from the repository root)
# A. CPU: the simulator's side of the sweep's large runs (lesson 4 at N = 4096 and 8192, runs
#    16-23 of docs/gpu/l2-run4/lessons-runs.txt) with the JSON of this build (where the blocks
#    ran: time_model.work ...), all 8 at once with 2 workers each (scripts/gpu/val_sims.sh, PAR=8):
#    flash v1's grid has 2 blocks, so more workers a run would idle.
#    Results: $OUT/tm/sims/valsims/sim-<i>.json.
# B. GPU, meanwhile: launches the fit never saw, for a held-out check: lesson 4 with
#    --batch 4 --heads 16 (grids that fill the chip; the sweep's have 2 heads), N 1024 and 2048,
#    d 64 and 128, causal and not, under Nsight Compute with one pass of metrics on a flushed L2
#    (--cache-control all), as docs/gpu/l2-run4 was measured. Results: $OUT/tm/val/
#    lessons-all.csv and lessons-runs.txt (scripts/l2_parity.py's format).
set -u
OUT=${OUT:-/tmp/simtlab-tm}
D=$OUT/tm
mkdir -p "$D/sims" "$D/val"
. "$(dirname "$0")/env.sh"
{
  gpu_env
  nproc
} >"$D/env.txt" 2>&1
cat "$D/env.txt"

OUT=$D/sims VAL_RUNS=docs/gpu/l2-run4/lessons-runs.txt PAR=8 bash scripts/gpu/val_sims.sh 16 23 >/dev/null 2>&1 &
simjob=$!

B=/tmp/simtlab-build
export SIMTLAB_NO_COUNTERS=1 # ncu holds the profiler
cmake -S . -B $B -DSIMTLAB_CUDA=ON -DSIMTLAB_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 >"$D/build.txt" 2>&1 &&
  cmake --build $B -j6 --target lesson >>"$D/build.txt" 2>&1 || { tail -30 "$D/build.txt"; }
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
: >"$D/val/lessons-all.csv"
: >"$D/val/lessons-runs.txt"
i=0
for n in 1024 2048; do
  for d in 64 128; do
    for c in "" "--causal"; do
      r="4 --n $n --d $d --batch 4 --heads 16 $c"
      # shellcheck disable=SC2086
      timeout 120 ncu --cache-control all --clock-control none --metrics $M -o /tmp/v$i -f \
        $B/lesson $r --mode cuda --repeats 0 --no-counters >"$D/val/run-$i.txt" 2>&1
      echo "all $i rc=$? lesson $r --mode cuda --repeats 0 --no-counters" >>"$D/val/lessons-runs.txt"
      echo "none $i rc=0 lesson $r --mode cuda --repeats 0 --no-counters" >>"$D/val/lessons-runs.txt"
      ncu --import /tmp/v$i.ncu-rep --csv --page raw --print-units base 2>/dev/null |
        sed "s/^/\"$i\",/" >>"$D/val/lessons-all.csv"
      i=$((i + 1))
    done
  done
done
echo "validation done: $(grep -c . "$D/val/lessons-all.csv") csv lines"
wait $simjob
cat "$D/sims/valsims/log.txt"
